"""What happened in the tabs between two observations, folded so that no page can flood the model.

A page that calls ``alert()`` in a loop raises thousands of dialogs; each is answered at once, but the
model reads the first few and a count of the rest ("37 more alert dialogs were answered").

A line quoting page text (a dialog's message) is kept as a function of a redactor and written at
``drain``: the page text is redacted before it is cut or quoted, so no cut copy of a secret is ever made.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import TypeAlias

__all__ = ["EventLog", "LateLine"]

LateLine: TypeAlias = Callable[[Callable[[str], str]], str]
"""An event line written at drain time, from a function that redacts the page text it quotes."""

MAX_EVENTS = 30
MAX_SAME_KIND = 3


class EventLog:
    """Lines for the model, at most ``MAX_SAME_KIND`` of one kind and ``MAX_EVENTS`` in all."""

    def __init__(self) -> None:
        self._lines: list[str | LateLine] = []
        self._per_kind: Counter[str] = Counter()
        self._folded: Counter[str] = Counter()
        self._dropped = 0

    def record(self, line: str | LateLine, kind: str | None = None) -> None:
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

    def drain(self, redact: Callable[[str], str] | None = None) -> tuple[str, ...]:
        """The lines since the last drain; ``redact`` is given the page text a line quotes."""
        show = redact or _unchanged
        lines = [line if isinstance(line, str) else line(show) for line in self._lines]
        lines += [f"{n} more {kind}s were answered the same way" for kind, n in sorted(self._folded.items())]
        if self._dropped:
            lines.append(f"{self._dropped} more events were left out")
        self._lines, self._dropped = [], 0
        self._per_kind.clear()
        self._folded.clear()
        return tuple(lines)


def _unchanged(text: str) -> str:
    return text
