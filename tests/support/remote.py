"""Remote browsers for tests, on 127.0.0.1: a Chromium listening for DevTools, a Playwright browser server.

Both run as child processes in their own process group, so a test can kill one (and everything it
started) to simulate a lost machine.
"""

from __future__ import annotations

import asyncio
import os
import re
import signal
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path

from playwright.async_api import async_playwright

from browser_agent.browser.chromium import chromium_args, find_chromium

_found: list[str] = []


async def chromium_executable() -> str:
    """The Chromium the tests use (Playwright's own when installed, else the system one); found once."""
    if not _found:
        async with async_playwright() as pw:
            location = find_chromium(playwright_path=pw.chromium.executable_path)
            _found.append(str(location.path) if location.path else pw.chromium.executable_path)
    return _found[0]


@dataclass
class RemoteProcess:
    """A browser endpoint served by a child process group."""

    url: str
    process: asyncio.subprocess.Process

    def kill(self) -> None:
        """Kill the process group at once, as a crashed machine would vanish."""
        if self.process.returncode is None:
            os.killpg(self.process.pid, signal.SIGKILL)


async def _listening(process: asyncio.subprocess.Process, pattern: str) -> re.Match[str]:
    assert process.stdout is not None
    while True:
        line = (await asyncio.wait_for(process.stdout.readline(), 30)).decode()
        assert line, f"the process exited before printing {pattern!r}"
        if found := re.search(pattern, line):
            return found


@asynccontextmanager
async def _group(*command: str, pattern: str, url: str) -> AsyncIterator[RemoteProcess]:
    process = await asyncio.create_subprocess_exec(
        *command,
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
        start_new_session=True,
    )
    remote = RemoteProcess("", process)
    try:
        remote.url = url.format(port=(await _listening(process, pattern)).group(1))
        yield remote
    finally:
        remote.kill()
        await process.wait()


@asynccontextmanager
async def remote_chromium(profile: Path) -> AsyncIterator[RemoteProcess]:
    """A headless Chromium listening for DevTools on 127.0.0.1; ``url`` is its http endpoint (cdp_url)."""
    async with _group(
        await chromium_executable(),
        "--headless=new",
        "--remote-debugging-address=127.0.0.1",
        "--remote-debugging-port=0",
        "--disable-breakpad",  # no crash handler left behind when the test kills the browser
        f"--user-data-dir={profile}",
        *chromium_args(block_external_network=True),
        "about:blank",
        pattern=r"DevTools listening on ws://127\.0\.0\.1:(\d+)/",
        url="http://127.0.0.1:{port}",
    ) as remote:
        yield remote


@asynccontextmanager
async def playwright_server() -> AsyncIterator[RemoteProcess]:
    """``playwright run-server`` on 127.0.0.1; ``url`` is its ws endpoint.

    It runs with ``--unsafe`` so that clients may name the Chromium to launch: Playwright's own browser
    build cannot be downloaded here, so the client passes the system one (``executable_path``).
    """
    async with _group(
        sys.executable,
        "-m",
        "playwright",
        "run-server",
        "--port=0",
        "--host=127.0.0.1",
        "--unsafe",
        pattern=r"Listening on ws://127\.0\.0\.1:(\d+)/",
        url="ws://127.0.0.1:{port}/",
    ) as remote:
        yield remote
