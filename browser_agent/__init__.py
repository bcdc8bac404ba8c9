"""browser_agent: let an LLM drive a real Chromium through Playwright.

from browser_agent import Agent
history = await Agent(task="...", llm=ChatOpenAI(model="gpt-4o")).run()
"""

from browser_agent.agent import (
    Agent,
    AgentHistory,
    AgentHooks,
    AgentSettings,
    ConsoleReporter,
    ReplayOptions,
    ReplayReport,
    replay,
)
from browser_agent.batch import TaskSpec, run_many
from browser_agent.browser import BrowserConfig, BrowserSession
from browser_agent.controller import ActionContext, ActionResult, Controller
from browser_agent.dom import DomSnapshot, ElementNode, extract_snapshot
from browser_agent.errors import (
    ActionError,
    AgentRunError,
    BrowserAgentError,
    BrowserError,
    ModelError,
    ModelOutputError,
    UserError,
)

__all__ = [
    "ActionContext",
    "ActionError",
    "ActionResult",
    "Agent",
    "AgentHistory",
    "AgentHooks",
    "AgentRunError",
    "AgentSettings",
    "BrowserAgentError",
    "BrowserConfig",
    "BrowserError",
    "BrowserSession",
    "ConsoleReporter",
    "Controller",
    "DomSnapshot",
    "ElementNode",
    "ModelError",
    "ModelOutputError",
    "ReplayOptions",
    "ReplayReport",
    "TaskSpec",
    "UserError",
    "extract_snapshot",
    "replay",
    "run_many",
]
