"""One action's declaration, apart from its behaviour: its name, its parameters (types, defaults, the
descriptions the model reads), how the Playwright export writes it, which parameters are workflow
inputs, and what its recorded values must be for the export.

The controller runs the action with this ``params`` model (``controller/actions/`` names the spec when it
registers the function), the export writes it with ``export`` and the workflow maker reads ``inputs``:
each reads the same object, so a default is written once. Nothing here loads Playwright or langchain.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, Literal, Protocol, TypeVar

from pydantic import BaseModel

from browser_agent.record import ActionCall, Fingerprint

__all__ = ["ActionSpec", "BadValue", "Check", "Input", "InputKind", "Renderer", "Script"]

P = TypeVar("P", bound=BaseModel)
InputKind = Literal["typed", "selected", "url", "query"]
Check = Callable[[Any], Any]


class BadValue(ValueError):
    """A recorded parameter's value is not one the action takes; the message says what it takes."""


@dataclass(frozen=True, slots=True)
class Input:
    """How one parameter's recorded value becomes an input of the workflow made from the run.

    Attributes:
        kind: ``typed`` into a field, ``selected`` in a list, a ``url`` opened, or a search ``query``.
        name: The input's name; when None, ``url`` and ``query`` for those kinds, else named for the
            field the action acted on (its label), or for the parameter when it acted on none.
        description: The input in words, for ``workflow show``; when None, said from its kind.
    """

    kind: InputKind
    name: str | None = None
    description: str | None = None


class Script(Protocol):
    """What an export renderer writes one step with; the export gives it (``export/actions.py``).

    Every text a recording holds must reach the script through ``literal``, ``value`` or ``url``: they
    write it as a Python literal or an input's name, never as code.
    """

    @property
    def element(self) -> Fingerprint | None:
        """The element the step acted on, as recorded (None when it named none)."""

    @property
    def opened_tab(self) -> bool:
        """Whether the step opened a tab the run went on in."""

    def literal(self, text: str) -> str:
        """``text`` as a Python string literal."""

    def value(self, param: str, otherwise: str | None = None) -> str:
        """The expression for parameter ``param``'s recorded value: an input of the script (named as the
        workflow named it, else ``otherwise``, else for the element's label), or its secrets read from
        the environment."""

    def url(self, address: str) -> str:
        """An address as Python: under the run's site, relative to the script's ``base_url`` input."""

    def on_element(self, call: str, *, follow_tab: bool = False) -> list[str]:
        """The lines that find the step's element and call ``call`` on it (``click()``); with
        ``follow_tab``, the script goes on in the tab the call opens. A step without a recorded element is
        left out of the script, with a warning."""


Renderer = Callable[[P, Script], list[str]]


@dataclass(frozen=True, slots=True)
class ActionSpec(Generic[P]):
    """One action's declaration.

    Attributes:
        name: The action's name, as the model writes it.
        description: What it does, written for the model.
        params: Its parameters: types, defaults, descriptions for the model, ``Placeholders`` marks.
        export: How the Playwright export writes a recorded call (None: the export leaves it out, with a
            warning).
        inputs: The parameters whose recorded value is a workflow input, and of what kind.
        checks: For the export, the parameters its renderer reads, each with the check its recorded
            value must pass (``action_specs/checks.py``; it may normalise the value). None: the whole
            ``params`` model validates the recorded values instead.
        tabs: The action opens, switches or closes tabs (the script keeps a list of them).
        script_words: The attributes and keywords ``export`` writes beyond those the export writes itself
            (``page.evaluate`` is ``{"evaluate"}``), which the last check on a script then accepts.
    """

    name: str
    description: str
    params: type[P]
    export: Renderer[P] | None = None
    inputs: Mapping[str, Input] = field(default_factory=dict)
    checks: Mapping[str, Check] | None = None
    tabs: bool = False
    script_words: frozenset[str] = frozenset()

    def params_of(self, call: ActionCall | Mapping[str, Any]) -> P:
        """The parameters of ``call`` as this action's model, defaults filled in; a parameter the model
        does not know (one an older version recorded) is left out.

        Raises:
            pydantic.ValidationError: a parameter is missing or of the wrong type.
        """
        given = call.params if isinstance(call, ActionCall) else call
        return self.params.model_validate({k: v for k, v in given.items() if k in self.params.model_fields})

    def default(self, param: str) -> Any:
        """The default of ``param``; ``...`` when it has none (the model must give it)."""
        info = self.params.model_fields[param]
        return ... if info.is_required() else info.get_default(call_default_factory=True)
