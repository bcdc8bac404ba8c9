"""The eval command's live view: a progress bar (succeeded, failed, running, episodes per minute) and one
line per finished episode."""

from __future__ import annotations

import time
from types import TracebackType

from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from browser_agent.eval import Episode, EpisodeRecord
from browser_agent.output.console import gated

__all__ = ["EvalProgress"]


class EvalProgress:
    """Counts episodes as they start and end, and shows it. Use as ``with EvalProgress(total, console)``."""

    def __init__(self, total: int, console: Console, *, skipped: int = 0) -> None:
        console = gated(console)  # page and model text may show in what it prints
        self.total, self.skipped = total, skipped
        self.started = self.succeeded = self.failed = 0
        self._start = time.perf_counter()
        self._progress = Progress(
            TextColumn("[bold]eval"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("{task.fields[counts]}"),
            TimeElapsedColumn(),
            console=console,
        )
        self._bar = self._progress.add_task("eval", total=total, counts=self._counts())

    def __enter__(self) -> EvalProgress:
        self._progress.start()
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self._progress.stop()

    @property
    def finished(self) -> int:
        return self.succeeded + self.failed

    def episode_started(self, episode: Episode) -> None:
        self.started += 1
        self._refresh()

    def episode_ended(self, record: EpisodeRecord) -> None:
        if record.success:
            self.succeeded += 1
            mark = "[green]success[/]"
        else:
            self.failed += 1
            mark = f"[red]{record.failure}[/]"
        detail = f": {escape((record.detail or '')[:100])}" if record.detail else ""
        self._progress.console.print(
            f"{mark} {escape(record.task)} seed {record.seed} in {record.seconds:.1f} s, "
            f"{record.steps} steps{detail}",
            markup=True,
            highlight=False,
        )
        self._progress.advance(self._bar)
        self._refresh()

    def _counts(self) -> str:
        minutes = (time.perf_counter() - self._start) / 60
        rate = self.finished / minutes if minutes > 0 else 0.0
        skipped = f" · [dim]{self.skipped} already in the output[/]" if self.skipped else ""
        running = self.started - self.finished
        return (
            f"[green]{self.succeeded} succeeded[/] · [red]{self.failed} failed[/] · {running} running · "
            f"{rate:.1f} episodes/min{skipped}"
        )

    def _refresh(self) -> None:
        self._progress.update(self._bar, counts=self._counts())
