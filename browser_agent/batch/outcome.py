"""``TaskOutcome``: how one task of a batch ended, where, in how long, and its history."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from browser_agent.batch.judge import Verdict
from browser_agent.errors import first_line
from browser_agent.record import AgentHistory

__all__ = ["TaskOutcome"]

_ENDINGS = {
    "max_failures": "too many failed steps in a row",
    "stopped": "stopped before it was done",
    "interrupted": "interrupted",
    "error": "ended by an error",
}


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
        verdict: The judge's word, for a task with a judge (None when it never got to judge).
        timed_out: The task ran past ``task_timeout_s`` and was stopped.
    """

    index: int
    task_id: str
    history: AgentHistory
    seconds: float
    endpoint: str = ""
    history_path: Path | None = None
    verdict: Verdict | None = None
    timed_out: bool = False

    @property
    def success(self) -> bool:
        """The model called ``done`` with success, and nothing ended the run early; for a judged task,
        what its judge said."""
        if self.verdict is not None:
            return self.verdict.success
        return self.history.error is None and self.history.is_successful() is True

    @property
    def error(self) -> str | None:
        """Why the task failed, in one line (what ended it early, else how it ended and the last error
        of its steps); None when it succeeded."""
        history = self.history
        if self.success:
            return None
        if history.error:
            return history.error
        if self.verdict is not None:
            return self.verdict.detail or "the judge said it failed"
        if history.is_done():
            return f"done with success=false: {history.final_result() or 'no result'}"
        if history.end_reason == "max_steps":
            ending = f"not done after {history.model_steps()} steps (max_steps)"
        else:
            ending = _ENDINGS.get(history.end_reason or "", "ended without being done")
        last = next((e for s in reversed(history.steps) for e in reversed(s.errors)), None)
        return f"{ending}; last error: {first_line(last)}" if last and last.strip() else ending

    def summary(self) -> dict[str, Any]:
        """The outcome as one flat JSON-ready record (a line of ``browser-agent batch --out``)."""
        history = self.history
        return {
            "id": self.task_id,
            "success": self.success,
            "result": history.final_result(),
            "error": self.error,
            "steps": history.model_steps(),
            "seconds": round(self.seconds, 3),
            "input_tokens": history.total_input_tokens(),
            "cached_input_tokens": history.usage.total.cached_input_tokens,
            "output_tokens": history.total_output_tokens(),
            "endpoint": self.endpoint,
            "history": str(self.history_path) if self.history_path else None,
        }
