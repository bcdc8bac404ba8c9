"""One gate for everything the project writes (``browser_agent/artifacts.py``), attacked: a secret shows
in every field that can carry page or model text, in several encodings; every kind of artifact is then
made through the command line as a user would, and every file and message is scanned for it.

Each test has a secret of its own, never given to the process before (the gate never forgets one), and
gives it the way a user does (``--secret NAME=ENVVAR``, a suite task's ``sensitive_data``, a UI server's
secrets): nothing in a test remembers it for the code under test.
"""

from __future__ import annotations

import html
import json
import logging
from pathlib import Path
from typing import Any
from urllib.parse import quote, quote_plus

import httpx
import pytest
import websockets

from browser_agent.cli import main_async
from browser_agent.record import AgentHistory
from browser_agent.testing import PageServer, ScriptedChatModel, find_index
from browser_agent.ui import LiveServer, RunSetup
from tests.support.fake_openai import FakeOpenAI
from tests.support.leaks import leaks_in_files, leaks_in_texts, new_secret

pytestmark = pytest.mark.timeout(120)


def _reply(brain: dict[str, str] | None = None, *actions: dict[str, Any]) -> dict[str, Any]:
    thinking = brain or {"evaluation_previous_goal": "", "memory": "", "next_goal": "go on"}
    return {"current_state": thinking, "action": list(actions)}


def _texts(body: dict[str, Any]) -> tuple[str, str]:
    """The whole conversation of a request, and the page part of its last (state) message."""
    contents = [
        m["content"] if isinstance(m["content"], str) else json.dumps(m["content"]) for m in body["messages"]
    ]
    state = contents[-1]
    return "\n".join(contents), state.split("<page>", 1)[-1]


# -- every field: a run, its history, report, GIF, workflow, console and log lines; a batch -----------


def _account_page(secret: str) -> str:
    """The secret in the title, the text (raw and encoded), an input's value; a GET form that puts the
    typed secret into the next address."""
    shown = html.escape(secret)
    return (
        f"<!doctype html><title>Account {shown}</title><h1>Account</h1>"
        f"<p>Recovery phrase: {shown}</p><p>Encoded: {quote_plus(secret)}</p>"
        f"<p>Escaped: {html.escape(json.dumps(secret))}</p>"
        f"<label>Note <input name=note value='{html.escape(secret, quote=True)}'></label>"
        "<form action='/signed.html'><label>Password <input name=pw type=password></label>"
        "<button>Sign in</button></form>"
    )


def _leaky_policy(secret: str) -> Any:
    """A model that repeats the secret everywhere it writes: thoughts raw, memory JSON-escaped, next goal
    percent-encoded, an action whose error quotes it, the final answer raw and as HTML."""

    def policy(body: dict[str, Any]) -> dict[str, Any]:
        conversation, page = _texts(body)
        brain = {
            "evaluation_previous_goal": f"I read {secret} on the page",
            "memory": f"phrase {json.dumps(secret)[1:-1]}",
            "next_goal": f"send {quote_plus(secret)}",
        }
        if "Signed in" in page:
            answer = f"{secret} / {html.escape(secret)}"
            if '"code"' in json.dumps(body.get("tools", "")):  # run --output-schema: done gives data
                return _reply(brain, {"action": "done", "data": {"code": answer}, "success": True})
            return _reply(brain, {"action": "done", "text": answer, "success": True})
        if "is not on the page" in conversation:
            return _reply(
                brain,
                {
                    "action": "input_text",
                    "index": find_index(page, "input", "Password"),
                    "text": "<secret>pw</secret>",
                },
                {"action": "click_element", "index": find_index(page, "button", "Sign in")},
            )
        return _reply(brain, {"action": "scroll_to_text", "text": f"{secret} elsewhere"})

    return policy


