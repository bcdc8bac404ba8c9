"""The recorded parameters of each action the export writes, checked before a line is written.

A history or a workflow is a file anyone may hand over, and its parameters are whatever JSON it holds:
a NaN, a tab id of ``"x"``, a missing ``url``. Each is refused here with one line naming the step, the
action and the parameter (``UserError``), never a traceback and never a script that does something
else; the values that pass come back normalised (a tab id as an int, a wait clamped as the controller
clamps it), so that the writer only formats them. What each parameter must be, and its default, is the
action's spec's (``browser_agent.action_specs``): its ``checks``, else its parameter model.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from pydantic import ValidationError

from browser_agent.action_specs import BUILTIN_SPECS, ActionSpec, BadValue, spec_of
from browser_agent.errors import UserError
from browser_agent.export.steps import ExportStep
from browser_agent.record import Fingerprint
from browser_agent.user_files import validation_message

__all__ = ["KNOWN_ACTIONS", "checked_step"]

_SHOWN = 40
_MISSING = object()
KNOWN_ACTIONS = frozenset(BUILTIN_SPECS)


def checked_step(step: ExportStep, where: str) -> ExportStep:
    """``step`` with the parameters its action's export reads checked and normalised, the others left
    out; an action the export cannot write comes back as it is (the writer leaves it out, with a warning).

    Raises:
        UserError: a parameter is missing, of the wrong type or out of range, or the recorded element
            is malformed; the message names ``where`` (``step 3``), the action and the parameter.
    """
    spec = spec_of(step.action)
    if spec is None or spec.export is None:
        return step
    given = step.params if isinstance(step.params, Mapping) else None  # None: every parameter is missing
    params = _validated(spec, given or {}, where) if spec.checks is None else _checked(spec, given, where)
    _check_element(step, where)
    return replace(step, params=params)


def _checked(spec: ActionSpec[Any], given: Mapping[str, Any] | None, where: str) -> dict[str, Any]:
    params: dict[str, Any] = {}
    for name, check in (spec.checks or {}).items():
        default = spec.default(name)
        value = _MISSING if given is None else given.get(name, _MISSING if default is ... else default)
        if value is _MISSING:
            raise UserError(f"{where}, action {spec.name}: parameter {name} is missing. {_FIX}")
        try:
            params[name] = check(value)
        except BadValue as bad:
            raise UserError(
                f"{where}, action {spec.name}: parameter {name} is {_shown(value)}; {bad}. {_FIX}"
            ) from None
    return params


def _validated(spec: ActionSpec[Any], given: Mapping[str, Any], where: str) -> dict[str, Any]:
    """The parameters of an action declared without checks, validated by its own model."""
    try:
        checked: dict[str, Any] = spec.params_of(given).model_dump()
        return checked
    except ValidationError as exc:
        fault = validation_message(exc)
        raise UserError(f"{where}, action {spec.name}: parameter {fault}. {_FIX}") from None


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
