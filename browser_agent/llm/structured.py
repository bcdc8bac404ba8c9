"""Ask a chat model for a pydantic output model: by tool calling, JSON mode, or raw JSON text.

The one place that calls the chat model. Replies that do not validate go back to the model with the
validation message (a correctable error, never a guessed fix); provider failures go through
``call_with_retry``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, Generic, TypeVar, cast

from langchain_core.language_models import BaseChatModel, LanguageModelInput
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from langchain_core.runnables import Runnable
from pydantic import BaseModel, ValidationError

from browser_agent.errors import ModelError, ModelOutputError
from browser_agent.llm.cache import with_cache_points
from browser_agent.llm.json_repair import MAX_DEPTH, JSONExtractionError, extract_json, too_deep
from browser_agent.llm.methods import Method, Mode, Plan, PromptShape, is_refusal, next_plan, prepare
from browser_agent.llm.providers import PROVIDERS, cut_error_row
from browser_agent.llm.retry import RetryPolicy, call_with_retry
from browser_agent.llm.schemas import compact_schema
from browser_agent.llm.usage import TokenUsage, usage_of

__all__ = [
    "StructuredReply",
    "ask_structured",
    "describe_validation_error",
    "message_text",
    "schema_instruction",
]

T = TypeVar("T", bound=BaseModel)
_MAX_ERRORS_SHOWN = 6
_MAX_ECHO_CHARS = 4_000
_TOO_DEEP = f"The reply nests more than {MAX_DEPTH} levels deep; reply with a flat JSON object."
_CUT = (
    "It was cut off at the output token limit before it ended. Write each text field in one short "
    "sentence and send fewer actions."
)
_MAX_CUT_ECHO_CHARS = 600  # a reply that ran to the limit is mostly repetition


@dataclass(frozen=True, slots=True)
class StructuredReply(Generic[T]):
    """A validated reply and what it cost.

    Attributes:
        parsed: The output model, validated.
        raw: The reply as received: its text, or the tool-call arguments as JSON.
        usage: Tokens summed over every call made, corrections included.
        attempts: Calls made (1 when the first reply validated).
        method: How the reply was asked for; under ``auto``, the method to keep using.
        opening_ignored: The request began the reply (``PromptShape.opening``) and the server answered
            anew instead of continuing it: later requests to it should not begin one.
    """

    parsed: T
    raw: str
    usage: TokenUsage
    attempts: int
    method: Mode = "raw"
    opening_ignored: bool = False


@dataclass(frozen=True, slots=True)
class _Reading:
    """What one reply said: the validated model, or the error to send back."""

    raw: str
    parsed: BaseModel | None = None
    error: str = ""


async def ask_structured(
    llm: BaseChatModel,
    messages: Sequence[BaseMessage],
    output_model: type[T],
    *,
    method: Method = "auto",
    max_corrections: int = 2,
    retry: RetryPolicy | None = None,
    shape: PromptShape | None = None,
) -> StructuredReply[T]:
    """Ask ``llm`` for an ``output_model``, sending invalid replies back up to ``max_corrections`` times.

    Args:
        method: ``function_calling`` binds the JSON schema as a forced tool; ``json_mode`` binds
            ``response_format={"type": "json_object"}``; ``json_schema`` binds the schema as
            ``response_format`` (``format`` for Ollama), which servers such as llama.cpp, vLLM, LM Studio
            and OpenAI turn into constrained decoding; ``raw`` describes the schema in the prompt and
            parses the text tolerantly. ``auto`` tries tool calling, then ``json_schema`` when the
            provider refuses tools or answers a forced tool call with text, then ``raw``; the reply's
            ``method`` says which worked, to keep using it. A refused ``json_mode`` or ``json_schema``
            falls back to ``raw``.
        retry: Backoff for transient provider errors (``RetryPolicy()`` when None).
        shape: What the messages already carry (a described reply format, a smaller tool schema).

    Raises:
        ModelOutputError: the reply still did not validate after the corrections (``raw`` holds it).
        ModelError: the provider failed (after retries when the failure was transient).
        UserError: ``function_calling`` was asked of a model without tool calling.
    """
    policy, shape = retry or RetryPolicy(), shape or PromptShape()
    messages = with_cache_points(llm, messages)
    plan = prepare(llm, output_model, method, shape)
    conversation = _opening(messages, plan, output_model, shape)
    usage, reading, attempt, ignored = TokenUsage(), _Reading(raw=""), 0, False
    while attempt <= max_corrections:
        attempt += 1
        try:
            ai = await _call(plan.runnable, _begun(conversation, plan), policy)
        except ModelError as exc:
            cut = _raised_cut_reply(exc)
            fallback = next_plan(llm, output_model, plan, shape) if attempt == 1 and is_refusal(exc) else None
            if cut is not None:
                ai = cut
            elif fallback is not None:
                plan, attempt = fallback, 0  # the provider refused this method: the same request, another way
                conversation = _opening(messages, plan, output_model, shape)
                continue
            else:
                raise
        usage += usage_of(ai)
        ai, reading, continued = _read_continued(ai, output_model, plan)
        if not continued:  # this server answers anew: from now on, ask without beginning the reply
            ignored, shape, plan = True, replace(shape, opening=False), replace(plan, opening="")
        if _was_cut(ai):  # even when what arrived parses: its last action may be cut short
            reading = _Reading(raw=reading.raw, error=f"{_CUT} {reading.error}".strip())
        if _answered_tool_with_text(plan, ai):
            # This server does not call tools (llama.cpp answers with text): constrained JSON from now on.
            plan = prepare(llm, output_model, "json_schema", shape)
            if reading.parsed is None:
                attempt -= 1
                conversation = _opening(messages, plan, output_model, shape)
                continue
        if reading.parsed is not None:
            return StructuredReply(cast(T, reading.parsed), reading.raw, usage, attempt, plan.mode, ignored)
        conversation += _correction(ai, reading.error, plan.tool_name)
    raise ModelOutputError(
        f"The model's reply did not match {output_model.__name__} after {max_corrections} correction(s). "
        f"Last problem: {reading.error} Try a stronger model or another tool_calling_method.",
        raw=reading.raw,
        input_tokens=usage.input_tokens,
        output_tokens=usage.output_tokens,
        cached_input_tokens=usage.cached_input_tokens,
    )


def _answered_tool_with_text(plan: Plan, ai: AIMessage) -> bool:
    """Under ``auto``: a forced tool call answered with text, no call at all."""
    return (
        plan.mode == "function_calling"
        and plan.next is not None
        and not ai.tool_calls
        and not ai.invalid_tool_calls
        and bool(message_text(ai).strip())
    )


def schema_instruction(output_model: type[BaseModel]) -> str:
    """The instruction appended in raw and JSON mode: reply with JSON matching this schema."""
    return (
        "Reply with a single JSON object only, no prose and no code fences, matching this JSON schema:\n"
        + compact_schema(output_model)
    )


def describe_validation_error(exc: ValidationError) -> str:
    """Pydantic's errors, short, one line per bad field, for the model to correct."""
    errors = exc.errors(include_url=False)
    lines = []
    for error in errors[:_MAX_ERRORS_SHOWN]:
        where = ".".join(str(part) for part in error["loc"]) or "(whole object)"
        line = f"- {where}: {error['msg']}"
        if error["type"] != "missing":
            line += f" (got {_short(error.get('input'))})"
        lines.append(line)
    if len(errors) > _MAX_ERRORS_SHOWN:
        lines.append(f"- and {len(errors) - _MAX_ERRORS_SHOWN} more")
    return "The reply did not validate:\n" + "\n".join(lines)


