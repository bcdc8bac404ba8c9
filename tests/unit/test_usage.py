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
