"""A readable Python script, using only Playwright's sync API, that does what a recorded run did.

Two forms: a plain script (``run(page, *, inputs...)`` and a ``main()`` that launches Chromium), and a
pytest module that runs it and then checks, with Playwright's assertions, the page the run ended on and
the text the agent reported there.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass
from urllib.parse import urlsplit

from browser_agent.export.actions import TAB_ACTIONS, Locate, StepWriter, robust_locator
from browser_agent.export.inputs import ENV_PREFIX, Inputs, ScriptInput
from browser_agent.export.locators import py_string
from browser_agent.export.steps import ExportStep, steps_from_history
from browser_agent.record import AgentHistory

__all__ = ["Ending", "ExportedScript", "export_history", "render_script"]

_TEXT_CHECK_CAP = 200
_QUOTES = '"""'


@dataclass(frozen=True, slots=True)
class Ending:
    """What the run ended on: the page's address and the text the agent reported (None when unknown)."""

    url: str | None = None
    text: str | None = None


@dataclass(frozen=True, slots=True)
class ExportedScript:
    """The script's source, and the steps it could not write faithfully (each also commented in it)."""

    source: str
    warnings: tuple[str, ...] = ()


def export_history(history: AgentHistory, *, pytest: bool = False, origin: str = "") -> ExportedScript:
    """The script of a saved run; ``origin`` names the history file in the script's docstring.

    Raises:
        UserError: the history holds no action to export.
    """
    steps = steps_from_history(history)
    done = next((s for s in reversed(history.steps) if s.final is not None), None)
    ending = Ending(url=done.url if done else None, text=history.final_result()) if done else Ending()
    return render_script(steps, task=history.task, origin=origin, ending=ending, pytest=pytest)


def render_script(
    steps: Sequence[ExportStep],
    *,
    task: str = "",
    origin: str = "",
    ending: Ending | None = None,
    pytest: bool = False,
    locate: Locate = robust_locator,
) -> ExportedScript:
    """The script for ``steps``; ``locate`` turns a step into its locator (the robust one by default)."""
    inputs = Inputs()
    writer = StepWriter(inputs, locate, base_url=_base_url(steps, inputs))
    body = [line for step in steps for line in writer.lines(step)]
    if any(s.action in TAB_ACTIONS or s.opened_tab for s in steps):
        body.insert(0, "    tabs = [page]  # the agent's tab numbers: tabs in the order they opened")
    checks = _checks(ending or Ending(), inputs, writer) if pytest else []
    code = [*_constants(inputs), *_run_function(inputs, body), *(_test(checks) if pytest else _main())]
    doc = _docstring(task, origin, inputs, pytest=pytest)
    source = "\n".join([*doc, *_imports("\n".join(code), pytest=pytest), *code])
    return ExportedScript(_fit(source), tuple(writer.warnings))


def _base_url(steps: Sequence[ExportStep], inputs: Inputs) -> str | None:
    """The root of the first site the run opened, made the ``base_url`` input."""
    first = next((s for s in steps if s.action == "go_to_url"), None)
    if first is None or "<secret>" in str(first.params.get("url", "")):
        return None
    try:
        parts = urlsplit(str(first.params["url"]))
    except ValueError:  # a malformed recorded address has no site to name
        return None
    if not parts.scheme or not parts.netloc:
        return None
    return inputs.add("base_url", f"{parts.scheme}://{parts.netloc}/").value


def _docstring(task: str, origin: str, inputs: Inputs, *, pytest: bool) -> list[str]:
    said = " ".join(task.split()).replace("\\", "/").replace(_QUOTES, "'''") or "(not recorded)"
    run_it = "pytest THIS_FILE" if pytest else "python THIS_FILE"
    source = f" from {origin}" if origin else ""
    doc = [
        f"{_QUOTES}Exported by browser-agent{source}: plain Playwright (sync API).",
        "",
        *textwrap.wrap(f"Task: {said}", 100),
        "",
        f"Run it with `{run_it}`. Each input comes from its environment variable when set",
        f"(e.g. {ENV_PREFIX}BASE_URL=http://localhost:8000/), else it is the value recorded.",
    ]
    if inputs.secrets:
        doc.append(f"Secrets come from environment variables only: {', '.join(inputs.secrets)}.")
    browser = f"{ENV_PREFIX}HEADED=1 shows the browser; {ENV_PREFIX}CHROMIUM=/path/to/chrome picks it."
    return [*doc, browser, _QUOTES]


def _constants(inputs: Inputs) -> list[str]:
    if not inputs.all:
        return []
    return [
        "",
        "# Inputs: the environment variable when set, else the value recorded.",
        *(f"{i.constant} = os.environ.get({py_string(i.env)}, {py_string(i.value)})" for i in inputs.all),
    ]


def _run_function(inputs: Inputs, body: list[str]) -> list[str]:
    params = ", ".join(f"{i.name}: str = {i.constant}" for i in inputs.all)
    signature = f"def run(page: Page, *, {params}) -> None:" if params else "def run(page: Page) -> None:"
    if len(signature) > 110:
        each = [f"    {i.name}: str = {i.constant}," for i in inputs.all]
        signature = "\n".join(["def run(", "    page: Page,", "    *,", *each, ") -> None:"])
    summary = "Do again what the recorded run did, with these inputs."
    return ["", "", signature, f'    """{summary}"""', *body]


