"""The examples run as documented (offline: without BROWSER_AGENT_MODEL they use the scripted policy)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("quickstart.py", "result: Order #"),
        ("planner.py", "plan before step 3"),
        ("sensitive_data.py", "secret in saved history: False | placeholder in it: True"),
        ("custom_action.py", "read_price: Blue mug: 12.50 EUR"),
        ("structured_extract.py", "cheapest: Red mug"),
        # starts a Playwright server (Node) and a Chromium through it: slower on a loaded machine
        pytest.param("parallel.py", "6 of 6 tasks succeeded", marks=pytest.mark.timeout(150)),
    ],
)
def test_example_runs(name: str, expected: str) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("BROWSER_AGENT_")}
    done = subprocess.run(
        [sys.executable, str(EXAMPLES / name)],
        capture_output=True,
        text=True,
        timeout=140 if name == "parallel.py" else 50,
        env=env,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert expected in done.stdout, done.stdout
