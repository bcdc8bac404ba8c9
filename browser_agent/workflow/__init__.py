"""Workflows: a recorded run made repeatable with named inputs (``make_workflow``), saved as a
versioned JSON file (``Workflow``), run with other values through the replay (``run_workflow``), or
written as a plain Playwright script whose inputs keep their names (``export_workflow``).

The names are imported on first use (``from browser_agent.workflow import Workflow`` works as ever), so
that a module of the package (``workflow.file_format``, which tells a workflow from a history) can be
imported alone, without the replay and Playwright.
"""

import typing as _typing

from browser_agent.lazy_names import lazy_names as _lazy_names

if _typing.TYPE_CHECKING:
    from browser_agent.workflow.make import make_workflow
    from browser_agent.workflow.model import Workflow, WorkflowInput, WorkflowStep
    from browser_agent.workflow.rerun import retarget, run_workflow, workflow_history
    from browser_agent.workflow.to_script import export_workflow, steps_from_workflow

# Each public name, and the module it comes from.
_HOMES = {
    "Workflow": "model",
    "WorkflowInput": "model",
    "WorkflowStep": "model",
    "export_workflow": "to_script",
    "make_workflow": "make",
    "retarget": "rerun",
    "run_workflow": "rerun",
    "steps_from_workflow": "to_script",
    "workflow_history": "rerun",
}

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

if not _typing.TYPE_CHECKING:  # type checkers read the imports above; a module __getattr__ would hide typos
    __getattr__, __dir__ = _lazy_names(__name__, _HOMES, globals())
