"""Run episodes with a model, M at a time, one JSON line each as soon as it ends; resumable.

Each episode gets its own browser context on the batch machinery's ``Fleet`` (one launched Chromium by
default), its own ``Agent``, and a judge (``Episode.verdict``) run on the page as the agent left it.
An episode never raises for what happened to it: a model or browser error, a time limit, a bug end up
in its record (``failure``, ``detail``). Records already in the results file are skipped
(``pending``), so an interrupted evaluation resumes where it stopped.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import tempfile
import time
import traceback
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from langchain_core.language_models import BaseChatModel

from browser_agent import artifacts
from browser_agent.agent import Agent, AgentHooks, AgentSettings
from browser_agent.batch.fleet import Endpoint, Fleet
from browser_agent.batch.options import BrowserSource
from browser_agent.batch.task_run import history_file
from browser_agent.browser import BrowserConfig, BrowserSession
from browser_agent.browser.fence_rule import FenceSource, resolve_fence
from browser_agent.browser.playwright_errors import PlaywrightError
from browser_agent.controller import Controller
from browser_agent.defaults import DEFAULT_MAX_STEPS
from browser_agent.errors import AgentRunError, BrowserAgentError, UserError, first_line
from browser_agent.eval.episode import Episode, Verdict
from browser_agent.eval.episode_record import (
    EpisodeKey,
    EpisodeRecord,
    failure_kind,
    model_calls,
    read_records,
)
from browser_agent.record import AgentHistory, AgentStep
from browser_agent.sensitive import Secrets

__all__ = ["EvalOptions", "pending", "run_episodes"]

logger = logging.getLogger("browser_agent")
Listener = Callable[[EpisodeRecord], None]


@dataclass(frozen=True, slots=True)
class EvalOptions:
    """How every episode of an evaluation runs.

    Attributes:
        settings: The agents' settings (the method, max_failures, step_timeout_s, ...).
        max_steps: Steps per episode unless its task says otherwise.
        concurrency: Episodes at once.
        episode_timeout_s: An episode still running after this long is stopped (failure ``timeout``).
        history_dir: Each episode's history is saved here as ``<task>-<seed>.json``; not kept when None.
        model_name: The model as the command line named it, written in each record.
        browsers: Where contexts are opened (one launched Chromium by default; see ``run_many``).
    """

    settings: AgentSettings = field(default_factory=AgentSettings)
    max_steps: int = DEFAULT_MAX_STEPS
    concurrency: int = 1
    episode_timeout_s: float | None = None
    history_dir: Path | None = None
    model_name: str | None = None
    browsers: tuple[BrowserSource, ...] = (BrowserConfig(),)
    controller: Controller = field(default_factory=Controller)


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
    llm: BaseChatModel,
    out: Path,
    options: EvalOptions,
    *,
    on_start: Callable[[Episode], None] | None = None,
    on_record: Listener | None = None,
) -> list[EpisodeRecord]:
    """Run ``episodes`` (at most ``options.concurrency`` at once), appending each record to ``out`` as it
    ends; return the records in the order of ``episodes``.

    Raises:
        UserError: concurrency below 1.
    """
    if options.concurrency < 1:
        raise UserError(f"concurrency={options.concurrency}: run at least one episode at a time.")
    slots = asyncio.Semaphore(options.concurrency)
    records: dict[int, EpisodeRecord] = {}
    with _scratch(options) as save_dir:
        kit = _Kit(llm, options, save_dir)

        async def run_one(index: int, episode: Episode, fleet: Fleet) -> None:
            async with slots:
                if on_start is not None:
                    on_start(episode)
                record = await _run_episode(episode, fleet, kit)
            records[index] = record
            artifacts.append_line(out, record.line())
            if on_record is not None:
                on_record(record)

        async with Fleet(options.browsers) as fleet, asyncio.TaskGroup() as group:
            for index, episode in enumerate(episodes):
                group.create_task(run_one(index, episode, fleet), name=f"eval {episode.name}#{episode.seed}")
    return [records[i] for i in sorted(records)]


@dataclass(frozen=True, slots=True)
class _Kit:
    llm: BaseChatModel
    options: EvalOptions
    save_dir: Path


@contextlib.contextmanager
def _scratch(options: EvalOptions) -> Iterator[Path]:
    """Where agents save their history: the user's folder, or one removed at the end."""
    if options.history_dir is not None:
        yield options.history_dir
        return
    with tempfile.TemporaryDirectory(prefix="browser_agent_eval_") as folder:
        yield Path(folder)


@dataclass
class _Outcome:
    """What became of one episode while it ran."""

    history: AgentHistory = field(default_factory=AgentHistory)
    verdict: Verdict | None = None
    timed_out: bool = False
    seconds: float = 0.0


