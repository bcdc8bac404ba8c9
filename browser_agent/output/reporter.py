"""Progress people can follow: one block per step as it ends, retries as they happen, a summary at the end.

Turn it on from Python with one line::

    Agent(task, llm, hooks=ConsoleReporter().hooks())

On a terminal, a transient line shows the step running, what it waits for and its seconds so far
(``output/spinner.py``). Step 0 (the actions run before the first step) is printed like the others, and
the summary counts what was printed, with the run's wall time. ``mode="json"`` prints one JSON object
per line instead (``{"event": "step" | "retry" | "end", ...}``), ``mode="quiet"`` only the final result.
Everything printed comes from the (already redacted) history.
"""

from __future__ import annotations

import json
from dataclasses import asdict
from typing import Any, Literal, TextIO

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from browser_agent import artifacts
from browser_agent.agent.hooks import PHASE_WORDS, AgentHooks, StepPhase
from browser_agent.output.console import gated, make_console
from browser_agent.output.spinner import StepSpinner
from browser_agent.record import AgentHistory, AgentStep, describe_call, describe_outcome

__all__ = ["ConsoleReporter", "Mode"]

Mode = Literal["text", "json", "quiet"]
_CONTENT_CHARS = 200
_OUTCOME_STYLE = {"failed": "red", "skipped": "dim", "ok": "green"}


