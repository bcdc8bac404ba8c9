"""What a masked screenshot costs: ``masked_screenshot`` against a plain JPEG screenshot of the same page.

Serves ``tests/pages`` from 127.0.0.1 and times, on each page, ``masked_screenshot`` with the given
secret values and ``page.screenshot(type="jpeg", quality=70)`` (the floor), alternating so both see
the same machine load. Prints the median and p90 in ms per page and case:

- ``shown``: the secret shows on the page (``safety/welcome.html`` echoes it in a paragraph and a link);
- ``absent``: the same page with another secret value (nothing to black out);
- ``none``: no secret values at all (only password fields are blacked out).

With ``--corpus DIR`` (``../shared/corpus/realpages``), the first ``--pages`` saved pages of the corpus
are timed too, with a secret that does not show (``absent``). With ``--baseline FILE`` (the
``browser/masking.py`` of an older checkout, e.g. extracted with ``git archive``), that module's
``masked_screenshot`` is timed as well, in turn with today's.

    .venv/bin/python -m benchmarks.mask_bench [--runs 20] [--corpus DIR --pages 10] [--baseline FILE]
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import statistics
import time
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import quote_plus

from playwright.async_api import Page

from browser_agent import BrowserConfig
from browser_agent.browser.masking import masked_screenshot
from browser_agent.browser.session import BrowserSession
from tests.support.server import LocalServer

PAGES = Path(__file__).resolve().parent.parent / "tests" / "pages"
SECRET = "pa$$ wörd&<x>q"
OTHER = "not-on-this-page-1234"

Shot = Callable[[Page, Sequence[str], float], Awaitable[str]]


def load_baseline(path: Path) -> Shot:
    """``masked_screenshot`` of another version of ``browser/masking.py``."""
    spec = importlib.util.spec_from_file_location("baseline_masking", path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    shot: Shot = module.masked_screenshot
    return shot


async def _ms(work: Callable[[], Awaitable[Any]]) -> float:
    start = time.perf_counter()
    await work()
    return (time.perf_counter() - start) * 1000


async def time_page(
    session: BrowserSession, url: str, values: list[str], runs: int, shots: dict[str, Shot]
) -> dict[str, list[float]]:
    """Times of each of ``shots`` and of a plain screenshot on ``url``, ``runs`` each, in turn."""
    await session.navigate(url)
    page = session.page

    async def plain(p: Page, _values: Sequence[str], _timeout: float) -> bytes:
        return await p.screenshot(type="jpeg", quality=70)

    works: dict[str, Callable[[Page, Sequence[str], float], Awaitable[Any]]] = {**shots, "plain": plain}
    times: dict[str, list[float]] = {name: [] for name in works}
    for _ in range(runs + 1):  # the first round warms every path up and is not counted
        for name, work in works.items():
            times[name].append(await _ms(lambda w=work: w(page, values, 15_000)))  # type: ignore[misc]
    return {name: t[1:] for name, t in times.items()}


def _row(name: str, times: dict[str, list[float]]) -> str:
    def p90(xs: list[float]) -> float:
        return sorted(xs)[max(0, int(len(xs) * 0.9) - 1)]

    cells = "".join(f" {statistics.median(t):9.1f} {p90(t):9.1f}" for t in times.values())
    return f"{name[:34]:34}{cells}"


async def main(runs: int, corpus: Path | None, pages: int, baseline: Path | None) -> None:
    shots: dict[str, Shot] = {"masked": masked_screenshot}
    if baseline is not None:
        shots["baseline"] = load_baseline(baseline)
    header = "".join(f" {name:>9} {'p90':>9}" for name in [*shots, "plain"])
    print(f"{'page / case':34}{header}   (ms)")
    config = BrowserConfig(block_external_network=True)
    with LocalServer(PAGES) as server:
        async with BrowserSession(config) as session:
            welcome = server.url(f"safety/welcome.html?user=ada&pw={quote_plus(SECRET)}&note=x")
            for case, values in (("shown", [SECRET]), ("absent", [OTHER]), ("none", [])):
                times = await time_page(session, welcome, values, runs, shots)
                print(_row(f"welcome / {case}", times), flush=True)
            if corpus is None:
                return
            for folder in sorted(p for p in corpus.iterdir() if (p / "index.html").is_file())[:pages]:
                with LocalServer(folder) as site:
                    times = await time_page(session, site.url("index.html"), [OTHER], runs, shots)
                print(_row(f"{folder.name} / absent", times), flush=True)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--corpus", type=Path, default=None)
    parser.add_argument("--pages", type=int, default=10)
    parser.add_argument("--baseline", type=Path, default=None)
    args = parser.parse_args()
    asyncio.run(main(args.runs, args.corpus, args.pages, args.baseline))
