"""The batch command's live view: a rich progress bar (done, failed, running, tasks per minute) and one
line per finished task."""

from __future__ import annotations

import time
from types import TracebackType

from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from browser_agent.batch import TaskOutcome
from browser_agent.output.console import gated

__all__ = ["BatchProgress"]


class BatchProgress:
    """Counts tasks as they start and end, and shows it. Use as ``with BatchProgress(total, console)``."""

    def __init__(self, total: int, console: Console, *, skipped: int = 0) -> None:
        console = gated(console)  # page and model text may show in what it prints
        self.total, self.skipped = total, skipped
        self.started = self.done = self.failed = 0
        self._console = console
        self._start = time.perf_counter()
        self._progress = Progress(
            TextColumn("[bold]batch"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("{task.fields[counts]}"),
            TimeElapsedColumn(),
            console=console,
        )
        self._bar = self._progress.add_task("batch", total=total, counts=self._counts())

    def __enter__(self) -> BatchProgress:
        self._progress.start()
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self._progress.stop()

    @property
    def running(self) -> int:
        return self.started - self.done - self.failed

    def per_minute(self) -> float:
        minutes = (time.perf_counter() - self._start) / 60
        return (self.done + self.failed) / minutes if minutes > 0 else 0.0

    def task_started(self) -> None:
        self.started += 1
        self._refresh()

    def task_ended(self, outcome: TaskOutcome) -> None:
        if outcome.success:
            self.done += 1
        else:
            self.failed += 1
        mark = "[green]done[/]" if outcome.success else "[red]failed[/]"
        why = (outcome.history.final_result() if outcome.success else outcome.error) or "no result"
        self._progress.console.print(
            f"{mark} {escape(outcome.task_id)} in {outcome.seconds:.1f} s, "
            f"{outcome.history.model_steps()} steps: {escape(why[:100])}",
            markup=True,
            highlight=False,
        )
        self._progress.advance(self._bar)
        self._refresh()

    def _counts(self) -> str:
        skipped = f" · [dim]{self.skipped} already in the output[/]" if self.skipped else ""
        return (
            f"[green]{self.done} done[/] · [red]{self.failed} failed[/] · {self.running} running · "
            f"{self.per_minute():.1f} tasks/min{skipped}"
        )

    def _refresh(self) -> None:
        self._progress.update(self._bar, counts=self._counts())
