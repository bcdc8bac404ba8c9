"""Pause and stop land while the model thinks: the call under way is cancelled, not waited for.

A slow model answers in tens of seconds; a person who presses Pause or Stop expects it to happen now.
``Agent.pause()`` and ``Agent.stop()`` set the run's halt event; ``unless_halted`` races the model call
against it and cancels the call (an ``asyncio`` cancellation of its task: the provider's HTTP request is
dropped) when the event comes first. The loop then pauses with the step to be asked again, or ends it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any, TypeVar

__all__ = ["PAUSED_MESSAGE", "STOPPED_MESSAGE", "StepHalted", "unless_halted"]

T = TypeVar("T")

PAUSED_MESSAGE = (
    "Paused while waiting for the model: the model call under way was cancelled; on resume the step "
    "reads the page and asks the model again."
)
STOPPED_MESSAGE = "Stopped while waiting for the model: the model call under way was cancelled."


class StepHalted(Exception):
    """The model call of the step under way was cancelled: the run was paused or stopped."""


async def unless_halted(call: Coroutine[Any, Any, T], halt: asyncio.Event | None) -> T:
    """Await ``call``; when ``halt`` is set first (or already), cancel it and raise ``StepHalted``.

    A call that has answered wins over a halt that comes at the same moment: its answer is used.

    Raises:
        StepHalted: ``halt`` was set before ``call`` finished.
    """
    if halt is None:
        return await call
    if halt.is_set():
        call.close()
        raise StepHalted
    job = asyncio.ensure_future(call)
    halted = asyncio.ensure_future(halt.wait())
    try:
        await asyncio.wait({job, halted}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        halted.cancel()
        if not job.done():
            job.cancel()
            # wait, not await: the job's own CancelledError is not ours, and a second cancellation of
            # this task (Ctrl-C, the step's time limit) still goes through
            await asyncio.wait({job})
    if job.cancelled():
        raise StepHalted
    return job.result()
