"""The live view of a batch or an evaluation: a rich progress bar (succeeded, failed, running, rate) and
one line per finished task or episode. One display, two renderings: ``task_ended`` for a batch's
``TaskOutcome``, ``episode_ended`` for an evaluation's ``EpisodeRecord``."""

from __future__ import annotations

import time
from dataclasses import dataclass
from types import TracebackType
from typing import TYPE_CHECKING

from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from browser_agent.output.console import gated

if TYPE_CHECKING:  # a batch's progress need not load the evaluation, nor an evaluation's the batch
    from browser_agent.batch import TaskOutcome
    from browser_agent.eval import EpisodeRecord

__all__ = ["BATCH", "EVAL", "RunProgress", "Words"]


@dataclass(frozen=True, slots=True)
class Words:
    """What the bar calls the run, a success, and the things it counts."""

    title: str
    succeeded: str
    things: str


BATCH = Words("batch", "done", "tasks")
EVAL = Words("eval", "succeeded", "episodes")


class RunProgress:
    """Counts what ended and shows it. Use as ``with RunProgress(total, console, BATCH, concurrency=4)``.

    As many run as ``concurrency`` allows: the batch starts the next one as soon as one ends.
    """

    def __init__(
        self, total: int, console: Console, words: Words, *, concurrency: int = 1, skipped: int = 0
    ) -> None:
        console = gated(console)  # page and model text may show in what it prints
        self.total, self.skipped, self.words = total, skipped, words
        self.concurrency = concurrency
        self.succeeded = self.failed = 0
        self._start = time.perf_counter()
        self._progress = Progress(
            TextColumn(f"[bold]{words.title}"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("{task.fields[counts]}"),
            TimeElapsedColumn(),
            console=console,
        )
        self._bar = self._progress.add_task(words.title, total=total, counts=self._counts())

    def __enter__(self) -> RunProgress:
        self._progress.start()
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self._progress.stop()

    @property
    def finished(self) -> int:
        return self.succeeded + self.failed

    def task_ended(self, outcome: TaskOutcome) -> None:
        """A batch's task: ``done`` or ``failed``, and its result or why it failed."""
        mark = "[green]done[/]" if outcome.success else "[red]failed[/]"
        why = (outcome.history.final_result() if outcome.success else outcome.error) or "no result"
        line = (
            f"{mark} {escape(outcome.task_id)} in {outcome.seconds:.1f} s, "
            f"{outcome.history.model_steps()} steps: {escape(why[:100])}"
        )
        self._ended(outcome.success, line)

    def episode_ended(self, record: EpisodeRecord) -> None:
        """An evaluation's episode: ``success`` or its failure kind, and the detail."""
        mark = "[green]success[/]" if record.success else f"[red]{record.failure}[/]"
        detail = f": {escape((record.detail or '')[:100])}" if record.detail else ""
        line = (
            f"{mark} {escape(record.task)} seed {record.seed} in {record.seconds:.1f} s, "
            f"{record.steps} steps{detail}"
        )
        self._ended(record.success, line)

    def _ended(self, success: bool, line: str) -> None:
        if success:
            self.succeeded += 1
        else:
            self.failed += 1
        self._progress.console.print(line, markup=True, highlight=False)
        self._progress.advance(self._bar)
        self._progress.update(self._bar, counts=self._counts())

    def _counts(self) -> str:
        minutes = (time.perf_counter() - self._start) / 60
        rate = self.finished / minutes if minutes > 0 else 0.0
        running = min(self.concurrency, self.total - self.finished)
        skipped = f" · [dim]{self.skipped} already in the output[/]" if self.skipped else ""
        return (
            f"[green]{self.succeeded} {self.words.succeeded}[/] · [red]{self.failed} failed[/] · "
            f"{running} running · {rate:.1f} {self.words.things}/min{skipped}"
        )
