"""Callbacks an application can run at the start and end of each step."""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from browser_agent.agent.agent import Agent
    from browser_agent.agent.history import AgentStep

__all__ = ["AgentHooks"]

StartHook = Callable[["Agent", int], Awaitable[None] | None]
EndHook = Callable[["Agent", "AgentStep"], Awaitable[None] | None]


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

    async def step_start(self, agent: Agent, number: int) -> None:
        await _call(self.on_step_start, agent, number)

    async def step_end(self, agent: Agent, step: AgentStep) -> None:
        await _call(self.on_step_end, agent, step)
