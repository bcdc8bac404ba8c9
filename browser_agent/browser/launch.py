"""Start a browser: launch a local Chromium, or connect to a remote one (CDP URL, Playwright server)."""

from __future__ import annotations

import ipaddress
import json
import weakref
from typing import Any

from playwright.async_api import Browser, BrowserContext, Playwright

from browser_agent.browser.addresses import split_address
from browser_agent.browser.chromium import chromium_args, find_chromium
from browser_agent.browser.config import BrowserConfig
from browser_agent.browser.playwright_errors import PlaywrightError
from browser_agent.browser.storage import read_storage_state
from browser_agent.errors import BrowserError, first_line

__all__ = [
    "context_options",
    "launch_browser",
    "launch_persistent",
    "local_only",
    "proxy_reachable",
    "server_launch_headers",
]


# The browsers ``launch_browser`` started or reached with ``block_external_network``: a session
# sharing one must not let its fence proxy dial out where the browser itself may not.
_LOCAL_ONLY: weakref.WeakSet[Browser] = weakref.WeakSet()


def local_only(cfg: BrowserConfig, browser: Browser | None) -> bool:
    """Whether a context of ``cfg`` (on ``browser``, when shared) must keep off hosts beyond this
    machine: ``cfg`` says so, or ``browser`` came from ``launch_browser`` with ``block_external_network``."""
    return cfg.block_external_network or (browser is not None and browser in _LOCAL_ONLY)


def _browser_options(cfg: BrowserConfig) -> dict[str, Any]:
    """What a launch takes wherever Chromium runs: headless, the flags, the time limit."""
    return {
        "headless": cfg.headless,
        "args": chromium_args(cfg.extra_args, block_external_network=cfg.block_external_network),
        "timeout": cfg.launch_timeout_ms,
    }


def proxy_reachable(cfg: BrowserConfig) -> bool:
    """Whether a browser of ``cfg`` can reach a proxy on this machine's loopback: one we launch, or a
    remote one whose endpoint is on this machine."""
    endpoint = cfg.cdp_url or cfg.ws_endpoint
    if not endpoint:
        return True
    parts = split_address(endpoint)
    host = (parts.hostname or "").lower() if parts is not None else ""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _launch_options(pw: Playwright, cfg: BrowserConfig) -> dict[str, Any]:
    location = find_chromium(
        cfg.executable_path, playwright_path=pw.chromium.executable_path, headless=cfg.headless
    )
    options = _browser_options(cfg)
    if location.path is not None:
        options["executable_path"] = str(location.path)
    if cfg.downloads_dir is not None:
        options["downloads_path"] = str(cfg.downloads_dir)
    return options


def server_launch_headers(cfg: BrowserConfig) -> dict[str, str]:
    """The launch options a Playwright browser server (``playwright run-server``) reads on connect.

    The server launches one browser per connection with these. It honours ``headless`` always; the
    flags and ``executable_path`` (a path on the server's machine) only when it runs with ``--unsafe``,
    else it drops them and starts its own Playwright browser with its default flags.
    """
    options = _browser_options(cfg)
    if cfg.executable_path is not None:
        options["executablePath"] = str(cfg.executable_path)
    return {"x-playwright-launch-options": json.dumps(options)}


async def launch_browser(pw: Playwright, cfg: BrowserConfig) -> Browser:
    """Connect when the config names a remote browser, else launch the Chromium that was found."""
    try:
        if cfg.cdp_url:
            browser = await pw.chromium.connect_over_cdp(cfg.cdp_url, timeout=cfg.launch_timeout_ms)
        elif cfg.ws_endpoint:
            headers = server_launch_headers(cfg)
            browser = await pw.chromium.connect(
                cfg.ws_endpoint, timeout=cfg.launch_timeout_ms, headers=headers
            )
        else:
            browser = await pw.chromium.launch(**_launch_options(pw, cfg))
    except PlaywrightError as exc:
        target = cfg.cdp_url or cfg.ws_endpoint or "Chromium"
        raise BrowserError(f"Could not start or reach {target}: {first_line(exc)}") from exc
    if cfg.block_external_network:
        _LOCAL_ONLY.add(browser)
    return browser


async def launch_persistent(
    pw: Playwright, cfg: BrowserConfig, context_options: dict[str, Any]
) -> BrowserContext:
    """Launch Chromium with a profile directory that keeps cookies and storage between runs."""
    options = _launch_options(pw, cfg) | context_options
    try:
        return await pw.chromium.launch_persistent_context(str(cfg.user_data_dir), **options)
    except PlaywrightError as exc:
        raise BrowserError(
            f"Could not launch Chromium with profile {cfg.user_data_dir}: {first_line(exc)}"
        ) from exc


def context_options(cfg: BrowserConfig) -> dict[str, Any]:
    """The options of every context a session opens; the saved login, when there is one, is read here.

    Raises:
        UserError: ``storage_state`` names a file that is not a saved login.
    """
    options: dict[str, Any] = {
        "viewport": {"width": cfg.viewport.width, "height": cfg.viewport.height},
        "accept_downloads": True,
    }
    if cfg.storage_state is not None:
        options["storage_state"] = read_storage_state(cfg.storage_state)
    if cfg.allowed_domains is not None:
        options["service_workers"] = "block"  # a worker's fetches would bypass the fence
    return options
