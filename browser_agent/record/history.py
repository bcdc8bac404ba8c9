"""What a run leaves behind: one ``AgentStep`` per step, saved as JSON and loaded back for replay.

Everything here is already redacted: sensitive values appear only as their ``<secret>name</secret>``
placeholders, because the agent redacts each step before it is recorded.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Any, Literal, Protocol, TypeVar, overload

from pydantic import BaseModel, Field, SerializerFunctionWrapHandler, ValidationError, model_serializer

from browser_agent import artifacts
from browser_agent.errors import UserError
from browser_agent.record.result import RecordedResult
from browser_agent.record.step import ActionCall, AgentBrain, AgentStep, StepScreenshot
from browser_agent.record.usage import TokenUsage
from browser_agent.user_files import UserFileError, check_version, read_model, validation_message

__all__ = ["ActionParser", "AgentHistory", "EndReason", "RunUsage"]

FORMAT_VERSION = 2
_READABLE_VERSIONS = (1, 2)
_RENAMED_ACTIONS = {"search": "search_web"}  # old name -> new, for histories saved before the rename
# added later: left out while unknown, so a history loaded from an older file is saved as it was
_LATER_FIELDS = ("started_at", "duration_seconds", "final_screenshot")
T = TypeVar("T", bound=BaseModel)
EndReason = Literal["done", "max_steps", "max_failures", "stopped", "interrupted", "error"]


class ActionParser(Protocol):
    """What checks a loaded history's actions: a ``Controller`` (its ``parse_action``)."""

    def parse_action(self, data: dict[str, Any]) -> object:
        """Validate one action as ``{"action": name, **params}``.

        Raises:
            pydantic.ValidationError: no such action, or a bad field.
        """


class RunUsage(BaseModel):
    """Tokens of a run by role: the agent's model, the planner, the extraction model."""

    agent: TokenUsage = Field(default_factory=TokenUsage)
    planner: TokenUsage = Field(default_factory=TokenUsage)
    extraction: TokenUsage = Field(default_factory=TokenUsage)

    @property
    def total(self) -> TokenUsage:
        return self.agent + self.planner + self.extraction


