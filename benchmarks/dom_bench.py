"""DOM extraction benchmark: elements, characters, o200k tokens and capture time on the real-page corpus.

Serves ``../shared/corpus/realpages/*/index.html`` (relative to the repository root) from 127.0.0.1,
fails every non-local request at once, and loads each page at 1920×1080. For each page it prints the
indexed elements, those with no text, name or icon hint (``nameless``), characters and o200k tokens of
``render()``, the capture time (median of 3 on the loaded page), the floor (one ``page.evaluate``
walking every element and returning tag and rect as one JSON string, median of 3) and their ratio; then
medians and p90, and the share of nameless elements over the whole corpus.

With ``--baseline-js OLD.js`` (an ``extract.js`` of an earlier commit, a single function) each page is
also captured with that script and today's alternately (6 each, medians), and ``baseline_ms`` and
``vs_baseline_%`` (today's capture time against it, in per cent) are printed. The older script must send
the records today's extractor reads (``dom/wire.py``); across a change of them, ``wire_bench.py`` times
the two walks alone.

Run: ``.venv/bin/python benchmarks/dom_bench.py [--pages N] [--only NAME] [--corpus DIR] [--baseline-js F]``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import statistics
import sys
import time
from pathlib import Path
from unittest.mock import patch

from bpe_openai import get_encoding
from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Page, Route

from browser_agent.browser import BrowserConfig, BrowserSession
from browser_agent.browser.config import Viewport
from browser_agent.dom import ElementNode, extract_snapshot, extractor, instrument_pages, render

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT.parent / "shared" / "corpus" / "realpages"
sys.path.insert(0, str(ROOT))
from tests.support.server import LocalServer  # noqa: E402

FLOOR = """() => {
  const out = [];
  for (const el of document.querySelectorAll('*')) {
    const r = el.getBoundingClientRect();
    out.push([el.localName, r.x, r.y, r.width, r.height]);
  }
  return JSON.stringify(out);
}"""


async def _abort_external(route: Route) -> None:
    if route.request.url.startswith(("http://127.0.0.1", "data:", "blob:", "about:")):
        await route.continue_()
    else:
        await route.abort()


async def _timed_pair(page: Page, runs: int = 3) -> tuple[float, float]:
    """Median capture and floor times; the runs alternate so both see the same machine load."""
    capture: list[float] = []
    floor: list[float] = []
    for _ in range(runs):
        started = time.perf_counter()
        await extract_snapshot(page)
        middle = time.perf_counter()
        await page.evaluate(FLOOR)
        capture.append((middle - started) * 1000)
        floor.append((time.perf_counter() - middle) * 1000)
    return statistics.median(capture), statistics.median(floor)


async def measure(page: Page, url: str) -> dict[str, float]:
    """Load ``url`` and measure one page."""
    # A page that never fires load within the limit is still measured as it is.
    with contextlib.suppress(PlaywrightError):
        await page.goto(url, wait_until="load", timeout=15_000)
    snapshot = await extract_snapshot(page)
    text = render(snapshot)
    encoding = get_encoding("o200k_base")
    capture, floor = await _timed_pair(page)
    elements = len(snapshot.selector_map)
    tokens = len(encoding.encode(text))
    return {
        "elements": elements,
        "nameless": sum(1 for node in snapshot.selector_map.values() if _nameless(node)),
        "chars": len(text),
        "tokens": tokens,
        "tok/el": tokens / elements if elements else 0.0,
        "capture_ms": capture,
        "floor_ms": floor,
        "ratio": capture / floor if floor else 0.0,
    }


async def against_baseline(page: Page, baseline: str, runs: int = 6) -> dict[str, float]:
    """Median capture time of today's walk and of ``baseline`` (an older ``extract.js``, sent whole on
    every capture as it used to be), alternating so that both see the same machine load."""
    times: dict[bool, list[float]] = {True: [], False: []}
    for i in range(runs):
        for old in (True, False) if i % 2 else (False, True):
            swap = patch.object(extractor, "_calls", lambda: (baseline, baseline))
            with swap if old else contextlib.nullcontext():
                started = time.perf_counter()
                await extract_snapshot(page)
            times[old].append((time.perf_counter() - started) * 1000)
    today, before = statistics.median(times[False]), statistics.median(times[True])
    return {"baseline_ms": before, "vs_baseline_%": 100 * (today / before - 1) if before else 0.0}


def _nameless(node: ElementNode) -> bool:
    """Whether the model reads nothing that names the element: no text, no accessible name, no icon hint."""
    return not (node.text.strip() or node.name.strip() or node.icon)


def _p90(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.9 * (len(ordered) - 1)))]


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=0, help="only the first N pages")
    parser.add_argument("--only", help="only pages whose name contains this")
    parser.add_argument("--corpus", type=Path, default=CORPUS, help=f"the pages' folder (default {CORPUS})")
    parser.add_argument(
        "--baseline-js", type=Path, help="an older extract.js to time against today's, run by run"
    )
    args = parser.parse_args()
    baseline = args.baseline_js.read_text(encoding="utf-8") if args.baseline_js else None
    names = sorted(p.parent.name for p in args.corpus.glob("*/index.html"))
    if args.only:
        names = [n for n in names if args.only in n]
    if args.pages:
        names = names[: args.pages]
    config = BrowserConfig(block_external_network=True, viewport=Viewport(width=1920, height=1080))
    rows: list[tuple[str, dict[str, float]]] = []
    with LocalServer(args.corpus) as server:
        server._httpd.handle_error = lambda *_: None  # type: ignore[method-assign]  # aborted loads: noise
        async with BrowserSession(config) as session:
            await instrument_pages(session.context)
            await session.context.route("**/*", _abort_external)
            for name in names:
                row = await measure(session.page, server.url(f"{name}/index.html"))
                if baseline is not None:
                    row |= await against_baseline(session.page, baseline)
                rows.append((name, row))
                print(f"{name:28s} " + " ".join(f"{k}={v:.1f}" for k, v in row.items()), flush=True)
    keys = list(rows[0][1]) if rows else []
    for label, func in (("median", statistics.median), ("p90", _p90)):
        print(f"{label:28s} " + " ".join(f"{k}={func([r[k] for _, r in rows]):.1f}" for k in keys))
    total = sum(r["elements"] for _, r in rows)
    nameless = sum(r["nameless"] for _, r in rows)
    share = 100 * nameless / max(total, 1)
    print(f"{'nameless share':28s} {nameless:.0f} of {total:.0f} elements = {share:.1f} %")
    return 0


if __name__ == "__main__":
    raise SystemExit(asyncio.run(main()))
