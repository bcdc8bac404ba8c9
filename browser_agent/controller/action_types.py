"""What the controller exchanges with the agent: ``ActionModel`` (one action the model chose) and
``ActionResult`` (what happened, written for the model)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, InstanceOf

from browser_agent.dom.snapshot import ElementNode
from browser_agent.record.fingerprint import Fingerprint
from browser_agent.record.result import RecordedResult
from browser_agent.record.usage import TokenUsage

__all__ = ["ActionModel", "ActionResult"]


def _drop_property_titles(schema: dict[str, Any]) -> None:
    """Field titles repeat the field names: dropped, since the model reads the schema every step."""
    for prop in schema.get("properties", {}).values():
        if isinstance(prop, dict):
            prop.pop("title", None)


class ActionModel(BaseModel):
    """Base of every action model: a flat object whose ``action`` field names the action.

    ``{"action": "click_element", "index": 3}`` is one action; each registered action gets its own
    subclass where ``action`` is a ``Literal`` of its name, so a union of them is discriminated.
    """

    model_config = ConfigDict(extra="forbid", json_schema_extra=_drop_property_titles)

    action: str

    def params(self) -> dict[str, Any]:
        """The parameters without the ``action`` name, as given (not serialized)."""
        return {name: getattr(self, name) for name in type(self).model_fields if name != "action"}

    def element_index(self) -> int | None:
        """The element index this action refers to, if it has one."""
        value = getattr(self, "index", None)
        return value if isinstance(value, int) and not isinstance(value, bool) else None


class ActionResult(RecordedResult):
    """The outcome of one action, as the model will read it.

    The saved fields are ``RecordedResult``'s. ``element`` is the element acted on, ``fingerprint`` what
    finds it again on a later page (replay, workflows), and ``usage`` the tokens an extraction model spent
    on the action (for the run's totals), ``offered_again`` that its hold (``HeldForNowError``) asks for
    the same action later; none of them is serialized with the result (the record keeps the fingerprint
    beside it).
    """

    element: InstanceOf[ElementNode] | None = Field(default=None, exclude=True)
    fingerprint: InstanceOf[Fingerprint] | None = Field(default=None, exclude=True)
    usage: InstanceOf[TokenUsage] | None = Field(default=None, exclude=True)
    offered_again: bool = Field(default=False, exclude=True)
