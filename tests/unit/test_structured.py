"""ask_structured through ScriptedChatModel: tool calling, raw and JSON modes, corrections, retries."""

from __future__ import annotations

import json
from typing import Literal

import pytest
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage, ToolMessage
from pydantic import BaseModel, Field

from browser_agent.errors import ModelError, ModelOutputError, UserError
from browser_agent.llm import RetryPolicy, TokenUsage, ask_structured, compact_schema
from browser_agent.testing import ScriptedChatModel

FAST = RetryPolicy(attempts=3, initial_wait_s=0.001, max_wait_s=0.002, jitter_s=0.001)
PROMPT = [SystemMessage(content="You count things."), HumanMessage(content="How many apples?")]


class Count(BaseModel):
    """How many there are."""

    thing: str = Field(description="What was counted")
    count: int


class RateLimitError(Exception):
    status_code = 429


class AuthenticationError(Exception):
    status_code = 401


async def test_function_calling_reads_the_tool_call() -> None:
    model = ScriptedChatModel(replies=[{"thing": "apple", "count": 3}])
    reply = await ask_structured(model, PROMPT, Count, method="function_calling")
    assert reply.parsed == Count(thing="apple", count=3)
    assert json.loads(reply.raw) == {"thing": "apple", "count": 3}
    assert reply.attempts == 1
    assert reply.usage.input_tokens > 0 and reply.usage.output_tokens > 0
    call = model.calls[0]
    assert call.tool_names == ["Count"]
    assert call.tool_choice == "Count"
    assert len(call.messages) == 2  # no schema text added: the tool carries it


async def test_auto_uses_tools_when_the_model_has_them() -> None:
    model = ScriptedChatModel(replies=[{"thing": "pear", "count": 1}])
    await ask_structured(model, PROMPT, Count)
    assert model.calls[0].tool_names == ["Count"]


async def test_text_instead_of_tool_call_is_parsed_tolerantly() -> None:
    model = ScriptedChatModel(replies=['Sure: ```json\n{"thing": "fig", "count": 2,}\n```'])
    reply = await ask_structured(model, PROMPT, Count, method="function_calling")
    assert reply.parsed.count == 2
    assert reply.attempts == 1


async def test_broken_tool_arguments_are_repaired() -> None:
    broken = AIMessage(
        content="",
        invalid_tool_calls=[
            {"name": "Count", "args": "{'thing': 'kiwi', 'count': 4,", "id": "c1", "error": None}
        ],
    )
    reply = await ask_structured(ScriptedChatModel(replies=[broken]), PROMPT, Count)
    assert reply.parsed == Count(thing="kiwi", count=4)


async def test_raw_mode_with_think_tags_and_fences() -> None:
    text = '<think>They want {count}.</think>\nHere it is:\n```json\n{"thing": "plum", "count": 7}\n```'
    model = ScriptedChatModel(replies=[text])
    reply = await ask_structured(model, PROMPT, Count, method="raw")
    assert reply.parsed == Count(thing="plum", count=7)
    assert reply.raw == text
    call = model.calls[0]
    assert call.tools == []
    instruction = call.messages[-1]
    assert isinstance(instruction, HumanMessage)
    assert compact_schema(Count) in str(instruction.content)


async def test_raw_mode_repairs_broken_json() -> None:
    model = ScriptedChatModel(replies=["{thing: 'grape', count: 5, // five\n"])
    reply = await ask_structured(model, PROMPT, Count, method="raw")
    assert reply.parsed == Count(thing="grape", count=5)


async def test_auto_falls_back_to_raw_without_tool_calling() -> None:
    model = ScriptedChatModel(replies=['{"thing": "lime", "count": 0}'], supports_tools=False)
    reply = await ask_structured(model, PROMPT, Count)
    assert reply.parsed.thing == "lime"
    assert "JSON schema" in str(model.calls[0].messages[-1].content)


async def test_function_calling_without_tool_support_is_a_user_error() -> None:
    model = ScriptedChatModel(replies=[], supports_tools=False)
    with pytest.raises(UserError, match="raw"):
        await ask_structured(model, PROMPT, Count, method="function_calling")


async def test_invalid_tool_call_is_corrected_after_the_error_goes_back() -> None:
    model = ScriptedChatModel(replies=[{"thing": "egg", "count": "a dozen"}, {"thing": "egg", "count": 12}])
    reply = await ask_structured(model, PROMPT, Count)
    assert reply.parsed.count == 12
    assert reply.attempts == 2
    second = model.calls[1].messages
    bad, answer, correction = second[-3:]
    assert isinstance(bad, AIMessage) and bad.tool_calls[0]["args"]["count"] == "a dozen"
    assert isinstance(answer, ToolMessage) and answer.tool_call_id == bad.tool_calls[0]["id"]
    assert isinstance(correction, HumanMessage)
    assert "count" in str(correction.content) and "a dozen" in str(correction.content)
    assert "`Count`" in str(correction.content)  # names the tool to call again


async def test_usage_sums_every_call() -> None:
    def reply(args: dict[str, object], tokens_in: int, tokens_out: int) -> AIMessage:
        usage = {
            "input_tokens": tokens_in,
            "output_tokens": tokens_out,
            "total_tokens": tokens_in + tokens_out,
        }
        call = {"name": "Count", "args": args, "id": f"c{tokens_in}"}
        return AIMessage(content="", tool_calls=[call], usage_metadata=usage)  # type: ignore[arg-type]

    model = ScriptedChatModel(
        replies=[reply({"thing": "egg"}, 10, 3), reply({"thing": "egg", "count": 1}, 20, 4)]
    )
    result = await ask_structured(model, PROMPT, Count)
    assert result.attempts == 2
    assert result.usage == TokenUsage(30, 7)


