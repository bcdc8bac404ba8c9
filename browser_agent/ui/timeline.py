"""The step timeline as events for the UI: each a small JSON object with a ``type``.

Everything here comes from already redacted records (``AgentStep``, ``AgentHistory``) or is redacted
by the caller; no event carries a screenshot (the live view sends frames apart).
"""

from __future__ import annotations

from collections.abc import Iterable

from browser_agent.dom.snapshot import DomSnapshot
from browser_agent.record import AgentHistory, AgentStep, describe_call, describe_outcome
from browser_agent.ui.viewers import Event

__all__ = ["marks_event", "run_end_event", "step_end_event", "step_start_event"]

_TEXT_LIMIT = 2_000  # an action's outcome is cut here: an extraction can be pages long
_MAX_MARKS = 400


def step_start_event(number: int, max_steps: int) -> Event:
    return {"type": "step_start", "step": number, "max_steps": max_steps}


def step_end_event(step: AgentStep) -> Event:
    """A finished step: the model's evaluation, memory and next goal, each action with its outcome,
    tokens, seconds, corrections, retries and the step's error (loop notices included)."""
    brain = step.brain
    return {
        "type": "step_end",
        "step": step.step,
        "url": step.url,
        "title": step.title,
        "evaluation": brain.evaluation_previous_goal if brain else "",
        "memory": brain.memory if brain else "",
        "next_goal": step.next_goal,
        "actions": list(_actions(step)),
        "error": step.error,
        "input_tokens": step.usage.input_tokens,
        "output_tokens": step.usage.output_tokens,
        "seconds": round(step.timings.total_ms / 1000, 2),
        "model_seconds": round(step.timings.model_ms / 1000, 2),
        "corrections": step.corrections,
        "retries": list(step.retries),
        "failed": step.failed,
    }


def _actions(step: AgentStep) -> Iterable[Event]:
    for index, call in enumerate(step.actions):
        result = step.results[index] if index < len(step.results) else None
        outcome = describe_outcome(result).cut(_TEXT_LIMIT) if result is not None else None
        yield {
            "call": describe_call(call),
            "outcome": outcome.text if outcome else "",
            "kind": outcome.kind if outcome else "pending",
        }


def run_end_event(history: AgentHistory) -> Event:
    return {
        "type": "run_end",
        "end_reason": history.end_reason,
        "success": history.is_successful(),
        "result": history.final_result(),
        "steps": history.model_steps(),
        "steps_label": history.steps_label(),
        "seconds": round(history.total_duration_seconds(), 1),
        "input_tokens": history.total_input_tokens(),
        "output_tokens": history.total_output_tokens(),
    }


def marks_event(number: int, snapshot: DomSnapshot | None, viewport: tuple[float, float]) -> Event:
    """The element boxes of step ``number``'s page that show in the viewport (index and box in CSS
    pixels), for the overlay on the live view; the page draws them. Kept cheap: it runs in the step."""
    width, height = viewport
    marks = []
    for node in snapshot.selector_map.values() if snapshot is not None else ():
        r = node.rect
        if (
            r.width > 0
            and r.height > 0
            and r.x < width
            and r.y < height
            and r.x + r.width > 0
            and r.y + r.height > 0
        ):
            marks.append([node.index, round(r.x, 1), round(r.y, 1), round(r.width, 1), round(r.height, 1)])
    return {"type": "marks", "step": number, "width": width, "height": height, "marks": marks[:_MAX_MARKS]}
