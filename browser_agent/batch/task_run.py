"""Run one task of a batch on a fleet: its own context, its own agent, and every failure kept in its history.

A task never raises for what happened to it: a model or browser error, a bug, a lost connection
all end up as ``history.error``. Only cancellation from outside (Ctrl-C) propagates, after the agent
saved its history. A task with a judge (``batch/judge.py``) is an episode: the judge opens its page
before the agent, stops the agent when the page ends the episode, and gives the verdict after.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from langchain_core.language_models import BaseChatModel

from browser_agent import artifacts
from browser_agent.agent import Agent, AgentHooks, AgentSettings
from browser_agent.agent.hooks import EndHook
from browser_agent.batch.fleet import Endpoint, Fleet
from browser_agent.batch.judge import Judge, Verdict
from browser_agent.batch.options import BatchOptions
from browser_agent.batch.outcome import TaskOutcome
from browser_agent.batch.spec import TaskSpec
from browser_agent.browser import BrowserSession
from browser_agent.browser.fence_rule import FenceSource, resolve_fence
from browser_agent.browser.playwright_errors import PlaywrightError
from browser_agent.controller import Controller
from browser_agent.errors import AgentRunError, BrowserAgentError, first_line
from browser_agent.record import AgentHistory, AgentStep
from browser_agent.sensitive import Secrets

__all__ = ["TaskKit", "history_file", "run_task"]

logger = logging.getLogger("browser_agent")
_UNSAFE_NAME = re.compile(r"[^A-Za-z0-9._-]+")


def history_file(folder: Path, task_id: str) -> Path:
    """Where a task's history is saved: ``<folder>/<task id>.json``, the id made safe for a file name."""
    return folder / f"{_UNSAFE_NAME.sub('_', task_id).strip('.') or 'task'}.json"


@dataclass
class TaskKit:
    """What the tasks run by one process share: the model, the controllers, where histories go.

    ``save_dir`` is where agents save their history (a temporary folder when the user gave no
    ``history_dir``, so that an interrupted agent never writes into the working directory).
    """

    llm: BaseChatModel
    options: BatchOptions
    save_dir: Path
    controller: Controller = field(default_factory=Controller)  # shared: agents only read it

    def settings_for(
        self, spec: TaskSpec, fence: tuple[str, ...] | None, *, opened: bool = False
    ) -> AgentSettings:
        """The batch's settings for ``spec``, kept to ``fence`` (``task_fence``). ``opened``: a judge
        prepared the page and said the task, so the agent starts there (no address in it is opened)."""
        settings = self.options.settings
        update: dict[str, Any] = {
            "save_history_path": history_file(self.save_dir, spec.task_id),
            "allowed_domains": fence,
            "open_task_url": settings.open_task_url and not opened,
        }
        if spec.start_url:
            update["initial_actions"] = [
                {"action": "go_to_url", "url": spec.start_url},
                *settings.initial_actions,
            ]
        return settings.model_copy(update=update)

    def task_fence(self, spec: TaskSpec, endpoint: Endpoint) -> tuple[str, ...] | None:
        """The fence of ``spec``'s run, by the one rule (``browser/fence_rule.py``): the task's own list is
        a choice; the batch's (its settings' and its browsers') are defaults for tasks without one.

        Raises:
            UserError: the batch's two defaults differ and neither is within the other.
        """
        return resolve_fence(
            FenceSource.choice(f"task {spec.task_id}'s allowed_domains", spec.allowed_domains),
            FenceSource.default("the batch's allowed_domains", self.options.settings.allowed_domains),
            FenceSource.default("the batch's browser fence", endpoint.config.allowed_domains),
        )


