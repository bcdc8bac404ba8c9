"""Suites of your own tasks: each check kind passing and failing on a real page, how a failure ended
(loop, step limit, invalid output, timeout, error), and ``eval suite`` on the command line with ``--site``.
"""

from __future__ import annotations

import json
import re
import socket
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import BaseMessage, HumanMessage
from playwright.async_api import Browser

from browser_agent.agent import AgentSettings
from browser_agent.cli import main, main_async
from browser_agent.eval import EvalOptions, StaticSite, SuiteEpisode, read_suite, run_episodes
from browser_agent.eval.episode_record import EpisodeRecord
from browser_agent.testing import ScriptedChatModel, find_index
from tests.support.fake_openai import FakeOpenAI

SITE = {
    "index.html": "<!doctype html><title>Newsletter</title><h1>Newsletter</h1>"
    "<form action='thanks.html'><label>Email <input name='email'></label><button>Subscribe</button></form>"
    "<button>Does nothing</button>",
    "thanks.html": "<!doctype html><title>Thanks</title><h1>Thanks!</h1>"
    "<p>Your code is <b id=code>NL-4821</b></p><p>Items: 2</p>",
}


def _site(folder: Path) -> Path:
    for name, text in SITE.items():
        (folder / name).write_text(text)
    return folder


def _reply(*actions: dict[str, Any]) -> dict[str, Any]:
    brain = {"evaluation_previous_goal": "", "memory": "", "next_goal": "go on"}
    return {"current_state": brain, "action": list(actions)}


def subscriber(messages: list[BaseMessage]) -> dict[str, Any]:
    """Subscribe ada@example.com, then report the code: as text, or as data when the task asks for it."""
    state = str(messages[-1].content)
    page = state.split("<page>", 1)[1]
    if "Thanks!" not in page:
        field = find_index(page, "input", "Email")
        return _reply(
            {"action": "input_text", "index": field, "text": "ada@example.com"},
            {"action": "click_element", "index": find_index(page, "button", "Subscribe")},
        )
    if any("as data" in str(m.content) for m in messages):
        return _reply({"action": "done", "data": {"code": "NL-4821", "items": 2}, "success": True})
    return _reply({"action": "done", "text": "NL-4821", "success": True})


def _suite(path: Path, *tasks: dict[str, Any]) -> Path:
    path.write_text("".join(json.dumps(task) + "\n" for task in tasks))
    return path


def _subscribe_suite(tmp_path: Path) -> tuple[Path, Path]:
    """The site's folder and a suite of one task on it (subscribe, judged by the thanks)."""
    (tmp_path / "site").mkdir()
    task = {"id": "sub", "task": "Subscribe ada@example.com", "start_url": "{site}/index.html"}
    return _site(tmp_path / "site"), _suite(
        tmp_path / "suite.jsonl", {**task, "checks": [{"text": "Thanks!"}]}
    )


async def _run(
    tmp_path: Path, browser: Browser, tasks: list[dict[str, Any]], model: ScriptedChatModel, **options: Any
) -> list[EpisodeRecord]:
    """Run ``tasks`` on the session's browser (each episode in a context of its own), three at once."""
    with StaticSite(_site(tmp_path)) as site:
        suite = read_suite(_suite(tmp_path / "suite.jsonl", *tasks), site=site.origin)
        episodes = [SuiteEpisode(task) for task in suite]
        settings = EvalOptions(**options)
        out = tmp_path / "runs.jsonl"
        return await run_episodes(episodes, model, out, settings, concurrency=3, browser=browser)


