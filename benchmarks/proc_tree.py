"""A process and everything it started, read from Linux ``/proc``, for the benchmarks' figures."""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["cpu_seconds", "descendants", "process_kind"]

_TICKS = os.sysconf("SC_CLK_TCK")


def _stat_fields(pid: int) -> list[str]:
    """The fields of ``/proc/PID/stat`` after the command name (which may hold spaces)."""
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()


def descendants(root: int) -> list[int]:
    """``root`` and every living process below it."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                children.setdefault(int(_stat_fields(int(entry.name))[1]), []).append(int(entry.name))
            except (OSError, IndexError, ValueError):
                continue
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo.extend(children.get(pid, []))
    return found


def cpu_seconds(pid: int) -> float | None:
    """User and system CPU time ``pid`` has used so far; ``None`` once it is gone."""
    try:
        fields = _stat_fields(pid)
        return (int(fields[11]) + int(fields[12])) / _TICKS
    except (OSError, IndexError, ValueError):
        return None


def process_kind(pid: int) -> str:
    """``renderer``, ``gpu-process``, ``utility``, ``zygote`` or ``browser`` for Chromium's processes,
    ``driver`` for Playwright's Node process, else ``python``."""
    try:
        command = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return "gone"
    if not command.strip():  # a process that is exiting has no command line left
        return "gone"
    if "--type=" in command:
        return command.split("--type=", 1)[1].split()[0]
    if "node" in command.split()[0]:
        return "driver"
    return "python" if "python" in command.split()[0] else "browser"
