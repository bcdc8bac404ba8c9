"""The command line's shape: shared flag groups, no abbreviations, defaults and values explained, help
without the heavy libraries, and the bare command printing the help."""

from __future__ import annotations

import argparse
import dataclasses
import os
import subprocess
import sys
import typing
from pathlib import Path

import pytest

from browser_agent.agent.settings import ToolCallingMethod
from browser_agent.cli import build_parser, main
from browser_agent.cli.options import HelpFormatter, MethodName, model_options, tool_calling_methods

ROOT = Path(__file__).resolve().parents[2]
COMMANDS = ("run", "batch", "eval", "replay", "workflow", "export", "inspect", "demo", "mcp", "ui")
MODEL = {"--model", "--base-url", "--api-key-env"}
CHOICE = {"--tool-calling-method", "--planner-model", "--extraction-model"}
BROWSER = {"--headed", "--cdp-url", "--ws-endpoint"}
FENCE = {"--allowed-domain"}
SECRETS = {"--secrets", "--secret"}
LOGIN = {"--login"}
SHARED = {
    "run": MODEL | CHOICE | BROWSER | FENCE | SECRETS | LOGIN | {"--save-login"},
    "batch": MODEL | CHOICE | BROWSER | FENCE | SECRETS | LOGIN,
    "replay": MODEL | {"--llm"} | BROWSER | FENCE | SECRETS | LOGIN,
    "workflow run": MODEL | BROWSER | FENCE | SECRETS | LOGIN | {"--input", "--on-failure"},
    "demo": MODEL | {"--headed"},
    "mcp": BROWSER | FENCE | SECRETS,
    "ui": MODEL | CHOICE | BROWSER | FENCE | SECRETS,
}


def _subparsers(parser: argparse.ArgumentParser | None = None) -> dict[str, argparse.ArgumentParser]:
    """The commands of ``parser`` (the top level by default), with ``workflow ACTION`` for its actions."""
    action = next(a for a in (parser or build_parser())._actions if isinstance(a, argparse._SubParsersAction))
    found = dict(action.choices)
    if parser is None:
        found |= {f"workflow {name}": sub for name, sub in _subparsers(found["workflow"]).items()}
    return found


def _flags(parser: argparse.ArgumentParser) -> dict[str, argparse.Action]:
    return {flag: action for action in parser._actions for flag in action.option_strings}


def _python(*args: str) -> subprocess.CompletedProcess[str]:
    env = os.environ | {"PYTHONPATH": str(ROOT), "COLUMNS": "120"}
    return subprocess.run(
        [sys.executable, *args], capture_output=True, text=True, env=env, cwd=ROOT, timeout=60, check=False
    )


def test_each_command_has_the_shared_groups_made_by_one_function() -> None:
    parsers = _subparsers()
    assert tuple(parsers) == (*COMMANDS, "workflow make", "workflow show", "workflow run")
    for name, wanted in SHARED.items():
        assert wanted <= set(_flags(parsers[name])), (name, wanted - set(_flags(parsers[name])))
    for flag in ("--base-url", "--api-key-env", "--secrets", "--secret", "--headed", "--login"):
        helps = {_flags(parsers[n])[flag].help for n in SHARED if flag in _flags(parsers[n])}
        assert len(helps) == 1, (flag, helps)  # the same words everywhere: one function adds it
    assert _flags(parsers["replay"])["--llm"] is _flags(parsers["replay"])["--model"], "--llm still works"


def test_the_model_flags_read_back_the_same_for_run_and_batch() -> None:
    common = ["--model", "openai:m", "--base-url", "http://127.0.0.1:9/v1", "--api-key-env", "K"]
    common += ["--tool-calling-method", "raw", "--planner-model", "openai:p"]
    common += ["--extraction-model", "openai:e"]
    run = build_parser().parse_args(["run", "task", *common])
    batch = build_parser().parse_args(["batch", "tasks.jsonl", "--out", "o.jsonl", *common])
    assert model_options(run) == model_options(batch)
    assert model_options(run).tool_calling_method == "raw" and model_options(run).planner == "openai:p"
    assert model_options(run).extraction == "openai:e"


def test_eval_takes_the_shared_model_browser_and_fence_flags() -> None:
    action = next(a for a in _subparsers()["eval"]._actions if isinstance(a, argparse._SubParsersAction))
    suites: dict[str, argparse.ArgumentParser] = dict(action.choices)
    assert tuple(suites) == ("miniwob", "suite", "report", "compare")
    for name in ("miniwob", "suite"):
        assert set(_flags(suites[name])) >= MODEL | CHOICE | BROWSER, name
        assert _flags(suites[name])["--base-url"].help == _flags(_subparsers()["run"])["--base-url"].help
    assert set(_flags(suites["suite"])) >= FENCE
    common = ["--model", "openai:m", "--base-url", "http://127.0.0.1:9/v1", "--tool-calling-method", "raw"]
    run = build_parser().parse_args(["run", "task", *common])
    evaluation = build_parser().parse_args(["eval", "miniwob", "--tasks", "a", "--out", "o", *common])
    # the same model, but an eval samples at temperature 0 unless told otherwise (a rerun is comparable)
    assert dataclasses.replace(model_options(evaluation), temperature=None) == model_options(run)
    assert model_options(evaluation).temperature == 0.0 and model_options(run).temperature is None
    assert model_options(evaluation).factory()().temperature == 0.0  # type: ignore[attr-defined]


