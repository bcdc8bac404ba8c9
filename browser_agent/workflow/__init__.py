"""Workflows: a recorded run made repeatable with named inputs (``make_workflow``), saved as a
versioned JSON file (``Workflow``), and run with other values through the replay (``run_workflow``)."""

from browser_agent.workflow.make import make_workflow
from browser_agent.workflow.model import Workflow, WorkflowInput, WorkflowStep
from browser_agent.workflow.run import retarget, run_workflow, workflow_history

__all__ = [
    "Workflow",
    "WorkflowInput",
    "WorkflowStep",
    "make_workflow",
    "retarget",
    "run_workflow",
    "workflow_history",
]