def message_text(message: BaseMessage) -> str:
    """The text of a message, joining the text parts of a multi-part content."""
    content = message.content
    if isinstance(content, str):
        return content
    return "".join(p if isinstance(p, str) else str(p.get("text", "")) for p in content)


def _opening(
    messages: Sequence[BaseMessage], plan: Plan, output_model: type[BaseModel], shape: PromptShape
) -> list[BaseMessage]:
    """The first request: the caller's messages, plus the schema in text unless a tool or the
    messages themselves carry it."""
    if plan.mode == "function_calling" or shape.described:
        return list(messages)
    return [*messages, HumanMessage(content=schema_instruction(output_model))]


async def _call(
    runnable: Runnable[LanguageModelInput, Any], conversation: list[BaseMessage], policy: RetryPolicy
) -> AIMessage:
    sent = list(conversation)
    result = await call_with_retry(lambda: runnable.ainvoke(sent), policy, what="The chat model call")
    if not isinstance(result, AIMessage):
        raise ModelError(
            f"The chat model returned a {type(result).__name__}, not an AIMessage; "
            "pass a chat model (BaseChatModel), not a chain with an output parser."
        )
    return result


def _begun(conversation: list[BaseMessage], plan: Plan) -> list[BaseMessage]:
    """The request: the conversation, then the reply's opening as the start of the model's answer."""
    return [*conversation, AIMessage(content=plan.opening)] if plan.opening else conversation


