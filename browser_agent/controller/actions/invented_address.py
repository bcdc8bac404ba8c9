"""Typing an email address that neither the task nor the page gives is held back once.

Asked to "forward that email to Anjela", the 1.5B model typed ``anjela@example.com`` into the mail's
"to:" field: an address it made up. In a test page that loses the episode; on a real site it sends a
person's mail to a stranger. An address the model types is looked for in the task and in the page (its
text, and the view's names and values); when it is in neither, the typing is refused the first time,
naming the word of the task the address was made from when there is one. The same typing again goes
through: a task may ask for an address of the model's choosing.

An address at a domain reserved for examples (``example.com``, ``.test``...: RFC 2606) reaches no one.
Told to type the name instead, the model typed the same address again, at the last step of its run
(email-inbox seeds 14 and 16). When the whole text is such an address made from a name the task gives
("Kaylil" and ``kaylil@example.com``), the name is typed in its place, and the result says so.
"""

from __future__ import annotations

import re
from weakref import WeakKeyDictionary

from browser_agent.browser.playwright_errors import PlaywrightError
from browser_agent.controller.context import ActionContext
from browser_agent.dom.serializer import render
from browser_agent.dom.snapshot import DomSnapshot
from browser_agent.errors import HeldForNowError

__all__ = ["text_for_address"]

_ADDRESS = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_RESERVED = re.compile(
    r"@(?:[\w-]+\.)*(?:example\.(?:com|net|org)|[\w-]+\.(?:test|example|invalid|localhost))$"
)
_WORD = re.compile(r"[^\W\d_]{2,}")
_IN_PAGE_JS = "(a) => (document.body ? document.body.innerText : '').toLowerCase().includes(a)"

# Per session, the addresses whose typing was held back once.
_HELD: WeakKeyDictionary[object, set[str]] = WeakKeyDictionary()


async def text_for_address(
    index: int, text: str, snapshot: DomSnapshot, ctx: ActionContext
) -> tuple[str, str]:
    """The text to type for ``text`` (typed into element ``index``), and what the result says of it: the
    name the task gives, in place of an address at a domain reserved for examples made from it; else
    ``text`` itself and nothing. Fails, the first time only, when ``text`` holds another email address
    found neither in the task nor on the page; the session keeps which addresses were held back. An
    address in a secret the model typed by its placeholder (redacting puts the placeholder back) is the
    user's.

    Raises:
        ActionError: the address, and the word of the task it was made from when there is one.
    """
    owner, task, quote, page = ctx.session, ctx.task, ctx.quote, ctx.page
    held = _HELD.setdefault(owner, set())
    addresses = {a.lower().rstrip(".") for a in _ADDRESS.findall(ctx.redact(text))} - held
    addresses = {a for a in addresses if a not in task.lower()}
    shown = render(snapshot).lower() if addresses else ""
    for address in sorted(addresses):
        if address in shown:
            continue
        try:
            if await page.evaluate(_IN_PAGE_JS, address):
                continue
        except PlaywrightError:
            continue  # the page is gone: nothing to compare with, and not this guard's to report
        local = address.split("@", 1)[0]
        named = next((w for w in _WORD.findall(task) if w.lower() in re.split(r"[._+-]", local)), None)
        if named and _RESERVED.search(address) and text.strip().lower() == address and local == named.lower():
            return named, f" in place of {quote(address)} (a made-up address; the task gives the name)"
        held.add(address)
        instead = f"the task names {quote(named)}: type that" if named else "type what the task gives"
        raise HeldForNowError(
            f"Not typed into element {index}: {quote(address)} is an email address that neither the task nor "
            f"the page gives (a made-up one); {instead} (or the same text again if you meant it)."
        )
    return text, ""
