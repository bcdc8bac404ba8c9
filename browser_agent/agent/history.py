"""What a run leaves behind: one ``AgentStep`` per step, saved as JSON and loaded back for replay.

Everything here is already redacted: sensitive values appear only as their ``<secret>name</secret>``
placeholders, because the agent redacts each step before it is recorded.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, Field, ValidationError

from browser_agent.agent.models import AgentBrain
from browser_agent.errors import UserError

if TYPE_CHECKING:
    from browser_agent.controller import Controller

__all__ = ["AgentHistory", "AgentStep", "StepTimings", "StepUsage"]

FORMAT_VERSION = 1


class StepTimings(BaseModel):
    """Milliseconds spent in each phase of a step; ``model_ms`` is the provider's share."""

    state_ms: float = 0.0
    model_ms: float = 0.0
    actions_ms: float = 0.0
    total_ms: float = 0.0

    @property
    def overhead_ms(self) -> float:
        """Everything but the model call: what the framework itself costs."""
        return max(0.0, self.total_ms - self.model_ms)


class StepUsage(BaseModel):
    input_tokens: int = 0
    output_tokens: int = 0


class AgentStep(BaseModel):
    """One step: what the model saw (URL), said, did, and what came of it."""

    step: int
    url: str = ""
    title: str = ""
    model_output: dict[str, Any] | None = None
    results: list[dict[str, Any]] = Field(default_factory=list)
    interacted: list[dict[str, Any] | None] = Field(default_factory=list)
    plan: str | None = None
    error: str | None = None
    timings: StepTimings = Field(default_factory=StepTimings)
    usage: StepUsage = Field(default_factory=StepUsage)

    @property
    def actions(self) -> list[dict[str, Any]]:
        if not self.model_output:
            return []
        return list(self.model_output.get("action", []))

    @property
    def errors(self) -> list[str]:
        found = [r["error"] for r in self.results if r.get("error")]
        return ([self.error] if self.error else []) + found


class AgentHistory(BaseModel):
    """Every step of a run, in order, with the queries users ask of a finished run.

    ``error`` says why a run ended early (an exception, a lost browser), as set by whoever ran it
    (``run_many`` does); ``None`` when the run ended on its own.
    """

    task: str = ""
    version: int = FORMAT_VERSION
    steps: list[AgentStep] = Field(default_factory=list)
    error: str | None = None

    def append(self, step: AgentStep) -> None:
        self.steps.append(step)

    def _last_result(self) -> dict[str, Any] | None:
        for step in reversed(self.steps):
            if step.results:
                return step.results[-1]
        return None

    def final_result(self) -> str | None:
        last = self._last_result()
        return last.get("extracted_content") if last and last.get("is_done") else None

    def is_done(self) -> bool:
        last = self._last_result()
        return bool(last and last.get("is_done"))

    def is_successful(self) -> bool | None:
        """True or False once done (as the model judged it); None while not done."""
        last = self._last_result()
        if not last or not last.get("is_done"):
            return None
        return bool(last.get("success", True))

    def errors(self) -> list[str | None]:
        """One entry per step: its errors joined, or None when the step had none."""
        return ["; ".join(s.errors) or None for s in self.steps]

    def urls(self) -> list[str]:
        return [s.url for s in self.steps]

    def action_names(self) -> list[str]:
        return [str(a.get("action")) for s in self.steps for a in s.actions]

    def model_thoughts(self) -> list[AgentBrain]:
        return [
            AgentBrain.model_validate(s.model_output["current_state"])
            for s in self.steps
            if s.model_output and "current_state" in s.model_output
        ]

    def total_input_tokens(self) -> int:
        return sum(s.usage.input_tokens for s in self.steps)

    def total_output_tokens(self) -> int:
        return sum(s.usage.output_tokens for s in self.steps)

    def total_duration_seconds(self) -> float:
        return sum(s.timings.total_ms for s in self.steps) / 1000

    def save(self, path: str | Path) -> Path:
        target = Path(path)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(self.model_dump_json(indent=2))
        return target

    @classmethod
    def load(cls, path: str | Path, controller: Controller | None = None) -> AgentHistory:
        """Read a saved history; with ``controller``, check every action is one it knows.

        Raises:
            UserError: the file is not a history, or names an action the controller lacks.
        """
        source = Path(path)
        try:
            history = cls.model_validate(json.loads(source.read_text()))
        except (OSError, ValueError, ValidationError) as exc:
            raise UserError(f"{source} is not a readable browser_agent history: {exc}") from exc
        if controller is not None:
            for step in history.steps:
                for action in step.actions:
                    try:
                        controller.parse_action(action)
                    except ValidationError as exc:
                        raise UserError(
                            f"Step {step.step} of {source} has an action this controller cannot run: {exc}"
                        ) from exc
        return history
