"""The examples run as documented: offline by default (a scripted model on pages they serve themselves),
with a real provider named by BROWSER_AGENT_MODEL (and BROWSER_AGENT_BASE_URL), one line without its key,
and they use the public API only, so a reader can copy them."""

from __future__ import annotations

import ast
import os
import subprocess
from pathlib import Path

import pytest

from tests.support.fake_openai import FakeOpenAI
from tests.support.forked import python_run

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
# What the README documents for users; anything else in browser_agent is internal and may change.
# browser_agent.demo is the offline demo shop and its recorded run (documented in docs/workflows.md).
PUBLIC_MODULES = {
    "browser_agent",
    "browser_agent.testing",
    "browser_agent.models",
    "browser_agent.batch",
    "browser_agent.demo",
    "browser_agent.ui",
}


def run_example(
    name: str, extra_env: dict[str, str] | None = None, timeout: float = 55, *, fresh: bool = False
) -> subprocess.CompletedProcess[str]:
    """Run ``examples/name`` as a reader would, with none of the variables that choose a model or browser.

    Forked from a process that has imported the package already (tests/support/forked.py), which is all
    the example would import first; ``fresh`` starts a new interpreter, as for the quickstart offline,
    the first a reader runs.
    """
    chosen = ("BROWSER_AGENT_", "OPENAI_", "PLAYWRIGHT_WS_ENDPOINT")
    env = {k: v for k, v in os.environ.items() if not k.startswith(chosen)}
    path = str(EXAMPLES / name)
    return python_run([path], env=env | (extra_env or {}), timeout=timeout, fresh=fresh)


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("quickstart.py", "Result: The blue mug costs 12.50 EUR."),
        ("planner.py", "plan before step 3: 'State: on page 2 of 3."),
        ("sensitive_data.py", "secret in saved history: False | placeholder in it: True"),
        ("custom_action.py", "read_price: Blue mug: 12.50 EUR"),
        ("structured_extract.py", "cheapest: Red mug"),
        ("parallel.py", "6 of 6 tasks succeeded"),
        ("live_view.py", "Result: The blue mug costs 12.50 EUR."),
        (
            "workflow.py",
            "confirmed: 3 × Red kettle, Express shipping, confirmation sent to grace@example.org.",
        ),
    ],
)
def test_every_example_runs_offline(name: str, expected: str) -> None:
    done = run_example(name, fresh=name == "quickstart.py")
    assert done.returncode == 0, done.stderr[-2000:]
    assert expected in done.stdout, done.stdout


@pytest.mark.timeout(200)  # two Chromium launches (the agent's, the script's): slow on a loaded machine
def test_the_export_example_runs_its_exported_script_with_new_inputs() -> None:
    from browser_agent.browser.chromium import find_chromium

    chromium = find_chromium().path  # the script launches plain Playwright: it is told which Chromium
    done = run_example("export_playwright.py", {"BA_CHROMIUM": str(chromium or "")}, timeout=180)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "password in it: False" in done.stdout and "the script ran: True" in done.stdout, done.stdout
    assert "the page received: ['grace@example.com'] ['Garden'] | the new password: True" in done.stdout


def test_every_example_is_tested_and_uses_only_the_public_api() -> None:
    tested = {
        "quickstart.py",
        "planner.py",
        "sensitive_data.py",
        "custom_action.py",
        "structured_extract.py",
        "live_view.py",
        "workflow.py",
        "export_playwright.py",
    }
    found = {path.name for path in EXAMPLES.glob("*.py")}
    assert found == tested | {"parallel.py"}, "a new example needs a line in test_every_example_runs_offline"
    for path in sorted(EXAMPLES.glob("*.py")):
        tree = ast.parse(path.read_text(), filename=str(path))
        used = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
        used |= {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
        internal = {m for m in used if m.startswith("browser_agent")} - PUBLIC_MODULES
        assert not internal, f"{path.name} imports internal modules {sorted(internal)}"


def test_without_the_providers_key_an_example_says_what_to_set_in_one_line() -> None:
    done = run_example("quickstart.py", {"BROWSER_AGENT_MODEL": "openai:whatever"})
    assert done.returncode != 0
    assert done.stdout == "" and "Traceback" not in done.stderr, done.stderr
    (line,) = done.stderr.splitlines()
    assert line.startswith("quickstart: BROWSER_AGENT_MODEL=openai:whatever needs an API key"), line
    assert "OPENAI_API_KEY" in line and "BROWSER_AGENT_BASE_URL" in line, line


def test_an_example_runs_with_a_local_openai_compatible_server() -> None:
    brain = {"evaluation_previous_goal": "Success", "memory": "-", "next_goal": "report"}
    done_action = {"action": "done", "text": "12.50 EUR, said the server", "success": True}
    with FakeOpenAI([{"current_state": brain, "action": [done_action]}]) as server:
        model = {"BROWSER_AGENT_MODEL": "openai:local", "BROWSER_AGENT_BASE_URL": server.base_url}
        done = run_example("quickstart.py", model)
        asked = server.requests
    assert done.returncode == 0, done.stderr[-2000:]
    assert "Result: 12.50 EUR, said the server" in done.stdout, done.stdout
    assert len(asked) == 1 and asked[0]["model"] == "local"
    assert "Blue mug 12.50 EUR" in str(asked[0]["messages"]), "the model was shown the example's page"
