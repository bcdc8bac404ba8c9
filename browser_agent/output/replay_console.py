"""Console output for replays: one line per recorded action, then a summary."""

from __future__ import annotations

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from browser_agent.output.console import gated, make_console
from browser_agent.playback import ReplayedAction, ReplayReport
from browser_agent.record import describe_call

__all__ = ["ReplayReporter"]

_STATUS_STYLE = {
    "done": "green",
    "relocated": "green",
    "handed_to_llm": "yellow",
    "skipped": "yellow",
    "failed": "bold red",
}


class ReplayReporter:
    """Prints each replayed action as it ends, then a summary."""

    def __init__(self, console: Console | None = None) -> None:
        self.console = gated(console) if console is not None else make_console()

    def warnings(self, report: ReplayReport) -> None:
        for warning in report.warnings:
            self.console.print(f"[yellow]warning:[/] {escape(warning)}")

    def replayed(self, item: ReplayedAction) -> None:
        style = _STATUS_STYLE[item.status]
        score = f" score {item.score:.2f}" if item.score is not None else ""
        self.console.print(
            f"[bold cyan]Step {item.step}[/] {escape(describe_call(item.action))} "
            f"[{style}]{item.status}[/]{score}: {escape(item.message)}"
        )

    def summary(self, report: ReplayReport, seconds: float) -> None:
        table = Table(title="Replay summary", title_justify="left")
        for column in ("actions", "re-located", "handed to llm", "skipped", "failed", "seconds"):
            table.add_column(column)
        counts = {s: sum(1 for a in report.actions if a.status == s) for s in _STATUS_STYLE}
        table.add_row(
            str(len(report.actions)),
            str(counts["relocated"]),
            str(counts["handed_to_llm"]),
            str(counts["skipped"]),
            str(counts["failed"]),
            f"{seconds:.1f}",
        )
        self.console.print(table)
        scores = [a.score for a in report.actions if a.score is not None]
        if scores:
            self.console.print(
                f"Re-location confidence: min {min(scores):.2f}, mean {sum(scores) / len(scores):.2f}"
            )
        self.warnings(report)
        if report.stopped:
            self.console.print(f"[bold red]Stopped:[/] {escape(report.stopped)}")
        final = report.final_result()
        if final:
            # A replayed done repeats the text recorded with it; the page may now say otherwise.
            self.console.print(
                f"[bold]Recorded answer[/] (what the run said when it was made): {escape(final)}"
            )