class AgentHistory(BaseModel):
    """Every step of a run, in order, with the queries users ask of a finished run.

    ``error`` says why a run ended early (an exception, a lost browser), as set by whoever ran it
    (``run_many`` does); ``None`` when the run ended on its own.
    """

    task: str = ""
    version: int = FORMAT_VERSION
    steps: list[AgentStep] = Field(default_factory=list)
    end_reason: EndReason | None = Field(
        default=None,
        description="Why the run ended: done, max_steps (not finished), max_failures, stopped, "
        "interrupted (Ctrl-C), error (an exception); None while it runs.",
    )
    output_model: type[BaseModel] | None = Field(
        default=None, exclude=True, description="The agent's output_model, for structured_output()."
    )
    error: str | None = Field(
        default=None, description="What ended the run early, when something did (batch runs record it here)."
    )
    allowed_domains: tuple[str, ...] | None = Field(
        default=None,
        description="The domain fence the run was made under (None: none); replay applies it by default.",
    )
    # The run's own clock; histories saved before it was kept lack both (the steps' times stand in).
    started_at: datetime | None = Field(default=None, description="When the run started (UTC).")
    duration_seconds: float | None = Field(
        default=None,
        description="The run's wall time: from its start (the browser's launch included) to its end, "
        "also when it was interrupted; None while it runs.",
    )
    final_screenshot: StepScreenshot | None = Field(
        default=None,
        description="The page after the last action, taken when the run ended (masked like every "
        "recorded screenshot); only when screenshots are recorded, and not after an interruption.",
    )

    @model_serializer(mode="wrap")
    def _without_unknown_later_fields(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        """A history loaded from a file made before the run's clock (or its last picture) was kept is
        saved as it was."""
        data: dict[str, Any] = handler(self)
        for name in _LATER_FIELDS:
            if name in data and data[name] is None:
                del data[name]
        return data

    def append(self, step: AgentStep) -> None:
        self.steps.append(step)

    def _last_result(self) -> RecordedResult | None:
        for step in reversed(self.steps):
            if step.results:
                return step.results[-1]
        return None

    def final_result(self) -> str | None:
        last = self._last_result()
        return last.extracted_content if last is not None and last.is_done else None

    @overload
    def structured_output(self) -> BaseModel | None: ...
    @overload
    def structured_output(self, model: type[T]) -> T | None: ...

    def structured_output(self, model: type[BaseModel] | None = None) -> BaseModel | None:
        """The final answer validated as ``model`` (the agent's ``output_model`` by default).

        None while the run is not done. After ``load``, pass the model: a saved file holds JSON only.

        Raises:
            UserError: no model is known, or the final answer does not validate as it.
        """
        target = model or self.output_model
        if target is None:
            raise UserError(
                "No output model: run the agent with output_model=MyModel, or pass it: "
                "history.structured_output(MyModel)."
            )
        final = self.final_result()
        if final is None:
            return None
        try:
            return target.model_validate_json(final)
        except ValidationError as exc:
            raise UserError(
                f"The final answer is not a {target.__name__}: {validation_message(exc)}. Was the run made "
                "with another output_model?"
            ) from exc

    def is_done(self) -> bool:
        last = self._last_result()
        return last is not None and last.is_done

    def is_successful(self) -> bool | None:
        """True or False once done (as the model judged it); None while not done."""
        last = self._last_result()
        if last is None or not last.is_done:
            return None
        return last.success is True

    def model_steps(self) -> int:
        """How many steps the model took: every step but step 0, the actions run before the model's
        first step (``initial_actions``, or opening the task's address). The one step count the console,
        the report, the UI, batch and eval records give."""
        return sum(1 for s in self.steps if s.step > 0)

    def steps_label(self) -> str:
        """The step count in words: ``"5"``, or ``"5 (+ step 0)"`` when actions ran before the first step."""
        count = str(self.model_steps())
        return f"{count} (+ step 0)" if any(s.step == 0 for s in self.steps) else count

    def errors(self) -> list[str | None]:
        """One entry per step: its errors joined, or None when the step had none."""
        return ["; ".join(s.errors) or None for s in self.steps]

    def urls(self) -> list[str]:
        return [s.url for s in self.steps]

    def action_names(self) -> list[str]:
        return [a.name for s in self.steps for a in s.actions]

    def model_thoughts(self) -> list[AgentBrain]:
        return [s.brain for s in self.steps if s.brain is not None]

    def error_count(self) -> int:
        """Failed actions plus failed steps."""
        return sum(len(s.errors) for s in self.steps)

    @property
    def usage(self) -> RunUsage:
        """Tokens by role (agent, planner, extraction); ``.total`` adds them up."""
        usage = RunUsage()
        for s in self.steps:
            usage.agent += s.usage
            usage.planner += s.planner_usage
            usage.extraction += s.extraction_usage
        return usage

    def total_input_tokens(self) -> int:
        """Input tokens of every model call of the run: agent, planner and extraction."""
        return self.usage.total.input_tokens

    def total_output_tokens(self) -> int:
        return self.usage.total.output_tokens

    def total_duration_seconds(self) -> float:
        """How long the run took: its wall time once it ended; else (while it runs, or for a history
        saved before the run's time was kept) the sum of its steps' times."""
        if self.duration_seconds is not None:
            return self.duration_seconds
        return self.steps_duration_seconds()

    def steps_duration_seconds(self) -> float:
        """The sum of the recorded steps' times (no browser start, no time between steps)."""
        return sum(s.timings.total_ms for s in self.steps) / 1000

    def save(self, path: str | Path) -> Path:
        """Write the history as JSON, redacted and atomically (``artifacts.write_text``); return the path."""
        return artifacts.write_text(path, self.model_dump_json(indent=2))

    @classmethod
    def load(cls, path: str | Path, controller: ActionParser | None = None) -> AgentHistory:
        """Read a saved history (within ``user_files``' limits); with ``controller``, check every action
        is one it knows.

        Raises:
            UserError: the file cannot be read, is not a history of a version this one reads, or names
                an action the controller lacks; one line naming the file.
        """
        source = Path(path)
        history = read_model(source, cls, what="history", check=_check_format)
        if controller is not None:
            for step in history.steps:
                _check_actions(step, controller, source)
        return history


def _check_format(data: Any, named: str) -> None:
    """``data`` is a history this version reads (it names its version and has steps).

    Raises:
        UserFileError: another file, or a version this one does not read (say whether newer).
    """
    if not isinstance(data, dict) or "steps" not in data or "version" not in data:
        raise UserFileError(
            f"{named} is not a browser_agent history (no 'version' and 'steps'); pass a file saved "
            "by AgentHistory.save or `browser-agent run --save`."
        )
    check_version(data["version"], _READABLE_VERSIONS, named=f"{named} has history format version")


def _check_actions(step: AgentStep, controller: ActionParser, source: Path) -> None:
    """Every action of ``step`` is one ``controller`` runs (an old built-in name is renamed in place).

    Raises:
        UserError: naming the step and what the controller refused.
    """
    if step.model_output is None:
        return
    actions = step.model_output.action
    for position, call in enumerate(actions):
        try:
            controller.parse_action(call.flat())
        except ValidationError as exc:
            renamed = _renamed(call, controller)
            if renamed is None:
                raise UserError(
                    f"Step {step.step} of {source} has an action this controller cannot run: "
                    f"{validation_message(exc)}. Register that action on the controller you replay with."
                ) from exc
            actions[position] = renamed


def _renamed(call: ActionCall, controller: ActionParser) -> ActionCall | None:
    """A built-in action saved under its old name, under its new one, when the controller runs that."""
    new_name = _RENAMED_ACTIONS.get(call.name)
    if new_name is None:
        return None
    renamed = ActionCall(name=new_name, params=call.params)
    try:
        controller.parse_action(renamed.flat())
    except ValidationError:
        return None
    return renamed
