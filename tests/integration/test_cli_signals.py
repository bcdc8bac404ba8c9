"""``browser-agent run --save`` killed as schedulers, containers, ``timeout`` and closed terminals kill it:
SIGTERM and SIGHUP save the history as Ctrl-C does; ``kill -9`` leaves the last complete step, written
atomically as the run went. The command runs in a process of its own (real Chromium, a local
OpenAI-compatible stand-in whose third answer never comes until the test says so)."""

from __future__ import annotations

import json
import os
import signal
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from browser_agent.record import AgentHistory
from tests.support.fake_openai import FakeOpenAI
from tests.support.forked import Running, python_start
from tests.support.server import LocalServer

ROOT = Path(__file__).resolve().parents[2]
pytest.importorskip("langchain_openai")
pytestmark = pytest.mark.timeout(120)


class Stalls:
    """Answers the first ``answered`` requests with a scroll; the next one waits until ``release``."""

    def __init__(self, answered: int = 2) -> None:
        self.answered = answered
        self.asked = threading.Event()  # the request that stalls has come: a step is under way
        self.release = threading.Event()
        self.requests = 0

    def __call__(self, body: dict[str, Any]) -> dict[str, Any]:
        self.requests += 1
        if self.requests > self.answered:
            self.asked.set()
            self.release.wait(60)
        goal = f"scroll {self.requests}"
        brain = {"evaluation_previous_goal": "Unknown", "memory": goal, "next_goal": goal}
        return {"current_state": brain, "action": [{"action": "scroll", "pages": 0.1 * self.requests}]}


@pytest.fixture
def stalling() -> Iterator[tuple[Stalls, FakeOpenAI]]:
    policy = Stalls()
    with FakeOpenAI(policy) as fake:
        fake._httpd.handle_error = lambda *_: None  # type: ignore[method-assign]  # the stalled answer's client is gone
        try:
            yield policy, fake
        finally:
            policy.release.set()


def _start(server: LocalServer, fake: FakeOpenAI, saved: Path) -> Running:
    clean = {
        k: v for k, v in os.environ.items() if not k.endswith("_API_KEY") and not k.startswith("BROWSER_")
    }
    args = [
        *("-m", "browser_agent", "run", "Scroll the page", "--model", "openai:gpt-4o-mini"),
        *("--base-url", fake.base_url, "--api-key-env", "MY_KEY"),
        *("--tool-calling-method", "function_calling"),
        *("--start-url", server.url("agent/links.html"), "--save", str(saved), "--quiet"),
    ]
    return python_start(args, env=clean | {"MY_KEY": "sk-local"}, cwd=ROOT)


def _no_temporary_files(folder: Path) -> None:
    assert sorted(p.name for p in folder.iterdir()) == ["run.json"], "a temporary file was left behind"


@pytest.mark.parametrize(("sent", "code"), [(signal.SIGTERM, 143), (signal.SIGHUP, 129)])
def test_sigterm_and_sighup_mid_step_save_the_history_like_ctrl_c(
    server: LocalServer,
    tmp_path: Path,
    stalling: tuple[Stalls, FakeOpenAI],
    sent: signal.Signals,
    code: int,
) -> None:
    policy, fake = stalling
    saved = tmp_path / "run.json"
    run = _start(server, fake, saved)
    try:
        assert policy.asked.wait(60), "the run never reached its third step"
        os.kill(run.pid, sent)
        done = run.wait(60)
    finally:
        policy.release.set()
    assert done.returncode == code, (done.returncode, done.stderr[-2000:])
    assert f"interrupted ({sent.name})" in done.stderr and "Traceback" not in done.stderr, done.stderr
    history = AgentHistory.load(saved)
    assert history.end_reason == "interrupted"
    assert [s.step for s in history.steps] == [0, 1, 2, 3], "step 0 (the start URL), two steps, the cut one"
    assert history.steps[3].error == "Interrupted while waiting for the model."
    assert history.duration_seconds is not None
    _no_temporary_files(tmp_path)


def test_kill_9_leaves_the_last_complete_step_in_a_file_that_loads(
    server: LocalServer, tmp_path: Path, stalling: tuple[Stalls, FakeOpenAI]
) -> None:
    policy, fake = stalling
    saved = tmp_path / "run.json"
    run = _start(server, fake, saved)
    try:
        assert policy.asked.wait(60), "the run never reached its third step"
        os.kill(run.pid, signal.SIGKILL)
        done = run.wait(60)
    finally:
        policy.release.set()
    assert done.returncode == -signal.SIGKILL
    raw = json.loads(saved.read_text())
    assert raw["end_reason"] is None, "the run never ended"
    history = AgentHistory.load(saved)
    assert [s.step for s in history.steps] == [0, 1, 2], "every step that ended, none cut"
    assert [a.name for s in history.steps[1:] for a in s.actions] == ["scroll", "scroll"]
    assert not any(s.error for s in history.steps)
    _no_temporary_files(tmp_path)
