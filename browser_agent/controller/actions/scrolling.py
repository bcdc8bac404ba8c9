"""Scrolling: the page or a scroll panel (or the one around an element), on either axis; to a text."""

from __future__ import annotations

import re
from typing import Literal

from playwright.async_api import Locator

from browser_agent.action_specs import scrolling as specs
from browser_agent.browser.page_markdown import page_markdown
from browser_agent.browser.playwright_errors import map_action_errors
from browser_agent.controller.context import ActionContext
from browser_agent.controller.passages import closest_passage
from browser_agent.controller.registry import Registry
from browser_agent.dom.text_limits import ELLIPSIS, cut
from browser_agent.errors import ActionError

__all__ = ["register", "scroll", "scroll_to_text"]

# Scroll `el` itself when its content scrolls (a panel the snapshot marked scrollable), else its nearest
# scrollable ancestor, else the document. When the document itself cannot move (app layouts whose body
# never scrolls), fall back to the largest scrollable element. `vertical` picks the axis.
_SCROLL_JS = """([el, fraction, vertical]) => {
  const doc = el ? el.ownerDocument : document;
  const win = doc.defaultView;
  const canScroll = (e) => {
    const s = win.getComputedStyle(e);
    return vertical ? /(auto|scroll|overlay)/.test(s.overflowY) && e.scrollHeight > e.clientHeight + 1
                    : /(auto|scroll|overlay)/.test(s.overflowX) && e.scrollWidth > e.clientWidth + 1;
  };
  const size = (e) => (vertical ? e.clientHeight : e.clientWidth);
  const by = (target, px) => (vertical ? target.scrollBy(0, px) : target.scrollBy(px, 0));
  const page = () => {
    const top = doc.documentElement;
    return ['page', vertical ? win.scrollY : win.scrollX, vertical ? top.scrollHeight : top.scrollWidth,
            vertical ? win.innerHeight : win.innerWidth];
  };
  let box = null;
  for (let e = el; e && e !== doc.documentElement && e !== doc.body; e = e.parentElement)
    if (canScroll(e)) { box = e; break; }
  if (!box && !el) {
    const before = vertical ? win.scrollY : win.scrollX;
    by(win, fraction * (vertical ? win.innerHeight : win.innerWidth));
    if ((vertical ? win.scrollY : win.scrollX) !== before) return page();
    for (const e of doc.querySelectorAll('*'))
      if (canScroll(e) && (!box || size(e) > size(box))) box = e;
  }
  if (!box) { by(win, fraction * (vertical ? win.innerHeight : win.innerWidth)); return page(); }
  by(box, fraction * size(box));
  return ['container', vertical ? box.scrollTop : box.scrollLeft,
          vertical ? box.scrollHeight : box.scrollWidth, size(box)];
}"""


async def scroll(
    ctx: ActionContext,
    direction: Literal["down", "up", "right", "left"],
    pages: float,
    index: int | None,
) -> str:
    """Scroll the page, or a scrollable panel, list or carousel."""
    fraction = abs(pages) * (1 if direction in ("down", "right") else -1)
    vertical = direction in ("down", "up")
    handle = (await ctx.element(index))[1] if index is not None else None
    with map_action_errors(f"scrolling {direction}"):
        if handle is not None:
            js = _SCROLL_JS.replace("([el, fraction, vertical])", "(el, [fraction, vertical])")
            where = await handle.evaluate(js, [fraction, vertical])
        else:
            where = await ctx.page.evaluate(_SCROLL_JS, [None, fraction, vertical])
    kind, start, length, view = where
    await ctx.session.settle()
    left = max(0.0, (length - start - view) / view) if view else 0.0
    if kind != "container":
        target = "the page"
    elif index is None:  # the page does not scroll: its largest scroll panel did
        target = "the page's largest scroll panel (the page itself does not scroll)"
    else:
        target = f"the container of element {index}"
    ahead = "below" if vertical else "to the right"
    return f"Scrolled {target} {direction} {abs(pages):g} page(s); {left:.1f} page(s) left {ahead}"


