"""Callbacks an application can run at the start, phases and end of each step, on retries, and at the end."""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Literal

from browser_agent.record import AgentHistory, AgentStep

__all__ = ["PHASE_WORDS", "AgentHooks", "StepPhase"]

StepPhase = Literal["observe", "decide", "act"]
"""The phases of a step: read the page, ask the model, run the actions."""

PHASE_WORDS: dict[StepPhase, str] = {
    "observe": "reading the page",
    "decide": "waiting for the model",
    "act": "running the actions",
}
"""Each phase in words, as progress output and an interrupted step's error say it."""

# The first argument is the running ``Agent``; typed loosely so this module need not import the loop.
StartHook = Callable[[Any, int], Awaitable[None] | None]
PhaseHook = Callable[[Any, int, StepPhase], Awaitable[None] | None]
EndHook = Callable[[Any, AgentStep], Awaitable[None] | None]
RetryHook = Callable[[Any, str], Awaitable[None] | None]
RunEndHook = Callable[[Any, AgentHistory], Awaitable[None] | None]
HaltHook = Callable[[Any, int, str], Awaitable[None] | None]
_PENDING: set[asyncio.Future[Any]] = set()  # async retry hooks in flight (kept so they are not collected)


async def _call(hook: Callable[..., Any] | None, *args: Any) -> None:
    if hook is None:
        return
    result = hook(*args)
    if inspect.isawaitable(result):
        await result


@dataclass(frozen=True, slots=True)
class AgentHooks:
    """Sync or async callbacks, each given the running ``Agent`` first.

    ``on_step_start(agent, step_number)``; ``on_step_phase(agent, step_number, phase)`` as the step
    moves to ``"observe"`` (reading the page), ``"decide"`` (the model is asked: the long wait with a
    slow model) and ``"act"``; ``on_step_end(agent, step)``; ``on_retry(agent, message)`` (a provider
    call failed and is retried: said while the wait runs) and ``on_run_end(agent, history)`` (also when
    the run fails or is interrupted). ``on_step_halted(agent, step_number, message)``: ``pause()`` came
    while the model was asked; the call was cancelled and the step withdrawn (it starts again, with its
    number, on resume; a ``stop()`` instead ends the step, recorded as stopped). Step 0, the actions run
    before the first step (``initial_actions`` or the task's address), has a start, an ``act`` phase and
    an end too. A step cut short by Ctrl-C still ends: ``on_step_end`` gets it, failed, before
    ``on_run_end``. ``ConsoleReporter().hooks()`` fills them to print the run.
    """

    on_step_start: StartHook | None = None
    on_step_end: EndHook | None = None
    on_retry: RetryHook | None = None
    on_run_end: RunEndHook | None = None
    on_step_phase: PhaseHook | None = None  # after the others: the fields before keep their positions
    on_step_halted: HaltHook | None = None

    async def step_halted(self, agent: Any, number: int, message: str) -> None:
        await _call(self.on_step_halted, agent, number, message)

    async def step_start(self, agent: Any, number: int) -> None:
        await _call(self.on_step_start, agent, number)

    async def step_phase(self, agent: Any, number: int, phase: StepPhase) -> None:
        await _call(self.on_step_phase, agent, number, phase)

    async def step_end(self, agent: Any, step: AgentStep) -> None:
        await _call(self.on_step_end, agent, step)

    async def run_end(self, agent: Any, history: AgentHistory) -> None:
        await _call(self.on_run_end, agent, history)

    def retry(self, agent: Any, message: str) -> None:
        """Tell ``on_retry``; called from inside the retry loop, so an async hook is scheduled."""
        if self.on_retry is None:
            return
        result = self.on_retry(agent, message)
        if inspect.isawaitable(result):
            task = asyncio.ensure_future(result)
            _PENDING.add(task)
            task.add_done_callback(_PENDING.discard)