def _read_continued(
    ai: AIMessage, output_model: type[BaseModel], plan: Plan
) -> tuple[AIMessage, _Reading, bool]:
    """Read a reply to a request that began it: the whole reply, its opening included; whether the server
    continued the opening (False: it answered with a reply of its own, read as it came).

    llama.cpp returns the whole message, the opening included; a server that returns only what it wrote
    gets the opening put back in front."""
    if not plan.opening:
        return ai, _read(ai, output_model, plan.tool_name), True
    text = message_text(ai)
    rest = text.removeprefix(plan.opening)
    whole = ai.model_copy(update={"content": plan.opening + rest})
    reading = _read(whole, output_model, plan.tool_name)
    if reading.parsed is None:
        alone = ai.model_copy(update={"content": rest})
        other = _read(alone, output_model, plan.tool_name)
        if other.parsed is not None:
            return alone, other, False
    return whole, reading, True


def _read(ai: AIMessage, output_model: type[BaseModel], tool_name: str | None) -> _Reading:
    """Validate a reply: tool-call arguments first, else its text parsed tolerantly."""
    if ai.tool_calls:
        call = next((c for c in ai.tool_calls if c["name"] == tool_name), ai.tool_calls[0])
        if too_deep(call["args"]):
            return _Reading(raw="(arguments nested too deeply)", error=_TOO_DEEP)
        return _validate(call["args"], json.dumps(call["args"]), output_model)
    if ai.invalid_tool_calls:
        raw = ai.invalid_tool_calls[0].get("args") or ""
        hint = f"The arguments of your `{tool_name}` call were not valid JSON."
    else:
        raw = message_text(ai)
        hint = f"You answered with text; call the tool `{tool_name}` instead." if tool_name else ""
    try:
        data = extract_json(raw)
    except JSONExtractionError as exc:
        return _Reading(raw=raw, error=f"{hint} {exc}".strip())
    return _validate(data, raw, output_model)


def _validate(data: Any, raw: str, output_model: type[BaseModel]) -> _Reading:
    try:
        return _Reading(raw=raw, parsed=output_model.model_validate(data))
    except ValidationError as exc:
        return _Reading(raw=raw, error=describe_validation_error(exc))
    except RecursionError:
        return _Reading(raw=raw[:2_000], error=_TOO_DEEP)


def _correction(ai: AIMessage, error: str, tool_name: str | None) -> list[BaseMessage]:
    """The invalid reply, an answer to each of its tool calls (providers require one), and the error."""
    ids = [c["id"] for c in ai.tool_calls if c.get("id")]
    ids += [c["id"] for c in ai.invalid_tool_calls if c.get("id")]
    answers: list[BaseMessage] = [
        ToolMessage(content="Rejected: the arguments did not validate (see next message).", tool_call_id=i)
        for i in ids
        if i is not None
    ]
    ask = (
        f"Call the tool `{tool_name}` again with the complete, corrected arguments."
        if tool_name
        else "Reply again with the complete, corrected JSON object only."
    )
    return [_echo(ai), *answers, HumanMessage(content=f"Your last reply was invalid. {error}\n{ask}")]


def _echo(ai: AIMessage) -> AIMessage:
    """The invalid reply as it goes back into the conversation: a huge text is cut, tool calls kept."""
    limit = _MAX_CUT_ECHO_CHARS if _was_cut(ai) else _MAX_ECHO_CHARS
    if isinstance(ai.content, str) and len(ai.content) > limit:
        return ai.model_copy(update={"content": ai.content[:limit] + " … (cut)"})
    return ai


def _was_cut(ai: AIMessage) -> bool:
    """Whether the provider stopped the reply at its token limit (``Provider.cut_marker``: OpenAI and
    compatible servers say ``finish_reason: length``, Ollama ``done_reason: length``, Anthropic
    ``stop_reason: max_tokens``)."""
    meta = ai.response_metadata or {}
    return any(p.cut_marker and meta.get(p.cut_marker[0]) == p.cut_marker[1] for p in PROVIDERS.values())


def _raised_cut_reply(exc: ModelError) -> AIMessage | None:
    """A reply cut at the token limit that the provider's SDK raised on instead of returning (OpenAI's
    does when a response format is set; ``Provider.cut_error``), as the reply it was: the model gets to
    correct it."""
    cause = exc.__cause__
    provider = cut_error_row(cause) if cause is not None else None
    if provider is None or provider.cut_marker is None:
        return None
    key, value = provider.cut_marker
    completion = getattr(cause, "completion", None)
    choices = getattr(completion, "choices", None) or [None]
    text = getattr(getattr(choices[0], "message", None), "content", None)
    counted = getattr(completion, "usage", None)
    usage = None
    if counted is not None:
        done, asked = int(counted.completion_tokens or 0), int(counted.prompt_tokens or 0)
        usage = {"input_tokens": asked, "output_tokens": done, "total_tokens": asked + done}
    return AIMessage(
        content=text if isinstance(text, str) else "",
        response_metadata={key: value},
        usage_metadata=usage,
    )


def _short(value: Any, limit: int = 80) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"
