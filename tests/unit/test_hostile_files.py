"""Every command that takes a file, handed a hostile one: nested 100,000 deep, not UTF-8, not JSON, too
large, or of the wrong shape. Each ends the same way: exit 2, one line on stderr naming the file, no
traceback, and never a value from the file (a login or secrets file holds credentials)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from browser_agent import user_files
from browser_agent.cli import main

pytest.importorskip("langchain_ollama")  # the model the commands load (never called: no network)

SECRET = "tok-SECRET-7f3a91"
LIMIT = 4096  # the size limit of the test: the hostile file is larger, every good file smaller
MODEL = ["--model", "ollama:m"]

HOSTILE: dict[str, bytes] = {
    "deep": b"[" * 100_000 + b"]" * 100_000,
    "not UTF-8": b'{"pw": "' + SECRET.encode() + b'\xff\xfe"}',
    "not JSON": b'{"pw": "' + SECRET.encode() + b'", oops',
    "too large": json.dumps({"pw": SECRET, "pad": "x" * LIMIT}).encode(),
    "wrong shape": json.dumps([{"pw": SECRET, "sameSite": "Bogus", "expires": "never"}]).encode(),
}

GOOD: dict[str, str] = {
    "history": '{"version": 2, "task": "t", "steps": []}',
    "workflow": '{"format": "browser-agent-workflow", "version": 1, "task": "t", "steps": []}',
    "suite": '{"id": "a", "task": "t", "checks": [{"text": "a"}]}\n',
    "tasks": '"a task"\n',
    "results": '{"task": "a", "success": true}\n',
}

# The command line, with FILE where the hostile file goes and {name} where a good file of that kind goes.
COMMANDS: dict[str, list[str]] = {
    "run --login": ["run", "t", *MODEL, "--login", "FILE"],
    "run --secrets": ["run", "t", *MODEL, "--secrets", "FILE"],
    "batch TASKS": ["batch", "FILE", "--out", "{new}", *MODEL],
    "batch --out (resumed)": ["batch", "{tasks}", "--out", "FILE", *MODEL],
    "batch --login": ["batch", "{tasks}", "--out", "{new}", "--login", "FILE", *MODEL],
    "batch --secrets": ["batch", "{tasks}", "--out", "{new}", "--secrets", "FILE", *MODEL],
    "eval suite FILE": ["eval", "suite", "FILE", "--out", "{new}", *MODEL],
    "eval suite --out (resumed)": ["eval", "suite", "{suite}", "--out", "FILE", *MODEL],
    "eval report": ["eval", "report", "FILE", "--out", "{new}"],
    "eval compare A": ["eval", "compare", "FILE", "{results}"],
    "eval compare B": ["eval", "compare", "{results}", "FILE"],
    "replay": ["replay", "FILE"],
    "replay --login": ["replay", "{history}", "--login", "FILE"],
    "replay --secrets": ["replay", "{history}", "--secrets", "FILE"],
    "workflow make": ["workflow", "make", "FILE"],
    "workflow show": ["workflow", "show", "FILE"],
    "workflow run": ["workflow", "run", "FILE"],
    "workflow run --login": ["workflow", "run", "{workflow}", "--login", "FILE"],
    "workflow run --secrets": ["workflow", "run", "{workflow}", "--secrets", "FILE"],
    "export": ["export", "FILE"],
    "demo --history": ["demo", "--history", "FILE"],
    "ui --secrets": ["ui", *MODEL, "--secrets", "FILE"],
    "mcp --secrets": ["mcp", "--secrets", "FILE"],
}


def _argv(template: list[str], folder: Path, hostile: Path) -> list[str]:
    argv = []
    for arg in template:
        if arg == "FILE":
            argv.append(str(hostile))
        elif arg == "{new}":
            argv.append(str(folder / "new.out"))
        elif arg.startswith("{"):
            good = folder / f"good-{arg.strip('{}')}.json"
            good.write_text(GOOD[arg.strip("{}")])
            argv.append(str(good))
        else:
            argv.append(arg)
    return argv


@pytest.mark.parametrize("kind", list(HOSTILE))
@pytest.mark.parametrize("command", list(COMMANDS))
def test_a_hostile_file_is_one_line_naming_it_and_exit_2(
    command: str,
    kind: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    if command.startswith(("ui", "mcp")):
        pytest.importorskip("starlette" if command.startswith("ui") else "mcp")
    monkeypatch.setattr(user_files, "MAX_BYTES", LIMIT)
    monkeypatch.chdir(tmp_path)  # a command that wrongly went on would write here, not in the checkout
    hostile = tmp_path / "hostile.json"
    hostile.write_bytes(HOSTILE[kind])

    code = main(_argv(COMMANDS[command], tmp_path, hostile))

    captured = capsys.readouterr()
    lines = [line for line in captured.err.splitlines() if line.strip()]
    assert code == 2, captured
    assert len(lines) == 1, captured.err
    name = command.split()[0]
    assert lines[0].startswith(f"browser-agent {name}: ") and str(hostile) in lines[0], lines[0]
    assert "Traceback" not in captured.err and "Error:" not in lines[0], lines[0]
    assert SECRET not in captured.err + captured.out
    assert not (tmp_path / "new.out").exists(), "nothing was run"


def test_a_cookie_playwright_would_refuse_is_said_before_a_browser_starts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    login = tmp_path / "login.json"
    cookie = {"name": "session", "value": SECRET, "domain": "127.0.0.1", "path": "/", "sameSite": "Bogus"}
    login.write_text(json.dumps({"cookies": [{**cookie, "sameSite": "Lax"}, cookie], "origins": []}))
    assert main(["run", "t", *MODEL, "--login", str(login)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and SECRET not in err
    assert err.startswith(
        f"browser-agent run: saved login {login} is not a saved login: cookies[1].sameSite:"
    )
