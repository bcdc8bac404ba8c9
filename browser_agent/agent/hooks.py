"""Callbacks an application can run at the start and end of each step, on retries, and at the end."""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from browser_agent.record import AgentHistory, AgentStep

__all__ = ["AgentHooks"]

# The first argument is the running ``Agent``; typed loosely so this module need not import the loop.
StartHook = Callable[[Any, int], Awaitable[None] | None]
EndHook = Callable[[Any, AgentStep], Awaitable[None] | None]
RetryHook = Callable[[Any, str], Awaitable[None] | None]
RunEndHook = Callable[[Any, AgentHistory], Awaitable[None] | None]
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

    ``on_step_start(agent, step_number)``, ``on_step_end(agent, step)``, ``on_retry(agent, message)``
    (a provider call failed and is retried: said while the wait runs) and ``on_run_end(agent, history)``
    (also when the run fails). ``ConsoleReporter().hooks()`` fills them to print the run.
    """

    on_step_start: StartHook | None = None
    on_step_end: EndHook | None = None
    on_retry: RetryHook | None = None
    on_run_end: RunEndHook | None = None

    async def step_start(self, agent: Any, number: int) -> None:
        await _call(self.on_step_start, agent, number)

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