class ConsoleReporter:
    """Prints a run as it goes.

    Args:
        console: Where text goes (a console that does not wrap piped output by default); what it prints
            passes the gate (``artifacts.redacting_stream``), also on a console of yours.
        mode: ``text`` for people, ``json`` for one JSON line per event, ``quiet`` for the result only.
        file: Where JSON lines go (stdout by default).
    """

    def __init__(self, console: Console | None = None, *, mode: Mode = "text", file: TextIO | None = None):
        self.console = gated(console) if console is not None else make_console(file)
        self.mode = mode
        self._file = artifacts.redacting_stream(file) if file is not None else None
        self._spinner = StepSpinner(self.console)
        self._running: str | None = None  # the title of the step under way ("Step 3/20")

    def hooks(self) -> AgentHooks:
        """Hooks that show each step as it runs, print it, each retry and the summary (also when the run
        fails or is interrupted)."""
        return AgentHooks(
            on_step_start=lambda agent, number: self.step_started(number, getattr(agent, "max_steps", None)),
            on_step_phase=lambda _agent, number, phase: self.phase(number, phase),
            on_step_end=lambda agent, step: self.step(step, getattr(agent, "max_steps", None)),
            on_retry=lambda _agent, message: self.retry(message),
            on_run_end=lambda _agent, history: self.run_summary(history),
            on_step_halted=lambda _agent, number, message: self.halted(number, message),
        )

    # -- events ----------------------------------------------------------------------------------

    def step_started(self, number: int, max_steps: int | None = None) -> None:
        """A step began: on a terminal, show it running until it ends (text mode only)."""
        if self.mode != "text":
            return
        self._running = _title(number, max_steps)
        self._spinner.show(f"{self._running} · starting", restart=True)

    def phase(self, number: int, phase: StepPhase) -> None:
        """The running step moved on: say what it waits for now (the model, most of the time)."""
        if self.mode != "text":
            return
        restart = self._running is None
        if self._running is None:
            self._running = _title(number, None)
        self._spinner.show(f"{self._running} · {PHASE_WORDS[phase]}", restart=restart)

    def step(self, step: AgentStep, max_steps: int | None = None) -> None:
        self._spinner.clear()
        self._running = None
        if self.mode == "json":
            self._json(_step_event(step, max_steps))
        elif self.mode == "text":
            self._step_text(step, max_steps)

    def retry(self, message: str) -> None:
        if self.mode == "json":
            self._json({"event": "retry", "message": message})
        elif self.mode == "text":
            self.console.print(f"  [yellow]retry:[/] {escape(message)}")

    def halted(self, number: int, message: str) -> None:
        """The run was paused while the model was asked: the call was cancelled, the step withdrawn."""
        self._spinner.clear()
        self._running = None
        if self.mode == "json":
            self._json({"event": "halted", "step": number, "message": message})
        elif self.mode == "text":
            self.console.print(f"[bold cyan]{escape(_title(number, None))}[/] [yellow]{escape(message)}[/]")

    def run_summary(self, history: AgentHistory) -> None:
        self._spinner.clear()
        self._running = None
        if self.mode == "json":
            self._json(_end_event(history))
        elif self.mode == "quiet":
            if history.final_result() is not None:
                self.console.print(escape(history.final_result() or ""))
        else:
            self._summary_text(history)

    # -- text ------------------------------------------------------------------------------------

    def _step_text(self, step: AgentStep, max_steps: int | None) -> None:
        self.console.print(f"[bold cyan]{escape(_title(step.step, max_steps))}[/] [dim]{_facts(step)}[/]")
        if step.next_goal:
            self.console.print(f"  [dim]goal:[/] {escape(step.next_goal)}")
        if step.corrections:
            self.console.print(
                f"  [yellow]corrected:[/] {step.corrections} reply(ies) did not validate and were sent back"
            )
        for action, result in zip(step.actions, step.results, strict=False):
            outcome = describe_outcome(result).cut(_CONTENT_CHARS)
            style = _OUTCOME_STYLE[outcome.kind]
            self.console.print(f"  {escape(describe_call(action))} → [{style}]{escape(str(outcome))}[/]")
        if step.error:
            self.console.print(f"  [red]step failed:[/] {escape(step.error)}")

    def _summary_text(self, history: AgentHistory) -> None:
        usage = history.usage
        table = Table(title="Run summary", title_justify="left")
        for column in (
            "steps",
            "ended by",
            "success",
            "seconds (model)",
            "tokens in (cached)",
            "tokens out",
            "errors",
        ):
            table.add_column(column)
        success = {True: "yes", False: "no", None: "not done"}[history.is_successful()]
        errors = history.error_count()
        model_seconds = sum(s.timings.model_ms for s in history.steps) / 1000
        table.add_row(
            history.steps_label(),
            history.end_reason or "-",
            success,
            f"{history.total_duration_seconds():.1f} ({model_seconds:.1f})",
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


def _title(number: int, max_steps: int | None) -> str:
    """``Step 3/20``; ``Step 0 (before the first step)`` for the actions run before the model's steps."""
    if number == 0:
        return "Step 0 (before the first step)"
    return f"Step {number}/{max_steps}" if max_steps else f"Step {number}"


def _facts(step: AgentStep) -> str:
    """Seconds, model seconds, tokens and page of a step; step 0 has no model and starts on no page."""
    seconds = step.timings.total_ms / 1000
    if step.step == 0:
        shown = step.url not in ("", "about:blank")
        return f"{seconds:.1f} s" + (f" · {escape(step.url)}" if shown else "")
    tokens = f"{step.usage.input_tokens:,}+{step.usage.output_tokens:,} tokens"
    if step.usage.cached_input_tokens:
        tokens += f" ({step.usage.cached_input_tokens:,} cached)"
    model = step.timings.model_ms / 1000
    return f"{seconds:.1f} s (model {model:.1f} s) · {tokens} · {escape(step.url)}"


def _step_event(step: AgentStep, max_steps: int | None) -> dict[str, Any]:
    return {
        "event": "step",
        "step": step.step,
        "max_steps": max_steps,
        "url": step.url,
        "goal": step.next_goal or None,
        "actions": [a.flat() for a in step.actions],
        "results": [r.model_dump(mode="json") for r in step.results],
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
        "steps": history.model_steps(),
        "end_reason": history.end_reason,
        "done": history.is_done(),
        "success": history.is_successful(),
        "result": history.final_result(),
        "seconds": round(history.total_duration_seconds(), 3),
        "usage": history.usage.model_dump(mode="json") | {"total": asdict(history.usage.total)},
    }
