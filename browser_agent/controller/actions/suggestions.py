"""Suggestions that appear under a field after typing (autocomplete lists), said in the typing's result.

A small model typed into an autocomplete field and ended the run: the list came 300 ms later (jQuery UI
waits that long), after the page was read, and nothing said it was there. The page is watched while
typing; a field that announces suggestions (``role=combobox``, ``aria-autocomplete``, an
``autocomplete``/``typeahead`` class...) is given a short while for them to come. Other fields are not
waited for: what their typing brought out at once is still said.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable

from playwright.async_api import ElementHandle, JSHandle

from browser_agent.browser.playwright_errors import PlaywrightError, PlaywrightTimeoutError

__all__ = ["watch_suggestions"]

_WAIT_MS = 1_500  # only a field that announces suggestions and gets none waits this long
_SHOWN = 5  # a list longer by one is shown whole: "…" for one left-out name hid the one the task asked for

# Records the elements added or re-styled in the field's document while typing.
_WATCH_JS = """(el) => {
  const seen = [];
  const observer = new MutationObserver((records) => {
    for (const r of records) {
      if (seen.length > 2000) return; // a page animating all the while: what came first is enough
      if (r.type === 'childList') { for (const n of r.addedNodes) if (n.nodeType === 1) seen.push(n); }
      else if (r.target !== el) seen.push(r.target);
    }
  });
  observer.observe(el.ownerDocument, { subtree: true, childList: true, attributes: true,
    attributeFilter: ['style', 'class', 'hidden', 'aria-hidden', 'aria-expanded'] });
  return { observer, seen };
}"""
# The visible options among what changed (items of a list, or ARIA options and menu items), innermost
# first, once each: [texts, whether they sit under the field].
_APPEARED_JS = """([el, watch, loose]) => {
  const pick = loose ? '[role=option], [role=menuitem], li' : '[role=option], [role=menuitem]';
  const items = new Set();
  for (const root of watch.seen) {
    if (!root.isConnected || root === el || root.contains(el)) continue;
    if (root.matches(pick)) items.add(root);
    for (const n of root.querySelectorAll(pick)) items.add(n);
  }
  const shown = [...items].filter((n) => n.checkVisibility() && !n.querySelector(pick));
  const texts = [...new Set(shown.map((n) => n.innerText.trim().split('\\n')[0]).filter(Boolean))];
  if (!texts.length) return null;
  const field = el.getBoundingClientRect(), first = shown[0].getBoundingClientRect();
  return [texts, first.top >= field.top + field.height / 2];
}"""
_ANNOUNCES_JS = """(el) => {
  const role = el.getAttribute('role'), cls = el.getAttribute('class') || '';
  return role === 'combobox' || ['list', 'both'].includes(el.getAttribute('aria-autocomplete'))
    || el.getAttribute('aria-haspopup') === 'listbox' || /autocomplete|typeahead|autosuggest/i.test(cls);
}"""


@contextlib.asynccontextmanager
async def watch_suggestions(
    handle: ElementHandle, redact: Callable[[str], str]
) -> AsyncIterator[Callable[[], Awaitable[str]]]:
    """Around typing into ``handle``: yields a coroutine function giving the note on the suggestions
    that appeared (``; 2 suggestions appeared under it: 'Paris', 'Parma'``), or ``""``; ``redact``
    takes the secrets out of their texts before they are cut."""
    watch: JSHandle | None = None
    with contextlib.suppress(PlaywrightError):
        watch = await handle.evaluate_handle(_WATCH_JS)

    async def note() -> str:
        return await _note(handle, watch, redact) if watch is not None else ""

    try:
        yield note
    finally:
        if watch is not None:
            with contextlib.suppress(PlaywrightError):
                await watch.evaluate("(w) => w.observer.disconnect()")
                await watch.dispose()


async def _note(handle: ElementHandle, watch: JSHandle, redact: Callable[[str], str]) -> str:
    try:
        frame = await handle.owner_frame()
        if frame is None:
            return ""
        loose = bool(await handle.evaluate(_ANNOUNCES_JS))
        found = await frame.evaluate(_APPEARED_JS, [handle, watch, loose])
        if found is None and loose:
            with contextlib.suppress(PlaywrightTimeoutError):
                waited = await frame.wait_for_function(
                    _APPEARED_JS, arg=[handle, watch, loose], timeout=_WAIT_MS
                )
                found = await waited.json_value()
    except PlaywrightError:
        return ""  # the field or its page went away: the next state shows what there is
    if not found:
        return ""
    texts, under = found
    kept = texts if len(texts) <= _SHOWN + 1 else texts[:_SHOWN]
    shown = ", ".join(repr(redact(t)[:40]) for t in kept) + (", …" if len(kept) < len(texts) else "")
    count = f"{len(texts)} suggestion{'s' if len(texts) > 1 else ''}"
    return f"; {count} appeared{' under it' if under else ''}: {shown}"
