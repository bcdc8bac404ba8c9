"""A readable Python script, using only Playwright's sync API, that does what a recorded run did.

Two forms: a plain script (``run(page, *, inputs...)`` and a ``main()`` that launches Chromium), and a
pytest module that runs it and then checks, with Playwright's assertions, the page the run ended on and
the text the agent reported there.

A recording is a file anyone may hand over, and its text (names, values, addresses, the task, the
answer, the file's own name) reaches the script only as string literals: the docstring and the comments
hold our words alone. The whole script is then checked (``verify_script``) before it is returned.
"""

from __future__ import annotations

import ast
from collections.abc import Sequence
from dataclasses import dataclass
from urllib.parse import urlsplit

from browser_agent.export.actions import Locate, StepWriter, robust_locator, uses_tabs
from browser_agent.export.assertions import Ending, end_checks
from browser_agent.export.healing import HEAL_IMPORT, healable_lines
from browser_agent.export.inputs import ENV_PREFIX, Inputs
from browser_agent.export.literals import long_string, py_string
from browser_agent.export.params import checked_step
from browser_agent.export.reads import end_reads, expectation_constants, read_lines
from browser_agent.export.steps import ExportStep, steps_from_history
from browser_agent.export.verify import verify_script
from browser_agent.record import AgentHistory

__all__ = ["Ending", "ExportedScript", "export_history", "render_script"]

_QUOTES = '"""'


@dataclass(frozen=True, slots=True)
class ExportedScript:
    """The script's source, and the steps it could not write faithfully (each also commented in it).

    ``names`` are the script's own variables beside the fixed ones (its inputs): what
    ``verify_script(source, names)`` accepts, to check the source again after a change (redaction).
    """

    source: str
    warnings: tuple[str, ...] = ()
    names: frozenset[str] = frozenset()


def export_history(
    history: AgentHistory, *, pytest: bool = False, origin: str = "", heal: bool = False
) -> ExportedScript:
    """The script of a saved run; ``origin`` names the history file (kept in the script as a literal);
    ``heal`` writes the form whose failed locators are healed by a model (``export.healing``).

    Raises:
        UserError: the history holds no action to export, or a parameter the script needs is missing
            or malformed (the message names the step).
    """
    steps = steps_from_history(history)
    done = next((s for s in reversed(history.steps) if s.final is not None), None)
    ending = Ending(url=done.url if done else None, text=history.final_result()) if done else Ending()
    return render_script(steps, task=history.task, origin=origin, ending=ending, pytest=pytest, heal=heal)


def render_script(
    steps: Sequence[ExportStep],
    *,
    task: str = "",
    origin: str = "",
    ending: Ending | None = None,
    pytest: bool = False,
    locate: Locate = robust_locator,
    heal: bool = False,
) -> ExportedScript:
    """The script for ``steps``; ``locate`` turns a step into its locator (the robust one by default);
    ``heal``: each action on an element is healed by a model when its locator fails.

    Raises:
        UserError: a step's parameters are missing or malformed (``step 3, action wait: parameter
            seconds is nan; ...``), or the script would not be one the export writes.
    """
    ending = ending or Ending()
    numbered = [(_where(step, n), step) for n, step in enumerate(steps, start=1)]
    checked = [(where, checked_step(step, where)) for where, step in numbered]
    inputs = Inputs()
    writer = StepWriter(inputs, locate, base_url=_base_url([step for _, step in checked], inputs))
    body = [line for where, step in checked for line in _step_lines(writer, step, where, heal=heal)]
    if heal:
        body.insert(0, "    page.context.set_default_timeout(healing_wait_ms())  # then the step is healed")
    if any(uses_tabs(s.action) or s.opened_tab for _, s in checked):
        body.insert(0, "    tabs = [page]  # the agent's tab numbers: tabs in the order they opened")
    entered = any(i.name != "base_url" for i in inputs.all) or bool(inputs.secrets)
    reads = end_reads(ending.text, inputs.all, entered=entered)
    body += read_lines(reads)
    checks = end_checks(ending, reads, writer) if pytest else []
    recorded = _recorded(origin, task, ending.text)
    ending_code = _test(checks, heal=heal) if pytest else _main(heal=heal)
    expected = expectation_constants(reads) if pytest else []
    code = [*recorded, *_constants(inputs), *expected, *_run_function(inputs, body), *ending_code]
    imports = _imports("\n".join(code), pytest=pytest, heal=heal)
    source = "\n".join([*_docstring(pytest=pytest, heal=heal), *imports, *code])
    names = frozenset(name for i in inputs.all for name in (i.name, i.constant))
    names |= frozenset(r.constant for r in reads if r.variable is None) if pytest else frozenset()
    fitted = _fit(source)
    verify_script(fitted, names)
    return ExportedScript(fitted, tuple(writer.warnings), names)


def _step_lines(writer: StepWriter, step: ExportStep, where: str, *, heal: bool) -> list[str]:
    lines = writer.lines(step, where)
    return healable_lines(step, lines, writer.inputs) if heal else lines


def _where(step: ExportStep, position: int) -> str:
    return f"step {step.number if step.number is not None else position}"


