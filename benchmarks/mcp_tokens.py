"""MCP page view tokens: our ``page_state`` text against Playwright's ``page.aria_snapshot(mode="ai")``.

Serves ``../shared/corpus/realpages/*/index.html`` (relative to the repository root) from 127.0.0.1,
fails every non-local request at once, and loads each page in the MCP server's default viewport
(1280×800). For each page it prints o200k tokens (``bpe-openai``, offline) of:

- ``ours``: the text ``page_state`` returns (``browser_agent.mcp.page_view.capture_view``: URL, title,
  the elements in view with their indices and the text between them, one line each for what lies above
  and below the viewport);
- ``ours_whole``: the same view captured over the whole page (every element, 50,000 characters of text
  per frame), the fairer match for a snapshot of the whole page;
- ``aria_ai``: ``page.aria_snapshot(mode="ai")``, the whole-page accessibility snapshot with ``[ref=…]``
  element references that Playwright's MCP server sends;

the ratios aria / ours and aria / ours_whole, and how many elements each one names (our indices;
Playwright's refs, which it gives to every node with a role, not only interactive ones).
Then medians, p90 and totals.

Run: ``.venv/bin/python benchmarks/mcp_tokens.py [--pages N] [--only NAME] [--corpus DIR]``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import statistics
import sys
from pathlib import Path

from bpe_openai import get_encoding
from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Route

from browser_agent.browser import BrowserConfig, BrowserSession
from browser_agent.dom.extractor import WHOLE_PAGE
from browser_agent.mcp.page_view import capture_view, view_text
from browser_agent.sensitive import Secrets

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT.parent / "shared" / "corpus" / "realpages"
sys.path.insert(0, str(ROOT))
from tests.support.server import LocalServer  # noqa: E402

KEYS = ("ours", "ours_whole", "aria_ai", "ratio", "ratio_whole", "our_elements", "aria_refs")


async def _abort_external(route: Route) -> None:
    if route.request.url.startswith(("http://127.0.0.1", "data:", "blob:", "about:")):
        await route.continue_()
    else:
        await route.abort()


async def measure(session: BrowserSession, url: str) -> dict[str, float]:
    """Load ``url`` and count the tokens of the three views."""
    page = session.page
    # A page that never fires load within the limit is still measured as it is.
    with contextlib.suppress(PlaywrightError):
        await page.goto(url, wait_until="load", timeout=15_000)
    encoding = get_encoding("o200k_base")
    ours = (await capture_view(session, Secrets())).text
    assert session.last_snapshot is not None
    elements = len(session.last_snapshot.selector_map)
    whole = view_text(await session.state(extract_options=WHOLE_PAGE))
    aria = await page.aria_snapshot(mode="ai")
    counts = {name: len(encoding.encode(text)) for name, text in (("o", ours), ("w", whole), ("a", aria))}
    return {
        "ours": counts["o"],
        "ours_whole": counts["w"],
        "aria_ai": counts["a"],
        "ratio": counts["a"] / counts["o"] if counts["o"] else 0.0,
        "ratio_whole": counts["a"] / counts["w"] if counts["w"] else 0.0,
        "our_elements": elements,
        "aria_refs": aria.count("[ref="),
    }


def _p90(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.9 * (len(ordered) - 1)))]


def _summary(rows: list[tuple[str, dict[str, float]]]) -> None:
    for label, func in (("median", statistics.median), ("p90", _p90)):
        print(f"{label:28s} " + " ".join(f"{k}={func([r[k] for _, r in rows]):.1f}" for k in KEYS))
    totals = {k: sum(r[k] for _, r in rows) for k in ("ours", "ours_whole", "aria_ai")}
    print(
        f"{'total':28s} ours={totals['ours']:.0f} ours_whole={totals['ours_whole']:.0f} "
        f"aria_ai={totals['aria_ai']:.0f} ratio={totals['aria_ai'] / totals['ours']:.1f} "
        f"ratio_whole={totals['aria_ai'] / totals['ours_whole']:.1f}"
    )


async def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--pages", type=int, default=0, help="only the first N pages")
    parser.add_argument("--only", help="only pages whose name contains this")
    parser.add_argument("--corpus", type=Path, default=CORPUS, help="the realpages folder")
    args = parser.parse_args()
    names = sorted(p.parent.name for p in args.corpus.glob("*/index.html"))
    if not names:
        print(f"no pages in {args.corpus}; pass --corpus /path/to/shared/corpus/realpages", file=sys.stderr)
        return 1
    if args.only:
        names = [n for n in names if args.only in n]
    if args.pages:
        names = names[: args.pages]
    rows: list[tuple[str, dict[str, float]]] = []
    with LocalServer(args.corpus) as server:
        server._httpd.handle_error = lambda *_: None  # type: ignore[method-assign]  # aborted loads: noise
        async with BrowserSession(BrowserConfig(block_external_network=True)) as session:
            await session.context.route("**/*", _abort_external)
            for name in names:
                row = await measure(session, server.url(f"{name}/index.html"))
                rows.append((name, row))
                print(f"{name:28s} " + " ".join(f"{k}={row[k]:.1f}" for k in KEYS), flush=True)
    if rows:
        _summary(rows)
    return 0


if __name__ == "__main__":
    raise SystemExit(asyncio.run(main()))