@pytest.mark.timeout(120)
async def test_each_check_kind_passes_and_fails_on_the_page_the_agent_left(
    tmp_path: Path, browser: Browser
) -> None:
    subscribe = {"task": "Subscribe ada@example.com and report the code", "start_url": "{site}/index.html"}
    passing = [
        {"url": "{site}/thanks.html?email=ada%40example.com"},
        {"url_matches": r"/thanks\.html\?email=ada"},
        {"text": "Your code is NL-4821"},
        {"js": "() => document.getElementById('code').textContent === 'NL-4821'"},
        {"answer_contains": "4821"},
        {"output": "NL-4821"},
    ]
    failing = [
        {"url": "{site}/index.html"},
        {"url_matches": "/nowhere"},
        {"text": "Welcome back"},
        {"js": "() => document.title === 'Home'"},
        {"answer_contains": "NL-9999"},
        {"output": "NL-9999"},
    ]
    tasks = [
        {**subscribe, "id": "all-pass", "family": "forms", "checks": passing},
        {**subscribe, "id": "all-fail", "family": "forms", "checks": failing},
        {**subscribe, "id": "half", "checks": [*passing[:3], {"js": "() => missing.value"}]},
        {
            **subscribe,
            "id": "data",
            "task": "Subscribe ada@example.com; give the code and the items as data",
            "output_fields": {"code": "string", "items": "integer"},
            "checks": [{"output": {"code": "NL-4821", "items": 2}}],
        },
        {
            **subscribe,
            "id": "data-wrong",
            "task": "Subscribe ada@example.com; give the code and the items as data",
            "output_fields": {"code": "string", "items": "integer"},
            "checks": [{"output": {"code": "NL-4821", "items": 3}}],
        },
    ]
    records = {r.task: r for r in await _run(tmp_path, browser, tasks, ScriptedChatModel(policy=subscriber))}
    assert records["all-pass"].success and records["all-pass"].reward == 1.0
    assert records["all-pass"].failure == "none" and records["all-pass"].family == "forms"
    wrong = records["all-fail"]
    assert not wrong.success and wrong.reward == 0.0 and wrong.failure == "wrong answer"
    assert wrong.detail is not None
    for kind in ("url", "url_matches", "text", "js", "answer_contains", "output"):
        assert re.search(rf"(^|; ){kind} .*?: failed \(found ", wrong.detail), (kind, wrong.detail)
    assert "thanks.html?email=ada%40example.com" in wrong.detail, "the address found is said"
    half = records["half"]
    assert not half.success and half.reward == 0.75
    assert half.detail is not None and "an error: ReferenceError: missing is not defined" in half.detail
    assert records["data"].success and records["data"].reward == 1.0
    assert not records["data-wrong"].success
    assert (
        records["data-wrong"].detail
        == 'output {"code": "NL-4821", "items": 3}: failed (found {"code": "NL-4821", "items": 2})'
    )


def _stepper(messages: list[BaseMessage]) -> dict[str, Any]:
    """Waits a different time each step: never a repeat, never done."""
    step = re.search(r"Step (\d+) of", str(messages[-1].content))
    assert step, messages[-1].content
    return _reply({"action": "wait", "seconds": 0.01 * int(step.group(1))})


def _looper(messages: list[BaseMessage]) -> dict[str, Any]:
    """Clicks the button that does nothing, every step."""
    page = str(messages[-1].content).split("<page>", 1)[1]
    return _reply({"action": "click_element", "index": find_index(page, "button", "Does nothing")})


@pytest.mark.timeout(180)
@pytest.mark.parametrize(
    ("kind", "model", "options"),
    [
        ("loop", ScriptedChatModel(policy=_looper), {"max_steps": 5}),
        ("step limit", ScriptedChatModel(policy=_stepper), {"max_steps": 2}),
        (
            "invalid output",
            ScriptedChatModel(policy=lambda messages: "I will click the button."),
            {"settings": AgentSettings(tool_calling_method="raw", max_failures=1, max_corrections=1)},
        ),
        ("timeout", ScriptedChatModel(policy=_stepper, latency_s=30), {"task_timeout_s": 2.0}),
        (
            "error",
            ScriptedChatModel(policy=lambda messages: RuntimeError("the model broke")),
            {"settings": AgentSettings(max_failures=1, retry_attempts=1)},
        ),
    ],
)
async def test_how_a_failed_episode_ended_is_named(
    tmp_path: Path, browser: Browser, kind: str, model: ScriptedChatModel, options: dict[str, Any]
) -> None:
    task = {"id": "t", "task": "Subscribe", "start_url": "{site}/index.html", "checks": [{"text": "Thanks"}]}
    [record] = await _run(tmp_path, browser, [task], model, **options)
    assert not record.success and record.failure == kind, record
    assert record.detail, "a failure says why"


