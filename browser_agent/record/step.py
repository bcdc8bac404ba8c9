"""One step of a run as it is recorded: what the model saw and said, what was done, what came of it.

The JSON form is the one histories have always had (``model_output`` with ``current_state`` and a flat
``action`` list, ``results`` as the actions' results, ``interacted`` as fingerprints), so files saved
before these types existed load unchanged.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PlainSerializer,
    SerializerFunctionWrapHandler,
    field_validator,
    model_serializer,
    model_validator,
)
from pydantic.functional_validators import BeforeValidator

from browser_agent.record.fingerprint import Fingerprint
from browser_agent.record.result import RecordedResult
from browser_agent.record.usage import TokenUsage

__all__ = ["ActionCall", "AgentBrain", "AgentStep", "StepOutput", "StepScreenshot", "StepTimings"]


class AgentBrain(BaseModel):
    """The model's own account of where it stands."""

    # ``maxLength`` is for decoding grammars only (json_schema): a small model can run on in a text
    # field until its token limit. Replies are not refused for a longer text.
    evaluation_previous_goal: str = Field(
        description="Success, Failed or Unknown for the previous goal, with a short reason.",
        json_schema_extra={"maxLength": 200},
    )
    memory: str = Field(
        description="What to remember to finish the task: progress, values found, counts.",
        json_schema_extra={"maxLength": 600},
    )
    next_goal: str = Field(
        description="What the next actions should achieve.", json_schema_extra={"maxLength": 200}
    )


class ActionCall(BaseModel):
    """One action as it was asked for: its name and parameters; saved as ``{"action": name, **params}``."""

    model_config = ConfigDict(frozen=True)

    name: str
    params: dict[str, Any] = Field(default_factory=dict)

    @model_validator(mode="before")
    @classmethod
    def _from_flat(cls, value: Any) -> Any:
        if isinstance(value, dict) and "action" in value:
            return {"name": str(value["action"]), "params": {k: v for k, v in value.items() if k != "action"}}
        return value

    @model_serializer(mode="plain")
    def _to_flat(self) -> dict[str, Any]:
        return self.flat()

    def flat(self) -> dict[str, Any]:
        """``{"action": name, **params}``: what a controller parses and the model wrote."""
        return {"action": self.name, **self.params}

    def element_index(self) -> int | None:
        """The index of the element the action names (its ``index``), None when it names none.

        Every other parameter is read typed through the action's spec: ``spec.params_of(call)``
        (``browser_agent.action_specs``)."""
        value = self.params.get("index")
        return value if isinstance(value, int) and not isinstance(value, bool) else None


class StepOutput(BaseModel):
    """What the model answered in a step; step 0 (actions run before the first step) has no brain."""

    current_state: AgentBrain | None = None
    action: list[ActionCall] = Field(default_factory=list)

    @model_serializer(mode="wrap")
    def _without_empty_brain(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        data: dict[str, Any] = handler(self)
        if data.get("current_state") is None:
            data.pop("current_state", None)
        return data


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


class StepScreenshot(BaseModel):
    """The page as the step saw it: a small JPEG with the element marks, secrets blacked out.

    ``width``/``height`` are the viewport's CSS pixels the image covers; ``targets`` the boxes
    ``[x, y, width, height]`` of the elements the step acted on, in the same pixels.
    """

    jpeg_b64: str
    width: int
    height: int
    targets: list[list[float]] = Field(default_factory=list)


def _fingerprint_in(value: Any) -> Any:
    return Fingerprint.from_dict(value) if isinstance(value, dict) else value


def _fingerprint_out(value: Fingerprint | None) -> dict[str, Any] | None:
    return value.to_dict() if value is not None else None


RecordedFingerprint = Annotated[
    Fingerprint | None, BeforeValidator(_fingerprint_in), PlainSerializer(_fingerprint_out)
]


class AgentStep(BaseModel):
    """One step: what the model saw (URL), said, did, and what came of it.

    ``results[i]`` and ``interacted[i]`` belong to ``actions[i]``: the result, and the fingerprint of
    the element the action touched (``None`` when it touched none).
    """

    model_config = ConfigDict(arbitrary_types_allowed=True)

    step: int
    url: str = ""
    title: str = ""
    model_output: StepOutput | None = None
    results: list[RecordedResult] = Field(default_factory=list)
    interacted: list[RecordedFingerprint] = Field(default_factory=list)
    plan: str | None = None
    error: str | None = None
    timings: StepTimings = Field(default_factory=StepTimings)
    usage: TokenUsage = Field(default_factory=TokenUsage, description="The agent model's tokens.")
    planner_usage: TokenUsage = Field(
        default_factory=TokenUsage, description="The planner's tokens for the plan this step received."
    )
    extraction_usage: TokenUsage = Field(
        default_factory=TokenUsage, description="The extraction model's tokens spent by this step's actions."
    )
    corrections: int = Field(default=0, description="Replies sent back to the model for not validating.")
    retries: list[str] = Field(default_factory=list, description="Provider failures retried in this step.")
    screenshot: StepScreenshot | None = None

    @field_validator("results", mode="before")
    @classmethod
    def _known_result_fields(cls, value: Any) -> Any:
        """Results saved by other versions may carry fields this one does not know: they are dropped."""
        if not isinstance(value, list):
            return value
        known = set(RecordedResult.model_fields)
        return [{k: v for k, v in r.items() if k in known} if isinstance(r, dict) else r for r in value]

    @property
    def actions(self) -> list[ActionCall]:
        return list(self.model_output.action) if self.model_output else []

    @property
    def brain(self) -> AgentBrain | None:
        return self.model_output.current_state if self.model_output else None

    @property
    def next_goal(self) -> str:
        """The goal the model set for this step's actions ("" when it set none)."""
        return self.brain.next_goal if self.brain is not None else ""

    @property
    def errors(self) -> list[str]:
        found = [r.error for r in self.results if r.error]
        return ([self.error] if self.error else []) + found

    @property
    def failed(self) -> bool:
        """The model failed, or every action failed."""
        return self.error is not None or (bool(self.results) and all(r.error for r in self.results))

    @property
    def only_held(self) -> bool:
        """The model answered and each failed action was held back by a check: advice, not a failure (a
        `done` refused for an unpressed Reply, a star held for "forward", a `done` giving up refused ended
        an email-inbox run on ``max_failures`` with steps left)."""
        return self.error is None and all(r.held for r in self.results if r.error)

    @property
    def final(self) -> RecordedResult | None:
        """The step's ``done`` result, when the step ended the task."""
        last = self.results[-1] if self.results else None
        return last if last is not None and last.is_done else None
