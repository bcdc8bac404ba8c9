"""What happened in the tabs between two observations, folded so that no page can flood the model.

A page that calls ``alert()`` in a loop raises thousands of dialogs; each is answered at once, but the
model reads the first few and a count of the rest ("37 more alert dialogs were answered").
"""

from __future__ import annotations

from collections import Counter

__all__ = ["EventLog"]

MAX_EVENTS = 30
MAX_SAME_KIND = 3


class EventLog:
    """Lines for the model, at most ``MAX_SAME_KIND`` of one kind and ``MAX_EVENTS`` in all."""

    def __init__(self) -> None:
        self._lines: list[str] = []
        self._per_kind: Counter[str] = Counter()
        self._folded: Counter[str] = Counter()
        self._dropped = 0

    def record(self, line: str, kind: str | None = None) -> None:
        """Keep ``line``; lines of one ``kind`` past the first few are only counted."""
        if kind is not None:
            self._per_kind[kind] += 1
            if self._per_kind[kind] > MAX_SAME_KIND:
                self._folded[kind] += 1
                return
        if len(self._lines) >= MAX_EVENTS:
            self._dropped += 1
            return
        self._lines.append(line)

    def count(self, kind: str) -> int:
        """How many events of ``kind`` were recorded since the last drain."""
        return self._per_kind[kind]

    def drain(self) -> tuple[str, ...]:
        lines = list(self._lines)
        lines += [f"{n} more {kind}s were answered the same way" for kind, n in sorted(self._folded.items())]
        if self._dropped:
            lines.append(f"{self._dropped} more events were left out")
        self._lines, self._dropped = [], 0
        self._per_kind.clear()
        self._folded.clear()
        return tuple(lines)
