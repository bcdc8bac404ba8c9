"""Imports point downward only (DESIGN.md): a module may import its own layer and the layers below."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "browser_agent"

# layer -> the browser_agent layers it may import (besides itself)
ALLOWED: dict[str, set[str]] = {
    "errors": set(),
    "sensitive": {"errors"},
    "extras": {"errors"},
    "defaults": set(),
    "interrupts": set(),
    "testing": set(),
    "dom": {"errors"},
    "reid": {"record", "dom", "errors"},
    "llm": {"record", "errors"},
    "browser": {"dom", "errors"},
    "controller": {
        "defaults",
        "record",
        "action_specs",
        "browser",
        "dom",
        "reid",
        "llm",
        "errors",
        "sensitive",
    },
    # each action's declaration (parameters, export, workflow inputs): light, below controller and export
    "action_specs": {"defaults", "record", "errors"},
    # the run record sits at the bottom: loading, exporting or reporting a saved run loads no engine
    # (besides errors, it may use the two foundations, artifacts and user_files, added below)
    "record": {"errors"},
    "playback": {"record", "controller", "browser", "reid", "dom", "llm", "errors", "sensitive"},
    "agent": {
        "defaults",
        "record",
        "playback",
        "controller",
        "browser",
        "dom",
        "llm",
        "errors",
        "sensitive",
        "extras",
        "interrupts",
    },
    "workflow": {
        "action_specs",
        "playback",
        "record",
        "export",
        "controller",
        "browser",
        "reid",
        "dom",
        "llm",
        "errors",
        "sensitive",
    },
    "mcp": {"controller", "browser", "dom", "errors", "sensitive", "extras"},
    "batch": {
        "defaults",
        "agent",
        "record",
        "controller",
        "browser",
        "dom",
        "llm",
        "errors",
        "sensitive",
        "extras",
    },
    "eval": {
        "defaults",
        "agent",
        "record",
        "batch",
        "controller",
        "browser",
        "dom",
        "llm",
        "errors",
        "sensitive",
        "extras",
    },
    # (browser: the installer's steps, which output/install_progress.py says)
    "output": {"agent", "record", "playback", "batch", "eval", "browser", "errors", "extras"},
    "cli": {
        "defaults",
        "models",
        "agent",
        "record",
        "playback",
        "output",
        "batch",
        "eval",
        "controller",
        "browser",
        "dom",
        "llm",
        "errors",
        "sensitive",
        "demo",
        "export",
        "extras",
        "mcp",
        "interrupts",
        "ui",
        "workflow",
    },
    "demo": {
        "action_specs",
        "agent",
        "record",
        "playback",
        "output",
        "controller",
        "browser",
        "dom",
        "llm",
        "errors",
        "sensitive",
        "testing",
    },
    # a run as a plain Playwright script, from the record alone: exporting loads no engine
    "export": {"defaults", "record", "action_specs", "errors"},
    "ui": {  # the web UI (the [ui] extra): nothing imports it but the CLI
        "defaults",
        "agent",
        "batch",
        "record",
        "playback",
        "output",
        "controller",
        "browser",
        "dom",
        "llm",
        "errors",
        "sensitive",
        "extras",
    },
    "models": {"llm", "extras", "errors"},  # chat models from PROVIDER:NAME, for the CLI and scripts
    # what a --heal exported script calls when a locator fails: replay's healing, attached to its browser
    "script_healing": {
        "playback",
        "models",
        "export",
        "record",
        "controller",
        "browser",
        "llm",
        "errors",
        "sensitive",
    },
    "__main__": {"cli"},
    "__init__": {
        "defaults",
        "agent",
        "record",
        "playback",
        "output",
        "batch",
        "controller",
        "browser",
        "dom",
        "llm",
        "errors",
        "export",
        "sensitive",
        "testing",
        "extras",
        "workflow",
    },
}

# The foundations every layer above the leaves may use: the one gate for what is written, the one loader
# for what a user hands over.
ALLOWED["artifacts"] = {"sensitive", "errors"}
ALLOWED["user_files"] = {"errors"}
for _name, _allowed in ALLOWED.items():
    if _name not in {
        "errors",
        "sensitive",
        "extras",
        "defaults",
        "interrupts",
        "testing",
        "dom",
        "artifacts",
    }:
        _allowed |= {"artifacts", "user_files"}
# A package's names imported on first use (its __init__ stays light): a leaf, usable by every layer.
ALLOWED["lazy_names"] = set()
for _allowed in ALLOWED.values():
    _allowed.add("lazy_names")


def _layer(path: Path) -> str:
    rel = path.relative_to(PACKAGE)
    return rel.parts[0].removesuffix(".py")


def _imported_layers(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
        elif isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
    layers = {n.split(".")[1] for n in names if n.startswith("browser_agent.") and n.count(".") >= 1}
    # ``from browser_agent import reid`` imports the layer it names
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "browser_agent" and node.level == 0:
            layers.update(alias.name for alias in node.names)
    return layers


def test_every_module_imports_downward_only() -> None:
    violations = []
    for path in sorted(PACKAGE.rglob("*.py")):
        layer = _layer(path)
        assert layer in ALLOWED, f"{path} is in an unknown layer {layer!r}: add it to ALLOWED and DESIGN.md"
        for imported in _imported_layers(path) - {layer}:
            if imported not in ALLOWED[layer]:
                violations.append(f"{path.relative_to(PACKAGE)} imports browser_agent.{imported}")
    assert not violations, "upward imports:\n" + "\n".join(violations)


def test_the_checker_sees_a_violation(tmp_path: Path) -> None:
    sample = tmp_path / "x.py"
    sample.write_text(
        "from browser_agent.agent.agent import Agent\nimport browser_agent.controller.registry\n"
    )
    assert _imported_layers(sample) == {"agent", "controller"}


# Inside reid, data flows one way: labels -> groups/identity -> fingerprint -> matching (dom's snapshot and
# the record's Fingerprint below).
REID_FLOW: dict[str, set[str]] = {
    "labels": {"dom.snapshot"},
    "groups": {"reid.labels", "dom.cards", "dom.snapshot"},
    "identity": {"reid.labels", "record.fingerprint"},
    "fingerprint": {"reid.generated", "reid.groups", "reid.identity", "reid.labels", "dom.snapshot"},
    "matching": {"reid.fingerprint", "reid.groups", "reid.identity", "reid.labels", "dom.snapshot"},
}


def _package_modules_imported(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("browser_agent."):
            found.add(".".join(node.module.split(".")[1:3]))
    return found


def test_reid_modules_import_one_way() -> None:
    for name, allowed in REID_FLOW.items():
        imported = _package_modules_imported(PACKAGE / "reid" / f"{name}.py")
        assert imported <= allowed, f"reid/{name}.py imports {sorted(imported - allowed)}"


def test_the_checker_sees_a_whole_layer_imported(tmp_path: Path) -> None:
    sample = tmp_path / "x.py"
    sample.write_text("from browser_agent import reid\n")
    assert _imported_layers(sample) == {"reid"}
