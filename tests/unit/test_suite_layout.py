"""The suite's own rules: markers come from the folder, and tests take helpers from test code."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parents[1]


def test_every_collected_test_is_marked_by_its_folder(request: pytest.FixtureRequest) -> None:
    # Checks whatever this run collected: the whole suite under `make test`, at least this file alone.
    assert request.node in request.session.items
    for item in request.session.items:
        folder = item.path.relative_to(TESTS).parts[0]
        other = "integration" if folder == "unit" else "unit"
        assert item.get_closest_marker(folder) is not None, item.nodeid
        assert item.get_closest_marker(other) is None, item.nodeid


def _imported_modules(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found


def test_tests_take_no_helper_from_the_demo_policy() -> None:
    # The demo's scripted policy is shipped code that may change with the demo; helpers such as
    # find_index come from browser_agent.testing or tests/support. Tests of the demo use its runner.
    users = [
        path.relative_to(TESTS)
        for path in sorted(TESTS.rglob("*.py"))
        if any(m.startswith("browser_agent.demo.policy") for m in _imported_modules(path))
    ]
    assert users == []
