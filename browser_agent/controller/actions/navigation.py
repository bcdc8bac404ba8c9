"""Navigation: open a URL, go back, search the web, wait."""

from __future__ import annotations

import asyncio
from urllib.parse import quote_plus, urljoin

from browser_agent.action_specs import navigation as specs
from browser_agent.browser.addresses import checked_address, split_address
from browser_agent.browser.playwright_errors import PlaywrightError
from browser_agent.controller.context import ActionContext
from browser_agent.controller.registry import Registry
from browser_agent.errors import ActionError

__all__ = ["go_back", "go_to_url", "register", "search_web", "wait"]

_RELATIVE = ("/", "./", "../", "?", "#")


async def go_to_url(url: str, ctx: ActionContext, reload: bool) -> str:
    """Open a URL in the current tab."""
    url = _against_page(url, ctx)
    _check_not_a_name(url, ctx)
    checked_address(url)  # a malformed one is the model's to correct, said before anything else
    current = await _open_page(ctx, url, reload=reload)
    if current is not None:
        # Reloading would renumber the page under the next actions of the list for nothing.
        return f"Already at {current}: not reloaded"
    await ctx.session.navigate(url)
    return f"Opened {ctx.page.url}"


def _check_not_a_name(url: str, ctx: ActionContext) -> None:
    """Fail when ``url``, no address (no scheme, dot nor slash), is the whole name of an element of the
    page the model saw: asked to 'Click on the link "urna"', the 1.5B model sent ``go_to_url("urna")``,
    was told to give a whole address, and made one up (click-link seed 49). The element is named.

    Raises:
        ActionError: the element of that name, and the action that clicks it.
    """
    wanted = " ".join(url.split()).lower()
    snapshot = ctx.snapshot or ctx.session.last_snapshot
    if not wanted or snapshot is None or any(c in wanted for c in ":./"):
        return
    for node in sorted(snapshot.selector_map.values(), key=lambda n: n.index):
        if " ".join((node.name or node.text or "").split()).lower() == wanted:
            raise ActionError(
                f"{ctx.quote(url)} is no address: it is the name of element {node.index} on this page; "
                f"click_element with index {node.index} clicks it."
            )


def _against_page(url: str, ctx: ActionContext) -> str:
    """``url`` resolved against the current page's address when it is a path (``/Physics``,
    ``../a.html``, ``?page=2``), as a link on that page would be; anything else as it is."""
    wanted = url.strip()
    if not wanted.startswith(_RELATIVE) or wanted.startswith("//"):
        return url
    try:
        current = ctx.page.url
    except ActionError:
        return url
    base = split_address(current)
    if base is None or base.scheme not in ("http", "https"):
        return url
    return urljoin(current, wanted)


# Whether a form control of the page holds something other than what the page loaded with.
_TYPED_JS = """() => [...document.querySelectorAll('input, textarea, select')].some((el) => {
  if (el.type === 'checkbox' || el.type === 'radio') return el.checked !== el.defaultChecked;
  if (el.tagName === 'SELECT') {
    const first = [...el.options].findIndex((o) => o.defaultSelected);
    return !el.multiple && el.selectedIndex !== Math.max(first, el.options.length ? 0 : -1);
  }
  if (el.type === 'range' || el.type === 'color') {  // never empty: compared with a fresh one's value
    const fresh = document.createElement('input');
    for (const a of ['type', 'min', 'max', 'step', 'value'])
      if (el.hasAttribute(a)) fresh.setAttribute(a, el.getAttribute(a));
    return el.value !== fresh.value;
  }
  return !['hidden', 'file'].includes(el.type) && el.value !== el.defaultValue;
})"""


async def _open_page(ctx: ActionContext, url: str, *, reload: bool) -> str | None:
    """The address of the page the tab shows when ``url`` names it and it is not to be reloaded; None
    when ``url`` is to be opened (another page, another ``#fragment`` of it, or ``reload``).

    Raises:
        ActionError: the page holds what was typed there: a small model reopened its task's page, and
            what it had typed and chosen was gone.
    """
    try:
        current = ctx.page.url
    except ActionError:
        return None
    if reload or not _same_document(current, url, fragment=True):
        return None
    try:
        typed = bool(await ctx.page.evaluate(_TYPED_JS))
    except PlaywrightError:
        typed = False  # the page is navigating: nothing typed there is kept anyway
    if typed:
        raise ActionError(
            f"the tab already shows {current}: opening it again would reload it and lose what was typed "
            "there. Use its elements; to reload it, go_to_url with reload=true."
        )
    return current


def _same_document(current: str, wanted: str, *, fragment: bool = False) -> bool:
    """Whether ``wanted`` names the document the tab shows (``/`` and an empty path are the same), and
    with ``fragment`` the same place in it."""
    if not current or not wanted:
        return False
    a, b = split_address(current), split_address(wanted.strip())
    if a is None or b is None:
        return False
    here = (a.scheme, a.netloc.lower(), a.path or "/", a.query, a.fragment if fragment else "")
    there = (b.scheme, b.netloc.lower(), b.path or "/", b.query, b.fragment if fragment else "")
    return here == there


async def go_back(ctx: ActionContext) -> str:
    """Go back to the previous page of the current tab."""
    before = ctx.page.url
    if await _previous_is_blank(ctx):
        # The small model went back from its task page to the blank page the tab opened with, then
        # guessed addresses (example.com/login) to find the form again.
        raise ActionError(
            f"There is no previous page to go back to from {before}: the tab showed only a blank page "
            "before it. Go on with the task on this page (open a URL if it needs another)."
        )
    await ctx.session.go_back()
    if ctx.page.url == before:
        raise ActionError(f"There is no previous page to go back to from {before}; open a URL instead.")
    return f"Went back to {ctx.page.url}"


async def _previous_is_blank(ctx: ActionContext) -> bool:
    """Whether the tab's history holds only a blank page (``about:blank``) before the current one; False
    when the browser cannot say (the page then goes back as asked)."""
    page = ctx.page
    try:
        cdp = await page.context.new_cdp_session(page)
        try:
            history = await cdp.send("Page.getNavigationHistory")
        finally:
            await cdp.detach()
    except PlaywrightError:
        return False
    current, entries = history.get("currentIndex", 0), history.get("entries", [])
    return bool(0 < current < len(entries) and entries[current - 1].get("url") == "about:blank")


async def search_web(query: str, ctx: ActionContext) -> str:
    """Search the web with a search engine, in the current tab.

    Named for the web: a small model told to "search for lamp" on a shop called plain ``search`` and
    left the shop for a search engine; a site's own search box is an element to type into. The query
    goes to a search engine, a third party: its ``<secret>`` placeholders are never filled (the spec marks
    it ``Placeholders.KEPT``).
    """
    url = ctx.settings.search_engine_url.replace("{query}", quote_plus(query))
    await ctx.session.navigate(url)
    return f"Searched for {ctx.quote(query)}"


async def wait(ctx: ActionContext, seconds: float) -> str:
    """Wait for the page to finish something (loading, an animation)."""
    cap = ctx.settings.max_wait_s
    waited = min(max(seconds, 0.0), cap)
    await asyncio.sleep(waited)  # waiting is what this action was asked to do
    note = f" (capped at {cap:g} s)" if seconds > cap else ""
    return f"Waited {waited:g} s{note}"


def register(registry: Registry) -> None:
    registry.add_spec(go_to_url, specs.GO_TO_URL)
    registry.add_spec(go_back, specs.GO_BACK)
    registry.add_spec(search_web, specs.SEARCH_WEB)
    registry.add_spec(wait, specs.WAIT)