@pytest.mark.usefixtures("driver")
async def test_a_run_batch_and_workflow_leave_the_secret_in_no_file_line_or_message(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    secret = new_secret("Rn")
    monkeypatch.setenv("OPENAI_API_KEY", "sk-local")
    monkeypatch.setenv("GATE_PW", secret)
    out, given = tmp_path / "out", tmp_path / "in"
    given.mkdir()
    pages = {"/account.html": _account_page(secret), "/signed.html": "<!doctype html><h1>Signed in</h1>"}
    common = ["--model", "openai:m", "--secret", "pw=GATE_PW", "--allowed-domain", "127.0.0.1"]
    with PageServer(pages) as site, FakeOpenAI(_leaky_policy(secret)) as fake, caplog.at_level(logging.INFO):
        start = f"{site.url('/account.html')}?from={quote_plus(secret)}"  # the secret in the address too
        run = ["run", "Sign in with <secret>pw</secret>", *common, "--base-url", fake.base_url]
        run += ["--start-url", start, "--output-schema", "tests.support.answers:Code"]
        run += [
            "--save",
            str(out / "run.json"),
            "--report",
            str(out / "run.html"),
            "--gif",
            str(out / "run.gif"),
        ]
        assert await main_async(run) == 0, capsys.readouterr().err[-3000:]
        tasks = given / "tasks.jsonl"
        tasks.write_text(
            json.dumps({"id": "t1", "task": "Sign in with <secret>pw</secret>", "start_url": start})
        )
        batch = ["batch", str(tasks), *common, "--base-url", fake.base_url, "--out", str(out / "batch.jsonl")]
        assert await main_async(batch) == 0
        made = out / "batch-histories" / "t1.json"  # a run without --output-schema: its done is replayable
        assert await main_async(["workflow", "make", str(made), "-o", str(out / "run.workflow.json")]) == 0
        said = capsys.readouterr()

    history = AgentHistory.load(out / "run.json")
    assert history.is_successful() and len(history.steps) >= 3, history.end_reason
    assert any("is not on the page" in e for s in history.steps for e in s.errors), (
        "an action error quoted it"
    )
    assert "signed.html?pw=<secret>pw</secret>" in (out / "run.json").read_text(), (
        "the typed secret's address"
    )
    assert sorted(p.name for p in out.rglob("*") if p.is_file()) == [
        "batch.jsonl",
        "run.gif",
        "run.html",
        "run.json",
        "run.workflow.json",
        "t1.json",
    ]
    assert leaks_in_files(out, secret) == {}
    messages = {"stdout": said.out, "stderr": said.err, "log": caplog.text}
    assert "<secret>pw</secret>" in said.out, "the answer was printed, redacted"
    assert leaks_in_texts(messages, secret) == {}


# -- the eval leak: a failed url check recorded the final address ------------------------------------

_SIGN_IN = (
    "<!doctype html><title>Sign in</title><form action='welcome.html'>"
    "<input type=hidden name=pad value='{pad}'>"
    "<label>Password <input name='pw' type='password'></label><button>Sign in</button></form>"
)


def _signer(body: dict[str, Any]) -> dict[str, Any]:
    _, page = _texts(body)
    if "Welcome" in page:
        return _reply(None, {"action": "done", "text": "signed in", "success": True})
    return _reply(
        None,
        {
            "action": "input_text",
            "index": find_index(page, "input", "Password"),
            "text": "<secret>pw</secret>",
        },
        {"action": "click_element", "index": find_index(page, "button", "Sign in")},
    )


@pytest.mark.usefixtures("driver")
async def test_eval_never_writes_the_secret_a_form_put_in_the_final_address(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture
) -> None:
    secret = new_secret("Ev")  # submitted by a GET form: ?pw=Ev...-Pa55%2Bw%C3%B6rd+%26q
    out, given = tmp_path / "out", tmp_path / "in"
    site = given / "site"
    site.mkdir(parents=True)
    # The padding puts the secret (30 characters encoded) across the 120th character of the address,
    # where the check's detail is cut, and its placeholder (19) before it: redacting after the cut would
    # keep the secret's start.
    (site / "index.html").write_text(_SIGN_IN.format(pad="p" * 52))
    (site / "welcome.html").write_text("<!doctype html><title>Welcome</title><h1>Welcome</h1>")
    suite = given / "suite.jsonl"
    task = {
        "id": "signin",
        "task": "Sign in with the password <secret>pw</secret>",
        "start_url": "{site}/index.html",
        "sensitive_data": {"pw": secret},
        "checks": [{"url": "{site}/home.html"}],
    }
    suite.write_text(json.dumps(task) + "\n")
    with FakeOpenAI(_signer) as fake, caplog.at_level(logging.INFO):
        args = ["eval", "suite", str(suite), "--site", str(site), "--model", "openai:m"]
        args += ["--base-url", fake.base_url, "--out", str(out / "results.jsonl")]
        args += ["--report", str(out / "report.html"), "--histories", str(out / "histories")]
        assert await main_async(args) == 0, capsys.readouterr().err[-3000:]
        said = capsys.readouterr()

    [record] = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    assert record["failure"] == "wrong answer", record
    assert "welcome.html?pad=" in record["detail"] and record["detail"].endswith("&pw=<secret>pw</secret>)")
    assert "&amp;pw=&lt;secret&gt;pw&lt;/secret&gt;" in (out / "report.html").read_text()
    assert leaks_in_files(out, secret) == {}
    assert leaks_in_texts({"stdout": said.out, "stderr": said.err, "log": caplog.text}, secret) == {}


# -- the UI: its answers and its events --------------------------------------------------------------


async def test_the_ui_answers_and_events_carry_no_secret(tmp_path: Path) -> None:
    """A history saved raw (by an older version, say) is listed, reported and downloaded; a bad form, a
    bad take-over message and an event repeat the secret: nothing the UI sends holds it."""
    secret = new_secret("Ui")
    runs = tmp_path / "runs"
    runs.mkdir()
    old = AgentHistory(task=f"Log in with {secret}")
    (runs / "old.json").write_text(old.model_dump_json().replace("Log in", f"Log in {quote(secret)}"))
    setup = RunSetup(model=lambda: ScriptedChatModel(replies=[]), runs_dir=runs, secrets={"pw": secret})
    received: dict[str, str] = {}
    async with LiveServer(setup=setup) as live:
        base, token = f"http://127.0.0.1:{live.port}", f"token={live.token}"
        async with httpx.AsyncClient() as client:
            for path in ("/api/runs", "/runs/old.json/report", "/runs/old.json/history"):
                answer = await client.get(f"{base}{path}?{token}")
                assert answer.status_code == 200, path
                received[path] = answer.text
            refused = await client.post(
                f"{base}/api/run?{token}", json={"task": "t", "secrets": [secret]}, headers={"Origin": base}
            )
            assert refused.status_code == 400 and "Unknown secrets" in refused.text
            received["/api/run"] = refused.text
        async with websockets.connect(f"ws://127.0.0.1:{live.port}/ws?{token}", origin=base) as socket:  # type: ignore[arg-type]
            await socket.send(json.dumps({"kind": "text", "text": secret}))  # no run to take over: an error
            live.state.hub.publish({"type": "note", "text": f"{secret} {quote_plus(secret)}"})
            messages = []
            while not any('"note"' in m for m in messages):
                messages.append(str(await socket.recv()))
            received["ws"] = "\n".join(messages)
    assert "<secret>pw</secret>" in received["/runs/old.json/history"]
    assert '"error"' in received["ws"], "the bad take-over message was answered"
    assert leaks_in_texts(received, secret) == {}