async def scroll_to_text(text: str, ctx: ActionContext) -> str:
    """Scroll until a piece of text is visible. A text copied from the page view where the view cut it
    ("...it was granted in 20…") is looked for without its ellipsis: the view's own cut is no typo."""
    wanted = _uncut(text)
    if not wanted:
        raise ActionError("scroll_to_text needs words that are on the page, not only an ellipsis.")
    # A clause copied from the page and ended with a full stop where the page goes on ("..., Italy."
    # for "..., Italy (using ...")): looked for again without its closing punctuation.
    tries = dict.fromkeys([wanted, wanted.rstrip(_CLOSING).rstrip()])
    with map_action_errors(f"scrolling to {ctx.quote(text)}"):
        for words in filter(None, tries):
            said = await _scroll_to_first(ctx, words)
            if said is not None:
                return said.format(quoted=ctx.quote(text))
        # A text that holds a secret gives no names: a part of a secret no longer reads as the secret,
        # and a result quoting it would pass the redaction.
        for name in _names(wanted) if ctx.redact(wanted) == wanted else ():
            # "Thomasa's email" is nowhere on the page; the mail from Thomasa is, under her name
            said = await _scroll_to_first(ctx, name)
            if said is not None:
                found = said.format(quoted=ctx.quote(name))
                found = "s" + found[1:] if found.startswith("Scrolled") else found
                return f"The text {ctx.quote(text)} is not on the page word for word; {found}"
    closest = closest_passage(wanted, ctx.redact(await page_markdown(ctx.page)))
    if closest is not None:
        # A model that wrote the sentence from memory looked for it, not found, step after step; the
        # page's own words for it end that.
        heading, _, block = closest.text.rpartition("\n")  # a heading goes with the block after it
        said = f"{heading.lstrip('# ')}: {block}" if heading else block
        passage = ctx.quote(cut(" ".join(said.split()), _PASSAGE_CHARS))
        raise ActionError(
            f"The text {ctx.quote(text)} is not on the page word for word; the page's passage closest to "
            f"it: {passage}"
        )
    raise ActionError(f"The text {ctx.quote(text)} is not on the page; scroll or check the spelling.")


def _names(wanted: str) -> list[str]:
    """The names in a short text looked for ("Thomasa" in "Thomasa's email"): its words of three letters
    or more that start with a capital, without a possessive; none in a sentence (the closest passage
    reads one better)."""
    if len(wanted.split()) > _NAMED_WORDS:
        return []
    return [name for name in dict.fromkeys(_NAME.findall(wanted)) if name != wanted]


async def _scroll_to_first(ctx: ActionContext, words: str) -> str | None:
    """Scroll to the first place ``words`` show that is out of view (``{quoted}`` left to fill in); None
    when they are nowhere on the page.

    The words the model looks for are often also in view already: in the task's own line, or in a
    heading over the list it has to search. Scrolling to that first match moved nothing while saying
    "Scrolled", and the model then clicked by the indices of a page it had not seen. The first match out
    of view is the one it cannot read; when every match is in view, it is told so and nothing moves.
    """
    in_view = False
    first: Locator | None = None  # the first match of all, should every one be hidden
    for frame in ctx.page.frames:
        found = frame.get_by_text(words)
        count = await found.count()
        if count and first is None:
            first = found.first
        for at in range(min(count, _MATCHES)):
            match = found.nth(at)
            where = await match.evaluate(_WHERE_JS)
            if where == "out":
                await match.scroll_into_view_if_needed()
                return "Scrolled to {quoted}"
            in_view = in_view or where == "in"
    if in_view:
        return "{quoted} is in view already: nothing scrolled; read the page as it is"
    if first is None:
        return None
    await first.scroll_into_view_if_needed()  # only hidden matches: the first, as a person would reach it
    return "Scrolled to {quoted}"


_NAMED_WORDS = 4  # a text looked for of more words is a sentence, not a name with a word or two
_NAME = re.compile(r"\b([A-Z][^\W_]{2,}(?:[-'][A-Z][^\W_]+)?)(?:['’]s)?\b")
_MATCHES = 20  # places a text shows, looked at for one out of view
# "in": its box is within the window and every scroll panel around it; "out": rendered but scrolled
# out of one of them; "hidden": not rendered.
_WHERE_JS = """(el) => {
  const r = el.getBoundingClientRect();
  if (r.width < 1 || r.height < 1 || getComputedStyle(el).visibility !== "visible") return "hidden";
  const cx = r.left + r.width / 2, cy = r.top + r.height / 2;
  if (cx < 0 || cy < 0 || cx > innerWidth || cy > innerHeight) return "out";
  for (let p = el.parentElement; p; p = p.parentElement) {
    const s = getComputedStyle(p);
    if (!/(auto|scroll|hidden|overlay)/.test(s.overflowY + s.overflowX)) continue;
    const b = p.getBoundingClientRect();
    if (cx < b.left || cx > b.right || cy < b.top || cy > b.bottom) return "out";
  }
  return "in";
}"""
_CLOSING = ".,;:!?\"'”’)]"
_PASSAGE_CHARS = 300  # the closest passage said in a failure, at most


def _uncut(text: str) -> str:
    """``text`` without the ellipsis the page view ends a cut line with (or three dots in its place)."""
    text = text.strip()
    for mark in (ELLIPSIS, "..."):
        text = text.removesuffix(mark).rstrip()
    return text


def register(registry: Registry) -> None:
    registry.add_spec(scroll, specs.SCROLL)
    registry.add_spec(scroll_to_text, specs.SCROLL_TO_TEXT)
