"""The only code that calls the chat model: structured output, tolerant JSON, retries, token usage."""

from browser_agent.llm.json_repair import JSONExtractionError, extract_json, strip_think
from browser_agent.llm.methods import Method, Mode, PromptShape
from browser_agent.llm.retry import RetryPolicy, call_with_retry, is_transient, to_model_error
from browser_agent.llm.schemas import compact_schema, flat_union, grammar_schema, inline_refs, strip_noise
from browser_agent.llm.structured import (
    StructuredReply,
    ask_structured,
    describe_validation_error,
    message_text,
    schema_instruction,
)
from browser_agent.llm.text import ask_text
from browser_agent.llm.usage import TokenUsage, usage_of

__all__ = [
    "JSONExtractionError",
    "Method",
    "Mode",
    "PromptShape",
    "RetryPolicy",
    "StructuredReply",
    "TokenUsage",
    "ask_structured",
    "ask_text",
    "call_with_retry",
    "compact_schema",
    "describe_validation_error",
    "extract_json",
    "flat_union",
    "grammar_schema",
    "inline_refs",
    "is_transient",
    "message_text",
    "schema_instruction",
    "strip_noise",
    "strip_think",
    "to_model_error",
    "usage_of",
]
