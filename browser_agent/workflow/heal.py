"""A workflow healed by its run: the steps a model did in place of recorded ones, kept (``--heal``).

Each healed step takes the model's action and the element it touched; its inputs stay inputs. The
healed run may have had other values than the recorded ones, and a workflow keeps its recorded values
(``WorkflowInput.default``) in its steps: a parameter the model filled with the run's value of an input
keeps that input, with the recorded value in ``params``; an element chosen by what it says keeps its
input when it still says the run's value (its fingerprint is told the recorded words, ``retarget``).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from browser_agent.playback import ReplayReport
from browser_agent.playback.heal import HealRecord, StepChange, step_change
from browser_agent.playback.replayer import ReplayedAction
from browser_agent.record import ActionCall
from browser_agent.reid import Fingerprint
from browser_agent.reid.labels import label_shown, norm
from browser_agent.workflow.model import Workflow, WorkflowStep
from browser_agent.workflow.rerun import retarget

__all__ = ["healed_workflow"]


def healed_workflow(
    workflow: Workflow, values: Mapping[str, str], report: ReplayReport, source: str | Path
) -> Workflow | None:
    """``workflow`` with every step the model healed in ``report`` (a run with ``values``) kept, and the
    record of what changed (``Workflow.healed``); ``None`` when no step was healed.

    ``report`` is ``run_workflow``'s: its actions are the workflow's steps, in order.
    """
    steps = list(workflow.steps)
    changes: list[StepChange] = []
    for number, (step, item) in enumerate(zip(workflow.steps, report.actions, strict=False), start=1):
        rescue = item.rescue
        if item.status != "handed_to_llm" or rescue is None or rescue.action is None:
            continue
        changes.append(_change(number, step, item, rescue.action))
        steps[number - 1] = _healed_step(workflow, step, values, rescue.action, rescue.target)
    if not changes:
        return None
    used = {name for step in steps for name in step.input_names()}
    return workflow.model_copy(
        update={
            "steps": steps,
            "inputs": [item for item in workflow.inputs if item.name in used],
            "healed": HealRecord(healed_from=str(source), changes=changes),
        }
    )


def _change(number: int, step: WorkflowStep, item: ReplayedAction, after: ActionCall) -> StepChange:
    change = step_change(number, item, step.target, after)
    # the recorded action as the workflow holds it, not as this run's values filled it
    return change.model_copy(update={"action_before": {"action": step.action, **step.params}})


def _healed_step(
    workflow: Workflow,
    step: WorkflowStep,
    values: Mapping[str, str],
    action: ActionCall,
    target: Fingerprint | None,
) -> WorkflowStep:
    params: dict[str, Any] = dict(action.params)
    inputs: dict[str, str] = {}
    for param, name in step.inputs.items():
        if params.get(param) == values[name]:  # the model typed the run's value: it stays the input
            inputs[param] = name
            params[param] = workflow.input(name).default
    chooser = step.target_input
    if chooser is not None and target is not None and _says(target, values[chooser]):
        default = workflow.input(chooser).default
        if values[chooser] != default:
            target = retarget(target, values[chooser], default)
    else:
        chooser = None
    return WorkflowStep(
        action=action.name,
        params=params,
        inputs=inputs,
        target=target,
        target_input=chooser,
        url=step.url,
        title=step.title,
    )


def _says(target: Fingerprint, value: str) -> bool:
    """Whether ``value`` is among the words of ``target`` (as ``make_workflow`` finds element inputs)."""
    words = norm(value)
    return bool(words) and label_shown(words, [target.name])
