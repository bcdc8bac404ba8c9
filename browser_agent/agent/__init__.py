"""The agent loop, its messages and planner, run history, replay and console reporting."""

from browser_agent.agent.agent import Agent
from browser_agent.agent.history import (
    AgentHistory,
    AgentStep,
    RunUsage,
    StepScreenshot,
    StepTimings,
    StepUsage,
)
from browser_agent.agent.hooks import AgentHooks
from browser_agent.agent.models import AgentBrain, AgentOutput, AgentSettings
from browser_agent.agent.replay import ReplayedAction, ReplayOptions, ReplayReport, replay
from browser_agent.agent.replay_console import ReplayReporter
from browser_agent.agent.reporter import ConsoleReporter

__all__ = [
    "Agent",
    "AgentBrain",
    "AgentHistory",
    "AgentHooks",
    "AgentOutput",
    "AgentSettings",
    "AgentStep",
    "ConsoleReporter",
    "ReplayOptions",
    "ReplayReport",
    "ReplayReporter",
    "ReplayedAction",
    "RunUsage",
    "StepScreenshot",
    "StepTimings",
    "StepUsage",
    "replay",
]
