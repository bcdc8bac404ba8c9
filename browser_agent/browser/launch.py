"""Start a browser: launch a local Chromium, or connect to a remote one (CDP URL, Playwright server)."""

from __future__ import annotations

from typing import Any

from playwright.async_api import Browser, BrowserContext, Playwright

from browser_agent.browser.chromium import chromium_args, find_chromium
from browser_agent.browser.config import BrowserConfig
from browser_agent.browser.playwright_errors import PlaywrightError
from browser_agent.errors import BrowserError

__all__ = ["launch_browser", "launch_persistent"]


def _launch_options(pw: Playwright, cfg: BrowserConfig) -> dict[str, Any]:
    location = find_chromium(cfg.executable_path, playwright_path=pw.chromium.executable_path)
    options: dict[str, Any] = {
        "headless": cfg.headless,
        "args": chromium_args(cfg.extra_args, block_external_network=cfg.block_external_network),
        "timeout": cfg.launch_timeout_ms,
    }
    if location.path is not None:
        options["executable_path"] = str(location.path)
    if cfg.downloads_dir is not None:
        options["downloads_path"] = str(cfg.downloads_dir)
    return options


async def launch_browser(pw: Playwright, cfg: BrowserConfig) -> Browser:
    """Connect when the config names a remote browser, else launch the Chromium that was found."""
    try:
        if cfg.cdp_url:
            return await pw.chromium.connect_over_cdp(cfg.cdp_url, timeout=cfg.launch_timeout_ms)
        if cfg.ws_endpoint:
            return await pw.chromium.connect(cfg.ws_endpoint, timeout=cfg.launch_timeout_ms)
        return await pw.chromium.launch(**_launch_options(pw, cfg))
    except PlaywrightError as exc:
        target = cfg.cdp_url or cfg.ws_endpoint or "Chromium"
        raise BrowserError(f"Could not start or reach {target}: {str(exc).strip().splitlines()[0]}") from exc


async def launch_persistent(
    pw: Playwright, cfg: BrowserConfig, context_options: dict[str, Any]
) -> BrowserContext:
    """Launch Chromium with a profile directory that keeps cookies and storage between runs."""
    options = _launch_options(pw, cfg) | context_options
    try:
        return await pw.chromium.launch_persistent_context(str(cfg.user_data_dir), **options)
    except PlaywrightError as exc:
        raise BrowserError(
            f"Could not launch Chromium with profile {cfg.user_data_dir}: {str(exc).strip().splitlines()[0]}"
        ) from exc
