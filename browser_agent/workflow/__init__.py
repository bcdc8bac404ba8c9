"""Workflows: a recorded run made repeatable with named inputs (``make_workflow``), saved as a
versioned JSON file (``Workflow``), run with other values through the replay (``run_workflow``), or
written as a plain Playwright script whose inputs keep their names (``export_workflow``)."""

from browser_agent.workflow.make import make_workflow
from browser_agent.workflow.model import Workflow, WorkflowInput, WorkflowStep
from browser_agent.workflow.rerun import retarget, run_workflow, workflow_history
from browser_agent.workflow.to_script import export_workflow, steps_from_workflow

__all__ = [
    "Workflow",
    "WorkflowInput",
    "WorkflowStep",
    "export_workflow",
    "make_workflow",
    "retarget",
    "run_workflow",
    "steps_from_workflow",
    "workflow_history",
]
