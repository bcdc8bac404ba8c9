"""What changed between two workflows, step by step, in a few lines each (``workflow show --diff``)."""

from __future__ import annotations

from typing import Any

from browser_agent.workflow.model import Workflow, WorkflowStep

__all__ = ["workflow_diff"]


def workflow_diff(old: Workflow, new: Workflow) -> list[str]:
    """Lines saying how ``new`` differs from ``old``: each changed, added or removed step, its action,
    element, parameters and inputs before → after, and why, when ``new`` is a healed copy that says."""
    reasons = {change.step: change.reason for change in new.healed.changes} if new.healed else {}
    lines: list[str] = []
    for number in range(1, max(len(old.steps), len(new.steps)) + 1):
        before = old.steps[number - 1] if number <= len(old.steps) else None
        after = new.steps[number - 1] if number <= len(new.steps) else None
        if before is None and after is not None:
            lines.append(f"step {number}: added {_action(after)} on {_element(after)}")
        elif after is None and before is not None:
            lines.append(f"step {number}: removed {_action(before)} on {_element(before)}")
        elif before is not None and after is not None and _differ(before, after):
            lines.extend(_step_lines(number, before, after, reasons.get(number, "")))
    removed = sorted({i.name for i in old.inputs} - {i.name for i in new.inputs})
    if removed:
        lines.append(f"inputs no longer used: {', '.join(removed)}")
    return lines


def _step_lines(number: int, before: WorkflowStep, after: WorkflowStep, reason: str) -> list[str]:
    lines = [f"step {number}: {_action(before)} → {_action(after)}"]
    if _element(before) != _element(after):
        lines.append(f"  element: {_element(before)} → {_element(after)}")
    for key in sorted((set(before.params) | set(after.params)) - {"index"}):
        if before.params.get(key) != after.params.get(key):
            lines.append(f"  {key}: {_value(before.params.get(key))} → {_value(after.params.get(key))}")
    if before.inputs != after.inputs or before.target_input != after.target_input:
        lines.append(f"  inputs: {_inputs(before)} → {_inputs(after)}")
    if reason:
        lines.append(f"  why: {reason}")
    return lines


def _differ(before: WorkflowStep, after: WorkflowStep) -> bool:
    """Whether two steps differ in more than the element's number on the recorded page."""
    return (
        before.action != after.action
        or _without_index(before.params) != _without_index(after.params)
        or before.inputs != after.inputs
        or before.target_input != after.target_input
        or (before.target.to_dict() if before.target else None)
        != (after.target.to_dict() if after.target else None)
    )


def _without_index(params: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in params.items() if k != "index"}


def _action(step: WorkflowStep) -> str:
    return step.action


def _element(step: WorkflowStep) -> str:
    return step.target.describe() if step.target is not None else "no element"


def _value(value: Any) -> str:
    return "(none)" if value is None else repr(value)


def _inputs(step: WorkflowStep) -> str:
    bound = [f"{param}={{{name}}}" for param, name in step.inputs.items()]
    if step.target_input:
        bound.append(f"element={{{step.target_input}}}")
    return ", ".join(bound) or "none"
