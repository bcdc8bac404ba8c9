"""The reply's fixed opening, written into a ``json_schema`` request for the server to go on from: what it
holds, how the reply is read back whether the server returns all of it, its own part, or a reply of its own.
"""

from __future__ import annotations

import json
from typing import Any, Literal

from langchain_core.messages import AIMessage, HumanMessage, SystemMessage
from pydantic import BaseModel

from browser_agent.agent.evaluation_pins import FIRST_EVALUATION
from browser_agent.controller import Controller
from browser_agent.controller.reply import build_output_model
from browser_agent.llm import PromptShape, ask_structured
from browser_agent.llm.schemas import FREE_TEXT_CAP, fixed_opening, grammar_schema
from browser_agent.testing import ScriptedChatModel

OUTPUT = build_output_model(Controller().action_union(), 3)
PROMPT = [SystemMessage(content="You drive a browser."), HumanMessage(content="Click OK.")]
FIRST_TEXT = FIRST_EVALUATION[0][1]
FIRST = '{"current_state": {"evaluation_previous_goal": ' + json.dumps(FIRST_TEXT) + ', "memory": "'
REPLY = {
    "current_state": {"evaluation_previous_goal": FIRST_TEXT, "memory": "", "next_goal": "OK"},
    "action": [{"action": "click_element", "index": 1}],
}


def _shape(opening: bool = True) -> PromptShape:
    return PromptShape(described=True, indices=(0, 1), pinned=FIRST_EVALUATION, opening=opening)


def test_the_opening_runs_through_keys_and_pinned_text_to_the_first_free_string() -> None:
    assert fixed_opening(grammar_schema(OUTPUT, (0, 1), (), FIRST_EVALUATION)) == FIRST
    assert fixed_opening(grammar_schema(OUTPUT, (0, 1))) == '{"current_state": {"evaluation_previous_goal": "'
    # The JSON a model writes with the usual separators starts with it.
    assert json.dumps(OUTPUT.model_validate(REPLY).model_dump(mode="json")).startswith(FIRST)


class Pick(BaseModel):
    mode: Literal["fast"]
    count: int
    note: str = ""


def test_the_opening_stops_before_a_value_the_model_chooses_and_before_optional_fields() -> None:
    grammar = grammar_schema(Pick)
    assert fixed_opening(grammar) == '{"mode": "fast", "count": '
    pinned = {"type": "object", "properties": {"a": {"type": "string", "enum": ['é "q"']}}, "required": ["a"]}
    assert fixed_opening(pinned) == '{"a": "é \\"q\\""'  # as the server writes the literal: not \\u00e9
    optional_first = {"type": "object", "properties": {"a": {"type": "string"}}}
    assert fixed_opening(optional_first) == ""


async def _ask(reply: Any, *, opening: bool = True) -> tuple[Any, ScriptedChatModel]:
    model = ScriptedChatModel(replies=[reply] if not isinstance(reply, list) else reply)
    answer = await ask_structured(model, PROMPT, OUTPUT, method="json_schema", shape=_shape(opening))
    return answer, model


async def test_the_request_ends_with_the_opening_and_a_whole_reply_is_read_as_it_came() -> None:
    whole = json.dumps(REPLY)
    answer, model = await _ask(whole)
    sent = model.calls[0].messages
    assert isinstance(sent[-1], AIMessage) and sent[-1].content == FIRST
    assert answer.raw == whole and answer.parsed.action[0].index == 1 and not answer.opening_ignored


async def test_a_server_that_returns_only_what_it_wrote_gets_the_opening_put_back() -> None:
    answer, _ = await _ask(json.dumps(REPLY).removeprefix(FIRST))
    assert answer.raw == json.dumps(REPLY) and answer.parsed.current_state.next_goal == "OK"
    assert not answer.opening_ignored


async def test_a_server_that_answers_anew_is_read_as_it_came_and_said_to_ignore_the_opening() -> None:
    anew = json.dumps({**REPLY, "action": [{"action": "click_element", "index": 0}]}, separators=(",", ":"))
    answer, _ = await _ask(anew)
    assert answer.parsed.action[0].index == 0 and answer.raw == anew and answer.opening_ignored


async def test_without_the_setting_no_opening_is_sent() -> None:
    _, model = await _ask(json.dumps(REPLY), opening=False)
    assert isinstance(model.calls[0].messages[-1], HumanMessage)


def test_every_free_text_of_the_grammar_has_a_length_limit() -> None:
    """A small model that copies a page's text into an action's string can repeat it until the server's
    context is full: every string the grammar admits is bounded, the model's own limits kept."""
    grammar = grammar_schema(OUTPUT, (0, 1))
    strings: list[dict[str, Any]] = []

    def walk(node: Any) -> None:
        if isinstance(node, list):
            for value in node:
                walk(value)
        elif isinstance(node, dict):
            if node.get("type") == "string":
                strings.append(node)
            for value in node.values():
                walk(value)

    walk(grammar)
    free = [s for s in strings if "enum" not in s]
    assert len(free) > 5 and all(isinstance(s.get("maxLength"), int) for s in free)
    state = grammar["properties"]["current_state"]["properties"]
    assert state["memory"]["maxLength"] == 600 and state["next_goal"]["maxLength"] == 200
    scroll = next(
        b
        for b in grammar["properties"]["action"]["items"]["anyOf"]
        if b["properties"]["action"]["enum"] == ["scroll_to_text"]
    )
    assert scroll["properties"]["text"]["maxLength"] == FREE_TEXT_CAP
