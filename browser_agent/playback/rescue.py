"""Hand one replay step that could not be re-located to a model, with the recorded intent."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Final

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import HumanMessage, SystemMessage

from browser_agent.browser import BrowserSession
from browser_agent.controller import ActionResult, Controller
from browser_agent.controller.reply import build_output_model
from browser_agent.dom.serializer import render
from browser_agent.errors import ModelError
from browser_agent.llm import ask_structured
from browser_agent.record import ActionCall
from browser_agent.record.fingerprint import Fingerprint
from browser_agent.sensitive import Secrets

__all__ = ["LOOKS", "Rescue", "rescue_step"]

RESCUE_PROMPT = (
    "You repair one step of a recorded browser run. The recorded action could not be matched to an element "
    "on the current page with certainty. Choose the one action on the current page that does what the "
    "recorded action did. Indices refer to the page shown below; when the element is not on it, scroll, "
    "and you will be shown the page again."
)


@dataclass(frozen=True, slots=True)
class Rescue:
    """What the model did in place of a recorded action: its result, and, when it answered, the action it
    chose (as a run records it: placeholders for secrets, ``index`` on the page it saw) and the
    fingerprint of the element that action touched (``None`` when it touched none)."""

    result: ActionResult
    action: ActionCall | None = None
    target: Fingerprint | None = None


LOOKS: Final = 3
"""Answers a model may give for one step: those that touch no element (a scroll) let it look again."""


async def rescue_step(
    llm: BaseChatModel,
    action: ActionCall,
    reason: str,
    session: BrowserSession,
    controller: Controller,
    sensitive_data: Secrets,
    goal: str = "",
) -> Rescue:
    """Ask ``llm`` for a replacement action and run it; failures come back as an error result.

    ``goal`` is what the step was for, in words (the recorded ``next_goal``, the task): the model reads
    it beside the recorded action. It sees the page as the agent does, a screen at a time: an answer
    that touches no element (it scrolled to look further) is run and the model is asked again, up to
    ``LOOKS`` answers in all.
    """
    rescue = Rescue(ActionResult(action=action.name, error="the llm was not asked"))
    for _ in range(LOOKS):
        rescue = await _ask(llm, action, reason, goal, session, controller, sensitive_data)
        if rescue.result.error or rescue.target is not None or rescue.action is None:
            return rescue
    return rescue


async def _ask(
    llm: BaseChatModel,
    action: ActionCall,
    reason: str,
    goal: str,
    session: BrowserSession,
    controller: Controller,
    sensitive_data: Secrets,
) -> Rescue:
    """One question to the model about the page as it is now, and its answer run."""
    state = await session.state(redact=sensitive_data.redact if sensitive_data else None)
    page = render(state.snapshot) if state.snapshot is not None else ""
    wanted = f"What the step is for: {goal}\n" if goal else ""
    body = (
        f"{wanted}Recorded action: {json.dumps(action.flat())}\nWhy it needs you: {reason}\n"
        f"Current URL: {state.url}\nPage:\n{page}"
    )
    messages = [SystemMessage(content=RESCUE_PROMPT), HumanMessage(content=sensitive_data.redact(body))]
    output_model = build_output_model(controller.action_union(state.url), 1)
    try:
        reply = await ask_structured(llm, messages, output_model)
    except ModelError as exc:
        return Rescue(ActionResult(action=action.name, error=f"the llm could not repair the step: {exc}"))
    chosen = [ActionCall.model_validate(a.model_dump(mode="json")) for a in reply.parsed.action]
    results = await controller.run(reply.parsed.action, session, sensitive_data=sensitive_data)
    return Rescue(results[0], chosen[0] if chosen else None, results[0].fingerprint)
