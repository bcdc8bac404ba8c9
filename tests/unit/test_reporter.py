"""The reporter's lines: per step, retries, corrections, the summary; JSON lines; quiet; full width piped."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from types import SimpleNamespace

from rich.console import Console

from browser_agent.agent.halt import PAUSED_MESSAGE
from browser_agent.batch import TaskOutcome
from browser_agent.eval.episode import Verdict
from browser_agent.eval.evaluation import episode_record
from browser_agent.output import ConsoleReporter
from browser_agent.output.console import make_console
from browser_agent.output.html import render_html
from browser_agent.record import AgentHistory, AgentStep, StepTimings, TokenUsage
from browser_agent.ui.saved_runs import list_runs
from browser_agent.ui.timeline import run_end_event


def _history() -> AgentHistory:
    brain = {"evaluation_previous_goal": "ok", "memory": "m", "next_goal": "open the shop"}
    first = AgentStep(
        step=1,
        url="http://127.0.0.1:8000/" + "very-long-path/" * 8,
        model_output={"current_state": brain, "action": [{"action": "click_element", "index": 4}]},
        results=[{"action": "click_element", "error": "element 4 is not on the page"}],
        timings=StepTimings(total_ms=2500, model_ms=2000),
        usage=TokenUsage(input_tokens=1200, output_tokens=40),
        corrections=1,
    )
    done = AgentStep(
        step=2,
        url="http://127.0.0.1:8000/done",
        model_output={
            "current_state": brain | {"next_goal": "report"},
            "action": [{"action": "done", "text": "42"}],
        },
        results=[{"action": "done", "extracted_content": "42", "is_done": True, "success": True}],
        timings=StepTimings(total_ms=1000, model_ms=900),
        usage=TokenUsage(input_tokens=1300, output_tokens=30, cached_input_tokens=1100),
        extraction_usage=TokenUsage(input_tokens=500, output_tokens=20),
    )
    return AgentHistory(task="t", steps=[first, done], end_reason="done")


def _console() -> tuple[Console, io.StringIO]:
    out = io.StringIO()
    return Console(file=out, width=300, soft_wrap=True, no_color=True), out


def test_text_lines_of_steps_retries_and_summary() -> None:
    console, out = _console()
    reporter = ConsoleReporter(console)
    history = _history()
    for step in history.steps:
        reporter.step(step, max_steps=5)
    reporter.retry("The chat model call failed (RateLimitError); retrying in 1.0 s (attempt 2 of 4)")
    reporter.run_summary(history)
    text = out.getvalue()
    lines = text.splitlines()
    assert lines[0].startswith("Step 1/5 2.5 s (model 2.0 s) · 1,200+40 tokens · http://127.0.0.1:8000/")
    assert "  goal: open the shop" in lines
    assert "  corrected: 1 reply(ies) did not validate and were sent back" in lines
    assert "  click_element(index=4) → failed: element 4 is not on the page" in lines
    assert "  done(text='42') → 42" in lines
    assert lines[4].startswith("Step 2/5 1.0 s (model 0.9 s) · 1,300+30 tokens (1,100 cached) · "), lines[4]
    assert "  retry: The chat model call failed (RateLimitError); retrying in 1.0 s (attempt 2 of 4)" in lines
    assert "Run summary" in text and "done" in text and "3,000 (1,100)" in text, text  # agent + extraction
    assert "extraction 500+20" in text and "Result: 42" in text


def test_json_mode_prints_one_object_per_line() -> None:
    console, out = _console()
    reporter = ConsoleReporter(console, mode="json")
    history = _history()
    reporter.step(history.steps[0], max_steps=5)
    reporter.retry("retrying in 1.0 s")
    reporter.run_summary(history)
    events = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [e["event"] for e in events] == ["step", "retry", "end"]
    assert events[0]["max_steps"] == 5 and events[0]["corrections"] == 1 and events[0]["input_tokens"] == 1200
    assert (
        events[2]["usage"]["extraction"]["input_tokens"] == 500
        and events[2]["usage"]["total"]["input_tokens"] == 3000
    )
    assert events[2]["result"] == "42" and events[2]["end_reason"] == "done"


def test_quiet_prints_only_the_result() -> None:
    console, out = _console()
    reporter = ConsoleReporter(console, mode="quiet")
    history = _history()
    for step in history.steps:
        reporter.step(step)
    reporter.retry("x")
    reporter.run_summary(history)
    assert out.getvalue() == "42\n"


def test_piped_output_is_not_wrapped_at_80_columns() -> None:
    out = io.StringIO()
    console = make_console(out)
    ConsoleReporter(console).step(_history().steps[0], max_steps=5)
    first = out.getvalue().splitlines()[0]
    assert len(first) > 120 and first.endswith("very-long-path/"), first


def test_the_html_report_says_what_the_provider_served_from_its_cache() -> None:
    from browser_agent.output import render_html

    html = render_html(_history())
    assert "Tokens (agent)</td><td>2,500 in / 70 out (1,100 in from the provider's cache)" in html
    assert "1,300 in / 30 out (1,100 in from the provider" in html


def _plain(text: str) -> str:
    """``text`` without the terminal's control sequences."""
    return re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", text)


def _terminal() -> tuple[Console, io.StringIO]:
    out = io.StringIO()
    return Console(file=out, width=300, force_terminal=True, no_color=True), out


