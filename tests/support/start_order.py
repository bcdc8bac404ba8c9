"""The order in which a run hands its tests to pytest-xdist, so that no worker ends the run alone.

``--dist worksteal`` gives each of its N workers one run of the collected tests, in order (the first
N-th to the first worker, the next to the second...); each worker runs its share from the front, and a
worker that has run out takes the back half of the longest queue left. So a long test is best at the
front of a share: it starts early, and the short tests behind it are what the others take.

``start_order`` deals the files of long tests (``LONG``) out to the shares, the largest first to the
share with the least so far, and fills each share with short tests up to the size worksteal will give it.
A test marked ``alone`` (it runs with no other test: tests/support/alone.py) opens the first share; it
waits for the first test of every other worker to end, so the other shares open with a few quick tests.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

__all__ = ["LONG", "start_order"]

# CPU-seconds per test of the files whose tests each start processes (a Ray cluster, exported scripts
# and their pytest, the MCP and UI servers, the examples, drivers killed, Chromium spun to its limits),
# measured one test at a time (/proc/stat around each) on 2026-11-27. Only their ratios are used.
LONG = {
    "test_ray.py": 19.2,
    "test_guides.py": 10.0,  # user + sys around one test (time), 2026-11-28
    "test_export.py": 4.1,
    "test_mcp_server.py": 3.6,
    "test_report.py": 3.4,
    "test_fleet.py": 3.2,
    "test_ui.py": 2.7,
    "test_replay_trust.py": 2.5,
    "test_reply_fuzz.py": 2.4,
    "test_eval_miniwob.py": 2.3,
    "test_driver.py": 2.3,
    "test_examples.py": 1.9,
    "test_batch_cli.py": 1.7,
    "test_safety.py": 1.2,
    "test_cli.py": 0.7,
    "test_fence_beside.py": 0.6,
}
# Short tests that open each share but the first, so that the ``alone`` test does not wait for a long one
# (nor for a browser to start).
LEAD = 4

T = TypeVar("T")


def start_order(
    items: Sequence[T],
    workers: int,
    *,
    file_of: Callable[[T], str],
    alone: Callable[[T], bool],
    quick: Callable[[T], bool] = lambda _: True,
    long: dict[str, float] | None = None,
) -> list[T]:
    """``items`` in the order to collect them for ``workers`` workers (without xdist, ``workers`` 1:
    the ``alone`` tests first, then the long files, the longest tests first, then the rest). The other
    shares open with ``quick`` tests (no browser to start) where there are some."""
    weights = LONG if long is None else long
    first = [item for item in items if alone(item)]
    files: dict[str, list[T]] = {}
    short: list[T] = []
    for item in items:
        if not alone(item):
            name = file_of(item)
            (files.setdefault(name, []) if name in weights else short).append(item)
    if workers < 2:
        return first + _longest_first(files, list(files), weights) + short
    shares: list[list[str]] = [[] for _ in range(workers)]
    load = [0.0] * workers  # the alone tests count for none: every worker waits while they run
    for name in sorted(files, key=lambda n: -weights[n] * len(files[n])):
        lightest = min(range(workers), key=load.__getitem__)
        shares[lightest].append(name)
        load[lightest] += weights[name] * len(files[name])
    longs = [_longest_first(files, names, weights) for names in shares]
    room = [size - len(longs_) for size, longs_ in zip(_sizes(len(items), workers), longs, strict=True)]
    room[0] -= len(first)
    fills: list[list[T]] = [[] for _ in range(workers)]
    for item in short:  # dealt in turn, so that each share has its part of the slower integration tests
        open_ = [index for index in range(workers) if len(fills[index]) < room[index]] or [workers - 1]
        fills[min(open_, key=lambda index: len(fills[index]))].append(item)
    ordered = first + longs[0] + fills[0]
    for longs_, fill in zip(longs[1:], fills[1:], strict=True):
        lead = ([item for item in fill if quick(item)] + fill)[:LEAD]
        ordered += lead + longs_ + [item for item in fill if item not in lead]
    return ordered


def _longest_first(files: dict[str, list[T]], names: Sequence[str], weights: dict[str, float]) -> list[T]:
    return [item for name in sorted(names, key=lambda n: -weights[n]) for item in files[name]]


def _sizes(count: int, workers: int) -> list[int]:
    """How many tests worksteal gives each worker at the start: the rest divided by the workers left."""
    sizes: list[int] = []
    for index in range(workers):
        sizes.append((count - sum(sizes)) // (workers - index))
    return sizes
