"""The reference guides say what the code does: every flag of every command is in docs/cli.md under its
command (and no flag a command lacks), with the parser's default, required-ness and choices, and the
commands said to take a shared group of flags take it; every knob of AgentSettings and BrowserConfig is in
docs/python.md, every --tool-calling-method value is in docs/models.md, and each message quoted in a
heading of docs/troubleshooting.md is the one the code builds."""

from __future__ import annotations

import argparse
import re
from collections.abc import Callable
from pathlib import Path
from typing import cast, get_args

import pytest

from browser_agent import AgentSettings, BrowserConfig
from browser_agent.agent.loops import loop_error
from browser_agent.browser.chromium import Candidates, find_chromium
from browser_agent.browser.domains import blocked_message
from browser_agent.cli import build_parser
from browser_agent.cli.inspect import _target as inspect_target
from browser_agent.dom.snapshot import DomSnapshot, ElementNode
from browser_agent.errors import BrowserAgentError, NotAModelServerError, ProviderUnreachableError
from browser_agent.llm.retry import to_model_error
from browser_agent.models import chat_model

DOCS = Path(__file__).resolve().parents[2] / "docs"
_FLAG = re.compile(r"`(--[a-z][a-z-]*)")


def _commands() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return cast(dict[str, argparse.ArgumentParser], sub.choices)


def _sections(text: str) -> dict[str, str]:
    """`## \\`browser-agent NAME\\`` sections of cli.md, by command name."""
    parts = re.split(r"^## `browser-agent (\w+)`\n", text, flags=re.M)
    return {name: body.split("\n## ", 1)[0] for name, body in zip(parts[1::2], parts[2::2], strict=True)}


def _flags(parser: argparse.ArgumentParser) -> set[str]:
    """A command's long flags, with those of its own subcommands (``eval miniwob``, ``workflow run``)."""
    shown = [a for a in parser._actions if a.help != argparse.SUPPRESS]  # an old name still taken, unshown
    flags = {o for a in shown for o in a.option_strings if o.startswith("--")} - {"--help"}
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                flags |= _flags(sub)
    return flags


def test_every_command_has_a_section_listing_exactly_its_flags() -> None:
    sections = _sections((DOCS / "cli.md").read_text(encoding="utf-8"))
    commands = _commands()
    assert set(sections) == set(commands)
    for name, parser in commands.items():
        flags = _flags(parser)
        documented = set(_FLAG.findall(sections[name]))
        assert flags - documented == set(), f"{name}: flags missing from docs/cli.md"
        assert documented - flags == set(), f"{name}: docs/cli.md names flags the command does not have"


def test_every_setting_and_browser_knob_is_in_the_python_guide() -> None:
    text = (DOCS / "python.md").read_text(encoding="utf-8")
    for model in (AgentSettings, BrowserConfig):
        missing = [name for name in model.model_fields if f"`{name}`" not in text]
        assert not missing, f"{model.__name__}: {missing}"


def test_every_tool_calling_method_is_explained_in_the_models_guide() -> None:
    text = (DOCS / "models.md").read_text(encoding="utf-8")
    methods = get_args(AgentSettings.model_fields["tool_calling_method"].annotation)
    assert len(methods) == 5
    for method in methods:
        assert re.search(rf"^\| `{method}`( \(default\))? \| ", text, flags=re.M), method


def _raised(call: Callable[[], object]) -> str:
    with pytest.raises(BrowserAgentError) as caught:
        call()
    return str(caught.value)


def _no_key(monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    return _raised(lambda: chat_model("openai:gpt-4o"))


def _busy() -> str:
    class RateLimitError(Exception):
        pass

    return str(to_model_error(RateLimitError("slow down"), what="The chat model call", attempts=4))


def _missing_package(monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setitem(__import__("sys").modules, "langchain_openai", None)  # as if not installed
    return _raised(lambda: chat_model("openai:gpt-4o"))


NOWHERE = Candidates(paths=(), names=())


def _index_gone() -> str:
    """ActionContext's words around the snapshot's own (tests/integration/test_controller.py checks them
    on a live page)."""
    snapshot = DomSnapshot("http://x/", "", (), dict.fromkeys(range(38), cast(ElementNode, None)))
    indices = snapshot.describe_indices()
    return f"element 42 is not on the page; {indices}. Use an index from the current page state."


_MESSAGES: dict[str, Callable[[pytest.MonkeyPatch], str]] = {
    "No usable Chromium": lambda _: _raised(
        lambda: find_chromium(env={}, playwright_path="/nonexistent", system=NOWHERE, shells=NOWHERE)
    ),
    "cannot reach": lambda _: str(ProviderUnreachableError("http://127.0.0.1:8088/v1", "connection refused")),
    "http://127.0.0.1:8080/v1/chat": lambda _: str(
        NotAModelServerError("http://127.0.0.1:8080/v1/chat/completions", "HTTP 501, an HTML page")
    ),
    "--model openai": _no_key,
    "The chat model call": lambda _: _busy(),
    "The openai provider": _missing_package,
    "Loop:": lambda _: loop_error([2, 3], []),
    "blocked: https": lambda _: blocked_message("https://other.example/page", ["shop.example"]),
    "no such file": lambda _: _raised(lambda: inspect_target("/nonexistent/page.html")),
    "element 42": lambda _: _index_gone(),
}


def _quoted_headings() -> list[str]:
    text = (DOCS / "troubleshooting.md").read_text(encoding="utf-8")
    return re.findall(r'^## "(.+)"$', text, flags=re.M)


@pytest.mark.parametrize("heading", _quoted_headings())
def test_a_quoted_message_is_the_one_the_code_builds(heading: str, monkeypatch: pytest.MonkeyPatch) -> None:
    producer = next((make for start, make in _MESSAGES.items() if heading.startswith(start)), None)
    assert producer is not None, f"no way to build {heading!r}: add it to _MESSAGES"
    message = producer(monkeypatch)
    pattern = ".*".join(re.escape(part) for part in heading.split("..."))
    assert re.fullmatch(pattern, message, flags=re.S), (heading, message)


def test_the_troubleshooting_guide_quotes_messages() -> None:
    assert len(_quoted_headings()) >= 8  # the scan sees the headings that are there


def _rows(section: str, column: int = 1) -> list[tuple[list[str], str]]:
    """The rows of a section's `| flag | default | meaning |` table: their long flags, and their default
    (``column`` 0: the flag cell itself)."""
    rows = []
    for line in section.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) == 3 and cells[0] not in ("flag", "---"):
            rows.append((_FLAG.findall(cells[0]), cells[column]))
    return rows


def _actions(parser: argparse.ArgumentParser) -> dict[str, list[argparse.Action]]:
    """Each long flag's actions: the command's own and its subcommands' (one flag may be in several)."""
    found: dict[str, list[argparse.Action]] = {}
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                for flag, more in _actions(sub).items():
                    found.setdefault(flag, []).extend(more)
        for flag in action.option_strings:
            if flag.startswith("--"):
                found.setdefault(flag, []).append(action)
    return found


def _literal(value: object) -> str:
    """A default as the docs write it: `30`, `0.05`, `120`, `stop`, `browser_agent_runs`."""
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, float | int):
        return f"{value:g}"
    if isinstance(value, list | tuple):
        return ",".join(_literal(item) for item in value)
    return str(value)


