"""Scrolling: the page or the scrollable container around an element, and to a piece of text."""

from __future__ import annotations

from typing import Literal

from browser_agent.browser.playwright_errors import map_action_errors
from browser_agent.controller.context import ActionContext
from browser_agent.controller.registry import Registry
from browser_agent.errors import ActionError

__all__ = ["register", "scroll", "scroll_to_text"]

# Scroll the nearest scrollable ancestor of `el` (or the document). When the document itself cannot
# move (app layouts whose body never scrolls), fall back to the largest scrollable element.
_SCROLL_JS = """([el, fraction]) => {
  const doc = el ? el.ownerDocument : document;
  const win = doc.defaultView;
  const canScroll = (e) => {
    const s = win.getComputedStyle(e);
    return /(auto|scroll|overlay)/.test(s.overflowY) && e.scrollHeight > e.clientHeight + 1;
  };
  let box = null;
  for (let e = el && el.parentElement; e; e = e.parentElement) if (canScroll(e)) { box = e; break; }
  if (!box && !el) {
    const before = win.scrollY;
    win.scrollBy(0, fraction * win.innerHeight);
    const top = doc.documentElement;
    if (win.scrollY !== before) return ['page', win.scrollY, top.scrollHeight, win.innerHeight];
    for (const e of doc.querySelectorAll('*'))
      if (canScroll(e) && (!box || e.clientHeight > box.clientHeight)) box = e;
  }
  if (!box) { win.scrollBy(0, fraction * win.innerHeight);
              return ['page', win.scrollY, doc.documentElement.scrollHeight, win.innerHeight]; }
  box.scrollBy(0, fraction * box.clientHeight);
  return ['container', box.scrollTop, box.scrollHeight, box.clientHeight];
}"""


async def scroll(
    ctx: ActionContext,
    direction: Literal["down", "up"] = "down",
    pages: float = 1.0,
    index: int | None = None,
) -> str:
    """Scroll the page, or the scrollable list or panel that contains an element.

    Args:
        direction: "down" or "up".
        pages: How far, in screen heights (0.5 is half a screen).
        index: An element inside the list or panel to scroll; leave empty to scroll the page.
    """
    fraction = abs(pages) * (1 if direction == "down" else -1)
    handle = (await ctx.element(index))[1] if index is not None else None
    with map_action_errors(f"scrolling {direction}"):
        if handle is not None:
            where = await handle.evaluate(_SCROLL_JS.replace("([el, fraction])", "(el, fraction)"), fraction)
        else:
            where = await ctx.page.evaluate(_SCROLL_JS, [None, fraction])
    kind, top, height, view = where
    await ctx.session.settle()
    left = max(0.0, (height - top - view) / view) if view else 0.0
    target = f"the container of element {index}" if kind == "container" else "the page"
    return f"Scrolled {target} {direction} {abs(pages):g} page(s); {left:.1f} page(s) left below"


async def scroll_to_text(text: str, ctx: ActionContext) -> str:
    """Scroll until a piece of text is visible.

    Args:
        text: Text shown on the page (a heading, a label, a sentence).
    """
    with map_action_errors(f"scrolling to {text!r}"):
        for frame in ctx.page.frames:
            found = frame.get_by_text(text)
            if await found.count():
                await found.first.scroll_into_view_if_needed()
                return f"Scrolled to {text!r}"
    raise ActionError(f"The text {text!r} is not on the page; scroll or check the spelling.")


def register(registry: Registry) -> None:
    registry.add(scroll, "Scroll the page, or the panel that holds element `index`.")
    registry.add(scroll_to_text, "Scroll to a text on the page.")
