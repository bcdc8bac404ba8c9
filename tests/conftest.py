"""Shared fixtures: local servers on 127.0.0.1, one browser per session, a fresh session per test.

Under pytest-xdist (``make test`` runs ``-n``) every worker is a session of its own: it starts its own
servers and its own Chromium, so a test that reads a server's request log sees only its worker's
requests, and those run one at a time.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import AsyncIterator, Generator, Iterator
from pathlib import Path

import execnet
import pytest
from playwright.async_api import Browser, Page, Playwright

from browser_agent.browser import BrowserConfig, BrowserSession
from browser_agent.browser.driver import acquire_driver, release_driver
from browser_agent.browser.launch import launch_browser
from tests.support.alone import turn
from tests.support.fence_sites import AllowedSite, DisallowedSite
from tests.support.forked import worker_python
from tests.support.off_machine import OffMachine
from tests.support.server import LocalServer
from tests.support.start_order import start_order

TESTS = Path(__file__).parent
PAGES = TESTS / "pages"
FOLDER_MARKERS = ("unit", "integration")
OFF_MACHINE = OffMachine()
OFF_MACHINE.install()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark each test by its folder, so ``-m "not integration"`` needs no marker in the files; order the
    tests for pytest-xdist's workers (tests/support/start_order.py): the ``alone`` tests first, each
    worker's share of the long ones at the front of its share."""
    for item in items:
        folder = item.path.relative_to(TESTS).parts[0]
        if folder in FOLDER_MARKERS:
            item.add_marker(folder)
    workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
    items[:] = start_order(
        items,
        workers,
        file_of=lambda item: item.path.name,
        alone=lambda item: item.get_closest_marker("alone") is not None,
        quick=lambda item: item.get_closest_marker("unit") is not None,
    )


@pytest.fixture(autouse=True)
def _stays_on_the_machine() -> Iterator[None]:
    """Every test's traffic stays on 127.0.0.1: a lookup or connection off the machine fails it."""
    OFF_MACHINE.take()
    yield
    left = OFF_MACHINE.take()
    assert not left, f"the test reached off the machine: {left[:5]}"


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_protocol(item: pytest.Item) -> Generator[None, object, object]:
    """Under pytest-xdist, take a turn (tests/support/alone.py) around the test, its fixtures included."""
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        return (yield)
    # xdist gives each worker a --basetemp inside the run's own temporary folder: the locks go there.
    folder = Path(item.config.option.basetemp).parent / "turns"
    with turn(folder, alone=item.get_closest_marker("alone") is not None):
        return (yield)


@pytest.fixture(scope="session")
def server() -> Iterator[LocalServer]:
    with LocalServer(PAGES) as srv:
        yield srv


@pytest.fixture(scope="session")
def other_server() -> Iterator[LocalServer]:
    """The same pages on another port: another origin, for cross-origin iframes."""
    with LocalServer(PAGES) as srv:
        yield srv


@pytest.fixture(scope="session")
def bad() -> Iterator[DisallowedSite]:
    """A site off every allowed list, logging each request it receives (the fence tests want none)."""
    with DisallowedSite() as site:
        yield site


@pytest.fixture(scope="session")
def second(bad: DisallowedSite) -> Iterator[AllowedSite]:
    """A second allowed site, on another address (127.0.0.2): another site, another renderer process."""
    with AllowedSite(bad.origin, host="127.0.0.2") as site:
        yield site


@pytest.fixture(scope="session")
def good(bad: DisallowedSite, second: AllowedSite) -> Iterator[AllowedSite]:
    """An allowed site whose pages point at ``bad`` (and frame ``second``)."""
    with AllowedSite(bad.origin, second.origin) as site:
        yield site


@pytest.fixture(scope="session")
async def driver() -> AsyncIterator[Playwright]:
    """The worker's Playwright driver: the one the package's own sessions take in this loop
    (``browser/driver.py``). Held here for the whole session, it is started once per worker; a test that
    runs the CLI in this loop (``main_async``) uses it, so that its browser starts without a driver."""
    pw = await acquire_driver()
    try:
        yield pw
    finally:
        await release_driver(pw)


@pytest.fixture(scope="session")
async def browser(driver: Playwright) -> AsyncIterator[Browser]:
    """The worker's shared browser, on the worker's driver."""
    launched = await launch_browser(driver, BrowserConfig(block_external_network=True))  # as a session would
    try:
        yield launched
    finally:
        await launched.close()


@pytest.fixture
def browser_config(tmp_path: Path) -> BrowserConfig:
    return BrowserConfig(downloads_dir=tmp_path / "downloads", settle_max_ms=2_000)


@pytest.fixture
async def session(browser: Browser, browser_config: BrowserConfig) -> AsyncIterator[BrowserSession]:
    async with BrowserSession(browser_config, browser=browser) as sess:
        yield sess


@pytest.fixture
async def page(session: BrowserSession) -> Page:
    return session.page


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_setupnodes(config: pytest.Config, specs: list[execnet.XSpec]) -> None:
    """Fork the workers from one process that has imported pytest, the package, the test libraries and
    the run's test modules (tests/support/forked.py), instead of starting four interpreters that each
    import them again."""
    python = worker_python([_absolute(arg, config.invocation_params.dir) for arg in config.args])
    for spec in specs:
        if python and spec.popen and not spec.python:
            spec.python = python


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_node_collection_finished() -> None:
    """In the run's controller, once the workers run: import hypothesis, which its plugin's terminal
    summary would otherwise import at the very end of the run, 0.7 s with nothing else to do."""
    importlib.import_module("hypothesis")


def _absolute(arg: str, folder: Path) -> str:
    """A test path or node id of the command line, with its path made absolute (the forking server runs
    in the project's folder, the command may not)."""
    path, sep, rest = arg.partition("::")
    return str(folder / path) + sep + rest
