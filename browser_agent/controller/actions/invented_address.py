"""Typing an email address that neither the task nor the page gives is held back once.

Asked to "forward that email to Anjela", the 1.5B model typed ``anjela@example.com`` into the mail's
"to:" field: an address it made up. In a test page that loses the episode; on a real site it sends a
person's mail to a stranger. An address the model types is looked for in the task and in the page (its
text, and the view's names and values); when it is in neither, the typing is refused the first time,
naming the word of the task the address was made from when there is one. The same typing again goes
through: a task may ask for an address of the model's choosing.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from weakref import WeakKeyDictionary

from playwright.async_api import Page

from browser_agent.browser.playwright_errors import PlaywrightError
from browser_agent.dom.serializer import render
from browser_agent.dom.snapshot import DomSnapshot
from browser_agent.errors import ActionError

__all__ = ["check_not_invented"]

_ADDRESS = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_WORD = re.compile(r"[^\W\d_]{2,}")
_IN_PAGE_JS = "(a) => (document.body ? document.body.innerText : '').toLowerCase().includes(a)"

# Per session, the addresses whose typing was held back once.
_HELD: WeakKeyDictionary[object, set[str]] = WeakKeyDictionary()


async def check_not_invented(
    index: int,
    text: str,
    task: str,
    snapshot: DomSnapshot,
    page: Page,
    owner: object,
    quote: Callable[[str], str],
) -> None:
    """Fail, the first time only, when ``text`` holds an email address found neither in ``task`` nor on
    the page; ``owner`` (the browser session) keeps which addresses were held back.

    Raises:
        ActionError: the address, and the word of the task it was made from when there is one.
    """
    held = _HELD.setdefault(owner, set())
    known = task.lower()
    for address in {a.lower().rstrip(".") for a in _ADDRESS.findall(text)}:
        if address in held or address in known or address in render(snapshot).lower():
            continue
        try:
            if await page.evaluate(_IN_PAGE_JS, address):
                continue
        except PlaywrightError:
            continue  # the page is gone: nothing to compare with, and not this guard's to report
        held.add(address)
        local = address.split("@", 1)[0]
        named = next((w for w in _WORD.findall(task) if w.lower() in re.split(r"[._+-]", local)), None)
        instead = f"the task names {quote(named)}: type that" if named else "type what the task gives"
        raise ActionError(
            f"Not typed into element {index}: {quote(address)} is an email address that neither the task nor "
            f"the page gives (a made-up one); {instead} (or the same text again if you meant it)."
        )
