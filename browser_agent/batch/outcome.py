"""``TaskOutcome``: how one task of a batch ended, where, in how long, and its history."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from browser_agent.record import AgentHistory

__all__ = ["TaskOutcome"]


@dataclass(frozen=True, slots=True)
class TaskOutcome:
    """One finished task.

    Attributes:
        index: The task's position in the batch.
        task_id: The spec's id.
        history: Every step taken (redacted); ``history.error`` says why the run ended early.
        seconds: Wall time from the task's start to its end.
        endpoint: The browser it ran on (an endpoint URL, or ``local Chromium``); empty when none could
            be reached.
        history_path: Where its history was saved, when the batch has a ``history_dir``.
    """

    index: int
    task_id: str
    history: AgentHistory
    seconds: float
    endpoint: str = ""
    history_path: Path | None = None

    @property
    def success(self) -> bool:
        """The model called ``done`` with success, and nothing ended the run early."""
        return self.history.error is None and self.history.is_successful() is True

    def summary(self) -> dict[str, Any]:
        """The outcome as one flat JSON-ready record (a line of ``browser-agent batch --out``)."""
        history = self.history
        return {
            "id": self.task_id,
            "success": self.success,
            "result": history.final_result(),
            "error": history.error,
            "steps": len(history.steps),
            "seconds": round(self.seconds, 3),
            "input_tokens": history.total_input_tokens(),
            "cached_input_tokens": history.usage.total.cached_input_tokens,
            "output_tokens": history.total_output_tokens(),
            "endpoint": self.endpoint,
            "history": str(self.history_path) if self.history_path else None,
        }
