"""mypy skips only libraries the package never imports itself (pyproject.toml): a library the package
imports is followed and checked, so skipping it would hide errors in the package's own calls."""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _skipped() -> set[str]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    overrides = config["tool"]["mypy"]["overrides"]
    return {
        module.split(".")[0]
        for override in overrides
        if override.get("follow_imports") == "skip"
        for module in override["module"]
    }


def _imported_by_the_package() -> set[str]:
    tops: set[str] = set()
    for path in (ROOT / "browser_agent").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                tops.update(alias.name.split(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                tops.add(node.module.split(".")[0])
    return tops


def test_mypy_skips_no_library_the_package_imports() -> None:
    skipped = _skipped()
    assert {"langsmith", "httpx", "anyio"} <= skipped  # the configuration is read
    assert not skipped & _imported_by_the_package()
