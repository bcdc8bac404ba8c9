"""Tab bookkeeping: stable tab ids, following new tabs, each tab's fetches in flight, and the page
events worth telling the model."""

from __future__ import annotations

import asyncio
import contextlib
import functools
from collections.abc import Callable, Sized
from pathlib import Path

from playwright.async_api import Dialog, Download, Page, Response

from browser_agent.browser.config import BrowserConfig
from browser_agent.browser.events import EventLog
from browser_agent.browser.network import RequestTracker
from browser_agent.browser.playwright_errors import PlaywrightError
from browser_agent.browser.proxy import UNREACHABLE_HEADER
from browser_agent.browser.signals import TabSignals
from browser_agent.browser.state import TabInfo
from browser_agent.browser.watchdog import within
from browser_agent.errors import TabClosedError

__all__ = ["TabRegistry"]

_DIALOG_KINDS = ("alert", "confirm", "prompt", "beforeunload")
_TITLES_S = 1.0  # reading every tab's title, all at once: a tab busy that long keeps a script running
_HALT_WAIT_S = 1.0  # the tab list waits this long for the runaway tabs' pauses; the rest go on meanwhile
_HALT_S = 10.0  # a runaway tab that does not answer being paused in this time is closed
_CLOSE_S = 3.0
_DIALOG_CHARS = 200  # of a dialog's message, once redacted
# A tab that raises this many dialogs in a row (no input of ours between them), each within _LOOP_GAP_S of
# the last, raises them in a loop (``for (;;) alert()``): answering more only keeps the loop, and a
# processor, busy. No page made for a person raises more than a few a second, as each waits for a click.
_LOOP_DIALOGS = 25
_LOOP_GAP_S = 0.5


async def _title(page: Page, seconds: float) -> str | None:
    """The title of ``page``; ``None`` when it did not answer within ``seconds``, "" when it cannot (gone)."""
    try:
        return await within(page.title(), seconds)
    except TimeoutError:
        return None
    except PlaywrightError:
        return ""


def _tab_list(tab_ids: list[int]) -> str:
    if len(tab_ids) == 1:
        return f"tab {tab_ids[0]}"
    return f"tabs {', '.join(str(t) for t in tab_ids[:-1])} and {tab_ids[-1]}"


def _was(tab_ids: Sized) -> str:
    return "was" if len(tab_ids) == 1 else "were"


async def _attach_signals(page: Page, requests: RequestTracker) -> TabSignals | None:
    try:
        return await TabSignals.attach(page, requests)
    except PlaywrightError:
        return None  # not Chromium, or the tab is already gone


