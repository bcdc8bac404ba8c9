"""What a masked screenshot costs: ``masked_screenshot`` against a plain JPEG screenshot of the same page.

Serves ``tests/pages`` from 127.0.0.1 and times, on each page, ``masked_screenshot`` with the given
secret values and ``page.screenshot(type="jpeg", quality=70)`` (the floor), alternating so both see
the same machine load. Prints the median and p90 in ms per page and case:

- ``shown``: the secret shows on the page (``safety/welcome.html`` echoes it in a paragraph and a link);
- ``absent``: the same page with other secret values (nothing to black out);
- ``none``: no secret values at all (only password fields are blacked out).

With ``--corpus DIR`` (``../shared/corpus/realpages``), each saved page of the corpus is timed too, with
a secret that does not show (``absent``).

    .venv/bin/python -m benchmarks.mask_bench [--runs 20] [--corpus ../shared/corpus/realpages --pages 10]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from urllib.parse import quote_plus

from browser_agent import BrowserConfig
from browser_agent.browser.masking import masked_screenshot
from browser_agent.browser.session import BrowserSession
from tests.support.server import LocalServer

PAGES = Path(__file__).resolve().parent.parent / "tests" / "pages"
SECRET = "pa$$ wörd&<x>q"
OTHER = "not-on-this-page-1234"


async def _ms(work: Callable[[], Awaitable[object]]) -> float:
    start = time.perf_counter()
    await work()
    return (time.perf_counter() - start) * 1000


async def time_page(
    session: BrowserSession, url: str, values: list[str], runs: int
) -> tuple[list[float], list[float]]:
    """Masked and plain screenshot times of ``url``, ``runs`` of each, alternating."""
    await session.navigate(url)
    page = session.page
    masked: list[float] = []
    plain: list[float] = []
    await masked_screenshot(page, values, 15_000)  # warm up both paths
    await page.screenshot(type="jpeg", quality=70)
    for _ in range(runs):
        masked.append(await _ms(lambda: masked_screenshot(page, values, 15_000)))
        plain.append(await _ms(lambda: page.screenshot(type="jpeg", quality=70)))
    return masked, plain


def _row(name: str, masked: list[float], plain: list[float]) -> str:
    def p90(xs: list[float]) -> float:
        return sorted(xs)[max(0, int(len(xs) * 0.9) - 1)]

    return (
        f"{name[:34]:34} {statistics.median(masked):9.1f} {p90(masked):9.1f} "
        f"{statistics.median(plain):9.1f} {p90(plain):9.1f}"
    )


async def main(runs: int, corpus: Path | None, pages: int) -> None:
    print(f"{'page / case':34} {'masked':>9} {'p90':>9} {'plain':>9} {'p90':>9}   (ms)")
    config = BrowserConfig(block_external_network=True)
    with LocalServer(PAGES) as server:
        async with BrowserSession(config) as session:
            welcome = server.url(f"safety/welcome.html?user=ada&pw={quote_plus(SECRET)}&note=x")
            for case, values in (("shown", [SECRET]), ("absent", [OTHER]), ("none", [])):
                print(_row(f"welcome / {case}", *await time_page(session, welcome, values, runs)), flush=True)
            if corpus is None:
                return
            for folder in sorted(p for p in corpus.iterdir() if (p / "index.html").is_file())[:pages]:
                with LocalServer(folder) as site:
                    times = await time_page(session, site.url("index.html"), [OTHER], runs)
                print(_row(f"{folder.name} / absent", *times), flush=True)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--corpus", type=Path, default=None)
    parser.add_argument("--pages", type=int, default=10)
    args = parser.parse_args()
    asyncio.run(main(args.runs, args.corpus, args.pages))
