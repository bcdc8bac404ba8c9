"""``McpServerConfig``: what the MCP server offers and how it bounds each client."""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from browser_agent.browser import BrowserConfig

__all__ = ["McpServerConfig"]


class McpServerConfig(BaseModel):
    """Settings of ``browser-agent mcp``.

    ``secrets`` are the values behind ``<secret>name</secret>`` placeholders: they come from the server's
    own configuration, never from a client, and every text a client receives is redacted with them.
    ``browser.allowed_domains`` is the domain fence of every client's context.
    """

    model_config = ConfigDict(frozen=True)

    browser: BrowserConfig = BrowserConfig()
    secrets: dict[str, str | dict[str, str]] = Field(
        default_factory=dict,
        description="As Agent's sensitive_data: {name: value} or {domain: {name: value}}.",
    )
    allowed_files: tuple[Path, ...] = ()
    step_timeout_s: float = Field(default=60.0, gt=0, description="The longest one tool call may take.")
    max_sessions: int = Field(default=8, gt=0, description="Clients served at once over HTTP.")
    idle_timeout_s: float = Field(
        default=30 * 60,
        gt=0,
        description="An HTTP client's browser context is closed after this long unused.",
    )
