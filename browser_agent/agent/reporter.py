"""Progress people can follow: one block per step as it ends, retries as they happen, a summary at the end.

Turn it on from Python with one line::

    Agent(task, llm, hooks=ConsoleReporter().hooks())

``mode="json"`` prints one JSON object per line instead (``{"event": "step" | "retry" | "end", ...}``),
``mode="quiet"`` only the final result. Everything printed comes from the (already redacted) history.
"""

from __future__ import annotations

import json
from typing import Any, Literal, TextIO

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from browser_agent.agent.console import make_console
from browser_agent.agent.history import AgentHistory, AgentStep
from browser_agent.agent.hooks import AgentHooks

__all__ = ["ConsoleReporter", "Mode"]

Mode = Literal["text", "json", "quiet"]
_CONTENT_CHARS = 200


class ConsoleReporter:
    """Prints a run as it goes.

    Args:
        console: Where text goes (a console that does not wrap piped output by default).
        mode: ``text`` for people, ``json`` for one JSON line per event, ``quiet`` for the result only.
        file: Where JSON lines go (stdout by default).
    """

    def __init__(self, console: Console | None = None, *, mode: Mode = "text", file: TextIO | None = None):
        self.console = console or make_console(file)
        self.mode = mode
        self._file = file

    def hooks(self) -> AgentHooks:
        """Hooks that print each step, each retry and the summary (also when the run fails)."""
        return AgentHooks(
            on_step_end=lambda agent, step: self.step(step, getattr(agent, "max_steps", None)),
            on_retry=lambda _agent, message: self.retry(message),
            on_run_end=lambda _agent, history: self.run_summary(history),
        )

    # -- events ----------------------------------------------------------------------------------

    def step(self, step: AgentStep, max_steps: int | None = None) -> None:
        if self.mode == "json":
            self._json(_step_event(step, max_steps))
        elif self.mode == "text":
            self._step_text(step, max_steps)

    def retry(self, message: str) -> None:
        if self.mode == "json":
            self._json({"event": "retry", "message": message})
        elif self.mode == "text":
            self.console.print(f"  [yellow]retry:[/] {escape(message)}")

    def run_summary(self, history: AgentHistory) -> None:
        if self.mode == "json":
            self._json(_end_event(history))
        elif self.mode == "quiet":
            if history.final_result() is not None:
                self.console.print(escape(history.final_result() or ""))
        else:
            self._summary_text(history)

    # -- text ------------------------------------------------------------------------------------

    def _step_text(self, step: AgentStep, max_steps: int | None) -> None:
        of = f"/{max_steps}" if max_steps else ""
        seconds = step.timings.total_ms / 1000
        tokens = f"{step.usage.input_tokens:,}+{step.usage.output_tokens:,} tokens"
        if step.usage.cached_input_tokens:
            tokens += f" ({step.usage.cached_input_tokens:,} cached)"
        model = step.timings.model_ms / 1000
        self.console.print(
            f"[bold cyan]Step {step.step}{of}[/] [dim]{seconds:.1f} s (model {model:.1f} s)"
            f" · {tokens} · {escape(step.url)}[/]"
        )
        goal = ((step.model_output or {}).get("current_state") or {}).get("next_goal")
        if goal:
            self.console.print(f"  [dim]goal:[/] {escape(str(goal))}")
        if step.corrections:
            self.console.print(
                f"  [yellow]corrected:[/] {step.corrections} reply(ies) did not validate and were sent back"
            )
        for action, result in zip(step.actions, step.results, strict=False):
            self.console.print(f"  {escape(_call(action))} → {_outcome(result)}")
        if step.error:
            self.console.print(f"  [red]step failed:[/] {escape(step.error)}")

    def _summary_text(self, history: AgentHistory) -> None:
        usage = history.usage
        table = Table(title="Run summary", title_justify="left")
        for column in (
            "steps",
            "ended by",
            "success",
            "seconds",
            "tokens in (cached)",
            "tokens out",
            "errors",
        ):
            table.add_column(column)
        success = {True: "yes", False: "no", None: "not done"}[history.is_successful()]
        errors = sum(1 for e in history.errors() if e)
        table.add_row(
            str(len(history.steps)),
            history.end_reason or "-",
            success,
            f"{history.total_duration_seconds():.1f}",
            f"{usage.total.input_tokens:,} ({usage.total.cached_input_tokens:,})",
            f"{usage.total.output_tokens:,}",
            str(errors),
        )
        self.console.print(table)
        roles = [(name, getattr(usage, name)) for name in ("agent", "planner", "extraction")]
        self.console.print(
            "[dim]tokens by role: "
            + ", ".join(f"{name} {u.input_tokens:,}+{u.output_tokens:,}" for name, u in roles)
            + "[/]"
        )
        final = history.final_result()
        if final is not None:
            style = "bold green" if history.is_successful() else "bold yellow"
            self.console.print(f"[{style}]Result:[/] {escape(final)}")

    def _json(self, event: dict[str, Any]) -> None:
        print(json.dumps(event, ensure_ascii=False), file=self._file or self.console.file, flush=True)


def _call(action: dict[str, Any]) -> str:
    args = ", ".join(f"{k}={v!r}" for k, v in action.items() if k != "action")
    return f"{action.get('action')}({args})"


def _outcome(result: dict[str, Any]) -> str:
    if result.get("error"):
        return f"[red]failed: {escape(str(result['error']))}[/]"
    content = str(result.get("extracted_content") or "ok")
    if len(content) > _CONTENT_CHARS:
        content = content[: _CONTENT_CHARS - 1] + "…"
    style = "dim" if result.get("skipped") else "green"
    return f"[{style}]{escape(content)}[/]"


def _step_event(step: AgentStep, max_steps: int | None) -> dict[str, Any]:
    goal = ((step.model_output or {}).get("current_state") or {}).get("next_goal")
    return {
        "event": "step",
        "step": step.step,
        "max_steps": max_steps,
        "url": step.url,
        "goal": goal,
        "actions": step.actions,
        "results": step.results,
        "error": step.error,
        "seconds": round(step.timings.total_ms / 1000, 3),
        "model_seconds": round(step.timings.model_ms / 1000, 3),
        "input_tokens": step.usage.input_tokens,
        "cached_input_tokens": step.usage.cached_input_tokens,
        "output_tokens": step.usage.output_tokens,
        "corrections": step.corrections,
        "retries": step.retries,
    }


def _end_event(history: AgentHistory) -> dict[str, Any]:
    return {
        "event": "end",
        "steps": len(history.steps),
        "end_reason": history.end_reason,
        "done": history.is_done(),
        "success": history.is_successful(),
        "result": history.final_result(),
        "seconds": round(history.total_duration_seconds(), 3),
        "usage": history.usage.model_dump() | {"total": history.usage.total.model_dump()},
    }
