"""Token counts of model replies, read from what each provider reports; ``TokenUsage`` is the record's
(``browser_agent.record.usage``), re-exported here."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from langchain_core.messages import BaseMessage

from browser_agent.llm.providers import PROVIDERS, UsageShape
from browser_agent.record.usage import TokenUsage

__all__ = ["TokenUsage", "usage_of"]


def _as_int(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def _field(raw: Any, *path: str) -> int:
    for key in path:
        if not isinstance(raw, Mapping):
            return 0
        raw = raw.get(key)
    return _as_int(raw)


def usage_of(message: BaseMessage) -> TokenUsage:
    """Read the token usage a provider reported on ``message``; zeros when it reported none.

    langchain's standard ``usage_metadata`` comes first (cache reads in ``input_token_details``); older
    integrations only fill ``response_metadata`` in their provider's own shape (``Provider.usage``:
    OpenAI's ``token_usage``, Anthropic's ``usage``).
    """
    metadata = getattr(message, "usage_metadata", None)
    if isinstance(metadata, Mapping) and metadata:
        return TokenUsage(
            _as_int(metadata.get("input_tokens")),
            _as_int(metadata.get("output_tokens")),
            _field(metadata, "input_token_details", "cache_read"),
        )
    response = message.response_metadata or {}
    for shape in (p.usage for p in PROVIDERS.values() if p.usage is not None):
        raw = response.get(shape.key)
        if isinstance(raw, Mapping):
            return _read_shape(raw, shape)
    return TokenUsage()


def _read_shape(raw: Mapping[str, Any], shape: UsageShape) -> TokenUsage:
    uncounted = sum(_field(raw, *path) for path in shape.uncounted)
    return TokenUsage(
        _as_int(raw.get(shape.input)) + uncounted, _as_int(raw.get(shape.output)), _field(raw, *shape.cached)
    )
