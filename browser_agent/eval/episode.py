"""What the runner asks of an episode, whatever its kind: the batch task it runs as, and its judge (open
the page and say the goal, tell when the page ended the episode, judge how it ended; ``batch/judge.py``).
``SuiteEpisode`` is a suite task's; ``MiniwobEpisode`` (``miniwob.py``) a MiniWoB++ task's.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from browser_agent.batch import TaskSpec
from browser_agent.batch.judge import Judge, Verdict
from browser_agent.browser import BrowserSession
from browser_agent.eval.checks import run_checks
from browser_agent.eval.suite import SuiteTask
from browser_agent.record import AgentHistory

__all__ = ["Episode", "SuiteEpisode", "Verdict"]


class Episode(Judge, Protocol):
    """One episode to run: a task, a seed (or a repetition's number), the batch task it runs as, and
    the judge of how it ended (``Judge``'s ``open``, ``ended`` and ``verdict``)."""

    @property
    def name(self) -> str: ...

    @property
    def family(self) -> str: ...

    @property
    def seed(self) -> int: ...

    @property
    def spec(self) -> TaskSpec:
        """The batch task: its id ``<name>-<seed>`` (its history's file name), steps, fence, secrets,
        answer's shape, and this episode as its ``judge``."""
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
    def spec(self) -> TaskSpec:
        # The episode opens the start page itself: one that does not load is the episode's error, not
        # a step the model is charged with.
        update = {"id": f"{self.name}-{self.seed}", "start_url": None, "judge": self}
        return self.task.model_copy(update=update)

    async def open(self, session: BrowserSession) -> str | None:
        if not self.task.start_url:
            return None  # the agent opens the address its task names, as a batch task's would
        await session.navigate(self.task.start_url)
        return self.task.task

    async def ended(self, session: BrowserSession) -> bool:
        return False

    async def verdict(self, session: BrowserSession, history: AgentHistory) -> Verdict:
        results = await run_checks(self.task.checks, session.page, history)
        passed = sum(r.passed for r in results)
        failed = [r.describe() for r in results if not r.passed]
        return Verdict(not failed, passed / len(results), "; ".join(failed) or None)
