"""Run episodes with a model as a batch with a judge, M at a time, one JSON line each as soon as it ends;
resumable.

Each episode is a batch task (``Episode.spec``) whose judge is the episode itself (``batch/judge.py``):
batch's task runner gives it its own context on the fleet, its own agent, its fence, its time limit,
and keeps every failure in its history; the judge opens the page, stops the agent when the page ended
the episode, and gives the verdict. Records already in the results file are skipped (``pending``), so
an interrupted evaluation resumes where it stopped.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from browser_agent import artifacts
from browser_agent.batch import BatchOptions, LocalExecutor, TaskOutcome
from browser_agent.batch.many import run_batch
from browser_agent.batch.options import BatchSetup, BrowserSource, LlmSource, browser_sources
from browser_agent.errors import UserError, first_line
from browser_agent.eval.episode import Episode, Verdict
from browser_agent.eval.episode_record import (
    EpisodeKey,
    EpisodeRecord,
    failure_kind,
    model_calls,
    read_records,
)
from browser_agent.record import AgentHistory

__all__ = ["EvalOptions", "episode_record", "pending", "run_episodes"]

Listener = Callable[[EpisodeRecord], None]


class EvalOptions(BatchOptions):
    """A batch's options (``BatchOptions``: settings, controller, history_dir, max_steps,
    task_timeout_s) and what only an evaluation has.

    Attributes:
        model_name: The model as the command line named it, written in each record.
    """

    model_name: str | None = None


def pending(episodes: Sequence[Episode], out: Path) -> list[Episode]:
    """The episodes whose record is not yet in ``out``.

    Raises:
        UserError: two episodes share a task and a seed, or ``out`` is not a results file.
    """
    seen: set[EpisodeKey] = set()
    for episode in episodes:
        key = (episode.name, episode.seed)
        if key in seen:
            raise UserError(f"The task {key[0]!r} with seed {key[1]} is asked twice; name each task once.")
        seen.add(key)
    done = {record.key for record in read_records(out, missing_ok=True)}
    return [e for e in episodes if (e.name, e.seed) not in done]


async def run_episodes(
    episodes: Sequence[Episode],
    llm: LlmSource,
    out: Path,
    options: BatchOptions | None = None,
    *,
    concurrency: int = 1,
    browser: BrowserSource | Sequence[BrowserSource] | None = None,
    on_record: Listener | None = None,
) -> list[EpisodeRecord]:
    """Run ``episodes`` (at most ``concurrency`` at once, on ``browser`` as ``run_many`` takes it),
    appending each record to ``out`` as it ends; return the records in the order of ``episodes``.

    Raises:
        UserError: concurrency below 1, a BrowserSession as browser.
    """
    if not episodes:
        return []
    options = options or EvalOptions()
    model = options.model_name if isinstance(options, EvalOptions) else None
    records: dict[int, EpisodeRecord] = {}

    def record(outcome: TaskOutcome) -> None:
        records[outcome.index] = episode_record(episodes[outcome.index], outcome, model)
        artifacts.append_line(out, records[outcome.index].line())
        if on_record is not None:
            on_record(records[outcome.index])

    setup = BatchSetup(browser_sources(browser), llm, options, concurrency)
    await run_batch([episode.spec for episode in episodes], setup, LocalExecutor(), record)
    return [records[i] for i in sorted(records)]


def episode_record(episode: Episode, outcome: TaskOutcome, model: str | None = None) -> EpisodeRecord:
    """The episode's line: the judge's verdict, the run's counts, how it failed and why."""
    history = outcome.history
    verdict = outcome.verdict or Verdict(False, 0.0, None)
    usage = history.usage.total
    seconds = history.duration_seconds or 0.0  # the agent's run: not the page's opening nor the judge
    return EpisodeRecord(
        task=episode.name,
        family=episode.family,
        seed=episode.seed,
        success=verdict.success,
        reward=verdict.reward,
        steps=history.model_steps(),
        model_calls=model_calls(history),
        input_tokens=usage.input_tokens,
        output_tokens=usage.output_tokens,
        cached_input_tokens=usage.cached_input_tokens,
        seconds=round(seconds, 3),
        failure=failure_kind(history, success=verdict.success, timed_out=outcome.timed_out),
        detail=_detail(history, verdict, outcome.timed_out, seconds),
        goal=history.task,
        model=model,
        history=str(outcome.history_path) if outcome.history_path else None,
    )


def _detail(history: AgentHistory, verdict: Verdict, timed_out: bool, seconds: float) -> str | None:
    """Why the episode failed in one line; the judge's word when it succeeded."""
    if timed_out:
        return f"still running after {seconds:.0f} s; stopped"
    if history.error:
        return first_line(history.error)
    if verdict.success or history.is_done():
        return verdict.detail
    last = next((e for s in reversed(history.steps) for e in reversed(s.errors)), None)
    ending = {"max_steps": "not done within max_steps", "max_failures": "too many failed steps"}.get(
        history.end_reason or "", verdict.detail or "not done"
    )
    return f"{ending}; last error: {first_line(last)}" if last else ending
