"""The live view: the agent's current tab as JPEG frames, a few a second, only while someone watches.

Without secrets the frames come from the tab's DevTools screencast (``Page.startScreencast``): the
browser sends a frame when the page repaints, and the next one only after this one is acknowledged, so
acknowledging no sooner than ``1/fps`` after the last frame is the rate limit, and an idle page costs
nothing. The stream is held (the screencast stopped) while the agent reads the page or acts, so drawing
frames never slows a step; it runs while the model thinks, between steps and while paused. Starting a
screencast makes the browser paint and encode a picture at once, so after a recent frame the stream
starts again only when the agent has stayed away from the page for a moment (a model that answers in
a few milliseconds gets a frame every couple of seconds, not one per step).

With secrets, a frame must never show one: each frame is then a capture bracketed by two reads
of where secrets show (``browser.masking.secret_boxes``, before and after the picture), painted black
where either read found one, and a frame that cannot be masked is not sent. The view follows the agent
to whichever tab is current.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Coroutine, Sequence
from typing import Any

from playwright.async_api import CDPSession, Page

from browser_agent.browser.masking import detach, paint_boxes, secret_boxes, tab_sessions
from browser_agent.browser.playwright_errors import PlaywrightError
from browser_agent.browser.watchdog import within
from browser_agent.errors import BrowserError
from browser_agent.ui.viewers import Event, Hub

__all__ = ["LiveView", "PageSource"]

logger = logging.getLogger("browser_agent")

PageSource = Callable[[], Page | None]
"""Where the view looks: the tab the agent is on now (None while there is none)."""

_IDLE_S = 0.2  # how often to look again for a tab, or for a tab change, when no frame comes
_CAPTURE_S = 5.0  # longest one masked capture (or any one call into the tab) may take before it is given up
_MAX_SIDE = 1600  # frames are scaled down to this many pixels at most
_QUIET_S = 0.15  # after a recent frame, how long the agent must leave the page before streaming again
_STALE_S = 2.0  # a frame older than this is recent no more: stream at once


class LiveView:
    """Streams the current tab of ``source`` to the hub's viewers while there are any."""

    def __init__(self, hub: Hub, *, fps: float = 4.0, quality: int = 60) -> None:
        self.hub = hub
        self.fps = fps
        self.quality = quality
        self.frames_sent = 0
        self._source: PageSource = lambda: None
        self._mask_values: tuple[str, ...] = ()
        self._task: asyncio.Task[None] | None = None
        self._due = 0.0  # when the next frame may be acknowledged (kept across held spells)
        self._last = 0.0  # when the stream last started or published a frame (monotonic)
        self._free = asyncio.Event()  # clear while the agent reads the page or acts: no capture then
        self._free.set()
        self._held = asyncio.Event()  # the opposite of _free, to stop a stream at once

    def hold(self, held: bool) -> None:
        """Hold the stream (``True``) while the agent reads the page or acts, so that drawing frames
        never competes with the step for the browser; the frame after shows what the step did."""
        if held:
            self._free.clear()
            self._held.set()
        else:
            self._held.clear()
            self._free.set()

    async def _wait_free(self) -> bool:
        """Wait until the stream is not held; False when, after a recent start or frame, the agent came
        back to the page within ``_QUIET_S`` (then streaming would only slow its step)."""
        await self._free.wait()
        if time.monotonic() - self._last < _STALE_S:
            await asyncio.sleep(_QUIET_S)
            if not self._free.is_set():
                return False
        self._last = time.monotonic()
        return True

    def follow(self, source: PageSource, mask_values: Sequence[str] = ()) -> None:
        """Show the tabs ``source`` gives from now on, masking ``mask_values`` (a run's secret values)."""
        self._source = source
        self._mask_values = tuple(v for v in mask_values if v)

    def watchers(self, present: bool) -> None:
        """The hub's call when the first viewer comes (start streaming) or the last goes (stop)."""
        if present and (self._task is None or self._task.done()):
            self._task = asyncio.get_running_loop().create_task(self._stream(), name="live view")
            self._task.add_done_callback(_said)
        elif not present and self._task is not None:
            self._task.cancel()
            self._task = None

    async def close(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def _stream(self) -> None:
        while True:
            page = self._source()
            if page is None or page.is_closed():
                await asyncio.sleep(_IDLE_S)
                continue
            try:
                if self._mask_values:
                    await self._captures(page)
                else:
                    await self._screencast(page)
            except (PlaywrightError, BrowserError, TimeoutError):
                await asyncio.sleep(_IDLE_S)  # the tab closed, or navigated away under us: look again

    def _still_on(self, page: Page) -> bool:
        return self._source() is page and not page.is_closed()

    def _unmasked_on(self, page: Page) -> bool:
        """Whether the screencast may go on: the same tab, and still no secret to mask (a person typing
        during a take-over adds some: the stream turns to masked captures at once)."""
        return self._still_on(page) and not self._mask_values

    async def _screencast(self, page: Page) -> None:
        """Stream ``page``'s screencast until the agent moves to another tab; stopped while held."""
        cdp = await within(page.context.new_cdp_session(page), _CAPTURE_S)
        arrived: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        cdp.on("Page.screencastFrame", arrived.put_nowait)
        try:
            while self._unmasked_on(page):
                if not await self._wait_free():
                    continue
                async with asyncio.timeout(_CAPTURE_S):
                    await cdp.send("Page.startScreencast", self._screencast_params())
                await self._frames_until_held(page, cdp, arrived)
                async with asyncio.timeout(_CAPTURE_S):
                    await cdp.send("Page.stopScreencast")
        finally:
            await _quietly_stop(cdp)

    def _screencast_params(self) -> dict[str, Any]:
        return {"format": "jpeg", "quality": self.quality, "maxWidth": _MAX_SIDE, "maxHeight": _MAX_SIDE}

    async def _frames_until_held(
        self, page: Page, cdp: CDPSession, arrived: asyncio.Queue[dict[str, Any]]
    ) -> None:
        """Publish the frames as they come, ``fps`` a second at most, until the stream is held."""
        while self._unmasked_on(page) and self._free.is_set():
            frame = await self._unless_held(arrived.get(), _IDLE_S)
            if frame is None:
                continue
            meta = frame["metadata"]
            self._publish(frame["data"], meta["deviceWidth"], meta["deviceHeight"], meta.get("timestamp"))
            self._due = max(self._due + 1 / self.fps, time.monotonic())
            if await self._held_within(self._due - time.monotonic()):
                return  # held while waiting to acknowledge: no next frame (the screencast is stopped)
            async with asyncio.timeout(_CAPTURE_S):  # the next frame comes only once this one is acknowledged
                await cdp.send("Page.screencastFrameAck", {"sessionId": frame["sessionId"]})

    async def _held_within(self, seconds: float) -> bool:
        try:
            async with asyncio.timeout(max(0.0, seconds)):
                await self._held.wait()
        except TimeoutError:
            return False
        return True

    async def _unless_held(self, waited: Coroutine[Any, Any, Any], timeout: float) -> Any:
        """What ``waited`` gives within ``timeout``; None when the stream is held first, or time runs out
        (a hold stops the stream at once, not after the frame or the wait under way)."""
        job = asyncio.ensure_future(waited)
        held = asyncio.ensure_future(self._held.wait())
        try:
            await asyncio.wait({job, held}, timeout=max(0.0, timeout), return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in (job, held):
                task.cancel()
        return job.result() if job.done() and not job.cancelled() else None

    async def _captures(self, page: Page) -> None:
        """Masked captures of ``page``, ``fps`` a second at most, until the agent moves to another tab."""
        sessions: list[CDPSession] = []
        frames: set[str] = set()
        worlds: dict[str, int] = {}
        last = ""
        try:
            while self._still_on(page):
                if not await self._wait_free():
                    continue
                started = time.monotonic()
                now = {f.url + "#" + f.name for f in page.frames}  # a frame came or went: new sessions
                if not sessions or now != frames:
                    await _quietly_detach(sessions)
                    sessions, frames, worlds = await within(tab_sessions(page), _CAPTURE_S), now, {}
                try:
                    async with asyncio.timeout(_CAPTURE_S):
                        shot = await self._masked(sessions, worlds)
                except TimeoutError:  # a tab that does not answer (navigating): start again with it
                    await _quietly_detach(sessions)
                    sessions, shot = [], None
                if shot is not None and shot[0] != last:
                    last, (jpeg, width, height, taken) = shot[0], shot
                    self._publish(jpeg, width, height, taken)
                await asyncio.sleep(max(0.0, 1 / self.fps - (time.monotonic() - started)))
        finally:
            await _quietly_detach(sessions)

    async def _masked(
        self, sessions: list[CDPSession], worlds: dict[str, int]
    ) -> tuple[str, int, int, float] | None:
        """One picture with every place that showed a secret just before or just after it blacked out,
        its size in CSS pixels and when it was taken; None when it could not be masked (then nothing is
        sent)."""
        try:
            _top, before = await secret_boxes(sessions, self._mask_values, worlds)
            taken = time.time()
            picture = await sessions[0].send(
                "Page.captureScreenshot", {"format": "jpeg", "quality": self.quality}
            )
            metrics = await sessions[0].send("Page.getLayoutMetrics")
            top, after = await secret_boxes(sessions, self._mask_values, worlds)
            painted = await paint_boxes(top, picture["data"], [*before, *after])
        except (PlaywrightError, BrowserError):
            return None
        view = metrics["cssLayoutViewport"]
        return painted, int(view["clientWidth"]), int(view["clientHeight"]), taken

    def show_end(self, jpeg: str, width: float, height: float) -> None:
        """Show the page after the run's last action as its last frame (masked when it was taken): the
        stream is held while the agent acts and the run ends right after, so it may never have shown it.
        The frame says ``final``: the page draws no element marks on it (they were the step's, before)."""
        self._publish(jpeg, width, height, None, final=True)

    def _publish(
        self, jpeg: str, width: float, height: float, captured: float | None, *, final: bool = False
    ) -> None:
        self.frames_sent += 1
        self._last = time.monotonic()
        frame: Event = {
            "type": "frame",
            "jpeg": jpeg,
            "width": width,
            "height": height,
            "captured": captured,
            "sent": time.time(),
            "final": final,
        }
        self.hub.show(frame)


def _said(task: asyncio.Task[None]) -> None:
    """A live view that broke is said in the log (it runs apart from the agent, which goes on)."""
    if not task.cancelled() and task.exception() is not None:
        logger.error("The live view stopped", exc_info=task.exception())


async def _quietly_stop(cdp: CDPSession) -> None:
    with contextlib.suppress(PlaywrightError, TimeoutError):
        await within(cdp.send("Page.stopScreencast"), _CAPTURE_S)
    with contextlib.suppress(PlaywrightError, TimeoutError):
        await within(cdp.detach(), _CAPTURE_S)


async def _quietly_detach(sessions: list[CDPSession]) -> None:
    """Detach ``sessions``, giving up on a tab that does not answer (its sessions end with it)."""
    with contextlib.suppress(TimeoutError):
        await within(detach(sessions), _CAPTURE_S)