def _base_url(steps: Sequence[ExportStep], inputs: Inputs) -> str | None:
    """The root of the first site the run opened, made the ``base_url`` input."""
    first = next((s for s in steps if s.action == "go_to_url"), None)
    if first is None or "<secret>" in first.params["url"]:
        return None
    try:
        parts = urlsplit(first.params["url"])
    except ValueError:  # a malformed recorded address has no site to name
        return None
    if not parts.scheme or not parts.netloc:
        return None
    return inputs.add("base_url", f"{parts.scheme}://{parts.netloc}/").value


def _docstring(*, pytest: bool, heal: bool = False) -> list[str]:
    """Our words only: what the run recorded is kept in the ``RECORDED_*`` literals below it."""
    run_it = "pytest THIS_FILE" if pytest else "python THIS_FILE"
    healing = [
        "",
        "A locator that fails (nothing found in BA_HEAL_WAIT_MS, 10000 by default, or several found)",
        "hands its step to the model BROWSER_AGENT_MODEL names, with the step's goal; it needs browser-agent",
        "installed, and the browser it launches can be driven by any process of this machine while it runs.",
    ]
    return [
        f"{_QUOTES}Exported by browser-agent: plain Playwright (sync API) doing what a recorded run did.",
        "",
        f"Run it with `{run_it}`. Each input comes from its environment variable when set",
        f"(e.g. {ENV_PREFIX}BASE_URL=http://localhost:8000/), else it is the value recorded. Secrets come",
        f"from environment variables only ({ENV_PREFIX}SECRET_<NAME>), never from this file.",
        f"{ENV_PREFIX}HEADED=1 shows the browser; {ENV_PREFIX}CHROMIUM=/path/to/chrome picks it.",
        *(healing if heal else []),
        _QUOTES,
    ]


def _recorded(origin: str, task: str, answer: str | None) -> list[str]:
    """The file the run was exported from, its task and the agent's answer, as literals."""
    kept = [("RECORDED_FROM", origin), ("RECORDED_TASK", task), ("RECORDED_ANSWER", answer or "")]
    lines: list[str] = []
    for name, text in kept:
        if text:
            first, *rest = long_string(text, "")
            lines += [f"{name} = {first}", *rest]
    if not lines:
        return []
    return ["", "# What was recorded, kept as text: the file exported, its task, the agent's answer.", *lines]


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
    returns = "-> dict[str, str]:"
    signature = f"def run(page: Page, *, {params}) {returns}" if params else f"def run(page: Page) {returns}"
    if len(signature) > 110:
        each = [f"    {i.name}: str = {i.constant}," for i in inputs.all]
        signature = "\n".join(["def run(", "    page: Page,", "    *,", *each, f") {returns}"])
    summary = "Do again what the recorded run did, with these inputs; return what it read at the end."
    return ["", "", signature, f'    """{summary}"""', *body]


def _main(*, heal: bool = False) -> list[str]:
    return [
        "",
        "",
        "def main() -> None:",
        "    with sync_playwright() as playwright:",
        *_launch("        ", heal=heal),
        "        try:",
        "            print(run(browser.new_page()))",
        "        finally:",
        "            browser.close()",
        "",
        "",
        'if __name__ == "__main__":',
        "    main()",
        "",
    ]


def _launch(indent: str, *, heal: bool = False) -> list[str]:
    return [
        f"{indent}browser = playwright.chromium.launch(",
        f'{indent}    headless=os.environ.get("{ENV_PREFIX}HEADED") != "1",',
        f'{indent}    executable_path=os.environ.get("{ENV_PREFIX}CHROMIUM") or None,',
        *([f"{indent}    args=healing_args(),  # a session of the healing can attach to it"] if heal else []),
        f"{indent})",
    ]


def _test(checks: list[str], *, heal: bool = False) -> list[str]:
    return [
        "",
        "",
        "@pytest.fixture",
        "def page() -> Iterator[Page]:",
        '    """A fresh Chromium page (remove this fixture to use the one of pytest-playwright)."""',
        "    with sync_playwright() as playwright:",
        *_launch("        ", heal=heal),
        "        try:",
        "            yield browser.new_page()",
        "        finally:",
        "            browser.close()",
        "",
        "",
        "def test_recorded_run(page: Page) -> None:",
        "    read = run(page)",
        *checks,
        "",
    ]


def _imports(code: str, *, pytest: bool, heal: bool = False) -> list[str]:
    """The imports ``code`` uses (the names it reads, not words in its literals), sorted as isort does."""
    used = {node.id for node in ast.walk(ast.parse(code)) if isinstance(node, ast.Name)}
    stdlib = ["import os"]
    if "re" in used:
        stdlib.append("import re")
    if pytest:
        stdlib.append("from collections.abc import Iterator")
    if "quote_plus" in used:
        stdlib.append("from urllib.parse import quote_plus")
    names = "Page, expect, sync_playwright" if "expect" in used else "Page, sync_playwright"
    third = [
        *(["import pytest"] if pytest else []),
        *([HEAL_IMPORT] if heal else []),
        f"from playwright.sync_api import {names}",
    ]
    return ["", "from __future__ import annotations", "", *stdlib, "", *third]


def _fit(source: str) -> str:
    """Lines longer than the usual limit carry a ``noqa`` (a long name cannot be broken). Only our own
    comments are ever on a line, whole, and a literal ends in a quote: a line of code ends in code."""
    fitted = []
    for line in source.split("\n"):
        if len(line) > 110 and not line.lstrip().startswith("#") and not line.endswith("# noqa: E501"):
            line += "  # noqa: E501"
        fitted.append(line)
    return "\n".join(fitted)
