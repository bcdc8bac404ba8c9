"""Replay robustness: re-locate recorded elements after the page changed, and count wrong answers.

Run from the repository root: ``.venv/bin/python -m benchmarks.replay_bench`` (``--help`` for options).

Eight generated fixture pages (benchmarks/replay_pages) with about 20 recorded targets each are captured in
real headless Chromium with ``browser_agent.dom.extract_snapshot``; every target is fingerprinted, then each
page is served again under eight kinds of change and every target is re-located with ``locate``. A result
is *correct* when the element found is the same logical target (the generator's hidden ``data-bench-key``,
read from the live DOM, never given to the matcher), *abstained* when ``locate`` returned no element, and
*wrong* otherwise. When the target was removed, abstaining is the correct answer.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import json
import random
import sys
import threading
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from benchmarks.replay_pages.mutations import KINDS
from benchmarks.replay_pages.pages import BUILDERS, PageSpec
from benchmarks.replay_pages.tree import KEY, Gen
from browser_agent.browser import BrowserConfig, BrowserSession
from browser_agent.dom import DomSnapshot, ElementNode, ExtractOptions, extract_snapshot
from browser_agent.dom.extractor import WHOLE_PAGE
from browser_agent.reid.fingerprint import Fingerprint, fingerprint_of
from browser_agent.reid.matching import DEFAULT_MARGIN, DEFAULT_THRESHOLD, locate

PAGE_WIDE = frozenset({"regen", "text"})  # one variant per page serves every target
STYLE = "<style>body{font:14px sans-serif;margin:16px} li,tr,.widget,.field{margin:4px 0}</style>"


@dataclass
class Outcome:
    page: str
    kind: str
    key: str
    verdict: str  # correct | abstained | wrong
    status: str
    reason: str


class _Pages:
    """An in-process 127.0.0.1 web server answering from a dict of path → HTML."""

    def __init__(self) -> None:
        self.docs: dict[str, str] = {}
        docs = self.docs

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                body = docs.get(self.path.split("?")[0], "<h1>404</h1>").encode()
                self.send_response(200 if self.path.split("?")[0] in docs else 404)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args: Any) -> None:
                return

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)

    @contextmanager
    def running(self) -> Iterator[str]:
        thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        thread.start()
        try:
            yield f"http://127.0.0.1:{self.server.server_address[1]}"
        finally:
            self.server.shutdown()
            self.server.server_close()


def _document(spec: PageSpec, body_html: str) -> str:
    return f"<!doctype html><html><head><title>{spec.name}</title>{STYLE}</head>{body_html}</html>"


async def _bench_keys(session: BrowserSession, snapshot: DomSnapshot) -> dict[int, str]:
    """Index → hidden bench key of each element, read from the live DOM (the matcher never sees it)."""
    from browser_agent.dom.handles import element_handle

    keys: dict[int, str] = {}
    for index, node in snapshot.selector_map.items():
        handle = await element_handle(snapshot, node)
        key = await handle.evaluate("el => el.getAttribute('data-bench-key')")
        if key:
            keys[index] = str(key)
    return keys


def _without_key(node: ElementNode) -> ElementNode:
    attributes = {k: v for k, v in node.attributes.items() if k != KEY}
    return dataclasses.replace(node, attributes=attributes)


def _strip(snapshot: DomSnapshot) -> DomSnapshot:
    """The snapshot as the matcher may see it: without the bench's own marker attribute."""
    nodes = {index: _without_key(node) for index, node in snapshot.selector_map.items()}
    by_id = {node.element_id: node for node in nodes.values()}
    items = tuple(
        by_id.get(item.element_id, item) if isinstance(item, ElementNode) else item for item in snapshot.items
    )
    return dataclasses.replace(snapshot, items=items, selector_map=nodes)


async def _capture(
    session: BrowserSession, url: str | None, options: ExtractOptions | None = None
) -> tuple[DomSnapshot, dict[int, str]]:
    """Capture ``url`` (or the page as it is, when None) with the bench keys read beside it."""
    if url is not None:
        await session.page.goto(url, wait_until="load")
    snapshot = await extract_snapshot(session.page, options=options)
    keys = await _bench_keys(session, snapshot)
    return _strip(snapshot), keys


async def _record(session: BrowserSession, url: str, targets: list[str]) -> dict[str, Fingerprint]:
    """Fingerprint every target as an agent would see it: from a viewport capture, scrolling to the
    targets below the fold first."""
    snapshot, keys = await _capture(session, url)
    prints: dict[str, Fingerprint] = {}
    for key in targets:
        if key not in keys.values():
            selector = f"[{KEY}='{key}']"
            await session.page.eval_on_selector(selector, "el => el.scrollIntoView({block: 'center'})")
            snapshot, keys = await _capture(session, None)
        index = next((i for i, k in keys.items() if k == key), None)
        if index is None:
            print(f"  extractor did not index target {key}", file=sys.stderr)
            continue
        prints[key] = fingerprint_of(snapshot.selector_map[index], snapshot)
    return prints


def _judge(kind: str, key: str, located: ElementNode | None, keys: dict[int, str]) -> str:
    if located is None:
        return "correct" if kind == "removed" else "abstained"
    if kind == "removed":
        return "wrong"
    return "correct" if keys.get(located.index) == key else "wrong"


