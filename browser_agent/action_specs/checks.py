"""What a recorded parameter's value must be for the export to write it (``ActionSpec.checks``).

A history or a workflow is a file anyone may hand over, and its parameters are whatever JSON it holds: a
NaN, a tab id of ``"x"``. Each check returns the value normalised as the controller reads it (a tab id as
an int, a negative wait as none) or raises ``BadValue`` saying what the parameter takes.
"""

from __future__ import annotations

import math
from typing import Any

from browser_agent.action_specs.spec import BadValue

__all__ = ["direction", "flag", "index", "number", "pages", "seconds", "tab_id", "text"]

_MAX_WAIT_S = 60.0  # past the controller's own cap (10 s by default): the run never waited longer
_MAX_PAGES = 1000.0  # far past the end of any page
_MAX_TAB = 1000
_DIRECTIONS = ("down", "up", "right", "left")


def text(value: Any) -> str:
    if not isinstance(value, str):
        raise BadValue("expected text")
    return value


def flag(value: Any) -> bool:
    if not isinstance(value, bool):
        raise BadValue("expected true or false")
    return value


def number(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise BadValue("expected a number")
    if isinstance(value, int) and abs(value) > 10**9:
        raise BadValue("expected a number of reasonable size")
    if not math.isfinite(value):
        raise BadValue("expected a finite number")
    return float(value)


def seconds(value: Any) -> float:
    waited = number(value)
    if waited > _MAX_WAIT_S:
        raise BadValue(f"expected at most {_MAX_WAIT_S:g} seconds")
    return max(waited, 0.0)  # the controller waits 0 s for a negative wait


def pages(value: Any) -> float:
    screens = number(value)
    if abs(screens) > _MAX_PAGES:
        raise BadValue(f"expected at most {_MAX_PAGES:g} screens")
    return abs(screens)  # the direction says which way, as the controller reads it


def tab_id(value: Any) -> int:
    if isinstance(value, str) and value.isascii() and value.isdigit() and len(value) <= 4:
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= _MAX_TAB:
        raise BadValue(f"expected a tab number from 0 to {_MAX_TAB}")
    return value


def direction(value: Any) -> str:
    if value not in _DIRECTIONS:
        raise BadValue("expected one of " + ", ".join(_DIRECTIONS))
    return str(value)


def index(value: Any) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise BadValue("expected an element's index (a whole number from 0) or null")
    return value
