"""This process's descendants (Playwright's driver, the browser) and their memory, read from /proc."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

PAGE_SIZE = os.sysconf("SC_PAGE_SIZE")


def _children() -> dict[int, list[int]]:
    tree: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        tree.setdefault(int(fields[1]), []).append(int(entry.name))
    return tree


def descendants(pid: int | None = None) -> set[int]:
    tree, found, todo = _children(), set(), [pid or os.getpid()]
    while todo:
        for child in tree.get(todo.pop(), []):
            found.add(child)
            todo.append(child)
    return found


def rss_mb(pid: int) -> float:
    try:
        pages = int(Path(f"/proc/{pid}/statm").read_text().split()[1])
    except (OSError, IndexError):
        return 0.0
    return pages * PAGE_SIZE / 2**20


async def leftovers(before: set[int], wait_s: float = 10.0) -> set[int]:
    """Descendants started since ``before`` that are still alive after up to ``wait_s``."""
    alive: set[int] = set()
    for _ in range(int(wait_s * 10)):
        alive = descendants() - before
        if not alive:
            return alive
        await asyncio.sleep(0.1)
    return alive