def _opened() -> AgentStep:
    return AgentStep(
        step=0,
        url="about:blank",
        model_output={"action": [{"action": "go_to_url", "url": "http://127.0.0.1:8000/shop"}]},
        results=[{"action": "go_to_url", "extracted_content": "Opened http://127.0.0.1:8000/shop"}],
        timings=StepTimings(total_ms=400),
    )


def test_a_terminal_shows_the_running_step_until_it_ends() -> None:
    console, out = _terminal()
    reporter = ConsoleReporter(console)
    reporter.step_started(1, 5)
    reporter.phase(1, "decide")
    running = out.getvalue()
    assert "Step 1/5 · waiting for the model · 0 s" in running, running
    reporter.retry("retrying in 1.0 s")
    reporter.step(_history().steps[0], max_steps=5)
    text = out.getvalue()
    # the retry line goes above the spinner line; the step's block replaces it (erased: cursor up, clear)
    assert text.index("retry: retrying in") > text.index("waiting for the model")
    after = _plain(text[text.rindex("\x1b[2K") :])
    assert after.startswith("Step 1/5 2.5 s (model 2.0 s)") and "waiting" not in after, after
    assert not reporter._spinner.showing


def test_piped_json_and_quiet_output_never_shows_the_running_step() -> None:
    console, out = _console()  # not a terminal
    reporter = ConsoleReporter(console)
    reporter.step_started(1, 5)
    reporter.phase(1, "decide")
    assert out.getvalue() == "" and not reporter._spinner.showing
    for mode in ("json", "quiet"):
        console, out = _terminal()
        reporter = ConsoleReporter(console, mode=mode)  # type: ignore[arg-type]
        reporter.step_started(1, 5)
        reporter.phase(1, "decide")
        reporter.step(_history().steps[0], max_steps=5)
        lines = out.getvalue().splitlines()
        assert "waiting" not in out.getvalue(), mode
        assert all(json.loads(line)["event"] == "step" for line in lines) if mode == "json" else lines == []


def test_step_0_is_printed_as_what_it_is_and_the_summary_counts_it() -> None:
    console, out = _console()
    reporter = ConsoleReporter(console)
    history = _history()
    history.steps.insert(0, _opened())
    for step in history.steps:
        reporter.step(step, max_steps=5)
    reporter.run_summary(history)
    lines = out.getvalue().splitlines()
    assert lines[0] == "Step 0 (before the first step) 0.4 s", lines[0]
    expected = "  go_to_url(url='http://127.0.0.1:8000/shop') → Opened http://127.0.0.1:8000/shop"
    assert lines[1] == expected, lines[1]
    summary = next(line for line in lines if "2 (+ step 0)" in line)
    assert "3.9 (2.9)" in summary, summary  # no clock recorded: the steps' seconds (model seconds)


def test_a_pause_that_cancelled_the_model_call_is_said() -> None:
    terminal, _ = _terminal()
    reporter = ConsoleReporter(terminal)
    reporter.step_started(3, 5)
    reporter.phase(3, "decide")
    reporter.halted(3, PAUSED_MESSAGE)
    assert not reporter._spinner.showing, "the step's running line ends with it"
    console, out = _console()
    ConsoleReporter(console).halted(3, PAUSED_MESSAGE)
    assert out.getvalue().startswith("Step 3 Paused while waiting for the model: the model call under way")
    json_console, json_out = _console()
    ConsoleReporter(json_console, mode="json").halted(3, PAUSED_MESSAGE)
    assert json.loads(json_out.getvalue()) == {"event": "halted", "step": 3, "message": PAUSED_MESSAGE}


def test_one_step_count_everywhere_for_a_run_with_a_step_0(tmp_path: Path) -> None:
    """Two model steps and step 0: the console, its JSON, the report, the UI's run list and run_end
    event, a batch record and the eval record all say 2 (and "(+ step 0)" where people read it)."""
    history = _history()
    history.steps.insert(0, _opened())
    console, out = _console()
    ConsoleReporter(console).run_summary(history)
    assert re.search(r"│\s*2 \(\+ step 0\)\s*│", out.getvalue()), out.getvalue()
    json_console, json_out = _console()
    ConsoleReporter(json_console, mode="json").run_summary(history)
    assert json.loads(json_out.getvalue())["steps"] == 2
    assert "<td class=dim>Steps</td><td>2 (+ step 0)</td>" in render_html(history)
    history.save(tmp_path / "run.json")
    [listed] = list_runs(tmp_path)
    assert (listed["steps"], listed["steps_label"]) == (2, "2 (+ step 0)")
    ended = run_end_event(history)
    assert (ended["steps"], ended["steps_label"]) == (2, "2 (+ step 0)")
    assert TaskOutcome(0, "one", history, 1.0).summary()["steps"] == 2
    episode = SimpleNamespace(name="t", family="f", seed=0)
    outcome = TaskOutcome(0, "t-0", history, 1.0, verdict=Verdict(True, 1.0))
    assert episode_record(episode, outcome).steps == 2  # type: ignore[arg-type]


def test_the_summary_gives_the_runs_wall_time_when_it_was_recorded() -> None:
    console, out = _console()
    history = _history()
    history.duration_seconds = 9.25
    ConsoleReporter(console).run_summary(history)
    assert "9.2 (2.9)" in out.getvalue() or "9.3 (2.9)" in out.getvalue(), out.getvalue()
    assert history.total_duration_seconds() == 9.25 and history.steps_duration_seconds() == 3.5
    json_console, json_out = _console()
    ConsoleReporter(json_console, mode="json").run_summary(history)
    events = [json.loads(line) for line in json_out.getvalue().splitlines()]
    assert events[0]["seconds"] == 9.25
