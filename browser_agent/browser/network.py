"""The fetch and XHR requests a tab has in flight, so a settle can wait for the data a page is loading.

Only ``fetch`` and ``xhr`` count: they are how scripts load what they render after the load event. A
request in flight for longer than ``LONG_REQUEST_S`` (a long poll, a stream) stops counting, so such a
page does not hold every settle until its cap.

The tracker reads the tab's own DevTools session (its ``Network`` events are plain data, dropped once
read), not Playwright's request events: each of those leaves a ``Request`` object in this process that
Playwright collects only after ten thousand of them, which makes a long run grow.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import Any

from playwright.async_api import CDPSession

from browser_agent.browser.watchdog import within

__all__ = ["LONG_REQUEST_S", "RequestTracker"]

LONG_REQUEST_S = 1.0
_COUNTED = frozenset({"Fetch", "XHR"})
# Response bodies are not kept for this session: it only counts requests.
NETWORK_ENABLE = {"maxTotalBufferSize": 0, "maxResourceBufferSize": 0}


class RequestTracker:
    """Follows one tab's fetch and XHR requests from the moment it is attached."""

    def __init__(self) -> None:
        self._inflight: dict[str, float] = {}
        self._changed = asyncio.Event()
        self.started = 0  # fetch/XHR requests seen so far: tells whether a new one began meanwhile

    def listen(self, cdp: CDPSession) -> None:
        """Follow the requests reported on ``cdp`` (send ``Network.enable`` with ``NETWORK_ENABLE`` after)."""
        cdp.on("Network.requestWillBeSent", self._on_request)
        cdp.on("Network.loadingFinished", self._on_done)
        cdp.on("Network.loadingFailed", self._on_done)

    def _on_request(self, event: dict[str, Any]) -> None:
        if event.get("type") in _COUNTED and not event.get("redirectResponse"):
            self._inflight[str(event.get("requestId"))] = time.monotonic()
            self.started += 1
            self._changed.set()

    def _on_done(self, event: dict[str, Any]) -> None:
        if self._inflight.pop(str(event.get("requestId")), None) is not None:
            self._changed.set()

    def _youngest_deadline(self) -> float | None:
        """When the last counted request stops counting; ``None`` when none counts now."""
        now = time.monotonic()
        for request, started in list(self._inflight.items()):
            if now - started >= LONG_REQUEST_S:
                del self._inflight[request]  # a long poll or a stream: no longer waited for
        if not self._inflight:
            return None
        return max(self._inflight.values()) + LONG_REQUEST_S

    async def wait_idle(self, cap_s: float) -> bool:
        """Wait until no counted request is in flight, at most ``cap_s``; ``True`` if idle in time."""
        end = time.monotonic() + cap_s
        while (deadline := self._youngest_deadline()) is not None:
            timeout = min(deadline, end) - time.monotonic()
            if timeout <= 0:
                return False  # the cap came first
            self._changed.clear()
            with contextlib.suppress(TimeoutError):  # a request aged out, or the cap: the loop decides
                await within(self._changed.wait(), timeout)
        return True