class TabRegistry:
    """Numbers tabs in the order they open, follows new ones, and records dialogs and downloads."""

    def __init__(self, config: BrowserConfig) -> None:
        self._config = config
        self._pages: dict[int, Page] = {}
        self._requests: dict[int, RequestTracker] = {}
        self._signals: dict[int, asyncio.Task[TabSignals | None]] = {}
        self.opened = 0  # tabs adopted so far, closed ones included
        self._next_id = 0
        self.current_id = -1
        self._events = EventLog()
        self.crashed: set[int] = set()
        self.paused: set[int] = set()  # background tabs whose runaway script was stopped (``_halt``)
        self._halting: dict[int, asyncio.Task[str | None]] = {}  # runaway tabs being paused
        self._late: set[int] = set()  # of those, the ones whose pause the last list did not wait for
        self._download_tasks: set[asyncio.Task[None]] = set()
        self.downloads: list[Path] = []
        self._dialog_runs: dict[int, tuple[int, float]] = {}  # tab: dialogs in a row, when the last came

    # -- registry --------------------------------------------------------------------------------

    def id_of(self, page: Page) -> int | None:
        return next((tid for tid, p in self._pages.items() if p is page), None)

    def adopt(self, page: Page) -> int:
        """Register ``page`` (idempotent) and make it current; pages the site opens are followed."""
        existing = self.id_of(page)
        if existing is not None:
            return existing
        tab_id = self._next_id
        self._next_id += 1
        self._pages[tab_id] = page
        requests = self._requests[tab_id] = RequestTracker()
        # Attached at once, before the page can get stuck: a session attached to a busy page is never
        # answered, and this one is the way to stop a runaway script.
        self._signals[tab_id] = asyncio.get_running_loop().create_task(_attach_signals(page, requests))
        self.opened += 1
        self.poke_signals()  # an opener may be waiting for this tab
        page.on("dialog", self._on_dialog)
        page.on("download", self._on_download)
        page.on("crash", self._on_crash)
        page.on("close", self.forget)
        page.on("response", self._on_response)
        if self.current_id >= 0:
            self.record(f"a new tab {tab_id} opened and is now current")
        self.current_id = tab_id
        return tab_id

    def poke_signals(self) -> None:
        """Wake the input waits: a tab was opened, or a window was refused."""
        for task in self._signals.values():
            signals = task.result() if task.done() and not task.cancelled() else None
            if signals is not None:
                signals.poke()

    def follow(self, page: Page) -> None:
        """Context ``page`` event: a tab the site (or we) opened becomes current."""
        self.adopt(page)

    def forget(self, page: Page, why: str = "") -> None:
        """Drop a closed tab (the page's ``close`` event); ``why`` ends the line the model reads."""
        tab_id = self.id_of(page)
        if tab_id is None:
            return
        del self._pages[tab_id]
        del self._requests[tab_id]
        self._signals.pop(tab_id, None)
        self._dialog_runs.pop(tab_id, None)
        self.crashed.discard(tab_id)
        self.paused.discard(tab_id)
        self.record(f"tab {tab_id} was closed{why}")
        if self.current_id == tab_id:
            self.current_id = max(self._pages, default=-1)
            if self.current_id >= 0:
                self.record(f"tab {self.current_id} is now current")

    def requests_of(self, page: Page) -> RequestTracker | None:
        """The fetch and XHR tracker of ``page``; ``None`` for a page that is not a tab here."""
        tab_id = self.id_of(page)
        return None if tab_id is None else self._requests[tab_id]

    async def signals_of(self, page: Page) -> TabSignals | None:
        """The navigation and new-window signals of tab ``page`` (made on first use); ``None`` without CDP."""
        tab_id = self.id_of(page)
        if tab_id is None:
            return None
        task = self._signals.get(tab_id)
        return None if task is None else await asyncio.shield(task)

    def ids(self) -> list[int]:
        """The ids of the open tabs, in order."""
        return sorted(self._pages)

    def get(self, tab_id: int) -> Page:
        page = self._pages.get(tab_id)
        if page is None:
            open_ids = ", ".join(str(t) for t in sorted(self._pages)) or "none"
            raise TabClosedError(f"There is no tab {tab_id}; open tabs: {open_ids}.")
        return page

    def switch(self, tab_id: int) -> Page:
        page = self.get(tab_id)
        self.current_id = tab_id
        return page

    def current(self) -> Page:
        if self.current_id < 0:
            raise TabClosedError("Every tab is closed; open a new tab.")
        return self.get(self.current_id)

    async def infos(self) -> tuple[TabInfo, ...]:
        """Every tab's id, URL and title. The titles are read all at once within one bound (``_TITLES_S``):
        however many tabs are busy, the list costs no more than that.

        A background tab that does not answer in time keeps a script running (a loop that never yields):
        it is paused, or closed when even that does not free it (``_halt``), and the events say so. A tab
        that does not answer shows "(not responding)"; a paused one "(paused)" before its title. The
        current tab is left to the capture, which stops its scripts itself (``BrowserSession.unstick``).
        """
        pages = sorted(self._pages.items())
        read = await asyncio.gather(*(_title(page, _TITLES_S) for _, page in pages))
        titles = {tab_id: title for (tab_id, _), title in zip(pages, read, strict=True)}
        runaways = [
            tab_id
            for tab_id, title in titles.items()
            if title is None and tab_id != self.current_id and tab_id not in self.crashed
        ]
        if runaways:
            titles.update(await self._halt(runaways))
        return tuple(
            TabInfo(tab_id, page.url, self._shown(tab_id, titles.get(tab_id)))
            for tab_id, page in sorted(self._pages.items())
        )

    def _shown(self, tab_id: int, title: str | None) -> str:
        if title is None:
            return "(not responding)"
        return f"(paused) {title}".rstrip() if tab_id in self.paused else title

    async def _halt(self, tab_ids: list[int]) -> dict[int, str]:
        """Pause the runaway tabs ``tab_ids``, all at once, waiting for them at most ``_HALT_WAIT_S``.

        Paused, not closed: the tab and what the model did there are kept, and ``wake`` lets its scripts
        run again when it is used. A pause not answered by then goes on in the background (a busy machine
        answers late; the events say so when it does), and a tab that does not answer it within
        ``_HALT_S`` is closed. Returns the titles of the tabs paused in time.
        """
        for tab_id in tab_ids:
            if tab_id not in self._halting:
                task = asyncio.get_running_loop().create_task(self._halt_one(tab_id))
                self._halting[tab_id] = task
                task.add_done_callback(functools.partial(self._halted, tab_id))
        tasks = {tab_id: self._halting[tab_id] for tab_id in tab_ids if tab_id in self._halting}
        if tasks:
            await asyncio.wait(tasks.values(), timeout=_HALT_WAIT_S)
        paused = {
            tab_id: task.result()
            for tab_id, task in tasks.items()
            if task.done() and not task.cancelled() and task.result() is not None
        }
        for tab_id, task in tasks.items():
            if not task.done() and tab_id not in self._late:  # said once it answers
                self._late.add(tab_id)
                task.add_done_callback(functools.partial(self._said_late, tab_id))
        if paused:
            self.record(
                f"{_tab_list(list(paused))} kept a script running and {_was(paused)} paused (the script was "
                "stopped; switching to a paused tab lets its scripts run again)"
            )
        return {tab_id: title or "" for tab_id, title in paused.items()}

    def _halted(self, tab_id: int, _task: asyncio.Task[str | None]) -> None:
        self._halting.pop(tab_id, None)

    def _said_late(self, tab_id: int, task: asyncio.Task[str | None]) -> None:
        self._late.discard(tab_id)
        if task.cancelled():
            return
        if task.result() is not None:
            self.record(
                f"tab {tab_id} kept a script running and was paused (switching to it lets it run again)"
            )

    async def _halt_one(self, tab_id: int) -> str | None:
        """Pause tab ``tab_id``; its title once it answers, ``None`` when it could not be and was closed."""
        page = self._pages.get(tab_id)
        if page is None:
            return None
        signals = await self._signals_within(page, _HALT_S)
        if signals is not None and await signals.pause(_HALT_S):
            # Its scripts are off: a title slow to come is a busy machine, not a runaway tab.
            self.paused.add(tab_id)
            return await _title(page, _TITLES_S) or ""
        with contextlib.suppress(PlaywrightError, TimeoutError):  # closing is best effort
            await within(page.close(run_before_unload=False), _CLOSE_S)
        self.forget(page)
        self.record(f"tab {tab_id} kept a script running, did not answer being paused and was closed")
        return None

    async def wake(self, tab_id: int) -> None:
        """Let the scripts of tab ``tab_id`` run again if it was paused: it is about to be used."""
        page = self._pages.get(tab_id)
        if tab_id not in self.paused or page is None:
            return
        self.paused.discard(tab_id)
        signals = await self._signals_within(page, _HALT_S)
        if signals is not None and await signals.resume(_HALT_S):
            self.record(
                f"tab {tab_id} had been paused and its scripts run again; the one that was stopped may have "
                "left the page half-working: reload it if it misbehaves"
            )
        else:
            self.record(f"tab {tab_id} had been paused and could not be resumed; open its address again")

    async def _signals_within(self, page: Page, seconds: float) -> TabSignals | None:
        with contextlib.suppress(TimeoutError):
            return await within(self.signals_of(page), seconds)
        return None

    # -- events ----------------------------------------------------------------------------------

    def record(self, event: str, kind: str | None = None) -> None:
        self._events.record(event, kind)

    def drain_events(self, redact: Callable[[str], str] | None = None) -> tuple[str, ...]:
        return self._events.drain(redact)

    def dialogs_seen(self) -> int:
        """Dialogs answered since the last drain (a page raising them in a loop is stuck)."""
        return sum(self._events.count(f"{kind} dialog") for kind in _DIALOG_KINDS)

    def _on_crash(self, page: Page) -> None:
        tab_id = self.id_of(page)
        if tab_id is not None:
            self.crashed.add(tab_id)
        self.record(f"tab {tab_id} crashed; open a URL to go on in a fresh tab")

    def _on_response(self, response: Response) -> None:
        """An error page loaded in a tab, by go_to_url or by a click: said, since its text (a "404 Not
        Found") otherwise reads as any page's, and a small model took it for the answer it was looking for."""
        if response.status < 400 or not response.request.is_navigation_request():
            return
        if response.frame.parent_frame is not None or UNREACHABLE_HEADER.lower() in response.headers:
            return  # a frame's error is the frame's; a refused connection is said by the navigation
        said = f"{response.url} answered HTTP {response.status}"
        self.record(f"{said}, an error page: go_back returns to the page before")

    async def _on_dialog(self, dialog: Dialog) -> None:
        kind, message = dialog.type, dialog.message
        page = dialog.page
        tab_id = None if page is None else self.id_of(page)
        if page is not None and tab_id is None:
            return  # a tab closed meanwhile: the dialog went with it
        if page is not None and tab_id is not None and self._in_a_loop(tab_id):
            await self._close_looping(page, tab_id)
            return
        try:
            if kind == "beforeunload" or kind != "confirm" or self._config.accept_dialogs:
                await dialog.accept(dialog.default_value if kind == "prompt" else None)
                verb = "accepted"
            else:
                await dialog.dismiss()
                verb = "dismissed"
        except PlaywrightError:
            verb = "could not answer"

        def said(redact: Callable[[str], str]) -> str:
            # Redacted whole, then cut and quoted: a secret cut in two would no longer be recognised.
            return f"a {kind} dialog said {redact(message)[:_DIALOG_CHARS]!r}; it was {verb}"

        self._events.record(said, f"{kind} dialog")

    def input_sent(self) -> None:
        """A click or key press of ours went to a tab: the dialogs it sets off start a new count (a fast
        replay clicking a button that alerts, again and again, is no loop of the page's)."""
        self._dialog_runs.clear()

    def _in_a_loop(self, tab_id: int) -> bool:
        """Count one more dialog of tab ``tab_id``; whether its dialogs now come in a loop."""
        now = asyncio.get_running_loop().time()
        run, last = self._dialog_runs.get(tab_id, (0, now))
        run = run + 1 if now - last <= _LOOP_GAP_S else 1
        self._dialog_runs[tab_id] = (run, now)
        return run > _LOOP_DIALOGS

    async def _close_looping(self, page: Page, tab_id: int) -> None:
        """Close a tab raising dialogs in a loop, its last dialog unanswered (the loop waits on it, idle).

        Its script cannot be stopped instead: a tab showing a dialog answers no DevTools command.
        """
        run = self._dialog_runs[tab_id][0] - 1
        self.forget(page, f": it raised dialogs in a loop ({run} in a row were answered at once)")
        with contextlib.suppress(PlaywrightError, TimeoutError):
            await within(page.close(run_before_unload=False), _CLOSE_S)

    def _on_download(self, download: Download) -> None:
        task = asyncio.get_running_loop().create_task(self._save_download(download))
        self._download_tasks.add(task)
        task.add_done_callback(self._download_tasks.discard)

    async def _save_download(self, download: Download) -> None:
        folder = self._config.downloads_dir or Path.cwd() / "downloads"
        folder.mkdir(parents=True, exist_ok=True)
        target = folder / download.suggested_filename
        try:
            await download.save_as(target)
        except PlaywrightError as exc:
            self.record(f"download of {download.suggested_filename} failed: {exc}")
            return
        self.downloads.append(target)
        self.record(f"downloaded {download.suggested_filename} to {target}")

    async def finish_downloads(self) -> None:
        if self._download_tasks:
            await asyncio.gather(*self._download_tasks, return_exceptions=True)