async def test_raw_correction_sends_the_text_back() -> None:
    model = ScriptedChatModel(replies=["I think about 3.", '{"thing": "apple", "count": 3}'])
    reply = await ask_structured(model, PROMPT, Count, method="raw")
    assert reply.attempts == 2
    bad, correction = model.calls[1].messages[-2:]
    assert isinstance(bad, AIMessage) and bad.content == "I think about 3."
    assert "No JSON object" in str(correction.content)


async def test_missing_field_is_never_invented() -> None:
    model = ScriptedChatModel(replies=[{"count": 1}] * 3)
    with pytest.raises(ModelOutputError, match="after 2 correction") as info:
        await ask_structured(model, PROMPT, Count)
    assert json.loads(info.value.raw) == {"count": 1}
    assert "thing: Field required" in str(model.calls[1].messages[-1].content)
    assert len(model.calls) == 3


async def test_max_corrections_zero_fails_on_the_first_invalid_reply() -> None:
    model = ScriptedChatModel(replies=["not json"])
    with pytest.raises(ModelOutputError) as info:
        await ask_structured(model, PROMPT, Count, method="raw", max_corrections=0)
    assert info.value.raw == "not json"


async def test_json_mode_binds_response_format() -> None:
    model = ScriptedChatModel(replies=['{"thing": "nut", "count": 9}'])
    reply = await ask_structured(model, PROMPT, Count, method="json_mode")
    assert reply.parsed.count == 9
    assert model.calls[0].kwargs == {"response_format": {"type": "json_object"}}
    assert "JSON schema" in str(model.calls[0].messages[-1].content)


async def test_json_mode_falls_back_to_raw_when_refused() -> None:
    refused = TypeError("unexpected keyword argument 'response_format'")
    model = ScriptedChatModel(replies=[refused, '{"thing": "nut", "count": 9}'])
    reply = await ask_structured(model, PROMPT, Count, method="json_mode", retry=FAST)
    assert reply.parsed.count == 9
    assert "response_format" in model.calls[0].kwargs
    assert "response_format" not in model.calls[1].kwargs


async def test_json_mode_does_not_fall_back_on_a_transient_failure() -> None:
    model = ScriptedChatModel(replies=[RateLimitError("slow"), '{"thing": "nut", "count": 9}'])
    with pytest.raises(ModelError, match="after 1 attempt"):
        await ask_structured(model, PROMPT, Count, method="json_mode", retry=RetryPolicy(attempts=1))
    assert len(model.calls) == 1


async def test_rate_limit_retried_then_succeeding() -> None:
    model = ScriptedChatModel(replies=[RateLimitError("429"), {"thing": "oat", "count": 2}])
    reply = await ask_structured(model, PROMPT, Count, retry=FAST)
    assert reply.parsed.count == 2
    assert reply.attempts == 1  # retries are not corrections
    assert len(model.calls) == 2


async def test_auth_error_not_retried() -> None:
    model = ScriptedChatModel(replies=[AuthenticationError("bad key"), {"thing": "oat", "count": 2}])
    with pytest.raises(ModelError, match="API key") as info:
        await ask_structured(model, PROMPT, Count, retry=FAST)
    assert isinstance(info.value.__cause__, AuthenticationError)
    assert len(model.calls) == 1


async def test_script_exhaustion_is_not_hidden_as_a_model_error() -> None:
    with pytest.raises(AssertionError, match="ran out"):
        await ask_structured(ScriptedChatModel(replies=[]), PROMPT, Count)


class Page(BaseModel):
    title: str
    links: list[str] = []


def test_compact_schema_drops_title_metadata_only() -> None:
    schema = json.loads(compact_schema(Page))
    assert "title" in schema["properties"]  # the field named "title" stays
    assert "title" not in schema  # the model's title goes
    assert "title" not in schema["properties"]["links"]
    assert " " not in compact_schema(Page)


class BadRequestError(Exception):
    status_code = 400


async def test_auto_falls_back_to_raw_when_the_provider_refuses_tools() -> None:
    refused = BadRequestError("llama3:8b does not support tools")
    model = ScriptedChatModel(replies=[refused, '{"thing": "bean", "count": 8}'])
    reply = await ask_structured(model, PROMPT, Count, retry=FAST)
    assert reply.parsed.count == 8
    assert model.calls[0].tool_names == ["Count"]
    assert model.calls[1].tools == []
    assert "JSON schema" in str(model.calls[1].messages[-1].content)


async def test_explicit_function_calling_does_not_fall_back() -> None:
    model = ScriptedChatModel(replies=[BadRequestError("no tools"), '{"thing": "bean", "count": 8}'])
    with pytest.raises(ModelError, match="rejected the request"):
        await ask_structured(model, PROMPT, Count, method="function_calling", retry=FAST)
    assert len(model.calls) == 1


class Tagged(BaseModel):
    kind: Literal["note"]
    type: str
    const: int


def test_compact_schema_keeps_fields_named_like_keywords() -> None:
    schema = json.loads(compact_schema(Tagged))
    assert set(schema["properties"]) == {"kind", "type", "const"}
    assert schema["properties"]["kind"] == {"const": "note"}
    assert schema["properties"]["type"] == {"type": "string"}
