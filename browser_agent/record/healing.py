"""What healing changed in a recording (``--heal``), saved with the healed copy: data only, so that loading
a healed workflow or history loads no replay."""

from __future__ import annotations

from typing import Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field

__all__ = ["HEALING_FORMAT", "HealRecord", "StepChange"]

HEALING_FORMAT: Final = "browser-agent-healing"


class StepChange(BaseModel):
    """What healing changed in one step: the action and element before and after, and why."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    step: int = Field(description="The step's number (1 = the first step).")
    reason: str = Field(default="", description="Why the recorded element could not be used.")
    action_before: dict[str, Any] = Field(description="The recorded action, as {action: name, **params}.")
    action_after: dict[str, Any] = Field(description="The action the model chose in its place.")
    element_before: str = Field(default="", description="The recorded element, in words.")
    element_after: str = Field(default="", description="The element the model acted on, in words.")


class HealRecord(BaseModel):
    """What a healed copy was made from and what changed in it, step by step."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    format: Literal["browser-agent-healing"] = HEALING_FORMAT
    version: Literal[1] = 1
    healed_from: str = Field(description="The file the healed copy was made from.")
    changes: list[StepChange] = Field(default_factory=list)
