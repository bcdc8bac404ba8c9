"""The agent loop: each step observes the page, asks the model, runs the actions and records the step."""

from browser_agent.agent.agent import Agent
from browser_agent.agent.hooks import AgentHooks
from browser_agent.agent.settings import DEFAULT_MAX_STEPS, AgentSettings

__all__ = ["DEFAULT_MAX_STEPS", "Agent", "AgentHooks", "AgentSettings"]
