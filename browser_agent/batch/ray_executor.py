"""``RayExecutor``: run a batch's agents in Ray actors, on a laptop or on a Ray cluster.

Each actor owns one browser (launched where it runs, or one endpoint of the fleet) and runs several
agents on it, each in its own context. Ray does the rest: it places the actors on the cluster's nodes,
restarts an actor that crashed and retries the tasks it was running, and queues calls to a busy actor.
There is no job queue of our own: ``run_many`` keeps at most ``concurrency`` tasks in flight and hands
each to the actor running the fewest.

What travels to the actors is pickled: the task specs (with any ``sensitive_data`` put in them; use
``TaskSpec.sensitive_env`` to read secrets from the workers' environment instead), the batch options
and the ``llm`` (a chat model carries its API key; pass a factory, ``llm=lambda: ChatOpenAI(...)``, to
read the key from the workers' environment). Histories come back redacted and are saved here.
"""

from __future__ import annotations

import asyncio
import math
import time
from collections.abc import Mapping
from dataclasses import replace
from types import ModuleType
from typing import Any

from browser_agent.batch.executors import LocalExecutor
from browser_agent.batch.options import BatchSetup
from browser_agent.batch.outcome import TaskOutcome
from browser_agent.batch.spec import TaskSpec
from browser_agent.batch.task_run import history_file
from browser_agent.browser import BrowserConfig
from browser_agent.errors import UserError, first_line
from browser_agent.extras import require
from browser_agent.record import AgentHistory

__all__ = ["BrowserWorker", "RayExecutor"]


def _import_ray() -> ModuleType:
    return require("ray", "ray", "RayExecutor")


class BrowserWorker:
    """The body of one Ray actor: a browser and the agents running on it (Ray wraps this class)."""

    def __init__(self, setup: BatchSetup) -> None:
        self._setup = setup
        self._executor = LocalExecutor()
        self._starting = asyncio.Lock()
        self._started = False

    async def run(self, spec: TaskSpec, index: int) -> TaskOutcome:
        async with self._starting:
            if not self._started:
                await self._executor.start(self._setup)
                self._started = True
        return await self._executor.run(spec, index)

    async def close(self) -> None:
        await self._executor.close()


class RayExecutor:
    """Runs each task in a Ray actor that owns a browser.

    Args:
        address: The Ray cluster to join (``auto``, ``ray://head:10001``); None starts Ray on this machine
            unless it is already initialised.
        actors: How many actors (browsers); the browsers given to ``run_many`` are dealt out in turn.
        cpus_per_actor: CPUs Ray reserves for each actor when placing it.
        max_restarts: Times Ray restarts an actor whose process died.
        max_task_retries: Times Ray re-runs a task whose actor died while running it.
        init_options: More keyword arguments for ``ray.init``.
    """

    def __init__(
        self,
        *,
        address: str | None = None,
        actors: int = 2,
        cpus_per_actor: float = 1.0,
        max_restarts: int = 2,
        max_task_retries: int = 1,
        init_options: Mapping[str, Any] | None = None,
    ) -> None:
        if actors < 1:
            raise UserError(f"RayExecutor(actors={actors}): give at least one actor.")
        self.address = address
        self.actors = actors
        self.cpus_per_actor = cpus_per_actor
        self.max_restarts = max_restarts
        self.max_task_retries = max_task_retries
        self.init_options = dict(init_options or {})
        self._handles: list[Any] = []
        self._load: list[int] = []
        self._setup: BatchSetup | None = None
        self._started_ray = False

    async def start(self, setup: BatchSetup) -> None:
        ray = _import_ray()
        configs = [b for b in setup.browsers if isinstance(b, BrowserConfig)]
        if len(configs) != len(setup.browsers):
            raise UserError(
                "RayExecutor runs browsers inside its actors, so it takes BrowserConfigs (to launch, or "
                "ws_endpoint/cdp_url to connect to), not a running Playwright Browser."
            )
        if not ray.is_initialized():
            ray.init(address=self.address, **self.init_options)
            self._started_ray = True
        worker = ray.remote(BrowserWorker)
        per_actor = math.ceil(setup.concurrency / self.actors)
        remote_options = setup.options.model_copy(update={"history_dir": None})  # histories are saved here
        self._setup, self._load = setup, [0] * self.actors
        self._handles = [
            worker.options(
                max_concurrency=per_actor,
                num_cpus=self.cpus_per_actor,
                max_restarts=self.max_restarts,
                max_task_retries=self.max_task_retries,
            ).remote(replace(setup, browsers=(configs[i % len(configs)],), options=remote_options))
            for i in range(self.actors)
        ]

    async def run(self, spec: TaskSpec, index: int) -> TaskOutcome:
        if self._setup is None:
            raise UserError("RayExecutor.run was called before start(); use it through run_many.")
        ray = _import_ray()
        slot = min(range(len(self._handles)), key=self._load.__getitem__)
        self._load[slot] += 1
        start = time.perf_counter()
        try:
            outcome: TaskOutcome = await self._handles[slot].run.remote(spec, index)
        except ray.exceptions.RayError as exc:  # the actor died more often than Ray may retry
            reason = first_line(str(exc))
            history = AgentHistory(
                task=spec.task,
                error=f"{type(exc).__name__}: Ray actor {slot} failed running the task: {reason}",
            )
            outcome = TaskOutcome(
                index, spec.task_id, history, time.perf_counter() - start, f"ray actor {slot}"
            )
        finally:
            self._load[slot] -= 1
        folder = self._setup.options.history_dir
        if folder is None:
            return outcome
        return replace(outcome, history_path=outcome.history.save(history_file(folder, spec.task_id)))

    async def close(self) -> None:
        if not self._handles and not self._started_ray:
            return
        ray = _import_ray()
        closing = [handle.close.remote() for handle in self._handles]
        if closing:
            await asyncio.wait([asyncio.ensure_future(ref) for ref in closing], timeout=10)
        for handle in self._handles:
            ray.kill(handle)
        self._handles, self._setup = [], None
        if self._started_ray:
            ray.shutdown()
            self._started_ray = False
