"""What came of one action, as a run keeps it: the part of an action's result that is saved.

The controller's ``ActionResult`` (``browser_agent.controller``) is this plus what only the running
process holds (the element acted on, its fingerprint, the extraction model's tokens); a step keeps either,
and saves both alike. A loaded history holds these.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

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
