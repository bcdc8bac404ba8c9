"""A running batch in the UI, task by task: an ``Executor`` that wraps another (``LocalExecutor`` by
default) and says when each task starts and how it ended. Texts are redacted with the task's secrets."""

from __future__ import annotations

import contextlib

from browser_agent import artifacts
from browser_agent.batch import Executor, LocalExecutor, TaskOutcome, TaskSpec
from browser_agent.batch.options import BatchSetup
from browser_agent.errors import UserError
from browser_agent.sensitive import Secrets
from browser_agent.ui.viewers import Hub

__all__ = ["BatchBoard"]


class BatchBoard:
    """Shows the batch it runs in the UI: use as ``run_many(..., executor=live.batch_board())``."""

    def __init__(self, hub: Hub, inner: Executor | None = None) -> None:
        self.hub = hub
        self.inner: Executor = inner or LocalExecutor()

    async def start(self, setup: BatchSetup) -> None:
        self.hub.publish({"type": "batch_start", "concurrency": setup.concurrency})
        await self.inner.start(setup)

    async def run(self, spec: TaskSpec, index: int) -> TaskOutcome:
        task = _redactor(spec).redact(spec.task)
        row = {"type": "batch_task", "index": index, "id": spec.task_id, "task": task}
        self.hub.publish(row | {"state": "running"})
        outcome = await self.inner.run(spec, index)
        history = outcome.history
        self.hub.publish(
            row
            | {
                "state": "succeeded" if outcome.success else "failed",
                "steps": history.model_steps(),
                "seconds": round(outcome.seconds, 1),
                "result": history.final_result() if outcome.success else outcome.error,  # redacted records
            }
        )
        return outcome

    async def close(self) -> None:
        await self.inner.close()
        self.hub.publish({"type": "batch_end"})


def _redactor(spec: TaskSpec) -> Secrets:
    """The task's own secrets (those from its environment too, when they are set here)."""
    with contextlib.suppress(UserError):
        return artifacts.remember(Secrets(spec.secrets()))
    return artifacts.remember(
        Secrets({name: value.get_secret_value() for name, value in (spec.sensitive_data or {}).items()})
    )
