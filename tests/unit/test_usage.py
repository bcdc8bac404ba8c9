"""Token usage read from provider metadata, and summed."""

from __future__ import annotations

from langchain_core.messages import AIMessage

from browser_agent.llm import TokenUsage, usage_of


def test_standard_usage_metadata() -> None:
    message = AIMessage(
        content="x", usage_metadata={"input_tokens": 12, "output_tokens": 5, "total_tokens": 17}
    )
    assert usage_of(message) == TokenUsage(12, 5)


def test_openai_style_response_metadata() -> None:
    message = AIMessage(
        content="x", response_metadata={"token_usage": {"prompt_tokens": 7, "completion_tokens": 2}}
    )
    assert usage_of(message) == TokenUsage(7, 2)


def test_anthropic_style_response_metadata() -> None:
    message = AIMessage(content="x", response_metadata={"usage": {"input_tokens": 4, "output_tokens": 1}})
    assert usage_of(message) == TokenUsage(4, 1)


def test_absent_usage_is_zero() -> None:
    assert usage_of(AIMessage(content="x")) == TokenUsage(0, 0)


def test_sum() -> None:
    total = TokenUsage(1, 2) + TokenUsage(10, 20)
    assert total == TokenUsage(11, 22)
    assert total.total_tokens == 33


def test_cache_reads_are_read_from_every_shape_providers_use() -> None:
    standard = AIMessage(
        content="x",
        usage_metadata={
            "input_tokens": 100,
            "output_tokens": 5,
            "total_tokens": 105,
            "input_token_details": {"cache_read": 80},
        },
    )
    assert usage_of(standard) == TokenUsage(100, 5, 80)
    openai = {"prompt_tokens": 100, "completion_tokens": 5, "prompt_tokens_details": {"cached_tokens": 64}}
    assert usage_of(AIMessage(content="x", response_metadata={"token_usage": openai})) == TokenUsage(
        100, 5, 64
    )
    # Anthropic's input_tokens leaves out what was read from or written to the cache.
    anthropic = {
        "input_tokens": 20,
        "output_tokens": 5,
        "cache_read_input_tokens": 70,
        "cache_creation_input_tokens": 10,
    }
    assert usage_of(AIMessage(content="x", response_metadata={"usage": anthropic})) == TokenUsage(100, 5, 70)
    assert TokenUsage(10, 1, 4) + TokenUsage(20, 2, 8) == TokenUsage(30, 3, 12)
