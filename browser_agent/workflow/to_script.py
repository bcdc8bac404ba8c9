"""A workflow as a plain Playwright script: its inputs become the script's inputs, under the same names.

What a workflow types or selects is read from ``BA_<NAME>`` and is a keyword parameter of ``run`` named
as the workflow's input (``email``, ``quantity``); an element the workflow chooses by what it says (the
product link) is found by that input's words, so ``BA_PRODUCT="Red kettle"`` buys another product. The
addresses it opens are written under the ``base_url`` input, as in the export of a history.
"""

from __future__ import annotations

from browser_agent.errors import UserError
from browser_agent.export import Ending, ExportedScript, ExportStep, render_script
from browser_agent.workflow.model import Workflow, WorkflowStep

__all__ = ["export_workflow", "steps_from_workflow"]

_BY_BASE_URL = frozenset({"url"})  # the export writes addresses under its own ``base_url`` input


def export_workflow(
    workflow: Workflow, *, pytest: bool = False, origin: str = "", heal: bool = False
) -> ExportedScript:
    """The script of ``workflow``; ``origin`` names the workflow file (kept in the script as a literal);
    ``heal`` writes the form whose failed locators are healed by a model.

    Raises:
        UserError: the workflow has no step to export, or a step's parameters are missing or malformed.
    """
    steps = steps_from_workflow(workflow)
    ending = Ending(text=workflow.recorded_result)
    return render_script(steps, task=workflow.task, origin=origin, ending=ending, pytest=pytest, heal=heal)


def steps_from_workflow(workflow: Workflow) -> list[ExportStep]:
    """One ``ExportStep`` per workflow step, its parameters' inputs and its element's input named.

    Raises:
        UserError: the workflow has no step.
    """
    if not workflow.steps:
        raise UserError("The workflow has no step to export; make it from a run that acted.")
    defaults = {item.name: item.default for item in workflow.inputs}
    return [_export_step(step, defaults, n) for n, step in enumerate(workflow.steps, start=1)]


def _export_step(step: WorkflowStep, defaults: dict[str, str], number: int) -> ExportStep:
    names = {param: name for param, name in step.inputs.items() if param not in _BY_BASE_URL}
    chooser = step.target_input
    return ExportStep(
        action=step.action,
        params=dict(step.params),
        fingerprint=step.target,
        frame=step.target.frame_path if step.target is not None else (),
        url=step.url,
        input_names=names,
        named_by=(chooser, defaults[chooser]) if chooser is not None else None,
        opened_tab=step.opened_tab,
        number=number,
    )
