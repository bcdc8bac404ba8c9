"""Runs that heal: the steps a model did in place of recorded ones (``--heal``), kept in a copy of the
recording written beside it, with a record of what changed.

A replay hands a step whose element cannot be found surely (missing, or ambiguous) to the model
(``rescue_step``); healing keeps what the model did: its action, and the fingerprint of the element it
touched, replace the recorded ones, so that the next replay of the healed copy needs no model there.
The original is never overwritten: the copy is ``NAME.healed.json`` beside ``NAME.json``.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

from browser_agent import artifacts
from browser_agent.playback.replayer import ReplayedAction, ReplayReport
from browser_agent.record import ActionCall, AgentHistory, AgentStep
from browser_agent.record.healing import HEALING_FORMAT, HealRecord, StepChange
from browser_agent.reid import Fingerprint

__all__ = [
    "HEALING_FORMAT",
    "HealRecord",
    "StepChange",
    "healed_history",
    "healed_path",
    "healed_steps",
    "save_healed_history",
    "step_change",
]


def healed_path(original: str | Path) -> Path:
    """Where the healed copy of ``original`` goes: ``buy.workflow.json`` → ``buy.workflow.healed.json``."""
    path = Path(original)
    stem = path.name.removesuffix(".json") if path.name.endswith(".json") else path.name
    return path.with_name(f"{stem}.healed.json")


def healed_steps(report: ReplayReport) -> list[ReplayedAction]:
    """The replayed actions a model did in place of the recorded ones (those a healing keeps)."""
    return [
        item
        for item in report.actions
        if item.status == "handed_to_llm" and item.rescue is not None and item.rescue.action is not None
    ]


def step_change(
    number: int, item: ReplayedAction, before: Fingerprint | None, after: ActionCall
) -> StepChange:
    """The record of one healed step: ``item`` replayed ``before`` (its element); ``after`` replaces it."""
    target = item.rescue.target if item.rescue is not None else None
    return StepChange(
        step=number,
        reason=item.message.split("; handed to the llm:", 1)[0],
        action_before=item.action.flat(),
        action_after=after.flat(),
        element_before=before.describe() if before is not None else "",
        element_after=target.describe() if target is not None else "",
    )


def healed_history(
    history: AgentHistory, report: ReplayReport, source: str | Path
) -> tuple[AgentHistory, HealRecord] | None:
    """``history`` with every step the model healed in ``report`` in place of the recorded one, and the
    record of what changed; ``None`` when no step was healed."""
    steps = [step.model_copy(deep=True) for step in history.steps]
    changes: list[StepChange] = []
    for (index, position), item in zip(_replayed_positions(steps), report.actions, strict=False):
        rescue = item.rescue
        if item.status != "handed_to_llm" or rescue is None or rescue.action is None:
            continue
        step = steps[index]
        before = step.interacted[position] if position < len(step.interacted) else None
        changes.append(step_change(step.step, item, before, rescue.action))
        steps[index] = _with_action(step, position, rescue.action, rescue.target)
    if not changes:
        return None
    record = HealRecord(healed_from=str(source), changes=changes)
    return history.model_copy(update={"steps": steps}), record


def save_healed_history(healed: AgentHistory, record: HealRecord, path: str | Path) -> Path:
    """Write the healed history at ``path`` and its record of changes beside it (``*.changes.json``)."""
    written = healed.save(path)
    artifacts.write_text(_changes_path(written), record.model_dump_json(indent=2) + "\n")
    return written


def _changes_path(path: Path) -> Path:
    return path.with_name(path.name.removesuffix(".json") + ".changes.json")


def _replayed_positions(steps: list[AgentStep]) -> Iterator[tuple[int, int]]:
    """(step index, action position) of every action a replay runs, in its order (``playback.replay``)."""
    for index, step in enumerate(steps):
        for position, _ in enumerate(step.actions):
            result = step.results[position] if position < len(step.results) else None
            if result is not None and (result.skipped or result.error):
                continue
            yield index, position


def _with_action(step: AgentStep, position: int, action: ActionCall, target: Fingerprint | None) -> AgentStep:
    assert step.model_output is not None  # it has the action being replaced
    actions = list(step.model_output.action)
    actions[position] = action
    interacted = list(step.interacted) + [None] * (len(actions) - len(step.interacted))
    interacted[position] = target
    output = step.model_output.model_copy(update={"action": actions})
    return step.model_copy(update={"model_output": output, "interacted": interacted})
