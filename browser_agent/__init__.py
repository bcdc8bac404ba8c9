"""browser_agent: let an LLM drive a real Chromium through Playwright.

from browser_agent import Agent
history = await Agent(task="...", llm=ChatOpenAI(model="gpt-4o")).run()

The public names are imported on first use (``from browser_agent import Agent`` works as ever):
``import browser_agent``, and the ``browser-agent`` command's ``--help``, do not load langchain or
Playwright until a name that needs them is asked for.
"""

# Private names only: dir(browser_agent) is the public surface (tests/unit/test_public_api.py).
import typing as _typing

from browser_agent.extras import version as _version
from browser_agent.lazy_names import lazy_names as _lazy_names

if _typing.TYPE_CHECKING:
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
    from browser_agent.export import export_history
    from browser_agent.output import ConsoleReporter, save_gif, save_report
    from browser_agent.playback import ReplayOptions, ReplayReport, replay
    from browser_agent.record import AgentHistory
    from browser_agent.workflow import Workflow, export_workflow, make_workflow, run_workflow

# Each public name, and the subpackage it comes from.
_HOMES = {
    "ActionContext": "controller",
    "ActionError": "errors",
    "ActionResult": "controller",
    "Agent": "agent",
    "AgentHistory": "record",
    "AgentHooks": "agent",
    "AgentRunError": "errors",
    "AgentSettings": "agent",
    "BrowserAgentError": "errors",
    "BrowserConfig": "browser",
    "BrowserError": "errors",
    "BrowserSession": "browser",
    "ConsoleReporter": "output",
    "Controller": "controller",
    "DomSnapshot": "dom",
    "ElementNode": "dom",
    "ModelError": "errors",
    "ModelOutputError": "errors",
    "ReplayOptions": "playback",
    "ReplayReport": "playback",
    "TaskSpec": "batch",
    "UserError": "errors",
    "Workflow": "workflow",
    "export_history": "export",
    "export_workflow": "workflow",
    "extract_snapshot": "dom",
    "replay": "playback",
    "run_many": "batch",
    "save_gif": "output",
    "save_report": "output",
    "make_workflow": "workflow",
    "run_workflow": "workflow",
}

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
    "Workflow",
    "export_history",
    "export_workflow",
    "extract_snapshot",
    "make_workflow",
    "replay",
    "run_many",
    "run_workflow",
    "save_gif",
    "save_report",
]

if not _typing.TYPE_CHECKING:  # type checkers read the imports above; a module __getattr__ would hide typos
    __getattr__, __dir__ = _lazy_names(__name__, _HOMES, globals())
