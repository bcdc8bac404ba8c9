"""Hand one replay step that could not be re-located to a model, with the recorded intent."""

from __future__ import annotations

import json

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import HumanMessage, SystemMessage

from browser_agent.browser import BrowserSession
from browser_agent.controller import ActionResult, Controller
from browser_agent.controller.reply import build_output_model
from browser_agent.dom.serializer import render
from browser_agent.errors import ModelError
from browser_agent.llm import ask_structured
from browser_agent.record import ActionCall
from browser_agent.sensitive import Secrets

__all__ = ["rescue_step"]

RESCUE_PROMPT = (
    "You repair one step of a recorded browser run. The recorded action could not be matched to an element "
    "on the current page with certainty. Choose the one action on the current page that does what the "
    "recorded action did. Indices refer to the page shown below."
)


async def rescue_step(
    llm: BaseChatModel,
    action: ActionCall,
    reason: str,
    session: BrowserSession,
    controller: Controller,
    sensitive_data: Secrets,
) -> ActionResult:
    """Ask ``llm`` for a single replacement action and run it; failures come back as an error result."""
    state = await session.state(redact=sensitive_data.redact if sensitive_data else None)
    page = render(state.snapshot) if state.snapshot is not None else ""
    body = (
        f"Recorded action: {json.dumps(action.flat())}\nWhy it needs you: {reason}\n"
        f"Current URL: {state.url}\nPage:\n{page}"
    )
    messages = [SystemMessage(content=RESCUE_PROMPT), HumanMessage(content=sensitive_data.redact(body))]
    output_model = build_output_model(controller.action_union(state.url), 1)
    try:
        reply = await ask_structured(llm, messages, output_model)
    except ModelError as exc:
        return ActionResult(action=action.name, error=f"the llm could not repair the step: {exc}")
    results = await controller.run(reply.parsed.action, session, sensitive_data=sensitive_data)
    return results[0]
