"""What an export reads: one ``ExportStep`` per recorded action, from a saved history (here) or a workflow
(``browser_agent.workflow.to_script``). The script writer sees only these, never the record itself."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from browser_agent.action_specs.elements import POINTED_AT, SET_BY_WIDGET
from browser_agent.errors import UserError
from browser_agent.record import AgentHistory, AgentStep, Fingerprint

__all__ = ["ExportStep", "steps_from_history"]


@dataclass(frozen=True, slots=True)
class ExportStep:
    """One action to write out: its name and parameters, the element it acted on and that element's frame.

    ``frame`` is the chain of frames holding the element, outermost first, as fingerprints record it
    (an iframe's name, else its document's address); empty for the top document, None to take the
    fingerprint's own. ``shown_name`` is the
    element's name as the page wrote it (fingerprints keep it lower-cased), when the run told it.
    ``url`` is the page the action started on, ``opened_tab`` whether the action opened a new tab.
    ``input_names`` names the input a parameter's value is (``{"text": "email"}``; otherwise the name is
    made from the field's label); ``named_by`` is ``(input name, recorded value)`` when an input's value
    names the element itself (the product link a workflow clicks). ``number`` is the step of the record
    it came from, for messages (None: its place among the steps exported). ``goal`` is what the step was
    for, in the recording's words (its ``next_goal``): a ``--heal`` script tells the model. ``by_widget``:
    a typing the page's own widget took (a calendar, a drawn slider), which no ``fill`` repeats.
    """

    action: str
    params: Mapping[str, Any] = field(default_factory=dict)
    fingerprint: Fingerprint | None = None
    frame: tuple[str, ...] | None = None
    url: str = ""
    shown_name: str | None = None
    opened_tab: bool = False
    input_names: Mapping[str, str] = field(default_factory=dict)
    named_by: tuple[str, str] | None = None
    number: int | None = None
    goal: str = ""
    by_widget: bool = False


def steps_from_history(history: AgentHistory) -> list[ExportStep]:
    """Every action of ``history`` that changed something, in order (failed or skipped ones are left
    out, as replay leaves them out).

    Raises:
        UserError: the history holds no action to export.
    """
    steps = [step for recorded in history.steps for step in _steps_of(recorded)]
    if not any(step.action != "done" for step in steps):
        raise UserError(
            "The history has no action to export (no step acted, or every action failed); "
            "record a run that did something, then export it."
        )
    return steps


def _steps_of(recorded: AgentStep) -> list[ExportStep]:
    steps = []
    for position, call in enumerate(recorded.actions):
        result = recorded.results[position] if position < len(recorded.results) else None
        if result is not None and (result.skipped or result.error):
            continue
        found = recorded.interacted[position] if position < len(recorded.interacted) else None
        said = (result.extracted_content or "") if result is not None else ""
        pointed = call.name == "click_element" and said.startswith(POINTED_AT)  # the click only hovered
        steps.append(
            ExportStep(
                action="hover" if pointed else call.name,
                params=dict(call.params),
                fingerprint=found,
                frame=found.frame_path if found is not None else (),
                url=recorded.url,
                shown_name=shown_name(found.name, said) if found is not None else None,
                opened_tab=result is not None and result.new_tab is not None,
                number=recorded.step,
                goal=recorded.next_goal,
                by_widget=call.name == "input_text" and said.startswith(SET_BY_WIDGET),
            )
        )
    return steps


def shown_name(name: str, said: str) -> str | None:
    """``name`` (lower-cased, as fingerprints keep it) as ``said`` wrote it: the result of an action names
    the element as the page shows it ("Clicked element 3 (Blue ceramic mug)"). None when it is not there."""
    if not name:
        return None
    words = [re.escape(word) for word in name.split()]
    # the last one: the element's label follows what was typed into it
    found = re.findall(r"(?<!\w)" + r"\s+".join(words) + r"(?!\w)", said, flags=re.IGNORECASE)
    return " ".join(found[-1].split()) if found else None
