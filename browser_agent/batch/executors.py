"""The executors ``run_many`` can use, and the default one: agents as asyncio tasks of this process."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Protocol

from browser_agent.batch.fleet import Fleet
from browser_agent.batch.options import BatchSetup, make_llm
from browser_agent.batch.outcome import TaskOutcome
from browser_agent.batch.spec import TaskSpec
from browser_agent.batch.task_run import TaskKit, run_task
from browser_agent.controller import Controller
from browser_agent.errors import UserError

__all__ = ["Executor", "LocalExecutor"]


class Executor(Protocol):
    """Where the tasks of a batch run. ``run_many`` calls ``start`` once, then ``run`` for each task
    (at most ``setup.concurrency`` at once), then ``close``, also when interrupted.
    """

    async def start(self, setup: BatchSetup) -> None: ...

    async def run(self, spec: TaskSpec, index: int) -> TaskOutcome: ...

    async def close(self) -> None: ...


class LocalExecutor:
    """Runs each task as an asyncio task of this process, in its own context on the fleet's browsers."""

    def __init__(self) -> None:
        self._fleet: Fleet | None = None
        self._kit: TaskKit | None = None
        self._scratch: tempfile.TemporaryDirectory[str] | None = None

    async def start(self, setup: BatchSetup) -> None:
        if self._fleet is not None:
            raise UserError("This executor is already running a batch; give each run_many its own.")
        llm = make_llm(setup.llm)  # before the scratch folder, so a bad model leaves nothing behind
        save_dir = setup.options.history_dir
        if save_dir is None:
            self._scratch = tempfile.TemporaryDirectory(prefix="browser_agent_batch_")
            save_dir = Path(self._scratch.name)
        controller = setup.options.controller or Controller()
        self._kit = TaskKit(llm, setup.options, save_dir, controller)
        self._fleet = Fleet(setup.browsers)

    async def run(self, spec: TaskSpec, index: int) -> TaskOutcome:
        if self._fleet is None or self._kit is None:
            raise UserError("LocalExecutor.run was called before start(); use it through run_many.")
        return await run_task(spec, index, self._fleet, self._kit)

    async def close(self) -> None:
        if self._fleet is not None:
            await self._fleet.close()
        if self._scratch is not None:
            self._scratch.cleanup()
        self._fleet = self._kit = self._scratch = None
