"""Several words typed where the task asks for one word are held back once.

Asked to "Find the last word in the text area, enter it into the text field", the 1.5B model typed the
last two words (``tellus eget``, ``vitae blandit``, ``justo, vulputate.``: scroll-text seeds 46, 47 and
50); asked for "the 2nd word in the paragraph", it typed the task's own sentence (find-word 50). A task
that asks for one word ("the last word", "the 2nd word", "a word") and a text of several is refused the
first time, saying how many words it has; asked for the last or the first word, the refusal names the
last or the first of them; asked for the Nth word, it names the Nth word of the longest text in view
(``ordinal_word.py``), and then holds the typing back every time: no text of several words is the Nth
word (told once, the 1.5B model typed "the 9th word" again, and then Submit). Other typing goes through
the second time.
"""

from __future__ import annotations

import re
from weakref import WeakKeyDictionary

from browser_agent.controller.actions.ordinal_word import NthWord, counted_out
from browser_agent.controller.actions.task_quotes import quoted_texts
from browser_agent.controller.context import ActionContext
from browser_agent.errors import HeldForNowError

__all__ = ["check_one_word"]

_ASKS_ONE = re.compile(
    r"\b(?:the|a|one|that|this|single)\s+(?:(?P<which>\d+(?:st|nd|rd|th)|first|second|third|fourth|fifth|last"
    r"|final|longest|shortest)\s+)?word\b(?!s)",
    re.IGNORECASE,
)
_WORD = re.compile(r"[^\W_]+(?:['’-][^\W_]+)*")

# Per session, the texts whose typing was held back once.
_HELD: WeakKeyDictionary[object, set[str]] = WeakKeyDictionary()


def check_one_word(
    index: int, text: str, ctx: ActionContext, nth: NthWord | None = None, into: int | None = None
) -> None:
    """Fail, the first time only, when the task asks for one word and ``text`` (to type into element
    ``index``) has several. A text the task quotes, or a secret typed by its placeholder, is not checked.
    ``nth``, the word the task asks for by its place as the page in view has it, is named; ``into``, the
    field to type the word into (``index`` unless that field is the page's text to read).

    Raises:
        ActionError: how many words the text has, and its first or last when the task asks for that.
    """
    asked = _ASKS_ONE.search(ctx.task)
    words = _WORD.findall(text)
    if asked is None or len(words) < 2 or ctx.redact(text) != text:
        return
    if text.strip().lower() in quoted_texts(ctx.task):
        return  # the task gives the text: 'type the word "New York"'
    if nth is not None and " ".join(_WORD.findall(nth.word)).lower() == " ".join(words).lower():
        return  # the Nth word is itself several to this count ("e.g.")
    which = (asked.group("which") or "").lower()
    pick = {"last": words[-1], "final": words[-1], "first": words[0]}.get(which)
    held = _HELD.setdefault(ctx.session, set())
    key = " ".join(words).lower()
    if key in held and (nth is None or pick):
        return
    held.add(key)
    into = index if into is None else into
    hint = f"; the {which} of them is {ctx.quote(pick)}" if pick else ""
    if not pick and nth is not None:  # no text of several words is the Nth word: held every time
        said = asked.group(0)
        if key == " ".join(_WORD.findall(said)).lower():
            # told "'the 3rd word' is 3 words", the 1.5B model typed "the 3rd word" four times (find-word 9)
            what = f"{ctx.quote(text.strip(), 60)} is how the task names the word to find, not the word"
        else:
            what = (
                f"the task asks for one word ({ctx.quote(said)}), and {ctx.quote(text.strip(), 60)} is "
                f"{len(words)} words"
            )
        raise HeldForNowError(
            f"Not typed into element {index}: {what}; in {ctx.quote(nth.shown)} the {which} word is "
            f"{ctx.quote(nth.word)}{counted_out(nth, ctx)}: type {ctx.quote(nth.word)} into element {into}."
        )
    what = f"{ctx.quote(pick)} into element {into}" if pick else "the one word the task asks for"
    raise HeldForNowError(
        f"Not typed into element {index}: the task asks for one word ({ctx.quote(asked.group(0))}), and "
        f"{ctx.quote(text.strip(), 60)} is {len(words)} words{hint}: type {what} (or the same text again if "
        "you meant it)."
    )
