"""``browser-agent inspect URL``: print what the model would see on a page, and how long it took.

Only this machine is reachable unless ``--allow-network`` is given (inspecting a local page must not
reach out); a page that answers 4xx/5xx is reported as such and the exit code is 1.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote, urlsplit

from browser_agent.cli.options import add_network_options, command
from browser_agent.errors import NavigationError, UserError

if TYPE_CHECKING:
    from playwright.async_api import Page

    from browser_agent.browser import BrowserSession
    from browser_agent.dom import DomSnapshot

__all__ = ["add_parser"]

_LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1", "")
_PAGE_SUFFIXES = (".html", ".htm", ".xhtml", ".svg", ".xml")


def add_parser(subparsers: Any) -> None:
    parser = command(
        subparsers, "inspect", help="print the indexed elements and text the model would see on a page"
    )
    parser.add_argument("url", help="the page to load (a URL, or a path to a local HTML file)")
    parser.add_argument("--json", action="store_true", help="print the elements as JSON instead of text")
    parser.add_argument(
        "--screenshot", type=Path, metavar="FILE", help="save a PNG with the element marks the model sees"
    )
    parser.add_argument("--width", type=int, default=1280, help="viewport width in CSS pixels")
    parser.add_argument("--height", type=int, default=800, help="viewport height in CSS pixels")
    add_network_options(parser.add_argument_group("network"), local_by_default=True)
    parser.set_defaults(func=_main)


def _main(args: argparse.Namespace) -> int:
    from browser_agent.interrupts import run_interruptible

    text, status = run_interruptible(inspect_page(args))
    print(text)
    if args.screenshot:  # on stderr: stdout stays the page (or its JSON)
        print(f"screenshot: {args.screenshot.resolve()}", file=sys.stderr)
    if status is not None and status >= 400:
        print(f"browser-agent inspect: {args.url} answered HTTP {status}", file=sys.stderr)
        return 1
    return 0


def _target(url: str) -> str:
    """The URL to open: ``url`` itself, or the ``file://`` URL of a local path.

    Raises:
        UserError: a path, or a ``file://`` URL, that names no file.
    """
    if "://" in url:
        from browser_agent.browser.addresses import address_fault

        fault = address_fault(url)
        if fault is not None:
            raise UserError(f"{url!r} is not a valid address: {fault}.")
        parts = urlsplit(url)
        if parts.scheme.lower() == "file" and not Path(unquote(parts.path)).exists():
            raise UserError(f"no such file: {unquote(parts.path)}")
        return url
    path = Path(url).expanduser()
    if path.exists():
        return path.resolve().as_uri()
    looks_like_a_path = url.startswith(("/", ".", "~")) or url.lower().endswith(_PAGE_SUFFIXES)
    hint = "" if looks_like_a_path else f" (for a web page, give its scheme: https://{url})"
    raise UserError(f"no such file: {url}{hint}")


async def inspect_page(args: argparse.Namespace) -> tuple[str, int | None]:
    """Load the page, capture it, optionally save a marked screenshot; the report and the HTTP status."""
    from browser_agent.browser import BrowserConfig, BrowserSession
    from browser_agent.browser.config import Viewport
    from browser_agent.dom import render

    config = BrowserConfig(
        block_external_network=args.local_only,
        viewport=Viewport(width=args.width, height=args.height),
    )
    target = _target(args.url)
    async with BrowserSession(config) as session:
        status = await _load(session, target, not args.local_only)
        snapshot = await session.capture()
        if args.screenshot:
            await _marked_screenshot(session.page, snapshot, args.screenshot)
    if args.json:
        return json.dumps(_as_json(snapshot) | {"status": status}, indent=2, ensure_ascii=False), status
    count = len(snapshot.selector_map)
    shown = f", HTTP {status}" if status is not None and status >= 400 else ""
    return f"{render(snapshot)}\n\n{count} elements, capture {snapshot.capture_ms:.0f} ms{shown}", status


async def _load(session: BrowserSession, url: str, allow_network: bool) -> int | None:
    try:
        return await session.navigate(url)
    except NavigationError as exc:
        from browser_agent.browser.addresses import split_address

        parts = split_address(url)
        host = (parts.hostname or "") if parts is not None else ""
        if allow_network or host in _LOCAL_HOSTS:
            raise
        raise UserError(
            f"{url} could not be loaded: inspect reaches only this machine unless you add "
            f"--allow-network (browser-agent inspect {url} --allow-network). ({exc})"
        ) from exc


async def _marked_screenshot(page: Page, snapshot: DomSnapshot, path: Path) -> None:
    from browser_agent.browser.marks import drawn_marks

    async with drawn_marks(page, snapshot):
        await page.screenshot(path=str(path))


def _as_json(snapshot: DomSnapshot) -> dict[str, Any]:
    from browser_agent.dom import render

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
