"""``browser-agent batch`` end to end: a real provider package against a local stand-in endpoint, results
written as tasks end, Ctrl-C leaving clean partial results, and a second run doing only the rest."""

from __future__ import annotations

import json
import signal
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import HumanMessage

from browser_agent.cli import main, main_async
from tests.support.batch_policy import counter_policy
from tests.support.fake_openai import FakeOpenAI
from tests.support.server import LocalServer

pytest.importorskip("langchain_openai")


class SlowWhenAsked:
    """The counter policy over the OpenAI wire format; tasks whose page says ``mode=slow`` wait for ``go``."""

    def __init__(self) -> None:
        self.go = threading.Event()
        self.urls: list[str] = []

    def __call__(self, body: dict[str, Any]) -> dict[str, Any]:
        messages = [
            HumanMessage(content=m["content"]) for m in body["messages"] if isinstance(m["content"], str)
        ]
        state = str(messages[-1].content)
        self.urls.append(state.split("Current URL: ", 1)[-1].split("\n", 1)[0])
        if "mode=slow" in self.urls[-1]:
            self.go.wait(200)
        reply = counter_policy(messages)
        assert isinstance(reply, dict), reply
        return reply


def interrupt_when(ready: Callable[[], bool]) -> None:
    """Send SIGINT (a Ctrl-C) as soon as ``ready()`` to a watching thread: the kernel may give a process's
    signal to any of its threads, and the CLI must act on it even when the main thread is not the one."""

    def watch() -> None:
        deadline = time.monotonic() + 200  # events end both waits; the caps only matter on a slow machine
        while not ready() and time.monotonic() < deadline:
            time.sleep(0.05)
        signal.pthread_kill(threading.get_ident(), signal.SIGINT)

    threading.Thread(target=watch, daemon=True).start()


def _lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


@pytest.mark.timeout(300)  # several agents and a Ctrl-C: 13 s idle, minutes on a loaded machine
def test_batch_cli_writes_results_stops_cleanly_on_ctrl_c_and_resumes(
    server: LocalServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    tasks, out = tmp_path / "tasks.jsonl", tmp_path / "results.jsonl"
    lines = [
        {"id": "first", "task": "Count visits", "start_url": server.url("batch/counter.html?n=0")},
        {"id": "slow", "task": "Count slowly", "start_url": server.url("batch/counter.html?n=1&mode=slow")},
        {"task": "Count once more", "start_url": server.url("batch/counter.html?n=2"), "max_steps": 4},
    ]
    tasks.write_text("".join(json.dumps(line) + "\n" for line in lines))
    policy = SlowWhenAsked()
    args = ["batch", str(tasks), "--model", "openai:gpt-4o-mini", "--out", str(out), "--concurrency", "1"]
    with FakeOpenAI(policy) as fake:
        monkeypatch.setenv("OPENAI_BASE_URL", fake.base_url)
        monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
        # Ctrl-C once the first task is done and the slow one waits on the model
        interrupt_when(lambda: any("mode=slow" in url for url in policy.urls))
        assert main(args) == 130
        stderr = capsys.readouterr().err
        assert "interrupted: 1 of 3 tasks finished" in stderr and "done first" in stderr, stderr
        [first] = _lines(out)
        assert first["id"] == "first" and first["success"] is True and first["result"] == "n=0 visits=2"
        assert first["steps"] == 2 and first["input_tokens"] > 0 and first["seconds"] > 0
        assert json.loads(Path(first["history"]).read_text())["task"] == "Count visits"
        interrupted = json.loads((tmp_path / "results-histories" / "slow.json").read_text())
        assert interrupted["steps"][0]["results"][0]["action"] == "go_to_url", "the interrupted run is saved"

        policy.go.set()
        asked_before = len(policy.urls)
        assert main([*args[:-1], "2"]) == 0
    records = _lines(out)
    assert [r["id"] for r in records[:1]] == ["first"] and sorted(r["id"] for r in records[1:]) == [
        "line-3",
        "slow",
    ]
    assert all(r["success"] for r in records), records
    assert not any("n=0" in url for url in policy.urls[asked_before:]), "the finished task was not run again"
    assert main([*args[:-1], "2"]) == 0, "nothing left to do is a success"
    assert len(_lines(out)) == 3


@pytest.mark.usefixtures("driver")
@pytest.mark.timeout(180)
async def test_batch_takes_the_shared_model_fence_and_secret_flags_and_says_why_each_task_failed(
    server: LocalServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Every model call refused (401): each task still records why it failed, never ``"error": null``."""
    tasks, out = tmp_path / "tasks.jsonl", tmp_path / "results.jsonl"
    lines = [
        {"id": "here", "task": "Count visits", "start_url": server.url("batch/counter.html?n=0")},
        {"id": "away", "task": "Count there", "start_url": "http://elsewhere.invalid/"},
    ]
    tasks.write_text("".join(json.dumps(line) + "\n" for line in lines))
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.setenv("MY_KEY_12", "sk-local")
    monkeypatch.setenv("MY_PW_12", "batch-secret-value")
    with FakeOpenAI(lambda body: 401) as fake:
        model = ["--model", "openai:m", "--base-url", fake.base_url, "--api-key-env", "MY_KEY_12"]
        method = ["--tool-calling-method", "function_calling"]
        fence = ["--allowed-domain", "http://127.0.0.1:*", "--secret", "pw=MY_PW_12"]
        code = await main_async(
            [
                "batch",
                str(tasks),
                *model,
                *method,
                *fence,
                "--out",
                str(out),
                "--max-steps",
                "2",
                "--concurrency",
                "1",
            ]
        )
        requests = list(fake.requests)
    assert code == 1, capsys.readouterr().err
    records = {r["id"]: r for r in _lines(out)}
    for record in records.values():
        assert record["success"] is False and record["error"].startswith(
            "not done after 2 steps (max_steps); last error: ModelError: The chat model call failed"
        ), record
    assert len(requests) == 4 and all(r["tool_choice"]["type"] == "function" for r in requests)
    sent = json.dumps(requests[0]["messages"])
    assert "<secret>pw</secret>" in sent and "batch-secret-value" not in sent
    away = json.loads(Path(records["away"]["history"]).read_text())
    assert "outside the allowed domains" in json.dumps(away["steps"][0]), "the fence applied to the task"


def test_batch_against_a_dead_model_server_is_one_line_before_any_task(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    tasks, out = tmp_path / "tasks.jsonl", tmp_path / "results.jsonl"
    tasks.write_text(json.dumps("Count visits") + "\n" + json.dumps("Count again") + "\n")
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    dead = "http://127.0.0.1:9/v1"
    assert main(["batch", str(tasks), "--model", "openai:m", "--base-url", dead, "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err == f"browser-agent batch: cannot reach {dead}: connection refused — is the server running?\n"
    assert not out.exists(), "no task was started"