@pytest.mark.usefixtures("driver")
@pytest.mark.timeout(120)
async def test_eval_suite_command_serves_the_site_and_reports(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    site, suite = _subscribe_suite(tmp_path)
    out, report = tmp_path / "runs.jsonl", tmp_path / "report.html"

    def wire(body: dict[str, Any]) -> dict[str, Any]:
        return subscriber([HumanMessage(content=m["content"]) for m in body["messages"]])

    with FakeOpenAI(wire) as fake:
        args = ["eval", "suite", str(suite), "--site", str(site), "--repeat", "2", "--model", "openai:m"]
        args += ["--base-url", fake.base_url, "--out", str(out), "--report", str(report)]
        assert await main_async(args) == 0, capsys.readouterr().err
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert sorted((r["task"], r["seed"], r["success"]) for r in records) == [
        ("sub", 0, True),
        ("sub", 1, True),
    ]
    assert "<b>2 of 2</b>" in report.read_text()


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


async def test_the_site_is_served_on_the_port_asked_for(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The model reads the URLs, port and all: an A/B's two arms are served on the same port."""
    site, suite = _subscribe_suite(tmp_path)
    port, seen = _free_port(), []

    def wire(body: dict[str, Any]) -> dict[str, Any]:
        seen.append(body["messages"][-1]["content"])
        return subscriber([HumanMessage(content=m["content"]) for m in body["messages"]])

    with FakeOpenAI(wire) as fake:
        args = ["eval", "suite", str(suite), "--site", str(site), "--model", "openai:m", "--port", str(port)]
        args += ["--base-url", fake.base_url, "--out", str(tmp_path / "runs.jsonl")]
        assert await main_async(args) == 0, capsys.readouterr().err
    assert f"Current URL: http://127.0.0.1:{port}/index.html" in seen[0]
    capsys.readouterr()
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        taken = busy.getsockname()[1]
        args = ["eval", "suite", str(suite), "--site", str(site), "--model", "openai:m", "--port", str(taken)]
        assert await main_async([*args, "--out", str(tmp_path / "again.jsonl")]) == 2
    err = capsys.readouterr().err
    assert f"Port {taken} of 127.0.0.1 cannot be used" in err and err.count("\n") == 1, err


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("{not json", "line 2, is not JSON: Expecting property name enclosed in double quotes (column 2)"),
        ('{"task": "x"}', "line 2: checks: Field required"),
        ('{"task": "x", "checks": []}', "line 2: checks: Tuple should have at least 1 item"),
        ('{"task": "x", "checks": [{"txt": "a"}]}', 'line 2: checks[0]: a check is one of {"url"'),
        (
            '{"task": "x", "checks": [{"url_matches": "("}]}',
            "line 2: checks[0]: url_matches '(' is not a regular",
        ),
        (
            '{"task": "x", "checks": [{"output": {"a": 1}}]}',
            'line 2: the task: an "output" check with an object',
        ),
        (
            '{"task": "x", "checks": [{"text": "a"}], "colour": 1}',
            "line 2: colour: Extra inputs are not permitted",
        ),
        ('{"task": "x", "start_url": "{site}/", "checks": [{"text": "a"}]}', "line 2 uses {site}: serve"),
    ],
)
def test_a_bad_suite_file_is_one_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], line: str, message: str
) -> None:
    suite = tmp_path / "suite.jsonl"
    suite.write_text('{"id": "ok", "task": "fine", "checks": [{"text": "a"}]}\n' + line + "\n")
    args = ["eval", "suite", str(suite), "--model", "openai:m", "--out", str(tmp_path / "out.jsonl")]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"browser-agent eval: suite {suite}, {message}"), err
    assert err.count("\n") == 1, "one line"
