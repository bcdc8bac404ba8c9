"""A word typed where the task asks for the page's Nth word, and no text in view has it there, is held
back once, naming the Nth word of the page's longest text.

Asked to "Find the 3rd word in the paragraph, type that into the textbox", the 1.5B model typed "the": the
third word of the task's own sentence, which the page prints above the paragraph (find-word, in 16 of 17
development episodes, every seed). Told that it had typed several words, it typed another wrong one: a
small model does not count words. The words of a text in view are counted here. A word that is the Nth of
some text in view goes through (the model may mean another text than the longest); so does the same word
typed again. Text that is the task's own (a page that prints the instruction) is not counted, nor is
the end of a text the view cut. A field that shows a value (a text area to read: "Find the last word in
the text area") counts with its whole value, read from the page, since the view shows only its ends.
find-word, seeds 0-9 and 45-53: 1/19 before, 10/19 with this rule, the quoted Submit held over the empty
field, and the held typing offered again (``agent/loops.py``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from weakref import WeakKeyDictionary

from browser_agent.browser.playwright_errors import PlaywrightError
from browser_agent.controller.actions.refusals import shows_value
from browser_agent.controller.actions.task_quotes import quoted_texts
from browser_agent.controller.context import ActionContext
from browser_agent.dom.snapshot import DomSnapshot, TextNode
from browser_agent.dom.text_limits import ELLIPSIS
from browser_agent.errors import ActionError, HeldForNowError

__all__ = ["NthWord", "check_ordinal_word", "counted_out", "nth_word", "word_for_its_name"]

_ORDINALS = {
    "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5,
    "sixth": 6, "seventh": 7, "eighth": 8, "ninth": 9, "tenth": 10, "last": -1, "final": -1,
}  # fmt: skip
_ASKS_NTH = re.compile(
    r"\bthe\s+(?:(?P<n>\d{1,3})(?:st|nd|rd|th)|(?P<word>" + "|".join(_ORDINALS) + r"))\s+word\b(?!s)",
    re.IGNORECASE,
)
_WORD = re.compile(r"[^\W_]+(?:['’-][^\W_]+)*")
_AROUND = 2  # words shown of the named text beyond the one asked for
_COUNTED = 10  # the words counted out in a refusal, at most

# Per session, the words whose typing was held back once.
_HELD: WeakKeyDictionary[object, set[str]] = WeakKeyDictionary()


def _nth(task: str) -> tuple[int, str] | None:
    """The place of the word ``task`` asks for (1-based; -1 for the last) and how the task says it."""
    asked = _ASKS_NTH.search(task)
    if asked is None:
        return None
    place = int(asked.group("n")) if asked.group("n") else _ORDINALS[asked.group("word").lower()]
    return (place, asked.group(0)) if place != 0 else None


def _texts(snapshot: DomSnapshot, task: str) -> list[list[str]]:
    """The words of each text in view that is not the task's own (a page that prints the instruction
    splits it at its inline tags: each piece is part of the task), longest first; a text the view cut
    ends with ``ELLIPSIS`` in place of its last, maybe cut, word."""
    written = " ".join(_WORD.findall(task.lower()))
    texts = []
    for item in snapshot.items:
        if isinstance(item, TextNode):
            words = _WORD.findall(item.text)
            if words and " ".join(words).lower() not in written:
                texts.append([*words[:-1], ELLIPSIS] if item.text.endswith(ELLIPSIS) else words)
    return sorted(texts, key=len, reverse=True)


async def _values(snapshot: DomSnapshot, ctx: ActionContext) -> list[list[str]] | None:
    """The words of the whole value of each field in view that shows one (a text area to read: the view
    shows only its ends), the one typed into too (a model typing the text area's last word into the text
    area itself was told that the word was no text's last: the field was wrong, not the word); None when
    one cannot be read."""
    values = []
    for i, node in snapshot.selector_map.items():
        if not shows_value(node):
            continue
        try:
            _, handle = await ctx.element(i)
            value = await handle.evaluate("(el) => String(el.value ?? el.textContent ?? '')")
        except (ActionError, PlaywrightError):
            return None
        if words := _WORD.findall(value):
            values.append(words)
    return values


def _word_at(words: list[str], place: int) -> str | None:
    """The word at ``place`` (1-based, -1 the last) of ``words``; None where there is none, or the view
    cut it."""
    if not words or place > len(words):  # an element with no name has no words
        return None
    word = words[place - 1] if place > 0 else words[place]
    return None if word == ELLIPSIS else word


@dataclass(frozen=True)
class NthWord:
    """The word the task asks for by its place (``said``: "the 3rd word"), as the page in view has it:
    ``word``, the Nth word of the longest text (``shown``: that text around it), and ``found``, the Nth
    word of every text and element name in view, in lower case."""

    said: str
    word: str
    shown: str
    found: frozenset[str]
    counted: str = ""  # " (1 Pellentesque, 2 Massa, 3 dui)": the words up to it, counted out


async def nth_word(index: int, ctx: ActionContext) -> NthWord | None:
    """The Nth word the task asks for, in the texts in view around element ``index`` (a field to type
    into), the whole value of any field that shows one counted as a text; None when the task asks
    for no word by its place, no text in view has one, or a field's value cannot be read."""
    asked = _nth(ctx.task)
    if asked is None:
        return None
    place, said = asked
    snapshot = await ctx.current_snapshot()
    values = await _values(snapshot, ctx)
    if values is None:
        return None
    texts = sorted([*_texts(snapshot, ctx.task), *values], key=len, reverse=True)
    longest = next((words for words in texts if _word_at(words, place) is not None), None)
    if longest is None:
        return None
    labels = [_WORD.findall(node.name or node.text) for node in snapshot.selector_map.values()]
    found = frozenset(w.lower() for w in (_word_at(words, place) for words in texts + labels) if w)
    return NthWord(
        said, _word_at(longest, place) or "", _around(longest, place), found, _counted(longest, place)
    )


def _counted(words: list[str], place: int) -> str:
    """`` (1 Pellentesque, 2 Massa, 3 dui)``: the words of a text up to ``place``, numbered (a small model
    does not count; told only the word, the 1.5B model typed its own again: find-word seed 58); "" for the
    last word, or a place past the tenth."""
    if not 0 < place <= _COUNTED:
        return ""
    return " (" + ", ".join(f"{n} {w}" for n, w in enumerate(words[:place], 1)) + ")"


def check_ordinal_word(index: int, text: str, nth: NthWord | None, ctx: ActionContext) -> None:
    """Fail, the first time only, when ``text`` (one word, to type into element ``index``) is not ``nth``,
    the Nth word the task asks for, of any text in view.

    Raises:
        HeldBackError: the Nth word of the longest text in view.
    """
    typed = _WORD.findall(text)
    if nth is None or len(typed) != 1 or ctx.redact(text) != text:
        return
    word = typed[0].lower()
    held = _HELD.setdefault(ctx.session, set())
    if word in nth.found or word in held:
        return
    held.add(word)
    counted = counted_out(nth, ctx)
    own = " (a word of the task's own sentence)" if word in _WORD.findall(ctx.task.lower()) else ""
    raise HeldForNowError(
        f"Not typed into element {index}: the task asks for {ctx.quote(nth.said)}, and {ctx.quote(typed[0])}"
        f"{own} is not that word of any text in view. In {ctx.quote(nth.shown)} it is {ctx.quote(nth.word)}"
        f"{counted}: type {ctx.quote(nth.word)} into element {index} (or the same text again if you meant "
        "it)."
    )


async def word_for_its_name(index: int, text: str, ctx: ActionContext) -> tuple[str, str]:
    """The text to type for ``text``: the Nth word itself, when ``text`` is the task's own name for it
    ("the 3rd word"), with what the result says of it; ``text`` and "" otherwise. Told three times that
    "the 3rd word" was how the task names the word, and which word it was, the 1.5B model typed "the 3rd
    word" again each time (find-word seeds 7 and 9): no one asks for those words typed."""
    asked = _nth(ctx.task)
    if asked is None or " ".join(_WORD.findall(text)).lower() != " ".join(_WORD.findall(asked[1])).lower():
        return text, ""
    if text.strip().lower() in quoted_texts(ctx.task):
        return text, ""  # 'type "the 3rd word"': the task gives those words to type
    nth = await nth_word(index, ctx)
    if nth is None or not nth.word or ctx.redact(nth.shown) != nth.shown:
        return text, ""
    said = f"{nth.said} of {ctx.quote(nth.shown)}"
    return nth.word, f" in place of {ctx.quote(text)} (the task's name for the word: {said})"


def counted_out(nth: NthWord, ctx: ActionContext) -> str:
    """``nth.counted`` (" (1 Pellentesque, 2 Massa, 3 dui)"), or "" when its text holds a secret: counted
    apart, a secret's words would no longer read as the secret."""
    clean = ctx.redact(nth.shown) == nth.shown and ctx.redact(nth.counted) == nth.counted
    return nth.counted if clean else ""


def _around(words: list[str], place: int) -> str:
    """The words of a text up to a few past ``place`` (or its last few, for the last word)."""
    if place > 0:
        more = len(words) > place + _AROUND
        return " ".join(words[: place + _AROUND]) + (f" {ELLIPSIS}" if more else "")
    more = len(words) > _AROUND + 1
    return (f"{ELLIPSIS} " if more else "") + " ".join(words[-_AROUND - 1 :])
