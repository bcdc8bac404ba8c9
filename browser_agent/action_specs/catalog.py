"""The specs the export and the workflow maker look actions up in, by name: the built-ins, and the custom
actions registered with an export or inputs (``@controller.action(..., export=..., inputs=...)``).

The catalog is the process's: a history is exported, or a workflow made, from a file, with no controller
at hand. A custom spec replaces one of the same name, a built-in's included.
"""

from __future__ import annotations

from typing import Any

from browser_agent.action_specs import done, elements, extraction, forms, navigation, scrolling, tabs
from browser_agent.action_specs.spec import ActionSpec

__all__ = ["BUILTIN_SPECS", "add_spec", "custom_script_words", "spec_of"]

BUILTIN_SPECS: dict[str, ActionSpec[Any]] = {
    spec.name: spec
    for module in (navigation, elements, forms, tabs, scrolling, extraction, done)
    for spec in module.SPECS
}
_ADDED: dict[str, ActionSpec[Any]] = {}


def spec_of(name: str) -> ActionSpec[Any] | None:
    """The spec of the action ``name``: a custom one when registered, else the built-in; None if none."""
    return _ADDED.get(name) or BUILTIN_SPECS.get(name)


def add_spec(spec: ActionSpec[Any]) -> None:
    """Make ``spec`` the one the export and the workflow maker read for its action's name."""
    _ADDED[spec.name] = spec


def custom_script_words() -> frozenset[str]:
    """The attributes and keywords the custom actions' renderers write (``ActionSpec.script_words``)."""
    return frozenset(word for spec in _ADDED.values() for word in spec.script_words)