async def _run_episode(episode: Episode, fleet: Fleet, kit: _Kit) -> EpisodeRecord:
    """Run ``episode`` on the fleet's least busy browser; never raises but on cancellation."""
    outcome = _Outcome()
    secrets = Secrets()
    try:
        # a secret too short to redact, a variable not set: UserError
        secrets = artifacts.remember(Secrets(episode.secrets))
        async with fleet.slot() as endpoint:
            await _drive(episode, endpoint, kit, outcome)
    except asyncio.CancelledError:
        reason = fleet.cut_off_reason()
        if reason is None:
            raise
        outcome.history.error = f"BrowserError: {reason}"
    except Exception as exc:
        if not isinstance(exc, BrowserAgentError):  # a bug, ours or in an action: keep its traceback
            logger.warning("episode %s raised:\n%s", episode.name, secrets.redact(traceback.format_exc()))
        outcome.history.error = secrets.redact(f"{type(exc).__name__}: {exc}")
    return _record(episode, kit, outcome)


def _fence(episode: Episode, endpoint: Endpoint, kit: _Kit) -> tuple[str, ...] | None:
    """The fence of ``episode``, by the one rule (``browser/fence_rule.py``): the episode's own list (a
    task's, or a MiniWoB++ page's site) is a choice; the suite's (its settings' and its browsers', where
    ``--allowed-domain`` goes) are defaults for episodes without one.

    Raises:
        UserError: the suite's two defaults differ and neither is within the other.
    """
    return resolve_fence(
        FenceSource.choice(f"episode {episode.name}'s allowed_domains", episode.allowed_domains),
        FenceSource.default("the suite's allowed_domains", kit.options.settings.allowed_domains),
        FenceSource.default("the suite's browser fence", endpoint.config.allowed_domains),
    )


async def _drive(episode: Episode, endpoint: Endpoint, kit: _Kit, outcome: _Outcome) -> None:
    fence = _fence(episode, endpoint, kit)
    config = endpoint.config.model_copy(update={"allowed_domains": fence})
    settings = kit.options.settings.model_copy(
        update={
            "allowed_domains": fence,
            "save_history_path": _history_path(kit.save_dir, episode),
            "open_task_url": episode.open_task_url and kit.options.settings.open_task_url,
        }
    )
    async with BrowserSession(config, browser=endpoint.browser) as session:
        goal = await episode.open(session)

        async def stop_when_ended(agent: Agent, step: AgentStep) -> None:
            with contextlib.suppress(PlaywrightError, TimeoutError):  # judged at the end all the same
                if await episode.ended(session):
                    agent.stop()

        agent = Agent(
            goal,
            kit.llm,
            controller=kit.options.controller,
            browser=session,
            settings=settings,
            sensitive_data=episode.secrets,
            hooks=AgentHooks(on_step_end=stop_when_ended),
            output_model=episode.output_model,
        )
        outcome.history = agent.history
        await _run_agent(agent, episode.max_steps or kit.options.max_steps, kit, outcome)
        outcome.verdict = await _judge(episode, session, agent.history)


async def _run_agent(agent: Agent, max_steps: int, kit: _Kit, outcome: _Outcome) -> None:
    limit = kit.options.episode_timeout_s
    started = time.perf_counter()
    try:
        async with asyncio.timeout(limit) as scope:
            await agent.run(max_steps=max_steps)
    except TimeoutError:
        if not scope.expired():
            raise
        outcome.timed_out = True
    except AgentRunError:
        pass  # too many failed steps, or no model server: the history says which
    finally:
        outcome.seconds = time.perf_counter() - started


async def _judge(episode: Episode, session: BrowserSession, history: AgentHistory) -> Verdict:
    try:
        return await episode.verdict(session, history)
    except (PlaywrightError, TimeoutError, BrowserAgentError) as exc:
        return Verdict(False, 0.0, f"could not judge the page: {first_line(exc)}")


def _history_path(folder: Path, episode: Episode) -> Path:
    return history_file(folder, f"{episode.name}-{episode.seed}")


def _record(episode: Episode, kit: _Kit, outcome: _Outcome) -> EpisodeRecord:
    history = outcome.history
    verdict = outcome.verdict or Verdict(False, 0.0, None)
    usage = history.usage.total
    saved = None
    if kit.options.history_dir is not None:
        saved = str(history.save(_history_path(kit.options.history_dir, episode)))
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
        seconds=round(outcome.seconds, 3),
        failure=failure_kind(history, success=verdict.success, timed_out=outcome.timed_out),
        detail=_detail(history, verdict, outcome),
        goal=history.task,
        model=kit.options.model_name,
        history=saved,
    )


def _detail(history: AgentHistory, verdict: Verdict, outcome: _Outcome) -> str | None:
    """Why the episode failed in one line; the judge's word when it succeeded."""
    if outcome.timed_out:
        return f"still running after {outcome.seconds:.0f} s; stopped"
    if history.error:
        return first_line(history.error)
    if verdict.success or history.is_done():
        return verdict.detail
    last = next((e for s in reversed(history.steps) for e in reversed(s.errors)), None)
    ending = {"max_steps": "not done within max_steps", "max_failures": "too many failed steps"}.get(
        history.end_reason or "", verdict.detail or "not done"
    )
    return f"{ending}; last error: {first_line(last)}" if last else ending
