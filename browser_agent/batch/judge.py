"""What makes a batch task an episode of an evaluation: a ``Judge`` that prepares its page before the
agent's first look, says when the page itself ended the episode, and gives the ``Verdict`` after.

A task with a judge (``TaskSpec.judge``) runs as every task of a batch does (its own context, its fence,
its time limit, every failure kept in its history); its ``TaskOutcome.verdict`` is the judge's word.
``browser_agent.eval`` runs its MiniWoB++ and suite episodes so.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from browser_agent.browser import BrowserSession
from browser_agent.record import AgentHistory

__all__ = ["Judge", "Verdict"]


@dataclass(frozen=True, slots=True)
class Verdict:
    """The judge's word on an episode: success, a reward, and why in one line."""

    success: bool
    reward: float
    detail: str | None = None


@runtime_checkable
class Judge(Protocol):
    """The hooks of a judged task, called on the task's own session."""

    async def open(self, session: BrowserSession) -> str | None:
        """Prepare the page before the agent's first look and return what the agent is told to do; or
        return None to start as any batch task does (the spec's task, start URL, or the address it names)."""
        ...

    async def ended(self, session: BrowserSession) -> bool:
        """Whether the page itself ended the episode (the agent is then stopped after its step)."""
        ...

    async def verdict(self, session: BrowserSession, history: AgentHistory) -> Verdict:
        """Judge the episode from the browser as the agent left it and the run's history."""
        ...
