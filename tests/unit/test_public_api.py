"""The public surface is deliberate: a change to it must change this test too."""

import subprocess
import sys

import browser_agent

EXPECTED = [
    "ActionContext",
    "ActionError",
    "ActionResult",
    "Agent",
    "AgentHistory",
    "AgentHooks",
    "AgentRunError",
    "AgentSettings",
    "BrowserAgentError",
    "BrowserConfig",
    "BrowserError",
    "BrowserSession",
    "ConsoleReporter",
    "Controller",
    "DomSnapshot",
    "ElementNode",
    "ModelError",
    "ModelOutputError",
    "ReplayOptions",
    "ReplayReport",
    "TaskSpec",
    "UserError",
    "Workflow",
    "export_history",
    "export_workflow",
    "extract_snapshot",
    "make_workflow",
    "replay",
    "run_many",
    "run_workflow",
    "save_gif",
    "save_report",
]


def test_all_is_sorted_and_exact() -> None:
    assert browser_agent.__all__ == sorted(browser_agent.__all__)
    assert browser_agent.__all__ == EXPECTED


def test_every_name_in_all_is_importable() -> None:
    for name in browser_agent.__all__:
        assert getattr(browser_agent, name) is not None, name


def test_no_private_or_module_leaks() -> None:
    # dir(), not vars(): the public names are imported on first use, so vars() holds only those used yet
    public = {n for n in dir(browser_agent) if not n.startswith("_")}
    submodules = {
        "action_specs",
        "agent",
        "artifacts",
        "batch",
        "browser",
        "controller",
        "dom",
        "errors",
        "eval",
        "export",
        "extras",
        "interrupts",
        "lazy_names",
        "llm",
        "sensitive",
        "testing",
        "cli",
        "demo",
        "mcp",
        "models",
        "output",
        "record",
        "playback",
        "reid",
        "defaults",
        "ui",
        "script_healing",
        "user_files",
        "workflow",
    }
    assert public - submodules == set(EXPECTED)


def test_importing_the_package_loads_no_model_or_browser_library() -> None:
    """``import browser_agent`` (and so the CLI's --help) pays for langchain and Playwright only on use."""
    code = (
        "import sys, browser_agent\n"
        "heavy = ('langchain_core', 'playwright', 'pydantic', 'tenacity', 'rich')\n"
        "print(sorted(m for m in heavy if m in sys.modules))\n"
        "from browser_agent import Agent, BrowserConfig, replay\n"
        "print(Agent.__name__, BrowserConfig.__name__, replay.__name__, 'langchain_core' in sys.modules)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert done.stdout.splitlines() == ["[]", "Agent BrowserConfig replay True"], done.stdout + done.stderr


def test_an_unknown_name_is_an_attribute_error() -> None:
    assert not hasattr(browser_agent, "NoSuchThing")
