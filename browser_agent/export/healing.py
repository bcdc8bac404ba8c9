"""The ``--heal`` form of a script: each action on an element runs inside ``with healable(...)``, which
hands the step to a model when its locator fails (``browser_agent.script_healing``, imported by the
script: that form needs browser-agent installed where it runs; the plain form needs only Playwright).

The step's recorded action, its element in words and its goal reach the script as literals, and the
values the run types as the script's own variables; a secret stays its placeholder, which the healing
fills from the script's environment.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence

from browser_agent.export.inputs import Inputs
from browser_agent.export.literals import py_string
from browser_agent.export.steps import ExportStep

__all__ = ["HEAL_IMPORT", "HEAL_NAMES", "healable_lines"]

HEAL_NAMES = ("healable", "healing_args", "healing_wait_ms")
HEAL_IMPORT = f"from browser_agent.script_healing import {', '.join(HEAL_NAMES)}"
_ON_ELEMENTS = frozenset({"click_element", "input_text", "select_dropdown_option", "hover", "upload_file"})
_INDENT = "    "
_WIDTH = 110
_PLACEHOLDER = re.compile(r"<secret>\s*[A-Za-z0-9_.\-]+\s*</secret>")
_FRAME = re.compile(r"\s*frame(_\d+)? = ")
_NEW_TAB = "with page.context.expect_page() as new_tab:"
_TAB_VALUE = "page = new_tab.value"
_NEWEST_TAB = "page.context.pages[-1]  # the newest tab: the one the click, or its healing, opened"


def healable_lines(step: ExportStep, lines: Sequence[str], inputs: Inputs) -> list[str]:
    """``lines`` (the step as the writer wrote it, in ``run``'s body) with its action inside ``with
    healable(...)``; unchanged for a step that acts on no element the run recorded."""
    if not _heals(step):
        return list(lines)
    start = next((n for n, line in enumerate(lines) if _acts(line)), None)
    if start is None:  # the writer left the step out (a comment says why)
        return list(lines)
    body = list(lines[start:])
    wrapped = len(body)
    opens_tab = step.opened_tab
    if opens_tab:  # a healed click opens its tab while nothing awaits it: the newest tab is it
        wrapped = next((n for n, line in enumerate(body) if line.strip() == _TAB_VALUE), 0)
        if body[0].strip() != _NEW_TAB or not wrapped:  # not as the writer writes a new tab: not healed
            return list(lines)
        body[0] = body[0].replace(" as new_tab:", ":")
        body[wrapped] = body[wrapped].replace("new_tab.value", _NEWEST_TAB)
    indent = " " * (len(body[0]) - len(body[0].lstrip(" ")))
    header = _header(step, inputs, indent, opens_tab=opens_tab)
    inner = [_INDENT + line if line else line for line in body[:wrapped]]
    return [*lines[:start], *header, *inner, *body[wrapped:]]


def _heals(step: ExportStep) -> bool:
    if step.fingerprint is None or (step.action not in _ON_ELEMENTS and step.action != "scroll"):
        return False
    return step.action != "scroll" or step.params.get("index") is not None


def _acts(line: str) -> bool:
    """A line of code that is not a comment, a blank or a frame's variable."""
    text = line.strip()
    return bool(text) and not text.startswith("#") and not _FRAME.match(line)


def _header(step: ExportStep, inputs: Inputs, indent: str, *, opens_tab: bool) -> list[str]:
    """``with healable(page, {action}, "element", "goal"):``, on one line when it fits."""
    args = ["page", _action(step, inputs), _element(step, inputs)]
    if step.goal:
        args.append(py_string(step.goal))
    if opens_tab:
        args.append("opens_tab=True")
    one = f"{indent}with healable({', '.join(args)}):"
    if len(one) <= _WIDTH:
        return [one]
    return [f"{indent}with healable(", *(f"{indent}{_INDENT}{arg}," for arg in args), f"{indent}):"]


def _element(step: ExportStep, inputs: Inputs) -> str:
    """The element in words; one an input chose is told by the input's value in this run."""
    found = step.fingerprint
    if found is None:
        return '""'
    if step.named_by is None:
        return py_string(found.describe())
    variable = inputs.add(*step.named_by).name
    return f"{py_string(f'<{found.tag}> saying ')} + {variable}"


def _action(step: ExportStep, inputs: Inputs) -> str:
    """The recorded action as a dict literal, each value the run types as the script's variable."""
    items = [f'"action": {py_string(step.action)}']
    for key, value in step.params.items():
        code = _value(value, inputs)
        if code is not None:
            items.append(f"{py_string(str(key))}: {code}")
    return "{" + ", ".join(items) + "}"


def _value(value: object, inputs: Inputs) -> str | None:
    if isinstance(value, bool) or value is None:
        return repr(value)
    if isinstance(value, int) or (isinstance(value, float) and math.isfinite(value)):
        return repr(value)
    if not isinstance(value, str):
        return None  # the model reads the action; a list or a mapping adds nothing it needs
    if _PLACEHOLDER.search(value):
        return py_string(value)  # the healing fills it from the script's environment
    found = inputs.find(value)
    return found.name if found is not None else py_string(value)
