"""The agent's settings: every knob of a run, with defaults that work for most tasks."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from langchain_core.language_models import BaseChatModel
from pydantic import BaseModel, ConfigDict, Field

from browser_agent.llm import Method as ToolCallingMethod
from browser_agent.llm import RetryPolicy

__all__ = ["DEFAULT_MAX_STEPS", "AgentSettings", "ToolCallingMethod"]

from browser_agent.defaults import DEFAULT_MAX_STEPS


class AgentSettings(BaseModel):
    """Every knob of an agent run, with defaults that work for most tasks."""

    model_config = ConfigDict(arbitrary_types_allowed=True, extra="forbid")

    use_vision: bool = Field(
        default=False, description="Send a screenshot, with the element indices drawn on it, each step."
    )
    record_screenshots: bool = Field(
        default=False,
        description="Keep each step's screenshot (small JPEG, element marks drawn, secrets blacked out) "
        "in the history, for the HTML report and the GIF (browser_agent.save_report, save_gif).",
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
    context_tokens: int | None = Field(
        default=None,
        ge=1_000,
        description="The model's context size in tokens. Without it, a server given by base URL is asked "
        "(llama.cpp's /props, vLLM's /models); requests are kept within it, less the reply's tokens.",
    )
    prefill_reply: bool | None = Field(
        default=None,
        description="With tool_calling_method='json_schema': end each request with the start of the reply "
        "that the grammar fixes (its keys, a pinned evaluation) for the server to go on from, so it reads "
        "those tokens instead of decoding them one by one. None: on for a llama.cpp server given by base "
        "URL (it answers /props); a server that answers anew instead turns it off for the run.",
    )
    task_passage_tokens: int = Field(
        default=200,
        ge=0,
        description="On a page that goes on a screen or more below the view, the page's passages that best "
        "match the task are shown with the page view, within this many tokens (0: never).",
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
        default=None,
        description="Where the history is written after every step (atomically: a run killed even with "
        "kill -9 leaves its last complete step) and when the run ends, however it ends. Without it, "
        "Ctrl-C, SIGTERM, SIGHUP or stop() save to browser_agent_history.json.",
    )
    allowed_domains: tuple[str, ...] | None = Field(
        default=None,
        description="A shortcut for BrowserConfig.allowed_domains of the agent's browser (the fence lives "
        "in the browser's configuration; given both, the narrower applies, and two fences neither within "
        "the other are an error).",
    )
    allowed_files: tuple[Path, ...] = Field(
        default=(),
        description="Files (or folders of them) upload_file may choose; with none, it is not offered.",
    )
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
