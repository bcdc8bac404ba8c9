"""``done``: end the task with the answer (behaviour: ``controller/actions/done.py``)."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field

from browser_agent.action_specs.placeholders import Placeholders
from browser_agent.action_specs.spec import ActionSpec, Script

__all__ = ["DONE", "SPECS"]


class DoneParams(BaseModel):
    model_config = ConfigDict(extra="forbid")

    # The answer goes to the user, never to a page: placeholders stay.
    text: Annotated[str, Placeholders.KEPT] = Field(
        description="The final answer for the user: the result, or why the task could not be finished."
    )
    success: bool = Field(description="True when the task was fully completed, false when it was not.")


def _done(p: DoneParams, script: Script) -> list[str]:
    return ["# the agent reported the task done here"]


DONE = ActionSpec(
    "done", "Finish with the answer and whether the task succeeded.", DoneParams, export=_done, checks={}
)
SPECS = (DONE,)
