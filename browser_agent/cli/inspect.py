"""``browser-agent inspect URL``: print what the model would see on a page, and how long it took."""

from __future__ import annotations

import argparse
import asyncio
import json
from pathlib import Path
from typing import Any

from browser_agent.browser import BrowserConfig, BrowserSession
from browser_agent.browser.config import Viewport
from browser_agent.dom import DomSnapshot, extract_snapshot, install_page_hooks, render
from browser_agent.dom.marks import marked_screenshot

__all__ = ["add_parser"]


def add_parser(subparsers: Any) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "inspect", help="print the indexed elements and text the model would see on a page"
    )
    parser.add_argument("url", help="the page to load (a URL, or a path to a local HTML file)")
    parser.add_argument("--json", action="store_true", help="print the elements as JSON instead of text")
    parser.add_argument("--screenshot", type=Path, metavar="FILE", help="save an annotated picture")
    parser.add_argument("--width", type=int, default=1280, help="viewport width in CSS pixels")
    parser.add_argument("--height", type=int, default=800, help="viewport height in CSS pixels")
    parser.add_argument("--allow-network", action="store_true", help="let the page load remote resources")
    parser.set_defaults(func=_main)


def _main(args: argparse.Namespace) -> int:
    print(asyncio.run(inspect_page(args)))
    return 0


def _target(url: str) -> str:
    path = Path(url)
    return path.resolve().as_uri() if "://" not in url and path.exists() else url


async def inspect_page(args: argparse.Namespace) -> str:
    """Load the page, capture it, optionally save an annotated screenshot; return the report text."""
    config = BrowserConfig(
        block_external_network=not args.allow_network,
        viewport=Viewport(width=args.width, height=args.height),
    )
    async with BrowserSession(config) as session:
        await install_page_hooks(session.context)
        await session.navigate(_target(args.url))
        snapshot = await extract_snapshot(session.page)
        if args.screenshot:
            args.screenshot.write_bytes(await marked_screenshot(session.page, snapshot))
    if args.json:
        return json.dumps(_as_json(snapshot), indent=2, ensure_ascii=False)
    count = len(snapshot.selector_map)
    return f"{render(snapshot)}\n\n{count} elements, capture {snapshot.capture_ms:.0f} ms"


def _as_json(snapshot: DomSnapshot) -> dict[str, Any]:
    elements = [
        {
            "index": n.index,
            "tag": n.tag,
            "role": n.role,
            "name": n.name,
            "text": n.text,
            "attributes": dict(n.attributes),
            "states": list(n.states),
            "rect": [n.rect.x, n.rect.y, n.rect.width, n.rect.height],
            "frame_path": list(n.frame_path),
            "in_shadow": n.in_shadow,
        }
        for n in snapshot.selector_map.values()
    ]
    return {
        "url": snapshot.url,
        "title": snapshot.title,
        "capture_ms": snapshot.capture_ms,
        "elements": elements,
        "text": render(snapshot),
    }
