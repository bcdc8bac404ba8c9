"""What came of one action, as a run keeps it: the part of an action's result that is saved.

The controller's ``ActionResult`` (``browser_agent.controller``) is this plus what only the running
process holds (the element acted on, its fingerprint, the extraction model's tokens); a step keeps either,
and saves both alike. A loaded history holds these. ``held`` marks an error that is a hold
(``HeldBackError``): a check on the model's choice kept the action back once, and nothing was done.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, SerializerFunctionWrapHandler, model_serializer

__all__ = ["RecordedResult"]


class RecordedResult(BaseModel):
    """The outcome of one action as the model read it and the record keeps it."""

    model_config = ConfigDict(extra="forbid")

    action: str = Field(default="", description="Name of the action this result belongs to.")
    extracted_content: str | None = Field(
        default=None, description="What happened, or the content extracted."
    )
    error: str | None = Field(default=None, description="Why the action failed; None when it succeeded.")
    is_done: bool = Field(default=False, description="The task is finished (set by `done`).")
    success: bool | None = Field(default=None, description="With is_done: whether the task succeeded.")
    include_in_memory: bool = Field(default=True, description="Keep the content in the model's memory.")
    skipped: bool = Field(default=False, description="The action was not run; extracted_content says why.")
    new_tab: int | None = Field(default=None, description="The tab this action opened and switched to.")
    held: bool = Field(
        default=False, description="With error: a check on the model's choice held the action back once."
    )

    @model_serializer(mode="wrap")
    def _saved(self, handler: SerializerFunctionWrapHandler) -> Any:
        """The fields, ``held`` only where it is true: a history saved before there were holds loads and
        saves again as it was."""
        data = handler(self)
        if isinstance(data, dict) and not self.held:
            data.pop("held", None)
        return data
