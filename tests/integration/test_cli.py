"""The CLI as a user runs it: a subprocess, main(), or main_async() in the test's loop (on the worker's
driver); real Chromium, a local OpenAI-compatible stand-in."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import threading
import typing
from pathlib import Path
from typing import Any

import pytest

from browser_agent.agent.settings import ToolCallingMethod
from browser_agent.cli import build_parser, main, main_async
from browser_agent.cli.options import tool_calling_methods
from browser_agent.extras import version
from tests.support.fake_openai import FakeOpenAI
from tests.support.forked import python_run
from tests.support.server import LocalServer

ROOT = Path(__file__).resolve().parents[2]
pytest.importorskip("langchain_openai")


def cli(
    *args: str, env: dict[str, str] | None = None, timeout: float = 60
) -> subprocess.CompletedProcess[str]:
    """``python -m browser_agent ARGS`` in its own process, forked from one that has imported the package
    (tests/support/forked.py; ``--version`` starts a new interpreter)."""
    clean = {
        k: v for k, v in os.environ.items() if not k.endswith("_API_KEY") and not k.startswith("BROWSER_")
    }
    return python_run(
        ["-m", "browser_agent", *args],
        env=clean | (env or {}),
        cwd=ROOT,
        timeout=timeout,
        fresh=args == ("--version",),
    )


def one_line_error(done: subprocess.CompletedProcess[str]) -> str:
    assert done.returncode == 2, (done.returncode, done.stdout[-500:], done.stderr[-2000:])
    assert "Traceback" not in done.stderr, done.stderr
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, done.stderr
    return lines[0]


def _brain(goal: str) -> dict[str, str]:
    return {"evaluation_previous_goal": "Unknown", "memory": goal, "next_goal": goal}


def test_no_api_key_is_one_line_with_exit_2_and_no_traceback() -> None:
    line = one_line_error(cli("run", "Read the code", "--model", "openai:gpt-4o-mini"))
    assert "OPENAI_API_KEY" in line and "--api-key-env" in line


def test_version_and_python_m() -> None:
    done = cli("--version")
    assert done.returncode == 0 and done.stdout.strip() == f"browser-agent {version()}"
    assert version() != "0+unknown", "the installed distribution is found by its name"


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["run", "t", "--model", "nope:x"], "PROVIDER:NAME"),
        (["run", "t", "--model", "openai:m", "--api-key-env", "NO_SUCH_VAR_12"], "NO_SUCH_VAR_12"),
        (["run", "t", "--model", "ollama:m", "--secrets", "/no/such/file.json"], "--secrets"),
        (["run", "t", "--model", "ollama:m", "--secret", "pw=NO_SUCH_VAR_12"], "NO_SUCH_VAR_12"),
        (["run", "t", "--model", "ollama:m", "--output-schema", "tests.support.answers:Nope"], "Nope"),
        (["run", "t", "--model", "ollama:m", "--max-steps", "0"], "--max-steps"),
        (["replay", "/no/such/run.json"], "history /no/such/run.json: cannot read it"),
        (["replay", "x.json", "--sub", "no-equals-sign"], "OLD=NEW"),
    ],
)
def test_user_mistakes_are_one_line_with_exit_2(
    args: list[str], needle: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    if args[0] == "replay" and args[1] == "x.json":
        from browser_agent.demo.walkthrough import RECORDED_RUN

        args = ["replay", str(RECORDED_RUN), *args[2:]]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert needle in err and len(err.strip().splitlines()) == 1, err


def test_tool_calling_methods_come_from_the_settings_type() -> None:
    assert tool_calling_methods() == typing.get_args(ToolCallingMethod)
    run = next(
        a
        for a in build_parser()._subparsers._group_actions[0].choices["run"]._actions  # type: ignore[union-attr]
        if a.dest == "tool_calling_method"
    )
    assert tuple(run.choices) == tool_calling_methods()


@pytest.mark.usefixtures("driver")
async def test_a_busy_provider_says_it_retries_then_one_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    with FakeOpenAI([503, 503]) as fake:
        code = await main_async(
            [
                "run",
                "t",
                "--model",
                "openai:m",
                "--base-url",
                fake.base_url,
                "--provider-attempts",
                "2",
                "--max-failures",
                "1",
                "--max-steps",
                "1",
            ]
        )
        calls = len(fake.requests)
    out, err = capsys.readouterr()
    assert code == 2, err
    assert calls == 2 and "retrying in" in out and "attempt 2 of 2" in out, out
    assert err.strip().splitlines() == [err.strip()] and err.startswith(
        "browser-agent run: the model could not be used"
    )


DEAD = "http://127.0.0.1:9/v1"  # nothing listens on port 9 (discard) here
TASKS = ["Read the code", "Open {url} and read the code"]  # with an address, step 0 opens it first


@pytest.mark.parametrize("task", TASKS)
def test_a_dead_model_server_is_one_line_and_exit_2_before_anything_starts(
    task: str, server: LocalServer, tmp_path: Path
) -> None:
    text = task.format(url=server.url("agent/code.html"))
    done = cli("run", text, "--model", "openai:local", "--base-url", DEAD, "--save", str(tmp_path / "h.json"))
    line = one_line_error(done)
    assert line == f"browser-agent run: cannot reach {DEAD}: connection refused — is the server running?"
    assert done.stdout == "" and not (tmp_path / "h.json").exists(), "no browser, no step: said at once"


class _GoneAfterOneConnection:
    """A model server that accepts one connection (the CLI's check) and then is gone: it crashed.

    Its port stays held by a second socket, bound and never listening: every later connection is refused,
    and no other test's server (another xdist worker's) can take the port meanwhile. Once one did, and the
    CLI's model call got that server's HTTP 501 and retried.
    """

    def __init__(self) -> None:
        self.socket = socket.create_server(("127.0.0.1", 0), reuse_port=True)
        self.port = self.socket.getsockname()[1]
        self.holder = socket.socket()
        self.holder.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        self.holder.bind(("127.0.0.1", self.port))
        self.accepted = 0
        self.thread = threading.Thread(target=self._serve_once, daemon=True)
        self.thread.start()

    def _serve_once(self) -> None:
        try:
            connection, _ = self.socket.accept()
        except OSError:  # closed before anyone came: the test says what went wrong
            return
        self.accepted += 1
        connection.close()
        self.socket.close()  # from now on every connection is refused

    def close(self) -> None:
        self.socket.close()
        self.holder.close()


@pytest.mark.parametrize("task", TASKS)
def test_a_model_server_gone_after_the_check_ends_the_run_at_its_first_call(
    task: str, server: LocalServer, tmp_path: Path
) -> None:
    gone = _GoneAfterOneConnection()
    base = f"http://127.0.0.1:{gone.port}/v1"
    text = task.format(url=server.url("agent/code.html"))
    try:
        done = cli(
            "run", text, "--model", "openai:local", "--base-url", base, "--save", str(tmp_path / "h.json")
        )
    finally:
        gone.close()
    line = one_line_error(done)
    said = "connection refused — is the server running?"
    assert line == f"browser-agent run: cannot reach {base}/chat/completions: {said}"
    assert gone.accepted == 1 and "retrying" not in done.stdout and "busy" not in done.stdout, done.stdout
    saved = json.loads((tmp_path / "h.json").read_text())
    asked = [s for s in saved["steps"] if s["step"] > 0]
    assert len(asked) == 1 and asked[0]["retries"] == [], "one model call: no retry, no second step"
    assert asked[0]["error"].startswith("ProviderUnreachableError: cannot reach")
    assert saved["end_reason"] == "error"
    assert [s["step"] for s in saved["steps"]] == ([0, 1] if "{url}" in task else [1])


@pytest.mark.usefixtures("driver")
async def test_an_unusable_provider_exits_2_also_when_the_task_opens_a_page(
    server: LocalServer, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Step 0 (the task's address, opened without the model) does not hide a provider that refuses."""
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    with FakeOpenAI([401] * 3) as fake:
        code = await main_async(
            [
                "run",
                f"Open {server.url('agent/code.html')} and read the code",
                "--model",
                "openai:m",
                "--base-url",
                fake.base_url,
                "--tool-calling-method",
                "function_calling",
            ]
        )
    err = capsys.readouterr().err
    assert code == 2 and err.startswith("browser-agent run: the model could not be used: ModelError"), err