async def _bench_page(
    session: BrowserSession,
    base: str,
    server: _Pages,
    spec: PageSpec,
    kinds: list[str],
    options: argparse.Namespace,
) -> list[Outcome]:
    server.docs[f"/{spec.name}/original"] = _document(spec, spec.body.render())
    prints = await _record(session, f"{base}/{spec.name}/original", spec.targets)
    outcomes: list[Outcome] = []
    for kind in kinds:
        rng = random.Random(f"{spec.name}/{kind}")
        variants: list[tuple[str, list[str]]] = []
        if kind in PAGE_WIDE:
            variants.append((KINDS[kind](spec.body, spec.targets[0], rng).render(), list(prints)))
        else:
            variants += [(KINDS[kind](spec.body, key, rng).render(), [key]) for key in prints]
        for number, (body_html, targets) in enumerate(variants):
            path = f"/{spec.name}/{kind}/{number}"
            server.docs[path] = _document(spec, body_html)
            # Replay captures the whole page (dom.extractor.WHOLE_PAGE); the recording saw only the viewport.
            mutated, mutated_keys = await _capture(session, base + path, WHOLE_PAGE)
            for key in targets:
                outcomes.append(
                    _locate_one(spec.name, kind, key, prints[key], mutated, mutated_keys, options)
                )
    return outcomes


def _locate_one(
    page: str,
    kind: str,
    key: str,
    fp: Fingerprint,
    snapshot: DomSnapshot,
    keys: dict[int, str],
    options: argparse.Namespace,
) -> Outcome:
    result = locate(fp, snapshot, threshold=options.threshold, margin=options.margin)
    verdict = _judge(kind, key, result.node, keys)
    return Outcome(page, kind, key, verdict, result.status, result.reason)


def _report(outcomes: list[Outcome], kinds: list[str], seconds: float) -> bool:
    """Print the per-kind table; True when every target of the benchmark is met."""
    ok = True
    print(
        f"\n{'kind':<10} {'correct':>8} {'abstained':>10} {'wrong':>6} {'total':>6} {'correct %':>10}  target"
    )
    totals: Counter[str] = Counter()
    for kind in kinds:
        counts = Counter(o.verdict for o in outcomes if o.kind == kind)
        total = sum(counts.values())
        totals.update(counts)
        rate = counts["correct"] / total if total else 0.0
        goal = 1.0 if kind == "removed" else 0.95
        met = counts["wrong"] == 0 and rate >= goal
        ok &= met
        print(
            f"{kind:<10} {counts['correct']:>8} {counts['abstained']:>10} {counts['wrong']:>6} {total:>6} "
            f"{rate:>9.1%}  {'met' if met else 'MISSED'} (wrong = 0, correct ≥ {goal:.0%})"
        )
    total = sum(totals.values())
    rate = totals["correct"] / total if total else 0.0
    print(
        f"{'all':<10} {totals['correct']:>8} {totals['abstained']:>10} {totals['wrong']:>6} {total:>6} "
        f"{rate:>9.1%}  in {seconds:.0f} s"
    )
    return ok


def _parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description="Measure re-location of recorded elements under page changes."
    )
    parser.add_argument("--pages", nargs="*", default=list(BUILDERS), choices=list(BUILDERS))
    parser.add_argument("--kinds", nargs="*", default=list(KINDS), choices=list(KINDS))
    parser.add_argument("--threshold", type=float, default=DEFAULT_THRESHOLD)
    parser.add_argument("--margin", type=float, default=DEFAULT_MARGIN)
    parser.add_argument("--seed", type=int, default=7, help="seed of the generated names and shuffles")
    parser.add_argument(
        "--show",
        choices=["wrong", "abstained", "all"],
        default="wrong",
        help="which individual results to list after the table",
    )
    parser.add_argument("--json", dest="json_path", help="also write every outcome to this JSON file")
    return parser.parse_args(argv)


async def run(argv: list[str] | None = None) -> bool:
    """Run the benchmark; True when wrong = 0 everywhere and the correct-rate targets are met."""
    options = _parse(argv)
    server = _Pages()
    outcomes: list[Outcome] = []
    started = time.perf_counter()
    with server.running() as base:
        async with BrowserSession(BrowserConfig(block_external_network=True)) as session:
            for offset, name in enumerate(options.pages):
                spec = BUILDERS[name](Gen(options.seed * 100 + offset))
                page_outcomes = await _bench_page(session, base, server, spec, options.kinds, options)
                outcomes += page_outcomes
                print(
                    f"{name:<10} {len(spec.targets)} targets, {len(page_outcomes)} re-locations",
                    file=sys.stderr,
                )
    ok = _report(outcomes, options.kinds, time.perf_counter() - started)
    for o in outcomes:
        if options.show == "all" or o.verdict == options.show or (o.verdict == "wrong"):
            print(f"  {o.verdict:<9} {o.page}/{o.kind}/{o.key}: {o.reason}")
    if options.json_path:
        with open(options.json_path, "w", encoding="utf-8") as out:
            json.dump([dataclasses.asdict(o) for o in outcomes], out, indent=1)
    return ok


if __name__ == "__main__":
    sys.exit(0 if asyncio.run(run()) else 1)
