"""A long field value is cut between whole words, keeping its beginning and its last words."""

from __future__ import annotations

from browser_agent.dom.text_limits import ELLIPSIS, VALUE_TAIL, cut_value


def test_a_short_value_is_kept_whole() -> None:
    assert cut_value("Mauris viverra.", 60) == "Mauris viverra."


def test_the_cut_falls_between_words_and_is_spaced() -> None:
    text = "Ligula. Vitae sagittis fringilla tortor amet sed urna. Mauris viverra lectus dolor."
    shown = cut_value(text, 60)
    head, tail = shown.split(f" {ELLIPSIS} ")
    assert text.startswith(head) and text.endswith(tail)
    assert text[len(head)] == " " and text[len(text) - len(tail) - 1] == " "  # no word cut in two
    assert tail.endswith("dolor.") and len(tail) <= VALUE_TAIL and len(shown) <= 60


def test_a_value_without_spaces_is_cut_where_it_must_be() -> None:
    shown = cut_value("x" * 100, 60)
    assert shown == "x" * 37 + f" {ELLIPSIS} " + "x" * VALUE_TAIL


def test_a_cut_value_is_never_longer_than_the_cap() -> None:
    for n in range(61, 200, 7):
        text = " ".join(f"w{i}" * (i % 5 + 1) for i in range(n))[:n]
        assert len(cut_value(text, 60)) <= 60