class _Run:
    """One task's agent and history, whatever becomes of it; a judged task's verdict."""

    def __init__(self, spec: TaskSpec, kit: TaskKit) -> None:
        self.spec, self.kit = spec, kit
        self.secrets = Secrets()
        self.history = AgentHistory(task=spec.task)
        self.endpoint: Endpoint | None = None
        self.verdict: Verdict | None = None
        self.timed_out = False

    async def run_on(self, endpoint: Endpoint) -> None:
        self.endpoint = endpoint
        spec, judge = self.spec, self.spec.judge
        # a secret too short to redact is a UserError here
        self.secrets = artifacts.remember(Secrets(spec.secrets()))
        fence = self.kit.task_fence(spec, endpoint)
        config = endpoint.config.model_copy(update={"allowed_domains": fence})
        async with BrowserSession(config, browser=endpoint.browser) as session:
            goal = await judge.open(session) if judge is not None else None
            agent = self._agent(session, self.kit.settings_for(spec, fence, opened=goal is not None), goal)
            await self._drive(agent)
            if judge is not None:
                self.verdict = await _judged(judge, session, agent.history)

    def _agent(self, session: BrowserSession, settings: AgentSettings, goal: str | None) -> Agent:
        judge = self.spec.judge
        agent = Agent(
            goal or self.spec.task,
            self.kit.llm,
            controller=self.kit.controller,
            browser=session,
            settings=settings,
            sensitive_data=self.secrets,
            hooks=AgentHooks(on_step_end=_stop_when_ended(judge, session)) if judge is not None else None,
            output_model=self.spec.output_model,
        )
        self.history = agent.history
        return agent

    async def _drive(self, agent: Agent) -> None:
        limit = self.kit.options.task_timeout_s
        try:
            async with asyncio.timeout(limit) as scope:
                await agent.run(max_steps=self.spec.max_steps or self.kit.options.max_steps)
        except TimeoutError:
            if not scope.expired():
                raise
            self.timed_out = True
            self.fail(f"TimeoutError: still running after task_timeout_s={limit} s; stopped.")
        except AgentRunError:
            if self.spec.judge is None:
                raise
            # an episode is judged however its run ended: its history says how, for the failure kinds

    def fail(self, message: str) -> None:
        self.history.error = self.secrets.redact(message)
        logger.warning("task %s failed: %s", self.spec.task_id, self.history.error)

    def fail_with(self, exc: Exception, fleet: Fleet) -> None:
        lost = fleet.check_lost(self.endpoint) if self.endpoint is not None else None
        said = first_line(str(exc))
        if lost is not None:
            self.fail(f"BrowserError: {lost} ({type(exc).__name__}: {said})")
            return
        if not isinstance(exc, BrowserAgentError):  # a bug, ours or in an action: keep its traceback
            trace = "".join(traceback.format_exception(exc))
            logger.warning("task %s raised:\n%s", self.spec.task_id, self.secrets.redact(trace))
        self.fail(f"{type(exc).__name__}: {exc}")

    def outcome(self, index: int, seconds: float) -> TaskOutcome:
        saved = None
        if self.kit.options.history_dir is not None:
            saved = self.history.save(history_file(self.kit.options.history_dir, self.spec.task_id))
        name = self.endpoint.name if self.endpoint is not None else ""
        return TaskOutcome(
            index, self.spec.task_id, self.history, seconds, name, saved, self.verdict, self.timed_out
        )


def _stop_when_ended(judge: Judge, session: BrowserSession) -> EndHook:
    """The hook that stops the agent after the step at which the page ended the episode."""

    async def stop(agent: Agent, step: AgentStep) -> None:
        with contextlib.suppress(PlaywrightError, TimeoutError):  # judged at the end all the same
            if await judge.ended(session):
                agent.stop()

    return stop


async def _judged(judge: Judge, session: BrowserSession, history: AgentHistory) -> Verdict:
    try:
        return await judge.verdict(session, history)
    except (PlaywrightError, TimeoutError, BrowserAgentError) as exc:
        return Verdict(False, 0.0, f"could not judge the page: {first_line(exc)}")


async def run_task(spec: TaskSpec, index: int, fleet: Fleet, kit: TaskKit) -> TaskOutcome:
    """Run ``spec`` in a fresh context on the fleet's least busy browser; never raises but on cancellation."""
    start = time.perf_counter()
    run = _Run(spec, kit)
    try:
        async with fleet.slot() as endpoint:
            await run.run_on(endpoint)
    except asyncio.CancelledError:
        reason = fleet.cut_off_reason()
        if reason is None:
            raise
        run.fail(f"BrowserError: {reason}")
    except Exception as exc:
        run.fail_with(exc, fleet)
    return run.outcome(index, time.perf_counter() - start)
