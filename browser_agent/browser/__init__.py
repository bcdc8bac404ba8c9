"""Playwright lifecycle: find and launch Chromium, tabs, waits, and the observed state."""

from browser_agent.browser.config import BrowserConfig, Viewport
from browser_agent.browser.session import BrowserSession
from browser_agent.browser.state import BrowserState, TabInfo

__all__ = ["BrowserConfig", "BrowserSession", "BrowserState", "TabInfo", "Viewport"]