def test_no_parser_takes_an_abbreviated_flag(capsys: pytest.CaptureFixture[str]) -> None:
    parsers = [build_parser(), *_subparsers().values()]
    assert all(p.allow_abbrev is False and p.formatter_class is HelpFormatter for p in parsers)
    with pytest.raises(SystemExit) as exited:
        main(["run", "a task", "--model", "ollama:m", "--max-step", "2"])
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert "unrecognized arguments: --max-step" in err and err.startswith("usage: browser-agent run ")


@pytest.mark.parametrize(
    ("argv", "usage"),
    [
        (["eval", "miniwob", "--model", "m", "--out", "o", "--tsks", "a"], "browser-agent eval miniwob"),
        (["workflow", "run", "w.json", "--inptu", "a=b"], "browser-agent workflow run"),
        (["batch", "t.jsonl", "--out", "o", "--model", "m", "--mdoel"], "browser-agent batch"),
    ],
)
def test_a_mistyped_flag_shows_that_commands_usage(
    argv: list[str], usage: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exited:
        main(argv)
    err = capsys.readouterr().err
    assert exited.value.code == 2 and err.startswith(f"usage: {usage} "), err
    assert f"{usage.split()[-1] if ' ' in usage else usage}: error: unrecognized arguments" in err


def test_step_timeout_is_shared_by_every_command_that_runs_an_agent(
    capsys: pytest.CaptureFixture[str],
) -> None:
    common = ["--model", "openai:m", "--step-timeout", "300"]
    for argv in (
        ["run", "task"],
        ["batch", "t.jsonl", "--out", "o"],
        ["eval", "miniwob", "--tasks", "a", "--out", "o"],
        ["ui"],
    ):
        options = model_options(build_parser().parse_args([*argv, *common]))
        assert options.step_timeout_s == 300 and options.settings()["step_timeout_s"] == 300, argv
    assert model_options(build_parser().parse_args(["run", "t", "--model", "m"])).step_timeout_s == 120
    for bad in ("0", "-1", "soon", "inf", "nan"):
        with pytest.raises(SystemExit):
            build_parser().parse_args(["run", "t", "--model", "m", "--step-timeout", bad])
        err = capsys.readouterr().err
        assert err.startswith("usage: browser-agent run ") and "--step-timeout" in err, err


def test_context_tokens_is_shared_by_every_command_that_runs_an_agent(
    capsys: pytest.CaptureFixture[str],
) -> None:
    common = ["--model", "openai:m", "--context-tokens", "8192"]
    for argv in (
        ["run", "task"],
        ["batch", "t.jsonl", "--out", "o"],
        ["eval", "suite", "s.jsonl", "--out", "o"],
        ["ui"],
    ):
        options = model_options(build_parser().parse_args([*argv, *common]))
        assert options.context_tokens == 8192 and options.settings()["context_tokens"] == 8192, argv
    assert (
        model_options(build_parser().parse_args(["run", "t", "--model", "m"])).settings()["context_tokens"]
        is None
    )
    for bad in ("999", "8k", "-1"):
        with pytest.raises(SystemExit):
            build_parser().parse_args(["run", "t", "--model", "m", "--context-tokens", bad])
        err = capsys.readouterr().err
        assert err.startswith("usage: browser-agent run ") and "--context-tokens" in err, err


def test_help_shows_real_defaults_and_explains_each_tool_calling_method() -> None:
    assert tool_calling_methods() == typing.get_args(MethodName) == typing.get_args(ToolCallingMethod)
    for name in ("run", "batch"):
        text = _subparsers()[name].format_help()
        assert "(default: 30)" in text and "(default: auto)" in text, text
        assert (
            "(default: None)" not in text and "(default: False)" not in text and "(default: [])" not in text
        )
        for value in tool_calling_methods():
            lines = [line for line in text.splitlines() if line.startswith(f"  {value} ")]
            assert len(lines) == 1 and len(lines[0].split()) > 4, (value, lines)


def test_help_and_version_load_no_model_or_browser_library() -> None:
    code = (
        "import contextlib, io, sys\n"
        "from browser_agent.cli import main\n"
        f"for args in [['--version'], ['--help'], *[[c, '--help'] for c in {COMMANDS!r}]]:\n"
        "    with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):\n"
        "        main(args)\n"
        "heavy = ('langchain_core', 'playwright', 'pydantic', 'rich', 'tenacity', 'browser_agent.agent')\n"
        "print(sorted(m for m in heavy if m in sys.modules))\n"
    )
    done = _python("-c", code)
    assert done.returncode == 0 and done.stdout.strip() == "[]", done.stdout + done.stderr


def test_the_bare_command_prints_the_help_and_exits_2() -> None:
    done = _python("-m", "browser_agent")
    assert done.returncode == 2, done.stderr
    assert done.stdout.startswith("usage: browser-agent") and done.stderr == ""
    assert all(f"    {name} " in done.stdout for name in COMMANDS), done.stdout
    assert "COMMAND --help" in done.stdout


def test_mcp_reads_secret_from_the_environment_like_run(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["mcp", "--secret", "pw=NO_SUCH_VAR_12"]) == 2
    err = capsys.readouterr().err
    assert "NO_SUCH_VAR_12" in err and len(err.strip().splitlines()) == 1, err


def test_inspect_and_mcp_name_the_network_choice_alike_with_their_own_defaults() -> None:
    parse = build_parser().parse_args
    assert parse(["inspect", "page.html"]).local_only is True
    assert parse(["inspect", "https://x.test", "--allow-network"]).local_only is False
    assert parse(["mcp"]).local_only is False
    assert parse(["mcp", "--local-only"]).local_only is True
    assert parse(["mcp", "--block-external-network"]).local_only is True, "the old name still works"
    with pytest.raises(SystemExit):
        parse(["inspect", "p.html", "--local-only", "--allow-network"])
