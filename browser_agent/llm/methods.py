"""How a structured reply is asked for: a forced tool, JSON mode, a JSON schema the server decodes to,
or plain text; and which method to try next when a provider refuses one.

``auto`` starts with tool calling and moves on by itself: a provider that refuses tools (Ollama's 400
"does not support tools"), or a server that answers a forced tool call with text (llama.cpp), goes to
``json_schema``; one that refuses that too goes to ``raw``, which works with any chat model.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Any, Literal

from langchain_core.language_models import BaseChatModel, LanguageModelInput
from langchain_core.runnables import Runnable
from langchain_core.utils.function_calling import convert_to_openai_tool
from pydantic import BaseModel

from browser_agent.errors import ModelError, ProviderUnreachableError, UserError
from browser_agent.llm.providers import SchemaParam, provider_of
from browser_agent.llm.retry import is_transient, status_of
from browser_agent.llm.schemas import fixed_opening, grammar_schema

__all__ = ["Method", "Mode", "Plan", "PromptShape", "is_refusal", "prepare"]

Method = Literal["auto", "function_calling", "json_mode", "json_schema", "raw"]
Mode = Literal["function_calling", "json_mode", "json_schema", "raw"]
# No status (a client-side TypeError for an unknown option) or a 400/422 from the provider.
_REFUSAL_STATUS = frozenset({None, 400, 422})
_NEXT: dict[Mode, Mode | None] = {"json_mode": "raw", "json_schema": "raw", "raw": None}


@dataclass(frozen=True, slots=True)
class PromptShape:
    """What the caller's messages already carry, so that requests stay small and their start stable.

    Attributes:
        tool_parameters: The parameters schema of the forced tool, instead of the output model's own
            (a smaller schema that still validates through the model).
        described: The messages already say how to reply: no schema message is appended in the text modes.
        indices: The element indices of the page the model sees: a ``json_schema`` grammar admits no
            other (None: any integer). Only the grammar changes, not the prompt; not used with OpenAI's
            API, whose prompt cache starts with the schema.
        left_out: ``(action, index)`` pairs the ``json_schema`` grammar leaves out (with ``indices``): element
            actions already sent on this same page, which did not change it (a small model that was told
            so sent them again, step after step), and actions that cannot apply to their element (typing
            into a button); a grammar without them makes the model choose another.
        pinned: ``(dotted path, text)`` pairs: string fields the ``json_schema`` grammar fixes to that text
            (with ``indices``).
        opening: Under ``json_schema`` (as ``response_format``), the request ends with the start of the
            reply that the grammar fixes (its keys, pinned fields), for the server to continue: a server
            that does (llama.cpp) reads those tokens with the prompt instead of decoding them one by one.
    """

    tool_parameters: dict[str, Any] | None = field(default=None, hash=False, compare=False)
    described: bool = False
    indices: tuple[int, ...] | None = None
    left_out: tuple[tuple[str, int], ...] = ()
    pinned: tuple[tuple[str, str], ...] = ()
    opening: bool = False


@dataclass(frozen=True, slots=True)
class Plan:
    """How to ask: the runnable, its mode, the forced tool's name, the method to try when refused, and the
    reply's opening the request writes for the model (``""``: none)."""

    runnable: Runnable[LanguageModelInput, Any]
    mode: Mode
    tool_name: str | None = None
    next: Mode | None = None
    opening: str = ""


def prepare(llm: BaseChatModel, output_model: type[BaseModel], method: Method, shape: PromptShape) -> Plan:
    """Bind the tool or response format that ``method`` asks for, where the model has it.

    Raises:
        UserError: ``function_calling`` was asked of a model without tool calling.
    """
    if method in ("auto", "function_calling"):
        tool = _tool(output_model, shape)
        name: str = tool["function"]["name"]
        try:
            bound = llm.bind_tools([tool], tool_choice=name)
        except NotImplementedError as exc:
            if method == "function_calling":
                raise UserError(
                    f"{type(llm).__name__} has no tool calling (bind_tools is not implemented); "
                    "use tool_calling_method='auto', 'json_schema' or 'raw'."
                ) from exc
            return prepare(llm, output_model, "json_schema", shape)
        return Plan(bound, "function_calling", name, next="json_schema" if method == "auto" else None)
    if method == "json_mode":
        return Plan(llm.bind(response_format={"type": "json_object"}), "json_mode", next="raw")
    if method == "json_schema":
        provider = provider_of(llm)
        param: SchemaParam = provider.schema_param if provider else "response_format"
        if param == "none":  # the provider decodes to no schema: describe it in the prompt instead
            return Plan(llm, "raw")
        # Where the prompt cache starts with the schema, a schema that changed each step would cost it.
        indices = None if provider and provider.caches_the_schema(llm) else shape.indices
        schema = grammar_schema(output_model, indices, shape.left_out, shape.pinned)
        opening = fixed_opening(schema) if shape.opening and param == "response_format" else ""
        return Plan(
            _bind_schema(llm, output_model, schema, param), "json_schema", next="raw", opening=opening
        )
    return Plan(llm, "raw")


def next_plan(
    llm: BaseChatModel, output_model: type[BaseModel], plan: Plan, shape: PromptShape
) -> Plan | None:
    """The plan to use after ``plan`` was refused; ``None`` when there is nothing left to try."""
    if plan.next is None:
        return None
    return prepare(llm, output_model, plan.next, shape)


def is_refusal(exc: ModelError) -> bool:
    """Whether a failure looks like "this model does not take that option", not auth or outage."""
    if isinstance(exc, ProviderUnreachableError):  # no answer at all: another method would not get one
        return False
    cause = exc.__cause__ or exc
    return not is_transient(cause) and status_of(cause) in _REFUSAL_STATUS


def _bind_schema(
    llm: BaseChatModel, output_model: type[BaseModel], schema: dict[str, Any], param: SchemaParam
) -> Runnable[LanguageModelInput, Any]:
    """Ask the server to constrain decoding to ``schema``, as its provider takes it."""
    if param == "format":
        return llm.bind(format=schema)
    return llm.bind(
        response_format={
            "type": "json_schema",
            "json_schema": {"name": output_model.__name__, "schema": schema, "strict": False},
        }
    )


def _tool(output_model: type[BaseModel], shape: PromptShape) -> dict[str, Any]:
    if shape.tool_parameters is None:
        return _model_tool(output_model)
    tool = {
        "type": "function",
        "function": {
            "name": output_model.__name__,
            "description": (output_model.__doc__ or "").strip().splitlines()[0],
            "parameters": shape.tool_parameters,
        },
    }
    return tool


@functools.lru_cache(maxsize=64)
def _model_tool(output_model: type[BaseModel]) -> dict[str, Any]:
    """The tool schema of ``output_model``; cached because the agent asks with the same model each step."""
    return convert_to_openai_tool(output_model)
