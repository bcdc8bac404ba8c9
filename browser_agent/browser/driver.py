"""One Playwright driver per event loop, shared by everything in it that starts its own browser.

Playwright's driver is a Node.js process: starting one takes about 0.8 CPU-seconds and half a second, more
than launching a Chromium from a driver already running. The sessions, MCP pools and fleets of one event
loop (several agents in one script, a batch's tasks, a test suite) take the running driver instead of
each starting one. It starts with its first user and stops when its last user lets it go, so it never
outlives the runs that used it, as before.

Most of a start is Node compiling the driver's 7 MB of JavaScript. Node (22.1 and later; Playwright ships
a newer one) keeps that work between starts in a compile cache when told where: each start is told to use
``~/.cache/browser-agent/node-compile-cache`` (under ``XDG_CACHE_HOME`` when set), which takes a start
from about 0.6 to 0.47 CPU-seconds. A ``NODE_COMPILE_CACHE`` of the user's own wins, and
``NODE_DISABLE_COMPILE_CACHE`` turns it off, as for any Node program.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import weakref
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from playwright.async_api import Playwright, async_playwright

__all__ = ["acquire_driver", "driver_alive", "release_driver"]

_START_STOP_S = 10.0
_CACHE_VARIABLE = "NODE_COMPILE_CACHE"


@dataclass(eq=False)
class _Driver:
    starting: asyncio.Future[Playwright]
    users: int = 0


# The driver each loop's new users get; a driver stays reachable through its users' release calls.
_current: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Driver] = weakref.WeakKeyDictionary()
_held: dict[int, _Driver] = {}  # by id of the Playwright object its users were given


async def acquire_driver() -> Playwright:
    """The loop's running driver, started if there is none; give it back with ``release_driver``.

    Cancelled while the driver starts, this call still lets go of it (stopping it when no one else
    waits for it), so a cancelled start leaves no process behind.
    """
    loop = asyncio.get_running_loop()
    driver = _current.get(loop)
    if driver is None or not _alive(driver):  # a driver that died stays with its users until they let go
        driver = _Driver(asyncio.ensure_future(_start()))
        _current[loop] = driver
    driver.users += 1
    try:
        playwright = await asyncio.shield(driver.starting)
    except asyncio.CancelledError:
        with contextlib.suppress(Exception, asyncio.CancelledError):
            await asyncio.wait_for(asyncio.shield(driver.starting), _START_STOP_S)
        await _let_go(loop, driver)
        raise
    except BaseException:
        await _let_go(loop, driver)  # the start failed: the next user starts a new driver
        raise
    _held[id(playwright)] = driver
    _read_its_end(playwright)
    return playwright


async def _start() -> Playwright:
    """Start a driver; Playwright gives it a copy of this process's environment as the start begins."""
    with _compile_cache():
        return await async_playwright().start()


def _compile_cache_folder() -> Path | None:
    """Where the driver's Node keeps its compile cache, or None where the user chose otherwise (their own
    ``NODE_COMPILE_CACHE``, or ``NODE_DISABLE_COMPILE_CACHE``)."""
    if _CACHE_VARIABLE in os.environ or "NODE_DISABLE_COMPILE_CACHE" in os.environ:
        return None
    cache = os.environ.get("XDG_CACHE_HOME")
    return (Path(cache) if cache else Path.home() / ".cache") / "browser-agent" / "node-compile-cache"


@contextlib.contextmanager
def _compile_cache() -> Iterator[None]:
    """Name the compile cache in this process's environment while a driver starts (Playwright copies the
    environment for it), then take it out again: it is not left for the user's own programs. Without a
    folder that can be made, nothing is set."""
    try:
        folder = _compile_cache_folder()
        if folder is not None:
            folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    except (OSError, RuntimeError):  # no home folder, or one that cannot be written
        folder = None
    if folder is None:
        yield
        return
    os.environ[_CACHE_VARIABLE] = str(folder)
    try:
        yield
    finally:
        if os.environ.get(_CACHE_VARIABLE) == str(folder):
            del os.environ[_CACHE_VARIABLE]


def _read_its_end(playwright: Playwright) -> None:
    """Playwright sets the error of a driver that died on a future that nothing awaits after the start;
    asyncio would print it as an exception "never retrieved" whenever it is collected, in the middle of a
    run that has already been told (the sessions report the closed browser). Read it when it comes."""
    connection = _connection(playwright)
    starter = getattr(getattr(playwright, "stop", None), "__self__", None)  # the context manager
    transports = (
        getattr(connection, "_transport", None),
        getattr(getattr(starter, "_client", None), "_transport", None),
    )
    for future in (getattr(transport, "on_error_future", None) for transport in transports):
        if isinstance(future, asyncio.Future):
            future.add_done_callback(lambda done: done.cancelled() or done.exception())


def _connection(playwright: Playwright) -> object:
    """Playwright's connection to its driver, where the installed version keeps it (``None`` elsewhere)."""
    return getattr(getattr(playwright, "_impl_obj", None), "_connection", None)


def driver_alive(playwright: Playwright) -> bool:
    """False once the driver's connection has closed (its Node process died; the browsers it launched
    went with it, although they may still say they are connected). Playwright has no public check: this
    reads the connection's closing error where the installed version keeps it."""
    connection = _connection(playwright)
    return getattr(connection, "_closed_error", None) is None


def _alive(driver: _Driver) -> bool:
    playwright = _started(driver.starting)
    return playwright is None or driver_alive(playwright)  # still starting, or failed: its users see to it


def _started(starting: asyncio.Future[Playwright]) -> Playwright | None:
    """The driver a start gave, or ``None`` while it runs or when it failed or was cancelled."""
    if not starting.done() or starting.cancelled() or starting.exception() is not None:
        return None
    return starting.result()


async def release_driver(playwright: Playwright) -> None:
    """Let go of a driver from ``acquire_driver``: the last user's release stops it."""
    driver = _held.get(id(playwright))
    if driver is None:
        return
    await _let_go(asyncio.get_running_loop(), driver)


async def _let_go(loop: asyncio.AbstractEventLoop, driver: _Driver) -> None:
    driver.users -= 1
    if driver.users > 0:
        return
    if _current.get(loop) is driver:
        del _current[loop]
    if not driver.starting.done():  # a start that outlasted its bound: stopped when it is done
        driver.starting.add_done_callback(_stop_late)
        return
    playwright = _started(driver.starting)
    if playwright is None:
        return
    _held.pop(id(playwright), None)
    with contextlib.suppress(Exception):  # a driver that died has nothing left to stop
        await playwright.stop()


_stopping: set[asyncio.Task[None]] = set()


def _stop_late(starting: asyncio.Future[Playwright]) -> None:
    playwright = _started(starting)
    if playwright is None:
        return
    task = asyncio.ensure_future(playwright.stop())
    _stopping.add(task)
    task.add_done_callback(_stopping.discard)
