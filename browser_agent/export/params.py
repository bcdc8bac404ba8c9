"""The recorded parameters of each built-in action the export writes, checked before a line is written.

A history or a workflow is a file anyone may hand over, and its parameters are whatever JSON it holds:
a NaN, a tab id of ``"x"``, a missing ``url``. Each is refused here with one line naming the step, the
action and the parameter (``UserError``), never a traceback and never a script that does something
else; the values that pass come back normalised (a tab id as an int, a wait clamped as the controller
clamps it), so that the writer only formats them.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from browser_agent.errors import UserError
from browser_agent.export.steps import ExportStep
from browser_agent.record import Fingerprint

__all__ = ["KNOWN_ACTIONS", "checked_step"]

_MAX_WAIT_S = 60.0  # past the controller's own cap (10 s by default): the run never waited longer
_MAX_PAGES = 1000.0  # far past the end of any page
_MAX_TAB = 1000
_SHOWN = 40
_DIRECTIONS = ("down", "up", "right", "left")
_MISSING = object()


class _Bad(ValueError):
    """A parameter's value is not one the action takes; the message says what it takes."""


def _text(value: Any) -> str:
    if not isinstance(value, str):
        raise _Bad("expected text")
    return value


def _flag(value: Any) -> bool:
    if not isinstance(value, bool):
        raise _Bad("expected true or false")
    return value


def _number(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise _Bad("expected a number")
    if isinstance(value, int) and abs(value) > 10**9:
        raise _Bad("expected a number of reasonable size")
    if not math.isfinite(value):
        raise _Bad("expected a finite number")
    return float(value)


def _seconds(value: Any) -> float:
    seconds = _number(value)
    if seconds > _MAX_WAIT_S:
        raise _Bad(f"expected at most {_MAX_WAIT_S:g} seconds")
    return max(seconds, 0.0)  # the controller waits 0 s for a negative wait


def _pages(value: Any) -> float:
    pages = _number(value)
    if abs(pages) > _MAX_PAGES:
        raise _Bad(f"expected at most {_MAX_PAGES:g} screens")
    return abs(pages)  # the direction says which way, as the controller reads it


def _tab_id(value: Any) -> int:
    if isinstance(value, str) and value.isascii() and value.isdigit() and len(value) <= 4:
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= _MAX_TAB:
        raise _Bad(f"expected a tab number from 0 to {_MAX_TAB}")
    return value


def _direction(value: Any) -> str:
    if value not in _DIRECTIONS:
        raise _Bad("expected one of " + ", ".join(_DIRECTIONS))
    return str(value)


def _index(value: Any) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise _Bad("expected an element's index (a whole number from 0) or null")
    return value


_Check = Callable[[Any], Any]
# action -> parameter -> (check, default; _MISSING when the parameter is required)
_SPECS: dict[str, dict[str, tuple[_Check, Any]]] = {
    "go_to_url": {"url": (_text, _MISSING)},
    "open_tab": {"url": (_text, _MISSING)},
    "go_back": {},
    "search_web": {"query": (_text, _MISSING)},
    "wait": {"seconds": (_seconds, 3.0)},
    "send_keys": {"keys": (_text, _MISSING)},
    "scroll_to_text": {"text": (_text, _MISSING)},
    "scroll": {"direction": (_direction, "down"), "pages": (_pages, 1.0), "index": (_index, None)},
    "switch_tab": {"tab_id": (_tab_id, _MISSING)},
    "close_tab": {"tab_id": (_tab_id, _MISSING)},
    "click_element": {},
    "hover": {},
    "input_text": {"text": (_text, _MISSING), "clear": (_flag, True)},
    "select_dropdown_option": {"text": (_text, _MISSING)},
    "upload_file": {"path": (_text, _MISSING)},
    "extract_content": {},
    "page_markdown": {},
    "get_dropdown_options": {},
    "done": {},
}
KNOWN_ACTIONS = frozenset(_SPECS)


def checked_step(step: ExportStep, where: str) -> ExportStep:
    """``step`` with the parameters its action takes checked and normalised, the others left out; an
    action that is not built in comes back as it is (the writer leaves it out, with a warning).

    Raises:
        UserError: a parameter is missing, of the wrong type or out of range, or the recorded element
            is malformed; the message names ``where`` (``step 3``), the action and the parameter.
    """
    spec = _SPECS.get(step.action)
    if spec is None:
        return step
    params: dict[str, Any] = {}
    for name, (check, default) in spec.items():
        value = step.params.get(name, default) if isinstance(step.params, Mapping) else _MISSING
        if value is _MISSING:
            raise UserError(f"{where}, action {step.action}: parameter {name} is missing. {_FIX}")
        try:
            params[name] = check(value)
        except _Bad as bad:
            raise UserError(
                f"{where}, action {step.action}: parameter {name} is {_shown(value)}; {bad}. {_FIX}"
            ) from None
    _check_element(step, where)
    return replace(step, params=params)


_FIX = "Correct the file, or record the run again."


def _check_element(step: ExportStep, where: str) -> None:
    """The fields of the recorded element the locator is written from hold text, as a recording does."""
    found = step.fingerprint
    frames = step.frame if step.frame is not None else ()
    if found is not None:
        frames = (*frames, *found.frame_path)
        if not isinstance(found, Fingerprint) or not _texts(found.role, found.classes):
            raise UserError(f"{where}, action {step.action}: its recorded element is malformed. {_FIX}")
    if not all(isinstance(frame, str) for frame in frames):
        raise UserError(f"{where}, action {step.action}: its recorded frames are malformed. {_FIX}")


def _texts(role: Any, classes: Any) -> bool:
    return (role is None or isinstance(role, str)) and all(isinstance(c, str) for c in classes)


def _shown(value: Any) -> str:
    """A value as a message shows it: its JSON-ish repr, cut short, never raw control characters."""
    shown = repr(value)
    return shown if len(shown) <= _SHOWN else shown[: _SHOWN - 1] + "…"
