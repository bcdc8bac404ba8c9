"""The run record: each step typed (what the model said, the actions, their results, the fingerprints of
the elements they touched, timings and tokens), the history of a run, and the words for an action and
its outcome. Saved as JSON and loaded back for replay and reports."""

from browser_agent.record.describe import Outcome, describe_call, describe_outcome, describe_step
from browser_agent.record.fingerprint import Fingerprint
from browser_agent.record.history import ActionParser, AgentHistory, EndReason, RunUsage
from browser_agent.record.result import RecordedResult
from browser_agent.record.step import (
    ActionCall,
    AgentBrain,
    AgentStep,
    StepOutput,
    StepScreenshot,
    StepTimings,
)
from browser_agent.record.usage import TokenUsage

__all__ = [
    "ActionCall",
    "ActionParser",
    "AgentBrain",
    "AgentHistory",
    "AgentStep",
    "EndReason",
    "Fingerprint",
    "Outcome",
    "RecordedResult",
    "RunUsage",
    "StepOutput",
    "StepScreenshot",
    "StepTimings",
    "TokenUsage",
    "describe_call",
    "describe_outcome",
    "describe_step",
]
