"""ScriptedChatModel: scripted and policy replies, tool binding, recording, usage, loud exhaustion."""

from __future__ import annotations

import asyncio
import json
import time

import pytest
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage
from pydantic import BaseModel

from browser_agent.testing import ScriptedChatModel, ScriptExhaustedError, find_index


class Answer(BaseModel):
    city: str


class Other(BaseModel):
    count: int


def test_text_reply_and_recorded_call() -> None:
    model = ScriptedChatModel(replies=["hello there"])
    reply = model.invoke([HumanMessage(content="hi")])
    assert reply.content == "hello there"
    assert [m.content for m in model.calls[0].messages] == ["hi"]
    assert model.calls[0].tools == []


def test_dict_without_tools_is_json_text() -> None:
    model = ScriptedChatModel(replies=[{"city": "Paris"}])
    reply = model.invoke("q")
    assert json.loads(str(reply.content)) == {"city": "Paris"}
    assert reply.tool_calls == []


def test_with_structured_output_uses_the_bound_tool() -> None:
    model = ScriptedChatModel(replies=[{"city": "Paris"}])
    assert model.with_structured_output(Answer).invoke("capital?") == Answer(city="Paris")
    assert model.calls[0].tool_names == ["Answer"]


async def test_async_tool_call_has_name_args_and_id() -> None:
    model = ScriptedChatModel(replies=[{"city": "Rome"}])
    reply = await model.bind_tools([Answer]).ainvoke("q")
    assert isinstance(reply, AIMessage)
    assert reply.tool_calls[0]["name"] == "Answer"
    assert reply.tool_calls[0]["args"] == {"city": "Rome"}
    assert reply.tool_calls[0]["id"]


def test_several_tools_need_a_pick() -> None:
    model = ScriptedChatModel(replies=[{"name": "Other", "args": {"count": 2}}, {"count": 3}, {"count": 4}])
    bound = model.bind_tools([Answer, Other])
    assert bound.invoke("q").tool_calls[0]["name"] == "Other"  # type: ignore[attr-defined]
    chosen = model.bind_tools([Answer, Other], tool_choice="Other")
    assert chosen.invoke("q").tool_calls[0]["args"] == {"count": 3}  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="several tools bound"):
        bound.invoke("q")


def test_policy_reads_the_messages() -> None:
    def policy(messages: list[BaseMessage]) -> str:
        return f"echo {messages[-1].content}"

    model = ScriptedChatModel(policy=policy)
    assert model.invoke("one").content == "echo one"
    assert model.invoke("two").content == "echo two"
    assert len(model.calls) == 2


def test_ai_message_is_returned_as_is() -> None:
    given = AIMessage(content="", tool_calls=[{"name": "Answer", "args": {"city": "Oslo"}, "id": "x1"}])
    reply = ScriptedChatModel(replies=[given]).invoke("q")
    assert reply.tool_calls == given.tool_calls
    assert reply.usage_metadata is None


async def test_exception_reply_is_raised() -> None:
    class RateLimitError(Exception):
        status_code = 429

    model = ScriptedChatModel(replies=[RateLimitError("slow down"), "ok"])
    with pytest.raises(RateLimitError, match="slow down"):
        await model.ainvoke("q")
    assert (await model.ainvoke("q")).content == "ok"


def test_exhausted_script_fails_loudly() -> None:
    model = ScriptedChatModel(replies=["a", "b"])
    model.invoke("1")
    model.invoke("2")
    with pytest.raises(ScriptExhaustedError, match=r"had 2 .* call 3"):
        model.invoke("3")


def test_usage_is_about_four_chars_per_token() -> None:
    model = ScriptedChatModel(replies=["x" * 40])
    reply = model.invoke("y" * 400)
    assert reply.usage_metadata is not None
    assert reply.usage_metadata["input_tokens"] == 100
    assert reply.usage_metadata["output_tokens"] == 10
    assert reply.usage_metadata["total_tokens"] == 110


def test_bound_tools_count_as_input_tokens() -> None:
    model = ScriptedChatModel(replies=[{"city": "Paris"}, "plain"])
    with_tools = model.bind_tools([Answer]).invoke("q" * 40).usage_metadata
    without = model.invoke("q" * 40).usage_metadata
    assert with_tools is not None and without is not None
    assert with_tools["input_tokens"] > without["input_tokens"] == 10
    assert with_tools["output_tokens"] > 0


def test_without_tool_support_bind_tools_raises() -> None:
    model = ScriptedChatModel(replies=["x"], supports_tools=False)
    with pytest.raises(NotImplementedError):
        model.bind_tools([Answer])


def test_replies_and_policy_together_are_rejected() -> None:
    with pytest.raises(ValueError, match="either replies"):
        ScriptedChatModel(replies=["x"], policy=lambda messages: "y")


def test_unsupported_reply_type_is_named() -> None:
    with pytest.raises(TypeError, match="int"):
        ScriptedChatModel(replies=[42]).invoke("q")


async def test_latency_overlaps_across_concurrent_async_calls() -> None:
    model = ScriptedChatModel(policy=lambda messages: "ok", latency_s=0.3)
    start = time.perf_counter()
    replies = await asyncio.gather(*(model.ainvoke("hi") for _ in range(10)))
    elapsed = time.perf_counter() - start
    assert [r.content for r in replies] == ["ok"] * 10
    # One after the other they take 3 s; the bound leaves room for a machine busy with other tests.
    assert 0.3 <= elapsed < 1.5, f"10 calls of 0.3 s each took {elapsed:.2f} s: they did not overlap"


def test_latency_delays_a_sync_call() -> None:
    model = ScriptedChatModel(replies=["late"], latency_s=0.2)
    start = time.perf_counter()
    assert model.invoke("hi").content == "late"
    assert time.perf_counter() - start >= 0.2


PAGE = """Shop
[3]<a>Home</a>
Quantity
[7]<input type=number />
[8]<button>Add to cart</button>
[9]<a>Cart (0)</a>"""


def test_find_index_reads_the_element_line_or_the_text_above_it() -> None:
    assert find_index(PAGE, "a", "cart") == 9  # case-insensitive, the first <a> that matches
    assert find_index(PAGE, "input", "Quantity") == 7  # an unlabelled field, named by the line above
    assert find_index(PAGE, "button") == 8  # no needle: the first of its tag
    with pytest.raises(LookupError, match="no <button> with"):
        find_index(PAGE, "button", "Checkout")
    with pytest.raises(LookupError):
        find_index(PAGE, "a", "Quantity")  # the text above names only the element right below it
    # an element new since the last step is marked "*": the text above still names it
    new = "Note for the courier\n*[2]<input/>\n*[3]<button>Save</button>"
    assert find_index(new, "input", "courier") == 2
