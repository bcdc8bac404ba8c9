"""Callbacks an application can run at the start and end of each step."""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from browser_agent.agent.history import AgentStep

__all__ = ["AgentHooks"]

# The first argument is the running ``Agent``; typed loosely so this module need not import the loop.
StartHook = Callable[[Any, int], Awaitable[None] | None]
EndHook = Callable[[Any, AgentStep], Awaitable[None] | None]


async def _call(hook: Callable[..., Any] | None, *args: Any) -> None:
    if hook is None:
        return
    result = hook(*args)
    if inspect.isawaitable(result):
        await result


@dataclass(frozen=True, slots=True)
class AgentHooks:
    """``on_step_start(agent, step_number)`` and ``on_step_end(agent, step)``; sync or async."""

    on_step_start: StartHook | None = None
    on_step_end: EndHook | None = None

    async def step_start(self, agent: Any, number: int) -> None:
        await _call(self.on_step_start, agent, number)

    async def step_end(self, agent: Any, step: AgentStep) -> None:
        await _call(self.on_step_end, agent, step)
