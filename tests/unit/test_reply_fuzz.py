"""Property tests: no model reply, of any shape, depth, size or encoding, escapes as a crash.

The documented outcomes are: ``extract_json`` returns a dict or list, or raises ``JSONExtractionError``;
``ask_structured`` returns a validated ``StructuredReply``, or raises ``ModelOutputError`` after its
corrections. Anything else (``RecursionError``, ``TypeError``, ...) is a bug.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from langchain_core.messages import AIMessage, HumanMessage

from browser_agent import Controller
from browser_agent.controller.reply import build_output_model
from browser_agent.errors import ModelOutputError
from browser_agent.llm import JSONExtractionError, ask_structured, extract_json
from browser_agent.testing import ScriptedChatModel

OUTPUT = build_output_model(Controller().action_union(), 3)
VALID: dict[str, Any] = {
    "current_state": {"evaluation_previous_goal": "Success", "memory": "m", "next_goal": "g"},
    "action": [{"action": "click_element", "index": 3}, {"action": "done", "text": "ok", "success": True}],
}
VALID_TEXT = json.dumps(VALID)

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True) | st.text(max_size=20),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4)
    ),
    max_leaves=30,
)


@st.composite
def mutated_replies(draw: st.DrawFn) -> str:
    """A valid reply broken the ways models break them: cut, wrapped, nested, doubled, retyped."""
    text = VALID_TEXT
    kind = draw(st.sampled_from(["cut", "fence", "think", "nest", "double", "retype", "splice", "prose"]))
    if kind == "cut":
        text = text[: draw(st.integers(0, len(text)))]
    elif kind == "fence":
        text = f"```json\n{text}\n```" + draw(st.sampled_from(["", "```", " trailing"]))
    elif kind == "think":
        text = "<think>" + draw(st.text(max_size=50)) + draw(st.sampled_from(["</think>", ""])) + text
    elif kind == "nest":
        depth = draw(st.integers(10, 5_000))
        opener = draw(st.sampled_from(["[", "{", '{"a":', "[{"]))
        text = (
            opener * depth + draw(st.sampled_from(["", "1", text])) + draw(st.sampled_from(["", "]" * depth]))
        )
    elif kind == "double":
        text = text + draw(st.sampled_from(["", "\n", " and "])) + text
    elif kind == "retype":
        text = json.dumps(draw(json_values))
    elif kind == "splice":
        at = draw(st.integers(0, len(text)))
        text = text[:at] + draw(st.text(max_size=30)) + text[at:]
    else:
        text = draw(st.text(max_size=200)) + text + draw(st.text(max_size=200))
    return text


any_reply = (
    mutated_replies()
    | st.text(max_size=500)
    | st.binary(max_size=300).map(lambda b: b.decode("utf-8", errors="replace"))
)


@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(any_reply)
def test_extract_json_returns_json_or_its_own_error(reply: str) -> None:
    try:
        value = extract_json(reply)
    except JSONExtractionError as exc:
        assert str(exc)
        return
    assert isinstance(value, dict | list)


def test_huge_and_deep_replies_are_errors_not_crashes() -> None:
    for reply in ["[" * 200_000, "{" * 100_000 + "}" * 100_000, "x" * 2_000_000, "", "\x00" * 1000]:
        try:
            extract_json(reply)
        except JSONExtractionError:
            continue


def _ask(replies: list[Any], method: str) -> Any:
    llm = ScriptedChatModel(replies=replies)
    return asyncio.run(
        ask_structured(llm, [HumanMessage(content="go")], OUTPUT, method=method, max_corrections=1)  # type: ignore[arg-type]
    )


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(first=any_reply, second=any_reply, method=st.sampled_from(["raw", "json_mode"]))
def test_ask_structured_validates_or_raises_model_output_error(first: str, second: str, method: str) -> None:
    try:
        reply = _ask([first, second], method)
    except ModelOutputError as exc:
        assert "did not match" in str(exc)
        return
    assert isinstance(reply.parsed, OUTPUT)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(args=json_values | st.fixed_dictionaries({"current_state": json_values, "action": json_values}))
def test_tool_call_arguments_of_any_shape_are_validated_or_refused(args: Any) -> None:
    if isinstance(args, dict):
        message = AIMessage(content="", tool_calls=[{"name": "AgentOutput", "args": args, "id": "c1"}])
    else:
        message = AIMessage(content=json.dumps(args))
    try:
        reply = _ask([message, message], "function_calling")
    except ModelOutputError:
        return
    assert isinstance(reply.parsed, OUTPUT)


def test_deep_tool_call_arguments_are_refused() -> None:
    deep: Any = 1
    for _ in range(3_000):
        deep = {"a": deep}
    message = AIMessage(content="", tool_calls=[{"name": "AgentOutput", "args": deep, "id": "c1"}])
    try:
        _ask([message, message], "function_calling")
    except ModelOutputError:
        return
    raise AssertionError("a deep reply validated")
