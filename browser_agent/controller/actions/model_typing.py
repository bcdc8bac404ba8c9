"""The text an agent's model asked to type, checked before it is typed.

Each check is a slip a small model made, in its own module; this runs them in their order, for
``input_text`` when the model chose the action (replays, workflows and direct calls type what they are
given). Before anything is typed: a text copied from the page as the view cut it is typed whole
(``cut_copy.py``), a made-up email address (``invented_address.py``), a quoted text in the
letter case the task asks for (``letter_case.py``), the task's own name for the Nth word ("the 3rd word",
``ordinal_word.py``: the word itself is typed), a "to:" without whom the task sends to
(``recipient_field.py``), a made-up value where the page labels one
(``unseen_text.py``). Then, once the field is known to take text: typing over the page's own text
(``overwrite_guard.py``), several words where the task asks for one (``one_word.py``), and a word that is
not the Nth the task asks for (``ordinal_word.py``), in that order, so that the refusal over the text to
read comes first.
"""

from __future__ import annotations

from playwright.async_api import ElementHandle

from browser_agent.controller.actions.cut_copy import whole_copy
from browser_agent.controller.actions.invented_address import text_for_address
from browser_agent.controller.actions.letter_case import text_in_case
from browser_agent.controller.actions.one_word import check_one_word
from browser_agent.controller.actions.ordinal_word import check_ordinal_word, nth_word, word_for_its_name
from browser_agent.controller.actions.overwrite_guard import check_not_overwriting, field_for_answer
from browser_agent.controller.actions.recipient_field import check_recipient
from browser_agent.controller.actions.unseen_text import check_text_seen
from browser_agent.controller.context import ActionContext
from browser_agent.dom.snapshot import DomSnapshot, ElementNode

__all__ = ["check_typing", "text_meant"]


async def text_meant(
    index: int, node: ElementNode, text: str, snapshot: DomSnapshot, ctx: ActionContext
) -> tuple[str, str]:
    """The text to type into element ``index`` (``node``) for the model's ``text``, and what the result
    says of a change (empty when there is none).

    Raises:
        ActionError: a made-up address or value, or a "to:" without whom the task names, the first time.
    """
    text, swapped = await whole_copy(text, ctx)
    if not swapped:
        text, swapped = await text_for_address(index, text, snapshot, ctx)
    if not swapped:
        text, swapped = text_in_case(text, ctx)
    if not swapped:
        text, swapped = await word_for_its_name(index, text, ctx)
    check_recipient(index, node, text, snapshot, ctx)
    await check_text_seen(index, text, snapshot, ctx)
    return text, swapped


async def check_typing(
    index: int,
    label: str,
    node: ElementNode,
    handle: ElementHandle,
    text: str,
    clear: bool,
    ctx: ActionContext,
) -> None:
    """Fail, the first time, when typing ``text`` into the field (element ``index``, named ``label``)
    would replace a long text the page wrote (with ``clear``), gives several words for one, or a word
    that is not the Nth one the task asks for.

    Raises:
        ActionError: what would be lost, or how many words there are.
    """
    snapshot = await ctx.current_snapshot()  # the one the model saw, as for the checks before
    if clear:
        await check_not_overwriting(index, label, node, handle, snapshot, ctx, text)
    nth = await nth_word(index, ctx)
    answer = field_for_answer(snapshot, node, ctx.session)
    check_one_word(index, text, ctx, nth, answer.index if answer is not None else index)
    check_ordinal_word(index, text, nth, ctx)
