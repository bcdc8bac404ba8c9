"""The agent's settings, what the model answers each step, and how it is built from the action union."""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Annotated, Any, ClassVar, get_args, get_origin

from langchain_core.language_models import BaseChatModel
from pydantic import BaseModel, ConfigDict, Field, create_model, field_validator

from browser_agent.llm import Method as ToolCallingMethod
from browser_agent.llm import RetryPolicy, flat_union, inline_refs, strip_noise

__all__ = ["AgentBrain", "AgentOutput", "AgentSettings", "build_output_model", "tool_parameters"]


class AgentSettings(BaseModel):
    """Every knob of an agent run, with defaults that work for most tasks."""

    model_config = ConfigDict(arbitrary_types_allowed=True, extra="forbid")

    use_vision: bool = Field(
        default=False, description="Send a screenshot, with the element indices drawn on it, each step."
    )
    record_screenshots: bool = Field(
        default=False,
        description="Keep each step's screenshot (small JPEG, element marks drawn, secrets blacked out) "
        "in the history, for history.save_report() and the GIF.",
    )
    max_actions_per_step: int = Field(default=5, ge=1, le=20)
    max_failures: int = Field(default=3, ge=1, description="Consecutive failed steps that end the run.")
    step_timeout_s: float = Field(
        default=120.0,
        gt=0,
        description="Longest a step may take (page, model, actions); past it the step fails.",
    )
    tool_calling_method: ToolCallingMethod = "auto"
    max_corrections: int = Field(
        default=2, ge=0, description="Times a reply that fails validation is sent back."
    )
    planner_llm: BaseChatModel | None = None
    planner_interval: int = Field(default=3, ge=1, description="Call the planner after every N steps.")
    planner_use_vision: bool = False
    page_extraction_llm: BaseChatModel | None = None
    max_input_tokens: int = Field(
        default=32_000, ge=1_000, description="Budget for one request; old content goes first."
    )
    initial_actions: list[dict[str, Any]] = Field(default_factory=list)
    open_task_url: bool = Field(
        default=True,
        description="When the task names exactly one http(s) address and there are no initial_actions, "
        "open it before the first step (as step 0, recorded and replayed like initial_actions).",
    )
    extend_system_message: str | None = None
    save_conversation_path: Path | None = None
    save_history_path: Path | None = Field(
        default=None, description="Where Ctrl-C or stop() saves the history."
    )
    allowed_domains: tuple[str, ...] | None = None
    allowed_files: tuple[Path, ...] = ()
    retry_attempts: int = Field(
        default=4, ge=1, description="Calls per request when the provider fails transiently."
    )
    retry_initial_wait_s: float = Field(default=1.0, ge=0)
    retry_max_wait_s: float = Field(default=20.0, gt=0)

    def retry_policy(self) -> RetryPolicy:
        return RetryPolicy(
            attempts=self.retry_attempts,
            initial_wait_s=self.retry_initial_wait_s,
            max_wait_s=self.retry_max_wait_s,
            jitter_s=min(1.0, self.retry_initial_wait_s),
        )


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


class AgentOutput(BaseModel):
    """Base of the per-page output model; ``build_output_model`` gives ``action`` its real type."""

    current_state: AgentBrain
    action: list[Any]

    # action name -> the fields it takes; set by build_output_model
    action_fields: ClassVar[dict[str, frozenset[str]]] = {}
    # every field some action takes: the union of ``action_fields``, set with it
    known_fields: ClassVar[frozenset[str]] = frozenset()

    @field_validator("action", mode="before")
    @classmethod
    def _drop_foreign_fields(cls, value: Any) -> Any:
        """Keep, of each action, the fields that action takes and that are not ``null``.

        Models fill fields of other actions: with one flat tool for every action they send nulls, and
        small models add a neighbour's field (``go_to_url`` with an ``index``). Dropping them invents
        nothing. A field no action takes (a misspelling) stays, so the model is told its name, and a
        missing or mistyped field of the action itself is still an error for the model.
        """
        if not isinstance(value, list):
            return value
        return [_own_fields(item, cls.action_fields, cls.known_fields) for item in value]


def _own_fields(item: Any, action_fields: dict[str, frozenset[str]], known: frozenset[str]) -> Any:
    if not isinstance(item, dict):
        return item
    taken = action_fields.get(str(item.get("action")))
    if taken is None:
        return {k: v for k, v in item.items() if v is not None}
    own = taken | {"action"}
    return {k: v for k, v in item.items() if v is not None and (k in own or k not in known)}


@functools.lru_cache(maxsize=64)
def tool_parameters(output_model: type[AgentOutput]) -> dict[str, Any]:
    """The forced tool's parameters for ``output_model``: structure only (the system prompt describes each
    action once), and the action union flattened to one object (a fifth of its size). Replies are still
    validated by the model itself, and its errors go back to the model."""
    schema = strip_noise(inline_refs(output_model.model_json_schema()), descriptions=False)
    action = schema["properties"]["action"]
    action["items"] = flat_union(action["items"])
    return schema


def build_output_model(action_union: Any, max_actions: int) -> type[AgentOutput]:
    """The output model for one step: the brain plus 1..max_actions actions from ``action_union``."""
    model: type[AgentOutput] = create_model(
        "AgentOutput",
        __base__=AgentOutput,
        __doc__="Your state and the next actions, run in order.",
        action=(
            list[action_union],
            Field(min_length=1, max_length=max_actions, description="Actions to run in order."),
        ),
    )
    model.action_fields = {
        str(get_args(m.model_fields["action"].annotation)[0]): frozenset(m.model_fields) - {"action"}
        for m in _union_members(action_union)
    }
    model.known_fields = frozenset().union(*model.action_fields.values())
    return model


def _union_members(action_union: Any) -> list[type[BaseModel]]:
    """The action models of ``Annotated[Union[...], ...]``, or the one model given alone."""
    if isinstance(action_union, type):
        return [action_union]
    union = get_args(action_union)[0] if get_origin(action_union) is Annotated else action_union
    return [m for m in get_args(union) if isinstance(m, type) and issubclass(m, BaseModel)]