def _main() -> list[str]:
    return [
        "",
        "",
        "def main() -> None:",
        "    with sync_playwright() as playwright:",
        *_launch("        "),
        "        try:",
        "            run(browser.new_page())",
        "        finally:",
        "            browser.close()",
        "",
        "",
        'if __name__ == "__main__":',
        "    main()",
        "",
    ]


def _launch(indent: str) -> list[str]:
    return [
        f"{indent}browser = playwright.chromium.launch(",
        f'{indent}    headless=os.environ.get("{ENV_PREFIX}HEADED") != "1",',
        f'{indent}    executable_path=os.environ.get("{ENV_PREFIX}CHROMIUM") or None,',
        f"{indent})",
    ]


def _test(checks: list[str]) -> list[str]:
    return [
        "",
        "",
        "@pytest.fixture",
        "def page() -> Iterator[Page]:",
        '    """A fresh Chromium page (remove this fixture to use the one of pytest-playwright)."""',
        "    with sync_playwright() as playwright:",
        *_launch("        "),
        "        try:",
        "            yield browser.new_page()",
        "        finally:",
        "            browser.close()",
        "",
        "",
        "def test_recorded_run(page: Page) -> None:",
        "    run(page)",
        *checks,
        "",
    ]


def _checks(ending: Ending, inputs: Inputs, writer: StepWriter) -> list[str]:
    """Playwright assertions for the page the run ended on and the text the agent reported."""
    lines: list[str] = []
    try:
        target = urlsplit(ending.url)._replace(query="", fragment="").geturl() if ending.url else ""
    except ValueError:  # a malformed recorded address: no check of the page's address
        target = ""
    if target and ending.url != "about:blank":
        where = writer.url(target)
        pattern = f"re.escape({where})" if where.startswith("base_url") else py_string(re.escape(target))
        pattern = pattern.replace("base_url", "BASE_URL")
        lines.append(f'    expect(page).to_have_url(re.compile("^" + {pattern} + r"([?#]|$)"))')
    # its closing full stop is left out: the page's own sentence may go on where the agent's report ended
    text = " ".join((ending.text or "").split()).rstrip(".!")
    if text and len(text) <= _TEXT_CHECK_CAP and "<secret>" not in text:
        lines += [
            "    # The text the agent reported: numbers it did not type are matched loosely (an order",
            "    # number changes every time). Edit it if the agent put the page in its own words.",
            "    said = re.compile(",
            *(f"        {'+ ' if n else ''}{part}" for n, part in enumerate(_text_pattern(text, inputs.all))),
            "    )",
            "    expect(page.get_by_text(said)).to_be_visible()",
        ]
    return lines or ["    # The run reported no end state to check."]


def _text_pattern(text: str, inputs: Sequence[ScriptInput]) -> list[str]:
    """A regular expression for ``text``, as lines of Python joined by ``+``: each input's value becomes
    ``re.escape(CONSTANT)``, other numbers ``\\d+``, the rest literal."""
    typed = [i for i in inputs if i.name != "base_url" and i.value.strip()]
    values = sorted(typed, key=lambda i: -len(i.value))
    alternatives = [rf"(?<!\w){re.escape(i.value)}(?!\w)" for i in values] + [r"\d+"]
    parts: list[str] = []  # regex source, or ``re.escape(NAME)`` marked by a leading NUL
    at = 0
    for found in re.finditer("|".join(alternatives), text):
        match = next((i for i in values if i.value == found.group(0)), None)
        parts += [_escaped(text[at : found.start()]), f"\0re.escape({match.constant})" if match else r"\d+"]
        at = found.end()
    parts.append(_escaped(text[at:]))
    merged: list[str] = []
    for part in filter(None, parts):
        if merged and not part.startswith("\0") and not merged[-1].startswith("\0"):
            merged[-1] += part
        else:
            merged.append(part)
    return [part[1:] if part.startswith("\0") else _regex_literal(part) for part in merged]


def _escaped(text: str) -> str:
    return re.escape(text).replace("\\ ", " ").replace("\\#", "#")


def _regex_literal(source: str) -> str:
    """A regex source as a Python literal: raw when it holds backslashes and a raw string can hold it."""
    if "\\" in source and '"' not in source and not source.endswith("\\"):
        return f'r"{source}"'
    return py_string(source)


def _imports(code: str, *, pytest: bool) -> list[str]:
    """The imports ``code`` uses, sorted as isort sorts them."""
    stdlib = ["import os"]
    if re.search(r"\bre\.", code):
        stdlib.append("import re")
    if pytest:
        stdlib.append("from collections.abc import Iterator")
    if "quote_plus(" in code:
        stdlib.append("from urllib.parse import quote_plus")
    names = "Page, expect, sync_playwright" if pytest else "Page, sync_playwright"
    third = [*(["import pytest"] if pytest else []), f"from playwright.sync_api import {names}"]
    return ["", "from __future__ import annotations", "", *stdlib, "", *third]


def _fit(source: str) -> str:
    """Lines longer than the usual limit carry a ``noqa`` (a long name cannot be broken)."""
    fitted = []
    for line in source.split("\n"):
        if len(line) > 110 and not line.lstrip().startswith("#") and "noqa" not in line:
            line += "  # noqa: E501"
        fitted.append(line)
    return "\n".join(fitted)
