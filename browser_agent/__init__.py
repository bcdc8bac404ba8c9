"""browser_agent: let an LLM drive a real Chromium through Playwright.

from browser_agent import Agent
history = await Agent(task="...", llm=ChatOpenAI(model="gpt-4o")).run()
"""

from browser_agent.agent import Agent, AgentHooks, AgentSettings
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
from browser_agent.extras import version as _version
from browser_agent.output import ConsoleReporter, save_gif, save_report
from browser_agent.playback import ReplayOptions, ReplayReport, replay
from browser_agent.record import AgentHistory

__version__ = _version()  # the installed distribution's version ("0+unknown" in a tree never installed)

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
    "save_gif",
    "save_report",
]
