"""Tolerant JSON extraction: think blocks, fences, prose, and small repairs, never invented fields."""

from __future__ import annotations

import pytest

from browser_agent.llm.json_repair import JSONExtractionError, extract_json, strip_think


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('{"a": 1}', {"a": 1}),
        ('  \n{"a": {"b": [1, 2]}}\n', {"a": {"b": [1, 2]}}),
        ('Here you go: {"a": 1} Hope that helps!', {"a": 1}),
        ('```json\n{"a": 1}\n```', {"a": 1}),
        ('Sure.\n```\n{"a": "x"}\n```\nAnything else?', {"a": "x"}),
        ('```json\n{"a": 1}', {"a": 1}),
        ('<think>I should use {index} here</think>{"a": 1}', {"a": 1}),
        ('<THINK>\nhmm\n</THINK>\n```json\n{"a": 1}\n```', {"a": 1}),
        ('reasoning without an opening tag</think>{"a": 1}', {"a": 1}),
        ('<think>cut short but answered {"a": 1}', {"a": 1}),
        ('The tool takes {index}. Answer: {"a": 2}', {"a": 2}),
        (
            '{"a": "braces } and { in a string", "b": "quote \\" here"}',
            {"a": "braces } and { in a string", "b": 'quote " here'},
        ),
        ('{"url": "https://x.test/a//b#c"}', {"url": "https://x.test/a//b#c"}),
        ("[1, 2, 3]", [1, 2, 3]),
    ],
)
def test_finds_the_object(text: str, expected: object) -> None:
    assert extract_json(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('{"a": [1, 2,], "b": 3,}', {"a": [1, 2], "b": 3}),
        ("{'a': 'it\\'s', 'b': \"say 'hi'\"}", {"a": "it's", "b": "say 'hi'"}),
        ("{'text': 'he said \"no\"'}", {"text": 'he said "no"'}),
        ('{"a": True, "b": False, "c": None}', {"a": True, "b": False, "c": None}),
        ("{action: 'click', index: 3}", {"action": "click", "index": 3}),
        ('{"a": 1, // the index\n "b": 2 /* block */, # python\n "c": 3}', {"a": 1, "b": 2, "c": 3}),
        ('{"a": {"b": [1, 2', {"a": {"b": [1, 2]}}),
        ('{"a": "unterminated', {"a": "unterminated"}),
        ('{"a": [1, 2}', {"a": [1, 2]}),
        ('{"a": -1.5e3, "b": +2, "c": .5}', {"a": -1500.0, "b": 2, "c": 0.5}),
        ('{"multi": "line\ntext"}', {"multi": "line\ntext"}),
        ('{"a": 1}}', {"a": 1}),
    ],
)
def test_repairs_small_breakage(text: str, expected: object) -> None:
    assert extract_json(text) == expected


def test_a_broken_first_candidate_does_not_yield_its_inner_object() -> None:
    # The outer object cannot be read; its inner one must not be returned as if it were the answer.
    with pytest.raises(JSONExtractionError):
        extract_json('{"a" "b" {"c": 1}}')


@pytest.mark.parametrize("text", ["", "no json here", '<think>{"a": 1}</think> nothing after'])
def test_no_object_raises_a_value_error_showing_the_reply(text: str) -> None:
    with pytest.raises(ValueError, match="No JSON object"):
        extract_json(text)


def test_error_message_shows_the_start_of_the_reply() -> None:
    with pytest.raises(JSONExtractionError, match="I cannot help"):
        extract_json("I cannot help with that.")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("<think>plan</think>The plan.", "The plan."),
        ("<thinking>a</thinking>x<think>b</think>y", "xy"),
        ("thoughts</think>\nAnswer", "Answer"),
        ("Answer<think>never closed", "Answer"),
        ("plain", "plain"),
    ],
)
def test_strip_think(text: str, expected: str) -> None:
    assert strip_think(text) == expected