def _default_fault(flag: str, action: argparse.Action, cell: str) -> str | None:
    """What is wrong with ``cell`` as the documented default of ``action``, or None."""
    first = cell.split(" ")[0].strip("`") if cell else ""
    if action.required != first.startswith("required"):
        return f"{flag}: required is {action.required}, docs/cli.md says {cell!r}"
    if action.required:
        return None
    if action.default is False:  # a switch
        return None if cell in ("", "off") else f"{flag}: a switch, off by default; docs/cli.md says {cell!r}"
    if action.default in (None, [], ()):  # no value: the docs may say in words what happens instead
        single = re.fullmatch(r"`[^`]+`|-?[\d.]+", cell)
        return f"{flag}: no default, docs/cli.md says {cell!r}" if single else None
    if first != _literal(action.default):
        return f"{flag}: the default is {_literal(action.default)!r}, docs/cli.md says {cell!r}"
    return None


def test_the_documented_defaults_and_required_flags_are_the_parsers() -> None:
    sections = _sections((DOCS / "cli.md").read_text(encoding="utf-8"))
    faults = []
    for name, parser in _commands().items():
        actions = _actions(parser)
        for flags, cell in _rows(sections[name]):
            if len(flags) != 1:  # a row of shared flags points at their group: nothing said of a default
                continue
            faults += [
                f"{name} {fault}"
                for action in actions[flags[0]]
                if (fault := _default_fault(flags[0], action, cell)) is not None
            ]
    assert not faults, "\n".join(faults)


def test_the_defaults_scan_sees_the_tables() -> None:
    sections = _sections((DOCS / "cli.md").read_text(encoding="utf-8"))
    rows = [row for section in sections.values() for row in _rows(section)]
    assert len(rows) > 60 and ("required" in {cell for _, cell in rows})


def test_the_documented_choices_are_the_parsers() -> None:
    sections = _sections((DOCS / "cli.md").read_text(encoding="utf-8"))
    seen = 0
    for name, parser in _commands().items():
        actions = _actions(parser)
        for flags, cell in _rows(sections[name], column=0):
            for flag, choices in re.findall(r"`(--[a-z-]+) \{([a-z,_]+)\}`", cell):
                assert flag in flags
                for action in actions[flag]:
                    assert tuple(choices.split(",")) == tuple(action.choices or ()), (name, flag)
                    seen += 1
    assert seen >= 4  # the scan sees the choices listed


def _every_command(parser: argparse.ArgumentParser, prefix: str = "") -> dict[str, set[str]]:
    """Each command and subcommand (``eval suite``, ``workflow run``) by name, with its flags."""
    found = {}
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                found[prefix + name] = {o for a in sub._actions for o in a.option_strings}
                found |= _every_command(sub, f"{prefix}{name} ")
    return found


_HOW_MANY = {"": 1, "one": 1, "two": 2, "three": 3}


def test_the_commands_said_to_take_a_shared_group_take_it() -> None:
    """`run`, `batch`... take all six; `replay`... the first three: as the parsers say."""
    text = (DOCS / "cli.md").read_text(encoding="utf-8")
    commands = _every_command(build_parser())
    checked = 0
    for section in re.split(r"^### ", text.split("\n## `browser-agent", 1)[0], flags=re.M)[1:]:
        flat = " ".join(section.split())
        if " take all " not in flat:
            continue
        group = re.findall(r"^\| `(--[a-z-]+)", section, flags=re.M)
        head, _, tail = flat.partition(" take all ")
        said_all = set(re.findall(r"`([a-z ]+)`", re.split(r"\. |\| ", head)[-1]))
        assert said_all == {name for name, flags in commands.items() if set(group) <= flags}, section
        clause = tail.split(".", 1)[0].partition(";")[2]
        if clause:
            names, _, count = clause.partition(" the first")
            first = group[: _HOW_MANY[count.strip()]]
            takers = {n for n, flags in commands.items() if set(first) <= flags and not set(group) <= flags}
            assert set(re.findall(r"`([a-z ]+)`", names)) == takers, section
        checked += 1
    assert checked == 2  # the model flags and the fence and secret flags
