"""Which texts and fields show a secret: decided in Python from what a frame shows."""

from __future__ import annotations

from browser_agent.browser.mask_boxes import FieldText, shown_secrets


def test_a_value_split_over_nodes_or_spaced_differently_marks_every_node_it_spans() -> None:
    texts = ["Hello ", "pa", "ss wo", "rd", " and more", "pass\n\t  word", "unrelated"]
    shown = shown_secrets(texts, [], ["pass word"])
    assert shown.texts == (1, 2, 3, 5)


def test_every_place_a_value_shows_is_found_and_nothing_else() -> None:
    texts = ["s3cret-1", " then ", "again s3cret-1", "s3cret-2 is another"]
    assert shown_secrets(texts, [], ["s3cret-1"]).texts == (0, 2)
    assert shown_secrets(texts, [], []).texts == ()
    assert shown_secrets(texts, [], ["   "]).texts == ()  # a value of spaces only matches nothing


def test_password_fields_always_and_fields_showing_a_value() -> None:
    fields = [
        FieldText(password=True, shows=("", "")),
        FieldText(password=False, shows=("the s3cret-1 here", "")),
        FieldText(password=False, shows=("", "s3cret-1")),  # a placeholder
        FieldText(password=False, shows=("s3cret-1",)),  # a select's chosen option
        FieldText(password=False, shows=("nothing", "")),
    ]
    assert shown_secrets([], fields, ["s3cret-1"]).fields == (0, 1, 2, 3)
    assert shown_secrets([], fields, []).fields == (0,)
