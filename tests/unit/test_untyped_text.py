"""Which quoted texts of a task are texts to type, and when the run typed them."""

from __future__ import annotations

import pytest

from browser_agent.controller.actions.untyped_text import recipient, recipient_for, to_type, untyped


@pytest.mark.parametrize(
    ("task", "texts"),
    [
        ('Find the email by Jemima and reply to them with the text "Purus velit."', ["Purus velit."]),
        ('Open ticket T-311 and add the comment "Toner replaced".', ["Toner replaced"]),
        ('Use the textbox to enter "Kanesha" and press "Search", then click the 4th result.', ["Kanesha"]),
        ('Enter the username "kanesha" and the password "xyz" and press Login.', ["kanesha", "xyz"]),
        ('Type "jOHN" in all lower case letters and press Submit.', ["jOHN"]),
        ("Write “Bonne nuit” in the note field.", ["Bonne nuit"]),
        ('Click on the link "Donec".', []),
        ('Click the button in the dialog box labeled "OK".', []),
        ('Navigate through the file tree. Find and click on the file named "Marcella".', []),
        ('Type the 2nd word into the textbox and press "Submit".', []),
        ('Entered "xy" already. Select "Blue" from the list; typed "z".', ["xy"]),
        ('Type "x" and then click "Blue".', []),  # a one-letter quote still pairs its marks
        ('Enter an item that starts with "Gua" and ends with "la".', []),  # traits, not texts
        ('Type "Ada" into the field labeled "Name".', ["Ada"]),
    ],
)
def test_a_quote_is_to_type_when_the_nearest_verb_before_it_types(task: str, texts: list[str]) -> None:
    assert to_type(task) == texts


def test_a_text_counts_as_typed_when_a_typed_chosen_or_clicked_text_holds_it() -> None:
    task = 'Enter "Gua" and then "temala" in the country box.'
    assert untyped(task, []) == "Gua"
    assert untyped(task, ["gua"]) == "temala"
    assert untyped(task, ["gua", "guatemala"]) is None  # typed the start, then clicked the suggestion
    assert untyped('Reply with the text "Est.  Sit."', ["est. sit."]) is None  # case and spaces aside


def test_whom_a_task_forwards_or_sends_to() -> None:
    assert recipient("Find the email by Audrey and forward that email to Hedy.") == "Hedy"
    assert recipient("Send the report to ann@example.com before noon.") == "ann@example.com"
    assert recipient("Forward the post by Joe to @mira.") == "@mira"
    assert recipient('Reply to Bettine with the text "Gravida."') is None  # a reply goes back: no "to:"
    assert recipient("Send it to the printer.") is None  # no name


def test_the_recipient_goes_only_in_a_field_for_it() -> None:
    task = "Find the email by Audrey and forward that email to Hedy."
    assert recipient_for("to:", task) == recipient_for(" Recipients ", task) == "Hedy"
    assert recipient_for("Subject", task) is None and recipient_for("", task) is None
    assert recipient_for("to:", 'Reply to Bettine with the text "Gravida."') is None
