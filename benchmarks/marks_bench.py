"""What laying out the set-of-marks tags costs: ``layout_marks``, run for each screenshot a model sees
(``use_vision``) or a run records (``record_screenshots``).

Times ``layout_marks`` on crowded synthetic pages (a grid of links, boxes scattered at random; 30 to 400
elements in a 1280x800 viewport) and, with ``--corpus DIR`` (``../shared/corpus/realpages``), on the
elements a session captures from each saved page of the corpus (served from 127.0.0.1, other hosts
blocked). Prints the best of ``--runs`` in ms per layout. With ``--baseline FILE`` (the
``browser/marks.py`` of an older checkout, e.g. from ``git show REV:browser_agent/browser/marks.py``)
that module's ``layout_marks`` is timed too, in turn with today's, and the two layouts must be the same.

    .venv/bin/python -m benchmarks.marks_bench [--runs 5] [--corpus DIR] [--baseline FILE]
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from browser_agent import BrowserConfig
from browser_agent.browser.marks import layout_marks
from browser_agent.browser.session import BrowserSession
from browser_agent.dom.snapshot import ElementNode, Rect
from tests.support.server import LocalServer

VIEW = (1280.0, 800.0)
Layout = Callable[[list[ElementNode], tuple[float, float]], list[Any]]


def load_baseline(path: Path) -> Layout:
    """``layout_marks`` of another version of ``browser/marks.py``."""
    spec = importlib.util.spec_from_file_location("baseline_marks", path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    layout: Layout = module.layout_marks
    return layout


def synthetic(count: int, kind: str) -> list[ElementNode]:
    """``count`` elements: rows of eight links, or boxes of random sizes at random places (seeded)."""
    draw = random.Random(count)
    nodes = []
    for i in range(count):
        if kind == "grid":
            rect = Rect(5 + (i % 8) * 160, 5 + (i // 8) * 22, 150, 18)
        else:
            x, y = draw.uniform(0, 1250), draw.uniform(0, 780)
            rect = Rect(x, y, draw.uniform(20, 300), draw.uniform(12, 60))
        nodes.append(ElementNode(i + 1, f"e{i}", "a", None, "link", "link", {}, (), rect))
    return nodes


def _placed(marks: list[Any]) -> list[tuple[int, Rect, Rect]]:
    return [(m.index, m.box, m.tag) for m in marks]


def best_ms(layouts: dict[str, Layout], nodes: list[ElementNode], runs: int) -> dict[str, float]:
    """The best time of each layout over ``runs``, in turn; every layout must place the same tags."""
    times: dict[str, list[float]] = {name: [] for name in layouts}
    for _ in range(runs):
        placed = []
        for name, layout in layouts.items():
            start = time.perf_counter()
            marks = layout(nodes, VIEW)
            times[name].append((time.perf_counter() - start) * 1000)
            placed.append(_placed(marks))
        if any(p != placed[0] for p in placed):
            raise SystemExit("the layouts differ")
    return {name: min(t) for name, t in times.items()}


def _row(name: str, count: int, best: dict[str, float]) -> str:
    return f"{name[:28]:28} {count:6d}" + "".join(f" {ms:10.1f}" for ms in best.values())


async def corpus_nodes(corpus: Path) -> list[tuple[str, list[ElementNode]]]:
    """The elements a session captures from each saved page of ``corpus``."""
    pages = []
    config = BrowserConfig(block_external_network=True, settle_max_ms=1_500)
    with LocalServer(corpus) as site:
        async with BrowserSession(config) as session:
            for folder in sorted(p for p in corpus.iterdir() if (p / "index.html").is_file()):
                await session.navigate(site.url(f"{folder.name}/index.html"))
                state = await session.state()
                if state.snapshot is not None:
                    pages.append((folder.name, list(state.snapshot.selector_map.values())))
    return pages


def main(runs: int, corpus: Path | None, baseline: Path | None) -> None:
    layouts: dict[str, Layout] = {"today": layout_marks}
    if baseline is not None:
        layouts["baseline"] = load_baseline(baseline)
    print(f"{'page':28} {'marks':>6}" + "".join(f" {name:>10}" for name in layouts) + "   (ms, best of runs)")
    for kind in ("grid", "random"):
        for count in (30, 60, 150, 400):
            nodes = synthetic(count, kind)
            print(_row(f"{kind} of {count}", len(layout_marks(nodes, VIEW)), best_ms(layouts, nodes, runs)))
    if corpus is None:
        return
    bests: dict[str, list[float]] = {name: [] for name in layouts}
    for name, nodes in asyncio.run(corpus_nodes(corpus)):
        best = best_ms(layouts, nodes, runs)
        for layout, ms in best.items():
            bests[layout].append(ms)
        print(_row(name, len(layout_marks(nodes, VIEW)), best), flush=True)
    for quantile, pick in (("median", statistics.median), ("p90", lambda t: sorted(t)[int(len(t) * 0.9)])):
        print(f"{'corpus ' + quantile:28} {'':6}" + "".join(f" {pick(t):10.1f}" for t in bests.values()))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--corpus", type=Path, default=None)
    parser.add_argument("--baseline", type=Path, default=None)
    args = parser.parse_args()
    main(args.runs, args.corpus, args.baseline)
