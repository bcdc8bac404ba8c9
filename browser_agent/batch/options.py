"""What every task of a batch shares: agent settings, controller, where histories go, the model."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from langchain_core.language_models import BaseChatModel
from playwright.async_api import Browser
from pydantic import BaseModel, ConfigDict, Field

from browser_agent.agent import DEFAULT_MAX_STEPS, AgentSettings
from browser_agent.browser import BrowserConfig, BrowserSession
from browser_agent.controller import Controller
from browser_agent.errors import UserError

__all__ = ["BatchOptions", "BatchSetup", "BrowserSource", "LlmSource", "browser_sources", "make_llm"]

LlmSource = BaseChatModel | Callable[[], BaseChatModel]
"""A chat model shared by the agents of one process, or a factory called once where they run (the
factory form reads API keys from that machine's environment instead of carrying them there)."""

BrowserSource = BrowserConfig | Browser
"""A browser to open contexts on: a config (launch one, or connect to its ``ws_endpoint``/``cdp_url``),
or a Playwright ``Browser`` that is already running (left open)."""


class BatchOptions(BaseModel):
    """Settings shared by every task of a batch; a ``TaskSpec``'s own fields take precedence.

    Attributes:
        settings: The agents' settings (``save_history_path`` is set per task by the batch).
        controller: The actions on offer; the built-ins when omitted.
        history_dir: Each task's history is saved here as ``<task id>.json`` (also when it fails or
            is interrupted); histories are only returned when omitted.
        max_steps: Steps per task, unless its spec says otherwise.
        task_timeout_s: A task still running after this long is stopped (its history says so), so that
            one stuck page cannot hold up the batch; no limit when None.
    """

    model_config = ConfigDict(arbitrary_types_allowed=True, frozen=True)

    settings: AgentSettings = Field(default_factory=AgentSettings)
    controller: Controller | None = None
    history_dir: Path | None = None
    max_steps: int = Field(default=DEFAULT_MAX_STEPS, ge=1)
    task_timeout_s: float | None = Field(default=None, gt=0)


@dataclass(frozen=True, slots=True)
class BatchSetup:
    """Everything an executor needs to run tasks; sent whole to remote workers."""

    browsers: tuple[BrowserSource, ...]
    llm: LlmSource
    options: BatchOptions
    concurrency: int


def make_llm(source: LlmSource) -> BaseChatModel:
    """The chat model itself: ``source``, or what its factory returns.

    Raises:
        UserError: ``source`` is neither a chat model nor a factory of one.
    """
    if isinstance(source, BaseChatModel):
        return source
    model = source() if callable(source) else None
    if not isinstance(model, BaseChatModel):
        raise UserError(
            f"llm must be a langchain chat model or a function returning one; got {type(source).__name__} "
            f"giving {type(model).__name__}."
        )
    return model


def browser_sources(browser: BrowserSource | Sequence[BrowserSource] | None) -> tuple[BrowserSource, ...]:
    """The browsers a batch spreads over: one launched Chromium when ``browser`` is None.

    Raises:
        UserError: a ``BrowserSession`` (one context, for one agent), an empty list, or another type.
    """
    items: Sequence[Any] = (
        [BrowserConfig()]
        if browser is None
        else ([browser] if isinstance(browser, BrowserConfig | Browser | BrowserSession) else list(browser))
    )
    if not items:
        raise UserError("browser=[] names no browser; give a BrowserConfig, a list of them, or None.")
    for item in items:
        if isinstance(item, BrowserSession):
            raise UserError(
                "run_many gives each agent its own context, so it cannot use a BrowserSession (one context "
                "for one agent). Pass its BrowserConfig, or the Playwright Browser to open contexts on."
            )
        if not isinstance(item, BrowserConfig | Browser):
            raise UserError(
                f"browser= got a {type(item).__name__}; give a BrowserConfig, a Playwright Browser, "
                "or a list of these (a fleet)."
            )
    return tuple(items)
