"""Rich console output for live runs and replays."""

from __future__ import annotations

from rich.console import Console
from rich.table import Table

from browser_agent.agent.history import AgentHistory, AgentStep
from browser_agent.agent.replay import ReplayedAction, ReplayReport

__all__ = ["ConsoleReporter"]

_STATUS_STYLE = {
    "done": "green",
    "relocated": "green",
    "handed_to_llm": "yellow",
    "skipped": "yellow",
    "failed": "bold red",
}


class ConsoleReporter:
    """Prints each step as it ends, then a summary."""

    def __init__(self, console: Console | None = None) -> None:
        self.console = console or Console()

    def step(self, step: AgentStep) -> None:
        brain = (step.model_output or {}).get("current_state", {})
        goal = brain.get("next_goal", "")
        self.console.print(f"[bold cyan]Step {step.step}[/] {step.url}")
        if goal:
            self.console.print(f"  [dim]goal:[/] {goal}")
        for action, result in zip(step.actions, step.results, strict=False):
            name = action.get("action")
            args = ", ".join(f"{k}={v!r}" for k, v in action.items() if k != "action")
            outcome = (
                f"[red]{result['error']}[/]"
                if result.get("error")
                else (result.get("extracted_content") or "ok")
            )
            self.console.print(f"  {name}({args}) → {outcome}")
        if step.error:
            self.console.print(f"  [red]{step.error}[/]")

    def replayed(self, item: ReplayedAction) -> None:
        style = _STATUS_STYLE[item.status]
        args = ", ".join(f"{k}={v!r}" for k, v in item.action.items() if k != "action")
        score = f" score {item.score:.2f}" if item.score is not None else ""
        self.console.print(
            f"[bold cyan]Step {item.step}[/] {item.action.get('action')}({args}) "
            f"[{style}]{item.status}[/]{score}: {item.message}"
        )

    def replay_summary(self, report: ReplayReport, seconds: float) -> None:
        table = Table(title="Replay summary")
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
        if report.stopped:
            self.console.print(f"[bold red]Stopped:[/] {report.stopped}")
        final = report.final_result()
        if final:
            self.console.print(f"[bold green]Result:[/] {final}")

    def run_summary(self, history: AgentHistory) -> None:
        done = "done" if history.is_done() else "not done"
        self.console.print(
            f"[bold]{len(history.steps)} steps, {history.total_duration_seconds():.1f} s, "
            f"{history.total_input_tokens()} input tokens, {done}[/]"
        )
        if history.final_result():
            self.console.print(f"[bold green]Result:[/] {history.final_result()}")
