"""A text the model copied from the page view, cut as the view shows it, is typed whole.

The page view cuts a long value to its beginning, `` … `` and its end (``text_limits.cut_value``), and a
long text to its beginning and ``…``. Told to copy a text area's text into a field, the 1.5B model typed
what it saw, mark and all ("Lorem ipsum dolor … tortor. Mauris", copy-paste seeds 7 and 8), or the whole
text less the text area's last space: the field then held a text the page never wrote. When the typed
text is such a cut (its beginning and end with the view's mark, or ``...``, between them, or its
beginning and a closing ``…``) of exactly one text on the page (a field's value, or a line of the page's
text), that text is typed, whole; the same for a field's value typed with other spaces or without its
closing stop. The result says so. A text that is not a copy of the page's is typed as it is.
"""

from __future__ import annotations

import re

from browser_agent.browser.playwright_errors import PlaywrightError
from browser_agent.controller.context import ActionContext
from browser_agent.dom.text_limits import ELLIPSIS

__all__ = ["whole_copy"]

_MARK = re.compile(r"\s*(?:…|\.\.\.)\s*")
_MIN_SIDE = 8  # characters on each side of the mark: a shorter one matches too much of the page
_MIN_WHOLE = 20  # characters of a field's value retyped with other spaces: a short one is the model's own
_MAX_TEXTS = 600
# The page's texts that a model may copy: the value of each field that shows one as text (not a
# password's, not a hidden input's), and each line of the page's text.
_TEXTS_JS = f"""() => {{
  const out = [];
  const unseen = new Set(['password', 'hidden', 'checkbox', 'radio', 'submit', 'button', 'reset', 'image',
    'file']);
  for (const f of document.querySelectorAll('textarea, input')) {{
    if (unseen.has(f.type) || typeof f.value !== 'string' || !f.value.trim()) continue;
    out.push([true, f.value]);
  }}
  const body = document.body;
  for (const line of body ? body.innerText.split('\\n') : []) {{
    if (line.trim()) out.push([false, line]);
  }}
  return out.slice(0, {_MAX_TEXTS});
}}"""


def _flat(text: str) -> str:
    return " ".join(text.split())


def _cut_sides(text: str) -> tuple[str, str] | None:
    """The beginning and end of ``text`` around the view's one cut mark (the end empty when the mark
    closes it); None when it has no mark, several, or too little on a side."""
    flat = _flat(text)
    marks = list(_MARK.finditer(flat))
    if len(marks) != 1:
        return None
    head, tail = flat[: marks[0].start()], flat[marks[0].end() :]
    if len(head) < _MIN_SIDE or (tail and len(tail) < _MIN_SIDE):
        return None
    if not tail and not flat.endswith(ELLIPSIS):
        return None  # "..." at the end is the model's own ellipsis, not the view's mark
    return head, tail


def _matches(texts: list[tuple[bool, str]], text: str) -> set[str]:
    """The page's texts that ``text`` is the view's cut of, or (for a field's value) a copy of with other
    spaces or without its closing stop."""
    sides = _cut_sides(text)
    if sides is not None:
        head, tail = sides
        return {
            raw
            for _, raw in texts
            if len(flat := _flat(raw)) > len(head) + len(tail)
            and flat.startswith(head)
            and flat.rstrip(".").endswith(tail.rstrip("."))
        }
    typed = _flat(text).rstrip(".")
    if len(typed) < _MIN_WHOLE:
        return set()
    return {raw for field, raw in texts if field and raw != text and _flat(raw).rstrip(".") == typed}


async def whole_copy(text: str, ctx: ActionContext) -> tuple[str, str]:
    """The text to type for ``text``: the page's whole text when ``text`` is the view's cut of exactly one
    (or a field's value retyped inexactly); with what the result says of it (empty when ``text`` is typed
    as it is)."""
    if ELLIPSIS not in text and "..." not in text and len(text) < _MIN_WHOLE:
        return text, ""
    try:
        texts = [(bool(field), str(raw)) for field, raw in await ctx.page.evaluate(_TEXTS_JS)]
    except PlaywrightError:
        return text, ""  # the page is gone: not this rule's to report
    found = _matches(texts, text)
    if len(found) != 1:
        return text, ""
    [whole] = found
    if whole == text or ctx.redact(whole) != whole:
        return text, ""  # a text holding a secret is the user's to type by its placeholder
    return whole, f" in place of {ctx.quote(text)} (the page view showed that text cut; this is all of it)"
