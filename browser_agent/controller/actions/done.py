"""``done``: end the task with the answer."""

from __future__ import annotations

from browser_agent.controller.models import ActionResult
from browser_agent.controller.registry import Registry

__all__ = ["done", "register"]


async def done(text: str, success: bool) -> ActionResult:
    """Finish the task.

    Args:
        text: The final answer for the user: the result, or why the task could not be finished.
        success: True when the task was fully completed, false when it was not.
    """
    return ActionResult(action="done", extracted_content=text, is_done=True, success=success)


def register(registry: Registry) -> None:
    registry.add(done, "Finish the task and give the final answer; actions after it are not run.")
