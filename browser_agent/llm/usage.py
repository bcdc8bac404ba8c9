"""Token counts of model replies, summed over the calls a step makes."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from langchain_core.messages import BaseMessage

from browser_agent.llm.providers import PROVIDERS, UsageShape

__all__ = ["TokenUsage", "usage_of"]


@dataclass(frozen=True, slots=True)
class TokenUsage:
    """Input and output tokens of one or more model calls; ``a + b`` sums them.

    ``cached_input_tokens`` is the part of the input the provider read from its prompt cache (OpenAI's
    ``cached_tokens``, Anthropic's cache reads, llama.cpp's and vLLM's reused prefix): what the stable
    beginning of each request saves.
    """

    input_tokens: int = 0
    output_tokens: int = 0
    cached_input_tokens: int = 0

    def __add__(self, other: TokenUsage) -> TokenUsage:
        return TokenUsage(
            self.input_tokens + other.input_tokens,
            self.output_tokens + other.output_tokens,
            self.cached_input_tokens + other.cached_input_tokens,
        )

    @property
    def total_tokens(self) -> int:
        """Input plus output tokens."""
        return self.input_tokens + self.output_tokens


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
