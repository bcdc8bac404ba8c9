"""What the runner asks of an episode, whatever its kind: open the page and say the goal, tell when the
page ended the episode, and judge how it ended. ``SuiteEpisode`` is a suite task's; ``MiniwobEpisode``
(``miniwob.py``) a MiniWoB++ task's.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from pydantic import BaseModel

from browser_agent.browser import BrowserSession
from browser_agent.eval.checks import run_checks
from browser_agent.eval.suite import SuiteTask
from browser_agent.record import AgentHistory

__all__ = ["Episode", "SuiteEpisode", "Verdict"]


@dataclass(frozen=True, slots=True)
class Verdict:
    """The judge's word on an episode: success, a reward, and why in one line."""

    success: bool
    reward: float
    detail: str | None = None


class Episode(Protocol):
    """One episode to run: a task, a seed (or a repetition's number), and how it is judged."""

    @property
    def name(self) -> str: ...

    @property
    def family(self) -> str: ...

    @property
    def seed(self) -> int: ...

    @property
    def max_steps(self) -> int | None: ...

    @property
    def allowed_domains(self) -> tuple[str, ...] | None: ...

    @property
    def secrets(self) -> dict[str, Any] | None: ...

    @property
    def output_model(self) -> type[BaseModel] | None: ...

    @property
    def open_task_url(self) -> bool: ...

    async def open(self, session: BrowserSession) -> str:
        """Prepare the page (before the agent's first look) and return what the agent is told to do."""
        ...

    async def ended(self, session: BrowserSession) -> bool:
        """Whether the page itself ended the episode (the agent is then stopped after its step)."""
        ...

    async def verdict(self, session: BrowserSession, history: AgentHistory) -> Verdict:
        """Judge the episode from the browser as the agent left it and the run's history."""
        ...


@dataclass(frozen=True, slots=True)
class SuiteEpisode:
    """A suite task's ``repetition``-th episode: opens its ``start_url``, judged by its checks."""

    task: SuiteTask
    repetition: int = 0

    @property
    def name(self) -> str:
        return self.task.task_id

    @property
    def family(self) -> str:
        return self.task.family

    @property
    def seed(self) -> int:
        return self.repetition

    @property
    def max_steps(self) -> int | None:
        return self.task.max_steps

    @property
    def allowed_domains(self) -> tuple[str, ...] | None:
        return self.task.allowed_domains

    @property
    def secrets(self) -> dict[str, Any] | None:
        return self.task.secrets() or None

    @property
    def output_model(self) -> type[BaseModel] | None:
        return self.task.output_model

    @property
    def open_task_url(self) -> bool:
        return self.task.start_url is None

    async def open(self, session: BrowserSession) -> str:
        if self.task.start_url:
            await session.navigate(self.task.start_url)
        return self.task.task

    async def ended(self, session: BrowserSession) -> bool:
        return False

    async def verdict(self, session: BrowserSession, history: AgentHistory) -> Verdict:
        results = await run_checks(self.task.checks, session.page, history)
        passed = sum(r.passed for r in results)
        failed = [r.describe() for r in results if not r.passed]
        return Verdict(not failed, passed / len(results), "; ".join(failed) or None)
