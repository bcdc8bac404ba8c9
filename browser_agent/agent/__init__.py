"""The agent loop, its messages and planner, run history, replay and console reporting."""

from browser_agent.agent.agent import Agent
from browser_agent.agent.history import AgentHistory, AgentStep, StepTimings, StepUsage
from browser_agent.agent.hooks import AgentHooks
from browser_agent.agent.models import AgentBrain, AgentOutput, AgentSettings
from browser_agent.agent.replay import ReplayedAction, ReplayOptions, ReplayReport, replay

__all__ = [
    "Agent",
    "AgentBrain",
    "AgentHistory",
    "AgentHooks",
    "AgentOutput",
    "AgentSettings",
    "AgentStep",
    "ReplayOptions",
    "ReplayReport",
    "ReplayedAction",
    "StepTimings",
    "StepUsage",
    "replay",
]