def test_a_task_naming_a_local_file_opens_it_first(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    page = tmp_path / "code.html"
    page.write_text("<!doctype html><title>Code</title><p>The code is <b>FL-77</b>.</p>")
    done_answer = {
        "current_state": _brain("end"),
        "action": [{"action": "done", "text": "FL-77", "success": True}],
    }
    with FakeOpenAI([done_answer]) as fake:
        done = cli(
            "run", f"Read the code on {page.as_uri()}.", "--model", "openai:m", "--base-url", fake.base_url
        )
        sent = json.dumps(fake.requests[0]["messages"])
    assert done.returncode == 0, done.stderr[-2000:]
    assert "FL-77" in sent and page.as_uri() in sent, "the file was open before the first step"


@pytest.mark.usefixtures("driver")
async def test_inspect_names_a_missing_file_and_says_where_the_screenshot_went(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert await main_async(["inspect", "/nonexistent.html"]) == 2
    assert capsys.readouterr().err.strip() == "browser-agent inspect: no such file: /nonexistent.html"
    shot = tmp_path / "shots" / "page.png"
    assert (
        await main_async(["inspect", str(ROOT / "tests/pages/agent/code.html"), "--screenshot", str(shot)])
        == 0
    )
    out, err = capsys.readouterr()
    assert "XK-42" in out and err.strip() == f"screenshot: {shot.resolve()}"
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.usefixtures("driver")
async def test_inspect_blocked_host_explains_allow_network_and_404_is_non_zero(
    server: LocalServer, capsys: pytest.CaptureFixture[str]
) -> None:
    assert await main_async(["inspect", "http://example.invalid/"]) == 2
    err = capsys.readouterr().err
    assert "--allow-network" in err and len(err.strip().splitlines()) == 1
    assert await main_async(["inspect", server.url("__status/404")]) == 1
    out, err = capsys.readouterr()
    assert "HTTP 404" in err and "HTTP 404" in out


def test_run_with_a_local_openai_server_writes_report_gif_history_and_json_lines(
    server: LocalServer, tmp_path: Path
) -> None:
    secrets = tmp_path / "secrets.json"
    secrets.write_text(json.dumps({"http://127.0.0.1:*": {"pw": "s3cret-value"}}))
    answers: list[dict[str, Any] | int] = [
        {
            "current_state": _brain("read"),
            "action": [{"action": "done", "data": {"code": "XK-42"}, "success": True}],
        },
    ]
    with FakeOpenAI(answers) as fake:
        done = cli(
            "run",
            "Read the code",
            "--model",
            "openai:gpt-4o-mini",
            "--base-url",
            fake.base_url,
            "--api-key-env",
            "MY_KEY",
            "--tool-calling-method",
            "function_calling",
            "--start-url",
            server.url("agent/code.html"),
            "--allowed-domain",
            "http://127.0.0.1:*",
            "--secrets",
            str(secrets),
            "--secret",
            "user=MY_USER",
            "--output-schema",
            "tests/support/answers.py:Code",
            "--report",
            str(tmp_path / "run.html"),
            "--gif",
            str(tmp_path / "run.gif"),
            "--save",
            str(tmp_path / "run.json"),
            "--json",
            env={"MY_KEY": "sk-local", "MY_USER": "ada-lovelace"},
        )
        request = fake.requests[0]
    assert done.returncode == 0, done.stderr[-3000:]
    events = [json.loads(line) for line in done.stdout.splitlines()]
    assert [e["event"] for e in events] == ["step", "step", "end"], events  # step 0 opened --start-url
    assert events[0]["step"] == 0 and events[0]["actions"][0]["action"] == "go_to_url"
    assert events[1]["step"] == 1 and events[1]["max_steps"] == 30
    assert events[-1]["steps"] == 1, "one model step; step 0 is not one"
    assert events[-1]["success"] is True and events[-1]["usage"]["agent"]["input_tokens"] == 1200
    assert json.loads(events[-1]["result"]) == {"code": "XK-42"}
    assert "XK-42" in json.dumps(request["messages"]), "the start URL was opened before the first step"
    assert "<secret>user</secret>" in json.dumps(request["messages"])
    report = (tmp_path / "run.html").read_text()
    assert report.count("data:image/jpeg;base64,") == 2, "step 1's picture and the page after the last action"
    assert (tmp_path / "run.gif").read_bytes()[:6] == b"GIF89a"
    assert json.loads((tmp_path / "run.json").read_text())["end_reason"] == "done"


@pytest.mark.usefixtures("driver")
async def test_run_that_hits_max_steps_exits_non_zero_and_prints_a_summary(
    server: LocalServer, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    scroll = {"current_state": _brain("look"), "action": [{"action": "scroll", "direction": "down"}]}
    with FakeOpenAI([scroll, scroll]) as fake:
        code = await main_async(
            [
                "run",
                "Read the code",
                "--model",
                "openai:gpt-4o-mini",
                "--base-url",
                fake.base_url,
                "--start-url",
                server.url("agent/code.html"),
                "--max-steps",
                "2",
            ]
        )
    out = capsys.readouterr().out
    assert code == 1
    assert "Step 1/2" in out and "Step 2/2" in out and "goal: look" in out
    assert "Run summary" in out and "max_steps" in out and "not done" in out
    assert any(len(line) > 80 and "Step 1/2" in line for line in out.splitlines()), (
        "piped lines are not cut at 80"
    )


async def _read_the_code(fake: FakeOpenAI, server: LocalServer, flag: str, model: str, steps: int) -> int:
    """``browser-agent run`` of the code page, quiet, with ``--model openai:m`` and a second model."""
    argv = ["run", "Read the code", "--model", "openai:m", "--base-url", fake.base_url, flag, model]
    argv += ["--start-url", server.url("agent/code.html"), "--max-steps", str(steps), "--quiet"]
    return await main_async(argv)


@pytest.mark.usefixtures("driver")
async def test_planner_model_and_quiet(
    server: LocalServer, capsys: pytest.CaptureFixture[str], monkeypatch
) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    look = {"current_state": _brain("look"), "action": [{"action": "scroll", "direction": "down"}]}
    done = {"current_state": _brain("end"), "action": [{"action": "done", "text": "XK-42", "success": True}]}
    with FakeOpenAI([look, look, look, "1. read the code 2. report it", done]) as fake:
        code = await _read_the_code(fake, server, "--planner-model", "openai:planner", steps=4)
        models = [r["model"] for r in fake.requests]
    assert code == 0
    assert models == ["m", "m", "m", "planner", "m"]
    assert "read the code" in json.dumps(fake.requests[-1]["messages"]), "the plan reached the next step"
    assert capsys.readouterr().out == "XK-42\n"


@pytest.mark.usefixtures("driver")
async def test_extraction_model_answers_extract_content_from_the_passages(
    server: LocalServer, capsys: pytest.CaptureFixture[str], monkeypatch
) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    extract = {"action": "extract_content", "goal": "the secret code"}
    read = {"current_state": _brain("read"), "action": [extract]}
    done = {"current_state": _brain("end"), "action": [{"action": "done", "text": "XK-42", "success": True}]}
    with FakeOpenAI([read, "The code is XK-42.", done]) as fake:
        code = await _read_the_code(fake, server, "--extraction-model", "openai:reader", steps=3)
        requests = list(fake.requests)
    assert code == 0
    assert [r["model"] for r in requests] == ["m", "reader", "m"]
    asked = json.dumps(requests[1]["messages"])
    assert "the secret code" in asked and "XK-42" in asked, "the reader got the goal and the page's passage"
    assert "Extracted for 'the secret code':\\nThe code is XK-42." in json.dumps(requests[2]["messages"])
    assert capsys.readouterr().out == "XK-42\n"


@pytest.mark.usefixtures("driver")
@pytest.mark.parametrize("flag", ["--cdp-url=http://127.0.0.1:9", "--ws-endpoint=ws://127.0.0.1:9/"])
async def test_unreachable_browser_is_one_line_with_exit_2(
    flag: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert await main_async(["run", "t", "--model", "ollama:m", flag]) == 2
    err = capsys.readouterr().err
    assert "Could not start or reach" in err and "127.0.0.1:9" in err, err
    assert len(err.strip().splitlines()) == 1, err


def test_ollama_and_openai_take_a_base_url_and_a_key_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    from browser_agent.models import chat_model

    pytest.importorskip("langchain_ollama")
    ollama = chat_model("ollama:qwen3", base_url="http://127.0.0.1:11434")
    assert ollama.base_url == "http://127.0.0.1:11434"  # type: ignore[attr-defined]
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.setenv("MY_KEY", "sk-from-my-var")
    openai = chat_model("openai:m", base_url="http://127.0.0.1:8080/v1", api_key_env="MY_KEY")
    assert openai.openai_api_key.get_secret_value() == "sk-from-my-var"  # type: ignore[attr-defined]
    assert openai.max_retries == 0, "we retry (and say so), not the SDK"  # type: ignore[attr-defined]


@pytest.mark.usefixtures("driver")
async def test_allowed_domain_keeps_the_run_on_its_sites(
    server: LocalServer, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    look = {"current_state": _brain("look"), "action": [{"action": "scroll", "direction": "down"}]}
    with FakeOpenAI([look]) as fake:
        code = await main_async(
            [
                "run",
                "Read the code",
                "--model",
                "openai:m",
                "--base-url",
                fake.base_url,
                "--allowed-domain",
                "shop.example",
                "--start-url",
                server.url("agent/code.html"),
                "--max-steps",
                "1",
                "--quiet",
            ]
        )
        sent = json.dumps(fake.requests[0]["messages"])
    assert code == 1
    assert "outside the allowed domains" in sent and "XK-42" not in sent


@pytest.mark.parametrize("status", [501, 405, 404])
def test_a_web_server_that_is_no_model_server_is_one_line_within_seconds(status: int, tmp_path: Path) -> None:
    """A --base-url where some other HTTP server answers (python -m http.server: 501 for a POST, HTML) is
    said at once, not retried for half a minute as a busy provider."""
    import http.server
    import time

    posts: list[str] = []

    class WebPages(http.server.BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            posts.append(self.path)
            self.send_error(status)  # an HTML error page, as web servers send

        def log_message(self, *args: Any) -> None:
            pass

    web = http.server.ThreadingHTTPServer(("127.0.0.1", 0), WebPages)
    threading.Thread(target=web.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{web.server_address[1]}/v1"
    try:
        started = time.monotonic()
        done = cli("run", "Read the code", "--model", "openai:local", "--base-url", base, "--max-steps", "3")
        took = time.monotonic() - started
    finally:
        web.shutdown()
        web.server_close()
    line = one_line_error(done)
    assert line.startswith(
        f"browser-agent run: {base}/chat/completions answers (HTTP {status}, an HTML page)"
    )
    assert "is not a model server" in line and "retrying" not in done.stdout, done.stdout
    assert posts == ["/v1/chat/completions"], "asked once: not retried, no other method tried"
    # 1-2 s here (the process's start included); the bound leaves room for a loaded machine
    assert took < 15, f"{took:.1f} s"
