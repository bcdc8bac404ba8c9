"""The page walk alone, today's against an older one: time and size of what it sends, page by page.

For a change to the walk's records (``browser_agent/dom/wire.py``), which ``dom_bench.py --baseline-js``
cannot time (today's Python reads today's keys only). Each page of the real-page corpus is loaded once;
then both walks (``extract.js`` with its parts inserted, as the extractor builds it) run on it in turn,
``--runs`` times each, alternating, so that both see the same machine load. A run is one
``page.evaluate`` of the whole script and the ``json.loads`` of what it returns; the JSON's size in
characters is printed beside. ``--whole`` walks the whole page with all of its text (``WHOLE_PAGE``, what
re-identification reads) instead of the viewport.

    git archive OLD | tar -x -C /tmp/old
    .venv/bin/python benchmarks/wire_bench.py --baseline /tmp/old [--whole] [--corpus DIR] [--runs 8]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Page, Route

from browser_agent.browser import BrowserConfig, BrowserSession
from browser_agent.browser.config import Viewport
from browser_agent.dom import ExtractOptions, instrument_pages
from browser_agent.dom.extractor import (  # the walk built as the extractor builds it
    _PARTS,
    _PARTS_MARK,
    WHOLE_PAGE,
)
from browser_agent.dom.text_limits import ATTRIBUTE_CAP, NAME_CAP, OPTION_CAP

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT.parent / "shared" / "corpus" / "realpages"
sys.path.insert(0, str(ROOT))
from tests.support.server import LocalServer  # noqa: E402


def walk_of(root: Path) -> str:
    """The walk of the checkout at ``root`` as one function of the capture options."""
    folder = root / "browser_agent" / "dom"
    main = (folder / "extract.js").read_text(encoding="utf-8")
    parts = "".join((folder / name).read_text(encoding="utf-8") for name in _PARTS)
    return "(o) => (" + main.replace(_PARTS_MARK, parts) + ")(o)"


def options(opts: ExtractOptions) -> dict[str, Any]:
    return {
        "viewportWidth": 1920,
        "viewportHeight": 1080,
        "margin": opts.margin_px,
        "textCap": opts.text_cap,
        "textTotal": opts.text_total,
        "nameCap": NAME_CAP,
        "optionCap": OPTION_CAP,
        "attributeCap": ATTRIBUTE_CAP,
    }


async def _abort_external(route: Route) -> None:
    if route.request.url.startswith(("http://127.0.0.1", "data:", "blob:", "about:")):
        await route.continue_()
    else:
        await route.abort()


async def _once(page: Page, walk: str, args: dict[str, Any]) -> tuple[float, int]:
    started = time.perf_counter()
    raw = await page.evaluate(walk, args)
    json.loads(raw)
    return (time.perf_counter() - started) * 1000, len(raw)


async def measure(page: Page, walks: dict[str, str], args: dict[str, Any], runs: int) -> dict[str, float]:
    """Median time and size of each walk on the loaded page, the walks alternating run by run."""
    for walk in walks.values():
        await _once(page, walk, args)  # warm both
    times: dict[str, list[float]] = {name: [] for name in walks}
    size: dict[str, int] = {}
    for i in range(runs):
        for name in list(walks) if i % 2 else list(reversed(walks)):
            ms, size[name] = await _once(page, walks[name], args)
            times[name].append(ms)
    row = {f"{name}_ms": statistics.median(t) for name, t in times.items()}
    return row | {f"{name}_chars": float(n) for name, n in size.items()}


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", type=Path, required=True, help="the root of an older checkout")
    parser.add_argument("--corpus", type=Path, default=CORPUS, help=f"the pages' folder (default {CORPUS})")
    parser.add_argument("--whole", action="store_true", help="walk the whole page (WHOLE_PAGE)")
    parser.add_argument("--runs", type=int, default=8, help="runs of each walk per page")
    args = parser.parse_args()
    walks = {"old": walk_of(args.baseline), "new": walk_of(ROOT)}
    capture = options(WHOLE_PAGE if args.whole else ExtractOptions())
    names = sorted(p.parent.name for p in args.corpus.glob("*/index.html"))
    config = BrowserConfig(block_external_network=True, viewport=Viewport(width=1920, height=1080))
    rows: list[dict[str, float]] = []
    with LocalServer(args.corpus) as server:
        server._httpd.handle_error = lambda *_: None  # type: ignore[method-assign]  # aborted loads: noise
        async with BrowserSession(config) as session:
            await instrument_pages(session.context)
            await session.context.route("**/*", _abort_external)
            for name in names:
                with contextlib.suppress(PlaywrightError):  # measured as it is when load never fires
                    await session.page.goto(
                        server.url(f"{name}/index.html"), wait_until="load", timeout=15_000
                    )
                row = await measure(session.page, walks, capture, args.runs)
                rows.append(row)
                print(f"{name:28s} " + " ".join(f"{k}={v:.1f}" for k, v in row.items()), flush=True)
    change = [r["new_ms"] / r["old_ms"] - 1 for r in rows]
    print(f"{'median':28s} " + " ".join(f"{k}={statistics.median(r[k] for r in rows):.1f}" for k in rows[0]))
    print(f"{'total':28s} " + " ".join(f"{k}={sum(r[k] for r in rows):.0f}" for k in rows[0]))
    print(f"{'per-page time change':28s} median {100 * statistics.median(change):+.1f} %")
    return 0


if __name__ == "__main__":
    raise SystemExit(asyncio.run(main()))
