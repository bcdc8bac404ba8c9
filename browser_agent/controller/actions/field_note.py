"""The note a click on a text field that is still empty adds to its result: a click only puts the caret
there, and a small model clicked the fields of "Enter the password ... into both text fields", then said
they were filled. Where the task plainly gives the text for the field, the note names it."""

from __future__ import annotations

import contextlib

from browser_agent.browser.playwright_errors import PlaywrightError
from browser_agent.controller.actions.refusals import fields_of, is_text_field, named_as
from browser_agent.controller.actions.untyped_text import recipient_for, to_type
from browser_agent.controller.context import ActionContext
from browser_agent.dom.snapshot import DomSnapshot, ElementNode
from browser_agent.errors import ActionError

__all__ = ["empty_field_note"]

_EMPTY_JS = "(el) => (el.isContentEditable ? el.textContent : (el.value ?? '')).trim() === ''"


async def empty_field_note(index: int, node: ElementNode, ctx: ActionContext) -> str:
    """Whether the clicked element is a text field still empty: a click only puts the caret there, and a
    small model clicked the fields of "Enter the password ... into both text fields", then said they were
    filled. The result says how to fill it."""
    if not is_text_field(node):
        return ""
    empty = False
    with contextlib.suppress(PlaywrightError, ActionError):  # the click took the field away: say nothing
        empty = bool(await (await ctx.element(index))[1].evaluate(_EMPTY_JS))
    if not empty:
        return ""
    if "readonly" in node.states:
        # told "input_text types into it" over book-flight's read-only date field, whose calendar the click
        # had opened, the 1.5B model pressed Search with the date unset
        return (
            "; the field is read-only and empty: the page sets it from a picker of its own (what the click "
            "opened is marked * on the page); input_text with the value picks it there"
        )
    given = _text_given(node, await ctx.current_snapshot(), ctx.task)
    if given is not None and ctx.redact(given) == given:
        # told only "input_text types into it", the 1.5B model clicked the "to:" of a forwarded mail again
        # (email-inbox seed 0)
        return f"; the field is empty: type {given!r} into it with input_text (the task gives it)"
    return "; the field is empty: input_text types into it"


def _text_given(node: ElementNode, snapshot: DomSnapshot, task: str) -> str | None:
    """What ``task`` plainly gives to type into ``node``: whom it forwards or sends to, for a "to:" field;
    else the one text it quotes to type, when it quotes one only and ``node`` is the page's one text
    field (with several, which one it goes in is the model's to read: named for whichever box was
    clicked, "16", asked for the 3rd textbox, went into the 2nd, as with the submit hold's first
    version)."""
    if whom := recipient_for(named_as(node, str, snapshot), task):
        return whom
    texts = to_type(task)
    return texts[0] if len(texts) == 1 and len(fields_of(snapshot)) == 1 else None
