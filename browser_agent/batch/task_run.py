"""Run one task of a batch on a fleet: its own context, its own agent, and every failure kept in its history.

A task never raises for what happened to it: a model or browser error, a bug, a lost connection
all end up as ``history.error``. Only cancellation from outside (Ctrl-C) propagates, after the agent
saved its history.
"""

from __future__ import annotations

import asyncio
import logging
import re
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from langchain_core.language_models import BaseChatModel

from browser_agent import artifacts
from browser_agent.agent import Agent, AgentSettings
from browser_agent.batch.fleet import Endpoint, Fleet
from browser_agent.batch.options import BatchOptions
from browser_agent.batch.outcome import TaskOutcome
from browser_agent.batch.spec import TaskSpec
from browser_agent.browser import BrowserSession
from browser_agent.browser.fence_rule import FenceSource, resolve_fence
from browser_agent.controller import Controller
from browser_agent.errors import BrowserAgentError, first_line
from browser_agent.record import AgentHistory
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

    def settings_for(self, spec: TaskSpec, fence: tuple[str, ...] | None) -> AgentSettings:
        """The batch's settings for ``spec``, kept to ``fence`` (``task_fence``)."""
        settings = self.options.settings
        update: dict[str, Any] = {
            "save_history_path": history_file(self.save_dir, spec.task_id),
            "allowed_domains": fence,
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
    """One task's agent and history, whatever becomes of it."""

    def __init__(self, spec: TaskSpec, kit: TaskKit) -> None:
        self.spec, self.kit = spec, kit
        self.secrets = Secrets()
        self.history = AgentHistory(task=spec.task)
        self.endpoint: Endpoint | None = None

    async def run_on(self, endpoint: Endpoint) -> None:
        self.endpoint = endpoint
        spec, kit = self.spec, self.kit
        # a secret too short to redact is a UserError here
        self.secrets = artifacts.remember(Secrets(spec.secrets()))
        fence = kit.task_fence(spec, endpoint)
        settings = kit.settings_for(spec, fence)
        config = endpoint.config.model_copy(update={"allowed_domains": fence})
        session = BrowserSession(config, browser=endpoint.browser)
        agent = Agent(
            spec.task,
            kit.llm,
            controller=kit.controller,
            browser=session,
            settings=settings,
            sensitive_data=self.secrets,
            output_model=spec.output_model,
        )
        self.history = agent.history
        limit = kit.options.task_timeout_s
        async with session:
            try:
                async with asyncio.timeout(limit) as scope:
                    await agent.run(max_steps=spec.max_steps or kit.options.max_steps)
            except TimeoutError:
                if not scope.expired():
                    raise
                self.fail(f"TimeoutError: still running after task_timeout_s={limit} s; stopped.")

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
        return TaskOutcome(index, self.spec.task_id, self.history, seconds, name, saved)


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
