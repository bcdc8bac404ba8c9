"""Token counts of model replies, summed over the calls a step makes."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from langchain_core.messages import BaseMessage

__all__ = ["TokenUsage", "usage_of"]


@dataclass(frozen=True, slots=True)
class TokenUsage:
    """Input and output tokens of one or more model calls; ``a + b`` sums them."""

    input_tokens: int = 0
    output_tokens: int = 0

    def __add__(self, other: TokenUsage) -> TokenUsage:
        return TokenUsage(self.input_tokens + other.input_tokens, self.output_tokens + other.output_tokens)

    @property
    def total_tokens(self) -> int:
        """Input plus output tokens."""
        return self.input_tokens + self.output_tokens


def _as_int(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def usage_of(message: BaseMessage) -> TokenUsage:
    """Read the token usage a provider reported on ``message``; zeros when it reported none.

    langchain's standard ``usage_metadata`` comes first; older integrations only fill
    ``response_metadata["token_usage"]`` (OpenAI names) or ``["usage"]`` (Anthropic names).
    """
    metadata = getattr(message, "usage_metadata", None)
    if isinstance(metadata, Mapping) and metadata:
        return TokenUsage(_as_int(metadata.get("input_tokens")), _as_int(metadata.get("output_tokens")))
    response = message.response_metadata or {}
    for key in ("token_usage", "usage"):
        raw = response.get(key)
        if isinstance(raw, Mapping):
            return TokenUsage(
                _as_int(raw.get("prompt_tokens", raw.get("input_tokens"))),
                _as_int(raw.get("completion_tokens", raw.get("output_tokens"))),
            )
    return TokenUsage()
