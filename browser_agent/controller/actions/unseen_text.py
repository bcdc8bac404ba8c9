"""A word to type that neither the task nor the page shows is held back once.

Asked to "Enter the value of Language into the text field", with a table on the page whose row reads
"Language | Arabic", the 1.5B model typed ``English``, on every seed it was given (read-table 48 and 49,
two runs each): a value it made up from the label, found nowhere. A short text of words (no digits: a sum
or a date the model worked out is its own) whose every word is in neither the task nor the page is
refused the first time, quoting the page's line that carries the word of the task the value belongs to
when there is one. A word counts as seen when the task or the page contains it, or when it begins with a
word of the task (``Guatemala`` for a task that asks for an item starting with "Gua"). The same typing
again goes through: a task may ask for a text of the model's own ("reply with a greeting").
"""

from __future__ import annotations

import re
from weakref import WeakKeyDictionary

from browser_agent.browser.playwright_errors import PlaywrightError
from browser_agent.controller.context import ActionContext
from browser_agent.dom.serializer import render
from browser_agent.dom.snapshot import DomSnapshot
from browser_agent.errors import ActionError

__all__ = ["check_text_seen"]

_WORD = re.compile(r"[^\W\d_]+")
_MAX_WORDS = 3
_PAGE_TEXT_JS = """() => {
  const body = document.body;
  return body ? [body.innerText, body.textContent].join('\\n') : '';
}"""

# Per session, the texts whose typing was held back once.
_HELD: WeakKeyDictionary[object, set[str]] = WeakKeyDictionary()


def _unseen(words: list[str], task: str, page: str) -> bool:
    """Whether no word of ``words`` is in ``task`` or ``page`` (both lowercase), or begins with a word of
    the task three letters long or more."""
    stems = [w for w in _WORD.findall(task) if len(w) >= 3]
    return not any(w in task or w in page or any(w.startswith(s) for s in stems) for w in words)


def _line_for(task: str, page_text: str) -> str:
    """The page's short line (two to eight words) that shares the longest word (four letters or more)
    with the task, not the task's own sentence shown on the page; empty when none does."""
    asked = {w.lower() for w in _WORD.findall(task) if len(w) >= 4}
    best, best_len = "", 0
    for raw in page_text.splitlines():
        line = " | ".join(" ".join(cell.split()) for cell in raw.split("\t") if cell.strip())
        words = _WORD.findall(line)
        if not 2 <= len(words) <= 8:
            continue
        shared = [w for w in words if w.lower() in asked]
        if not shared or len(shared) * 2 > len(words):  # the task's sentence, or a label alone
            continue
        longest = max(len(w) for w in shared)
        if longest > best_len:
            best, best_len = line, longest
    return best


async def check_text_seen(index: int, text: str, snapshot: DomSnapshot, ctx: ActionContext) -> None:
    """Fail, the first time only, when ``text`` (to type into element ``index``) is a few words found
    neither in the task nor on the page. A text with digits, an address, or a secret is not checked.

    Raises:
        ActionError: the text, and the page's line that gives the value the task asks for, when found.
    """
    stripped = text.strip()
    words = [w.lower() for w in _WORD.findall(stripped)]
    if not ctx.task or not words or len(words) > _MAX_WORDS or any(c.isdigit() or c == "@" for c in stripped):
        return
    if ctx.redact(text) != text:
        return  # a secret typed by its placeholder is the user's
    held = _HELD.setdefault(ctx.session, set())
    key = " ".join(words)
    task = ctx.task.lower()
    if key in held or not _unseen(words, task, render(snapshot).lower()):
        return
    try:
        page_text = str(await ctx.page.evaluate(_PAGE_TEXT_JS))
    except PlaywrightError:
        return  # the page is gone: nothing to compare with, and not this guard's to report
    if not _unseen(words, task, page_text.lower()):
        return
    held.add(key)
    line = _line_for(ctx.task, page_text)
    where = f"the page reads {ctx.quote(line)}: type the value it gives" if line else "type what they give"
    raise ActionError(
        f"Not typed into element {index}: {ctx.quote(stripped)} is in neither the task nor the page (a "
        f"made-up value?); {where} (or the same text again if you meant it)."
    )
