"""How a recorded action and its outcome are put in words: one place for the memo the model reads, the
loop detector, the console, the HTML report and MCP."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from browser_agent.record.result import RecordedResult
from browser_agent.record.step import ActionCall, AgentStep

__all__ = ["Outcome", "describe_call", "describe_outcome", "describe_step"]

OutcomeKind = Literal["failed", "skipped", "ok"]


def describe_call(call: ActionCall) -> str:
    """``click_element(index=3)``: the action as the model wrote it."""
    args = ", ".join(f"{k}={v!r}" for k, v in call.params.items())
    return f"{call.name}({args})"


@dataclass(frozen=True, slots=True)
class Outcome:
    """What came of one action: ``failed`` (``text`` is the error), ``skipped`` (why) or ``ok`` (what
    happened, or the content extracted)."""

    kind: OutcomeKind
    text: str

    def cut(self, limit: int) -> Outcome:
        return self if len(self.text) <= limit else Outcome(self.kind, self.text[: limit - 1] + "…")

    def __str__(self) -> str:
        return self.text if self.kind == "ok" else f"{self.kind}: {self.text}"


def describe_outcome(result: RecordedResult) -> Outcome:
    if result.error:
        return Outcome("failed", result.error)
    if result.skipped:
        return Outcome("skipped", result.extracted_content or "")
    return Outcome("ok", result.extracted_content or "ok")


def describe_step(step: AgentStep) -> str:
    """One line for a finished step (the log's): each action's outcome, else the step's error."""
    done = ", ".join(f"{r.action}: {describe_outcome(r).cut(120)}" for r in step.results)
    return done or step.error or "no actions"
