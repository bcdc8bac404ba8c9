"""The domain fence: no document from a site off the allowed list ever loads, in any tab or frame.

Three parts:

* a forward proxy (``proxy.py``) set on the context, which every request of the browser passes —
  workers, other renderer processes, speculative loads and beacons included — judging the address
  the browser actually connects to. It is the guarantee; the two parts below make a refusal read well
  and cover HTTPS documents, whose tunnels the proxy cannot tell from images unless sub-resources are
  fenced too;
* one route for the whole context (every page, every frame, present and future, pop-ups included)
  refuses each document request to a site off the list before it leaves the browser, and, when asked,
  every sub-resource request too;
* on each tab, a DevTools ``Fetch`` guard at the response stage reads every redirect of a document
  and refuses a hop that leads off the list (the ``Location`` resolved the way the browser resolves
  it). It is attached before the tab's first navigation, and turns prerendering off in the tab.

A refused navigation is aborted (``net::ERR_ABORTED``), so the tab stays on the page it showed; a
refused frame stays empty. What was refused is kept for the model ("blocked: ... is outside the
allowed domains") and for the page view, which shows a refused frame as one line.

A pop-up's first request comes before its page exists, so no guard can be in place for its redirects:
that request is fetched here without following redirects, and a redirect to an allowed site is
served as a tiny page that moves on to it, now under the new tab's guard.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import urljoin

from playwright.async_api import BrowserContext, CDPSession, Page, Request, Route, WebSocketRoute

from browser_agent.browser.addresses import split_address
from browser_agent.browser.domains import blocked_message, is_url_allowed, origin_of, refused_local_schemes
from browser_agent.browser.playwright_errors import PlaywrightError
from browser_agent.browser.proxy import FenceProxy, ProxyRequest
from browser_agent.browser.watchdog import within

__all__ = ["Blocked", "DomainFence", "leave_refused_document"]

logger = logging.getLogger("browser_agent")

_DOCUMENT_TYPES = frozenset({"document"})
_GUARD_PATTERNS = [{"urlPattern": "*", "resourceType": "Document", "requestStage": "Response"}]
_BOUNCE = (
    "<!doctype html><meta name='referrer' content='no-referrer'><script>location.replace({target})</script>"
)
_MAX_EVENTS = 20
# Runs first in every document of the context, frames included: no peer connection can be made.
_NO_WEBRTC = (
    "for (const name of ['RTCPeerConnection', 'webkitRTCPeerConnection', 'RTCIceTransport']) "
    "{ try { delete window[name]; } catch (e) {} }"
)


@dataclass(frozen=True, slots=True)
class Blocked:
    """One refused document: where it led (``url``) and the navigation it ended (``source``).

    ``page`` is the tab, when known; ``window`` says a new window was refused before it became a tab.
    """

    url: str
    source: str
    page: Page | None
    window: bool = False


class DomainFence:
    """Keeps the documents of one browser context (and optionally all its requests) on ``allowed``.

    Args:
        allowed: Domain patterns, as for ``BrowserConfig.allowed_domains``.
        subresources: Also refuse scripts, images, fetches and every other request off the list.
        loopback_only: The proxy connects only to loopback addresses (``block_external_network``).
    """

    def __init__(
        self,
        allowed: Sequence[str],
        *,
        subresources: bool = False,
        on_block: Callable[[Blocked], None] | None = None,
        loopback_only: bool = False,
    ) -> None:
        self.allowed = tuple(allowed)
        self._on_block = on_block
        self.subresources = subresources
        self._proxy = FenceProxy(self._judge, self._refused_by_proxy, loopback_only=loopback_only)
        self.proxied = False
        self.blocked: list[Blocked] = []
        self._events: list[str] = []
        self._dropped_events = 0
        self._subresource_counts: Counter[str] = Counter()
        self._guards: dict[Page, asyncio.Task[CDPSession | None]] = {}
        self._chains: dict[str, str] = {}  # redirect target -> the URL its navigation started from
        self._tasks: set[asyncio.Task[None]] = set()
        self._warned = False

    async def proxy_option(self) -> dict[str, str]:
        """Start the proxy; the ``proxy`` option of the context it must fence (set when it is made)."""
        server = await self._proxy.start()
        self.proxied = True
        return {"server": server}

    async def install(self, context: BrowserContext) -> None:
        """Route every request of ``context`` through the fence, and guard the tabs already open."""
        await context.route("**/*", self._route)
        if self.subresources:  # sockets bypass the request router: they have their own
            await context.route_web_socket(self._refuses_socket, self._refuse_socket)
            # WebRTC sends UDP past any proxy (Chromium's flag against it does not apply per context).
            await context.add_init_script(_NO_WEBRTC)
        context.on("page", self._guard_soon)
        for page in context.pages:
            await self.guard(page)

    async def close(self) -> None:
        """Stop the proxy (after the context it served is closed)."""
        await self._proxy.close()

    # -- what the fence saw ----------------------------------------------------------------------

    def allows(self, url: str) -> bool:
        return is_url_allowed(url, self.allowed)

    def mark(self) -> int:
        """A position in ``blocked``: pass it to ``blocked_since`` after an action."""
        return len(self.blocked)

    def blocked_since(self, mark: int, page: Page | None = None) -> list[Blocked]:
        return [b for b in self.blocked[mark:] if page is None or b.page is None or b.page is page]

    def refused_windows(self) -> int:
        """New windows whose first document was refused: they never become tabs."""
        return sum(1 for b in self.blocked if b.window)

    def blocked_frames(self) -> dict[str, str]:
        """``{URL a frame was asked to load: the refused URL}``, for the page view."""
        return {b.source: b.url for b in self.blocked}

    def drain_events(self) -> list[str]:
        """What was refused since the last call, one line per document, one per site of sub-resources."""
        events, self._events = self._events, []
        if self._dropped_events:
            events.append(f"... and {self._dropped_events} more blocked navigations")
            self._dropped_events = 0
        for origin, count in sorted(self._subresource_counts.items()):
            kind = "WebSocket(s)" if origin.startswith(("ws://", "wss://")) else "request(s)"
            events.append(f"blocked {count} {kind} of the page to {origin} (outside the allowed domains)")
        self._subresource_counts.clear()
        return events

    def _record(self, url: str, source: str, page: Page | None, *, window: bool = False) -> None:
        root = source
        while root in self._chains and self._chains[root] != root:
            root = self._chains[root]
        blocked = Blocked(url, root, page, window)
        self.blocked.append(blocked)
        if self._on_block is not None:
            self._on_block(blocked)
        if len(self._events) < _MAX_EVENTS:
            self._events.append(blocked_message(url, self.allowed))
        else:
            self._dropped_events += 1

    # -- the proxy -------------------------------------------------------------------------------

    def _judge(self, request: ProxyRequest) -> bool:
        """Whether the proxy lets ``request`` through: documents and (when fenced) everything else on
        the list; a tunnel's site is its host and port, whichever scheme travels in it."""
        if request.tunnel:
            if not self.subresources:
                return True
            parts = split_address(request.url)
            return self.allows(request.url) or (parts is not None and self.allows(f"http://{parts.netloc}"))
        if request.document or self.subresources:
            return self.allows(request.url)
        return True

    def _refused_by_proxy(self, request: ProxyRequest) -> None:
        if request.document:
            self._record(request.url, request.url, None)
        else:
            self._subresource_counts[origin_of(request.url)] += 1

    # -- the context route -----------------------------------------------------------------------

    async def _route(self, route: Route, request: Request) -> None:
        try:
            if request.resource_type in _DOCUMENT_TYPES or request.is_navigation_request():
                await self._route_document(route, request)
            elif self.subresources and not self.allows(request.url):
                self._subresource_counts[origin_of(request.url)] += 1
                await route.abort("blockedbyclient")
            else:
                await route.fallback()
        except PlaywrightError:
            return  # the page or the request went away meanwhile: nothing is left to decide

    def _refuses_socket(self, url: str) -> bool:
        """A socket's site is its handshake's: ``ws://`` is checked as ``http://``, ``wss://`` as ``https://``."""
        return not self.allows("http" + url[2:] if url.startswith(("ws://", "wss://")) else url)

    async def _refuse_socket(self, socket: WebSocketRoute) -> None:
        """Never connected to the server: the page sees the socket closed."""
        self._subresource_counts[origin_of(socket.url)] += 1
        try:
            await socket.close(code=1008, reason="outside the allowed domains")
        except PlaywrightError:
            return  # the page went away meanwhile

    async def _route_document(self, route: Route, request: Request) -> None:
        url = request.url
        page = _page_of(request)
        if not self.allows(url):
            self._record(url, url, page, window=page is None)  # no tab yet: a pop-up's first document
            await route.abort("aborted")
            return
        if page is not None:
            await self.guard(page)
            await route.fallback()
            return
        await self._first_request_of_popup(route, url)

    async def _first_request_of_popup(self, route: Route, url: str) -> None:
        response = await route.fetch(max_redirects=0)
        location = response.headers.get("location")
        if 300 <= response.status < 400 and location:
            target = browser_join(url, location)
            if not self.allows(target):
                self._record(target, url, None, window=True)
                await route.abort("aborted")
                return
            self._chains[target] = url
            body = _BOUNCE.format(target=json.dumps(target).replace("</", "<\\/"))
            await route.fulfill(status=200, content_type="text/html", body=body)
            return
        await route.fulfill(response=response)

    # -- the per-tab redirect guard --------------------------------------------------------------

    async def guard(self, page: Page) -> None:
        """Watch ``page``'s document redirects (once per tab; later calls wait for the first)."""
        task = self._guards.get(page)
        if task is None:
            task = asyncio.get_running_loop().create_task(self._attach(page))
            self._guards[page] = task
            page.once("close", self._forget)
        await asyncio.shield(task)

    def _guard_soon(self, page: Page) -> None:
        """A tab just opened: attach its guard now, before anything it navigates to next."""
        self._spawn(self.guard(page))

    def _forget(self, page: Page) -> None:
        self._guards.pop(page, None)

    async def _attach(self, page: Page) -> CDPSession | None:
        try:
            session = await page.context.new_cdp_session(page)
            session.on("Fetch.requestPaused", lambda ev: self._spawn(self._on_paused(session, page, ev)))
            await session.send("Fetch.enable", {"patterns": _GUARD_PATTERNS})
            # A prerendered page is swapped in on a click without a request of the click's own.
            with contextlib.suppress(PlaywrightError):
                await session.send("Page.setPrerenderingAllowed", {"isAllowed": False})
        except PlaywrightError as exc:
            if not self._warned:
                self._warned = True
                logger.warning("The domain fence cannot follow redirects in this browser (%s)", exc)
            return None
        return session

    def _spawn(self, coroutine: Any) -> None:
        task = asyncio.get_running_loop().create_task(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _on_paused(self, session: CDPSession, page: Page, event: dict[str, Any]) -> None:
        request_id = event["requestId"]
        url = str(event.get("request", {}).get("url", ""))
        try:
            target = _redirect_target(url, event)
            if target is not None and not self.allows(target):
                self._record(target, url, page)
                await session.send("Fetch.failRequest", {"requestId": request_id, "errorReason": "Aborted"})
                return
            if target is not None:
                self._chains[target] = url
            await session.send("Fetch.continueRequest", {"requestId": request_id})
        except PlaywrightError:
            return  # the tab closed: its paused requests went with it


def _redirect_target(url: str, event: dict[str, Any]) -> str | None:
    status = event.get("responseStatusCode")
    if not isinstance(status, int) or not 300 <= status < 400:
        return None
    for header in event.get("responseHeaders") or ():
        if str(header.get("name", "")).lower() == "location":
            return browser_join(url, str(header.get("value", "")))
    return None


_C0_AND_SPACE = "".join(chr(c) for c in range(0x21))


def browser_join(base: str, reference: str) -> str:
    """``reference`` resolved against ``base`` the way a browser does (the URL Standard), where it
    differs from ``urljoin``: surrounding control characters and spaces are dropped, tabs and newlines
    anywhere are removed, and in http(s) URLs a backslash is a slash (``/\\host/x`` is another host).
    A reference Python cannot read (``http://[zz/``) is returned as it is: it is on no allow-list."""
    reference = reference.strip(_C0_AND_SPACE)
    reference = reference.replace("\t", "").replace("\n", "").replace("\r", "")
    base_parts = split_address(base)
    scheme = base_parts.scheme.lower() if base_parts is not None else ""
    head = reference.split("?", 1)[0].split("#", 1)[0]
    ref_scheme, colon, _ = head.partition(":")
    special = (
        ref_scheme.lower() in ("http", "https", "ws", "wss")
        if colon and ref_scheme.isalpha()
        else (scheme in ("http", "https", "ws", "wss"))
    )
    if special:
        reference = head.replace("\\", "/") + reference[len(head) :]
        if colon and ref_scheme.lower() == scheme and not reference[len(ref_scheme) + 1 :].startswith("//"):
            reference = reference[len(ref_scheme) + 1 :]  # "http:host/x" on an http page is relative
    try:
        return urljoin(base, reference)
    except ValueError:
        return reference


def _page_of(request: Request) -> Page | None:
    """The tab a request belongs to; ``None`` before the tab exists (a pop-up's first request)."""
    try:
        return request.frame.page
    except PlaywrightError:
        return None


async def leave_refused_document(page: Page, allowed: Sequence[str] | None) -> str | None:
    """Take ``page`` away from a document the fence refuses (a ``blob:`` page a script opened, a
    ``data:`` one): back, or to an empty page. What to tell the model, or ``None`` when it was allowed."""
    refused = refused_local_schemes(allowed)
    scheme = page.url.partition(":")[0].lower()
    if scheme not in refused:
        return None
    with contextlib.suppress(PlaywrightError, TimeoutError):
        await within(page.go_back(wait_until="commit"), 5)
    if page.url.partition(":")[0].lower() in refused:
        with contextlib.suppress(PlaywrightError, TimeoutError):
            await within(page.goto("about:blank"), 5)
    return (
        f'blocked: a {scheme}: document is outside the allowed domains (list "{scheme}:" to allow it); '
        f"the tab went back to {page.url}"
    )
