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


def descendants(pid: int | None = None, *, beside: set[int] | frozenset[int] = frozenset()) -> set[int]:
    """Every process below ``pid`` (this process by default), except those in ``beside`` and below them.

    ``beside`` is for processes that were there before and go on (the test session's shared browser):
    what they start later, such as a utility process Chromium opens when it wants, is theirs.
    """
    tree, found, todo = _children(), set(), [pid or os.getpid()]
    while todo:
        for child in tree.get(todo.pop(), []):
            if child not in beside:
                found.add(child)
                todo.append(child)
    return found


def command_line(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")[:200]
    except OSError:
        return "(gone)"


def rss_mb(pid: int) -> float:
    try:
        pages = int(Path(f"/proc/{pid}/statm").read_text().split()[1])
    except (OSError, IndexError):
        return 0.0
    return pages * PAGE_SIZE / 2**20


async def leftovers(before: set[int], wait_s: float = 10.0) -> dict[int, str]:
    """Processes started below this one since ``before`` that are still alive after up to ``wait_s``.

    Only what this process started since counts: a process of ``before`` (the shared browser of the
    test session) may start others of its own at any time. Returns each one's command line.
    """
    alive: set[int] = set()
    for _ in range(int(wait_s * 10)):
        alive = descendants(beside=before)
        if not alive:
            break
        await asyncio.sleep(0.1)
    return {pid: command_line(pid) for pid in sorted(alive)}
