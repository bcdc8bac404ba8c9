"""PLACEHOLDER: replaced by the perception work (issue 3)."""

from __future__ import annotations

from playwright.async_api import Page

from browser_agent.dom.models import DomSnapshot, ScrollInfo


async def extract_snapshot(page: Page, previous: DomSnapshot | None = None) -> DomSnapshot:
    return DomSnapshot(url=page.url, title="", items=(), selector_map={}, scroll=ScrollInfo())
