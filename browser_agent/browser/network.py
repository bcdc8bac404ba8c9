"""The fetch and XHR requests a tab has in flight, so a settle can wait for the data a page is loading.

Only ``fetch`` and ``xhr`` count: they are how scripts load what they render after the load event. A
request in flight for longer than ``LONG_REQUEST_S`` (a long poll, a stream) stops counting, so such a
page does not hold every settle until its cap.
"""

from __future__ import annotations

import asyncio
import contextlib
import time

from playwright.async_api import Page, Request

__all__ = ["LONG_REQUEST_S", "RequestTracker"]

LONG_REQUEST_S = 1.0
_COUNTED = frozenset({"fetch", "xhr"})


class RequestTracker:
    """Follows one tab's fetch and XHR requests from the moment it is attached."""

    def __init__(self, page: Page) -> None:
        self._inflight: dict[Request, float] = {}
        self._changed = asyncio.Event()
        self.started = 0  # fetch/XHR requests seen so far: tells whether a new one began meanwhile
        page.on("request", self._on_request)
        page.on("requestfinished", self._on_done)
        page.on("requestfailed", self._on_done)

    def _on_request(self, request: Request) -> None:
        if request.resource_type in _COUNTED:
            self._inflight[request] = time.monotonic()
            self.started += 1
            self._changed.set()

    def _on_done(self, request: Request) -> None:
        if self._inflight.pop(request, None) is not None:
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
                await asyncio.wait_for(self._changed.wait(), timeout)
        return True
