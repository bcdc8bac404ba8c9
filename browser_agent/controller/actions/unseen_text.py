"""A value to type that neither the task nor the page shows, where the page labels one, is held back once.

Asked to "Enter the value of Language into the text field", with a table on the page whose row reads
"Language | Arabic", the 1.5B model typed ``English``, on every seed it was given (read-table 48 and 49,
two runs each): a value it made up from the label, found nowhere. A short text of words (no digits: a sum
or a date the model worked out is its own) whose every word is in neither the task nor the page is
refused the first time when the page shows a value under a label that shares a word with the task (a
table row, a term and its description, a "Label: value" line), quoting that label and value. Where the
page labels nothing the task names ("Sign up" on a form with empty fields), a value of the model's own
is what the task wants, and it is typed. (Told "the page shows 'Language: Arabic': type the value it
gives", the model wrote that the task asked for "English", and never typed again: the refusal names the
value to type.) A word counts as seen when the task or the page contains it, or
when it begins with a word of the task (``Guatemala`` for a task that asks for an item starting with
"Gua"). The same typing again goes through: a task may ask for a text of the model's own.
"""

from __future__ import annotations

import re
from weakref import WeakKeyDictionary

from browser_agent.browser.playwright_errors import PlaywrightError
from browser_agent.controller.context import ActionContext
from browser_agent.dom.serializer import render
from browser_agent.dom.snapshot import DomSnapshot
from browser_agent.errors import HeldForNowError

__all__ = ["check_text_seen"]

_WORD = re.compile(r"[^\W\d_]+")
_MAX_WORDS = 3
_VALUE_CAP = 80  # characters of the page's value quoted back
# The page's text, and its labelled values: table rows (first cell, the others), terms and their
# descriptions, and lines that read "Label: value".
_PAGE_JS = """() => {
  const body = document.body;
  if (!body) return {text: '', pairs: []};
  const flat = (el) => (el.innerText || el.textContent || '').replace(/\\s+/g, ' ').trim();
  const pairs = [];
  for (const row of document.querySelectorAll('tr')) {
    const cells = [...row.children].filter((c) => c.tagName === 'TD' || c.tagName === 'TH');
    if (cells.length >= 2) pairs.push([flat(cells[0]), cells.slice(1).map(flat).join(' | ')]);
  }
  for (const term of document.querySelectorAll('dt')) {
    const next = term.nextElementSibling;
    if (next && next.tagName === 'DD') pairs.push([flat(term), flat(next)]);
  }
  for (const line of body.innerText.split('\\n')) {
    const m = /^([^:|]{1,40}):\\s*(\\S.{0,80})$/.exec(line.trim());
    if (m) pairs.push([m[1].trim(), m[2].trim()]);
  }
  return {text: body.innerText + '\\n' + body.textContent, pairs: pairs.slice(0, 400)};
}"""

# Per session, the texts whose typing was held back once.
_HELD: WeakKeyDictionary[object, set[str]] = WeakKeyDictionary()


def _unseen(words: list[str], task: str, page: str) -> bool:
    """Whether no word of ``words`` is in ``task`` or ``page`` (both lowercase), or begins with a word of
    the task three letters long or more."""
    stems = [w for w in _WORD.findall(task) if len(w) >= 3]
    return not any(w in task or w in page or any(w.startswith(s) for s in stems) for w in words)


def _labelled_value(task: str, pairs: list[list[str]]) -> tuple[str, str] | None:
    """The page's label (five words at most) that shares the longest word (four letters or more) with the
    task, and its value; ``None`` when no label does."""
    asked = {w.lower() for w in _WORD.findall(task) if len(w) >= 4}
    best, best_len = None, 0
    for label, value in pairs:
        words = _WORD.findall(label)
        shared = [len(w) for w in words if w.lower() in asked]
        if shared and len(words) <= 5 and value and max(shared) > best_len:
            best, best_len = (label, value), max(shared)
    return best


async def check_text_seen(index: int, text: str, snapshot: DomSnapshot, ctx: ActionContext) -> None:
    """Fail, the first time only, when ``text`` (to type into element ``index``) is a few words found
    neither in the task nor on the page, and the page shows a value under a label of the task's words. A
    text with digits, an address, or a secret is not checked.

    Raises:
        ActionError: the text, and the label and value the page shows.
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
        page = await ctx.page.evaluate(_PAGE_JS)
    except PlaywrightError:
        return  # the page is gone: nothing to compare with, and not this guard's to report
    labelled = _labelled_value(ctx.task, page["pairs"])
    if not labelled or not _unseen(words, task, str(page["text"]).lower()):
        return  # a value of the model's own where the page labels none of the task's words: a form to fill
    held.add(key)
    label, value = ctx.redact(labelled[0]), ctx.quote(labelled[1], _VALUE_CAP)
    raise HeldForNowError(
        f"Not typed into element {index}: {ctx.quote(stripped)} is in neither the task nor the page (a "
        f"made-up value?); the page gives {label} as {value}: type {value} (or {ctx.quote(stripped)} again "
        "if you meant it)."
    )
