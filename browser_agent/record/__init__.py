"""The run record: each step typed (what the model said, the actions, their results, the fingerprints of
the elements they touched, timings and tokens), the history of a run, and the words for an action and
its outcome. Saved as JSON and loaded back for replay and reports."""

from browser_agent.llm.usage import TokenUsage
from browser_agent.record.describe import Outcome, describe_call, describe_outcome
from browser_agent.record.history import AgentHistory, EndReason, RunUsage
from browser_agent.record.step import (
    ActionCall,
    AgentBrain,
    AgentStep,
    StepOutput,
    StepScreenshot,
    StepTimings,
)

__all__ = [
    "ActionCall",
    "AgentBrain",
    "AgentHistory",
    "AgentStep",
    "EndReason",
    "Outcome",
    "RunUsage",
    "StepOutput",
    "StepScreenshot",
    "StepTimings",
    "TokenUsage",
    "describe_call",
    "describe_outcome",
]
