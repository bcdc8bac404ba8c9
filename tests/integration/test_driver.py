"""One Playwright driver per event loop: sessions that launch their own browser share it, and the last one
to close stops it. Each test runs in a loop of its own (in a thread), where no other user holds a driver."""

from __future__ import annotations

import asyncio
import gc
import os
import signal
import threading
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest

from browser_agent.browser import BrowserConfig, BrowserSession
from browser_agent.browser.driver import acquire_driver, release_driver
from browser_agent.mcp.sessions import SessionPool
from tests.support.processes import command_line, descendants, leftovers
from tests.support.server import LocalServer


def _in_new_loop(scenario: Callable[[], Awaitable[None]]) -> None:
    failures: list[BaseException] = []

    def run() -> None:
        try:
            asyncio.run(scenario())  # type: ignore[arg-type]
        except BaseException as exc:  # handed to the test's thread
            failures.append(exc)

    thread = threading.Thread(target=run)
    thread.start()
    thread.join(60)
    assert not thread.is_alive(), "the scenario did not end"
    if failures:
        raise failures[0]


def _drivers(pids: set[int]) -> set[int]:
    return {pid for pid in pids if "run-driver" in command_line(pid)}


def _config(tmp_path: Path, name: str) -> BrowserConfig:
    return BrowserConfig(block_external_network=True, downloads_dir=tmp_path / name)


def test_sessions_in_one_loop_share_one_driver_that_stops_with_the_last(
    server: LocalServer, tmp_path: Path
) -> None:
    async def scenario() -> None:
        before = descendants()
        first, second = BrowserSession(_config(tmp_path, "a")), BrowserSession(_config(tmp_path, "b"))
        await asyncio.gather(first.start(), second.start())
        started = descendants(beside=before)
        assert len(_drivers(started)) == 1, "two sessions started together take one driver"
        assert first.context.browser is not second.context.browser, "each session has its own browser"

        await first.close()
        assert _drivers(descendants(beside=before)) == _drivers(started), "the driver outlives its first user"
        await second.navigate(server.url("basic.html"))
        assert (await second.state(include_dom=False)).title == "Basic"

        await second.close()
        assert not await leftovers(before), "the last user's close stops the driver and the browsers"

        async with BrowserSession(_config(tmp_path, "c")) as third:  # a new driver after the last stopped
            await third.navigate(server.url("basic.html"))
        assert not await leftovers(before)

    _in_new_loop(scenario)


def test_a_start_cancelled_while_the_driver_starts_leaves_no_process(tmp_path: Path) -> None:
    async def scenario() -> None:
        before = descendants()
        starting = asyncio.create_task(BrowserSession(_config(tmp_path, "a")).start())
        await asyncio.sleep(0.05)  # the driver is starting: it takes about half a second
        starting.cancel()
        await asyncio.gather(starting, return_exceptions=True)
        assert not await leftovers(before), "the cancelled start stops the driver it began"

    _in_new_loop(scenario)


def test_a_driver_that_died_is_replaced_for_new_sessions_and_its_holders_close_cleanly(
    server: LocalServer, tmp_path: Path
) -> None:
    reported: list[dict[str, object]] = []

    async def scenario() -> None:
        asyncio.get_running_loop().set_exception_handler(lambda _loop, context: reported.append(context))
        before = descendants()
        holder = BrowserSession(_config(tmp_path, "a"))
        await holder.start()
        (driver,) = _drivers(descendants(beside=before))
        os.kill(driver, signal.SIGKILL)  # the Node process dies under a session that holds it
        await asyncio.sleep(0.5)
        async with BrowserSession(_config(tmp_path, "b")) as fresh:  # not handed the dead driver
            await fresh.navigate(server.url("basic.html"))
            assert (await fresh.state(include_dom=False)).title == "Basic"
            assert _drivers(descendants(beside=before)) - {driver}, "a new driver serves the new session"
        await holder.close()  # closing on a dead driver is not an error
        assert not await leftovers(before)

    _in_new_loop(scenario)
    gc.collect()  # an error that nothing read is reported when its future is collected
    assert not reported, "the driver's death is not printed as an exception never retrieved"


def test_an_mcp_pool_whose_driver_died_starts_its_browser_on_a_new_one(server: LocalServer) -> None:
    async def scenario() -> None:
        before = descendants()
        pool = SessionPool(BrowserConfig(block_external_network=True))
        try:
            first = await pool.acquire("a")
            (driver,) = _drivers(descendants(beside=before))
            os.kill(driver, signal.SIGKILL)  # the browser goes with it
            await asyncio.sleep(0.5)
            again = await pool.acquire("a")
            assert again is not first
            await again.session.navigate(server.url("basic.html"))
            assert (await again.session.state(include_dom=False)).title == "Basic"
        finally:
            await pool.aclose()
        assert not await leftovers(before)

    _in_new_loop(scenario)


def _environment(pid: int) -> dict[str, str]:
    pairs = Path(f"/proc/{pid}/environ").read_bytes().decode(errors="replace").split("\0")
    return dict(pair.split("=", 1) for pair in pairs if "=" in pair)


def test_the_driver_keeps_its_compiled_code_in_the_users_cache_and_the_users_own_choice_wins(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.delenv("NODE_COMPILE_CACHE", raising=False)
    monkeypatch.delenv("NODE_DISABLE_COMPILE_CACHE", raising=False)
    folder = tmp_path / "cache" / "browser-agent" / "node-compile-cache"
    seen: list[dict[str, str]] = []

    async def scenario() -> None:
        before, users = _drivers(descendants()), os.environ.get("NODE_COMPILE_CACHE")
        playwright = await acquire_driver()
        try:
            [driver] = _drivers(descendants()) - before
            seen.append(_environment(driver))
            assert os.environ.get("NODE_COMPILE_CACHE") == users, "ours is set only while the driver starts"
        finally:
            await release_driver(playwright)

    _in_new_loop(scenario)
    assert seen[-1]["NODE_COMPILE_CACHE"] == str(folder)
    assert folder.is_dir() and any(folder.rglob("*")), "Node wrote the cache as the driver ended"

    monkeypatch.setenv("NODE_COMPILE_CACHE", str(tmp_path / "mine"))
    _in_new_loop(scenario)
    assert seen[-1]["NODE_COMPILE_CACHE"] == str(tmp_path / "mine")

    monkeypatch.delenv("NODE_COMPILE_CACHE")
    monkeypatch.setenv("NODE_DISABLE_COMPILE_CACHE", "1")
    _in_new_loop(scenario)
    assert "NODE_COMPILE_CACHE" not in seen[-1]

    monkeypatch.delenv("NODE_DISABLE_COMPILE_CACHE")
    (tmp_path / "a-file").write_text("")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "a-file"))  # no folder can be made under it
    _in_new_loop(scenario)
    assert "NODE_COMPILE_CACHE" not in seen[-1], "the driver starts without a cache"
