"""Token counts of model replies, summed over the calls a step makes: the record's own type, so that a
saved run loads without the model machinery (``browser_agent.llm.usage`` reads them from replies)."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["TokenUsage"]


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
