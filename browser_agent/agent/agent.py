"""``Agent``: observe the page, ask the model, run its actions, record the step; until done.

Usage::

    history = await Agent(task="Find the price of the blue mug", llm=ChatOpenAI(model="gpt-4o")).run()
    print(history.final_result())
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

from langchain_core.language_models import BaseChatModel
from pydantic import BaseModel

from browser_agent import artifacts
from browser_agent.agent.budget import begins_replies, model_budget
from browser_agent.agent.conversation import Conversation
from browser_agent.agent.halt import PAUSED_MESSAGE, STOPPED_MESSAGE, StepHalted, unless_halted
from browser_agent.agent.hooks import AgentHooks
from browser_agent.agent.planner import make_plan
from browser_agent.agent.settings import DEFAULT_MAX_STEPS, AgentSettings
from browser_agent.agent.step_runner import StepDeps, StepRunner
from browser_agent.browser import BrowserConfig, BrowserSession
from browser_agent.browser.fence_rule import FenceSource, resolve_fence
from browser_agent.browser.watchdog import within
from browser_agent.controller import Controller
from browser_agent.errors import AgentRunError, ModelError, ProviderUnreachableError
from browser_agent.interrupts import run_interruptible
from browser_agent.llm import TokenUsage
from browser_agent.playback import ReplayOptions, ReplayReport, replay, replay_fence
from browser_agent.playback.replayer import Listener
from browser_agent.record import AgentHistory, AgentStep
from browser_agent.sensitive import Secrets, SensitiveData

__all__ = ["Agent"]

logger = logging.getLogger("browser_agent")


class Agent:
    """Drives a browser with a chat model until the task is done.

    Args:
        task: What to do, in plain words.
        llm: A langchain-core chat model (any provider).
        controller: The actions on offer; the built-ins when omitted.
        browser: A running ``BrowserSession`` to use (left open), or a ``BrowserConfig`` to launch with.
        settings: Every other knob (``AgentSettings``).
        sensitive_data: ``{name: value}`` secrets; the model only ever sees ``<secret>name</secret>``.
        hooks: Callbacks on step start and end, retries and the end of the run
            (``ConsoleReporter().hooks()`` prints the run as it goes).
        output_model: A pydantic model: ``done`` then takes one (validated; a bad one goes back to the
            model) and ``history.structured_output()`` returns it.
    """

    def __init__(  # noqa: PLR0913 - output_model is the one knob that is a type, not a setting
        self,
        task: str,
        llm: BaseChatModel,
        *,
        controller: Controller | None = None,
        browser: BrowserSession | BrowserConfig | None = None,
        settings: AgentSettings | None = None,
        sensitive_data: SensitiveData | Secrets | None = None,
        hooks: AgentHooks | None = None,
        output_model: type[BaseModel] | None = None,
    ) -> None:
        self.task = task
        self.llm = llm
        self.settings = settings or AgentSettings()
        self.controller = controller or Controller()
        if output_model is not None:
            self.controller = self.controller.with_output_model(output_model)
        self.secrets = artifacts.remember(sensitive_data)  # redacted from all the process writes
        self.hooks = hooks or AgentHooks()
        self.history = AgentHistory(task=self.secrets.redact(task), output_model=output_model)
        self.session: BrowserSession | None = browser if isinstance(browser, BrowserSession) else None
        given = browser if isinstance(browser, BrowserConfig) else BrowserConfig()
        self._config = given.model_copy(update={"allowed_domains": self._fence(given)})
        fence = self._config.allowed_domains
        if fence is not None:
            self.controller = self.controller.fenced_to(fence)
        self._messages = Conversation(
            task,
            max_actions=self.settings.max_actions_per_step,
            max_input_tokens=self.settings.max_input_tokens,
            actions=self.controller.describe_actions(),
            extend_system_message=self.settings.extend_system_message,
            secrets=self.secrets,
        )
        self._running = asyncio.Event()
        self._running.set()
        self._halt = asyncio.Event()  # set by pause() and stop(): the model call under way is cancelled
        self._stop_requested = False
        self.consecutive_failures = 0
        self.max_steps = 0
        self._clock: tuple[float, float] | None = None  # (monotonic start, seconds of earlier runs)

    # -- control ---------------------------------------------------------------------------------

    def pause(self) -> None:
        """Wait for ``resume()``: at once when the model is being asked (the call is cancelled, and the
        step reads the page and asks again on resume), else once the step under way ends."""
        self._running.clear()
        self._halt.set()

    def resume(self) -> None:
        if not self._stop_requested:
            self._halt.clear()
        self._running.set()

    def stop(self) -> None:
        """End the run: at once when the model is being asked (the call is cancelled, and the step is
        recorded as stopped), else once the step under way ends; the history so far is saved."""
        self._stop_requested = True
        self._halt.set()
        self._running.set()

    def tell(self, note: str) -> None:
        """Tell the model ``note`` in its next request (redacted), as a line of the run's log after the
        last step: what someone changed in the browser while the run was paused, for instance."""
        self._messages.add_note(note)

    @property
    def paused(self) -> bool:
        """Whether ``pause()`` was asked and ``resume()`` (or ``stop()``) not yet."""
        return not self._running.is_set()

    # -- running ---------------------------------------------------------------------------------

    async def rerun_history(
        self, history: AgentHistory, options: ReplayOptions | None = None, on_action: Listener | None = None
    ) -> ReplayReport:
        """Replay ``history`` on this agent's browser without calling the model (see ``replay``).

        The agent's fence is a limit of the replay (``browser/fence_rule.py``): a history recorded under
        a wider fence, or none, keeps to the agent's.

        Raises:
            UserError: the replay's fence is not within the agent's.
        """
        opts = options or ReplayOptions(sensitive_data=self.secrets)
        agents = FenceSource.limit("the agent's fence", self._config.allowed_domains)
        opts = replace(opts, allowed_domains=replay_fence(history, opts, agents))
        async with self._session() as session:
            return await replay(history, session, self.controller, opts, on_action)

    def run_sync(self, max_steps: int = DEFAULT_MAX_STEPS) -> AgentHistory:
        """``run`` for code without an event loop."""
        return run_interruptible(self.run(max_steps=max_steps))

    async def run(self, max_steps: int = DEFAULT_MAX_STEPS) -> AgentHistory:
        """Run until the model calls ``done``, ``max_steps`` pass, or ``stop()`` is called.

        ``history.end_reason`` says which; ``history.is_successful()`` whether the task succeeded.

        Raises:
            AgentRunError: ``max_failures`` consecutive steps failed, or the model's server cannot be
                reached at all (then at once; ``__cause__`` is the ``ProviderUnreachableError``);
                ``.history`` holds the run.
        """
        self.max_steps = max_steps
        if self.history.started_at is None:
            self.history.started_at = datetime.now(UTC)
        self._clock = (time.monotonic(), self.history.duration_seconds or 0.0)
        try:
            await self._run(max_steps)
        finally:
            self._stop_clock()
            await self.hooks.run_end(self, self.history)
        return self.history

    async def _run(self, max_steps: int) -> None:
        runner: StepRunner | None = None
        try:
            self._messages.set_budget(await model_budget(self.llm, self.settings))
            async with self._session() as session:
                self.history.allowed_domains = session.allowed_domains
                runner = StepRunner(
                    StepDeps(
                        self.llm,
                        self.controller,
                        session,
                        self.settings,
                        self.secrets,
                        self._messages,
                        on_retry=lambda text: self.hooks.retry(self, text),
                        on_phase=lambda number, phase: self.hooks.step_phase(self, number, phase),
                        halt=self._halt,
                        opening=await begins_replies(self.llm, self.settings),
                    )
                )
                await self._initial_step(runner)
                await self._loop(runner, session, max_steps)
                await self._picture_the_end(runner)
        except (KeyboardInterrupt, asyncio.CancelledError):
            self.history.end_reason = "interrupted"
            if runner is not None and runner.in_progress:  # the step Ctrl-C cut short is part of the run
                await self._end_step(runner.interrupted())
            path = self._save_history()
            logger.warning("Interrupted; the history so far is saved to %s", path)
            raise
        except AgentRunError:
            raise
        except BaseException:
            self.history.end_reason = "error"
            if self.settings.save_history_path is not None:
                self._save_history()
            raise
        if self._stop_requested:
            self.history.end_reason = "stopped"
            path = self._save_history()
            logger.info("Stopped; the history so far is saved to %s", path)
        elif self.settings.save_history_path is not None:
            self._save_history()

    async def _initial_step(self, runner: StepRunner) -> None:
        """Step 0: the actions run before the first step, when there are any."""
        actions = runner.initial_actions()
        if actions:
            await self.hooks.step_start(self, 0)
            await self._end_step(await runner.initial_step(actions))

    async def _end_step(self, step: AgentStep) -> None:
        self.history.append(step)
        path = self.settings.save_history_path
        if path is not None:  # as it goes: a killed run leaves its last complete step
            try:
                self.history.save(path)
            except OSError as exc:  # a full disk must not end the run; the save at its end says it again
                logger.warning("Could not save the history to %s after step %d: %s", path, step.step, exc)
        await self.hooks.step_end(self, step)

    async def _loop(self, runner: StepRunner, session: BrowserSession, max_steps: int) -> None:
        plan: tuple[str, TokenUsage] | None = None
        number = 1
        while number <= max_steps:
            await self._running.wait()
            if self._stop_requested:
                return
            await self.hooks.step_start(self, number)
            step = await self._unless_halted(runner, session, (number, max_steps), plan)
            if step is None:  # paused while the model was asked: the same step again on resume
                continue
            self._count_outcome(step)
            await self._end_step(step)
            if self.history.is_done():
                self.history.end_reason = "done"
                return
            if self._stop_requested:
                return
            if runner.unreachable is not None or self.consecutive_failures >= self.settings.max_failures:
                await self._picture_the_end(runner)
                self._fail(step, runner.unreachable)
            plan = await self._plan_if_due(number)
            number += 1
        self.history.end_reason = "max_steps"
        logger.info("Reached max_steps=%d without the task being done", max_steps)

    async def _unless_halted(
        self,
        runner: StepRunner,
        session: BrowserSession,
        position: tuple[int, int],
        plan: tuple[str, TokenUsage] | None,
    ) -> AgentStep | None:
        """The step; when ``pause()`` or ``stop()`` cancelled its model call, the step as stopped (a
        stop), or None (a pause: the step is withdrawn, said through ``on_step_halted``)."""
        number, max_steps = position
        try:
            return await self._bounded_step(runner, session, number, max_steps, plan)
        except StepHalted:
            if self._stop_requested:  # _finish logs it
                return runner.abandon(STOPPED_MESSAGE, unfinished="the run was stopped")
            runner.withdraw()
            logger.info("step %d: %s", number, PAUSED_MESSAGE)
            await self.hooks.step_halted(self, number, PAUSED_MESSAGE)
            return None

    async def _picture_the_end(self, runner: StepRunner) -> None:
        """Keep the page after the last action in the history (``record_screenshots`` only)."""
        self.history.final_screenshot = await runner.final_picture()

    async def _bounded_step(
        self,
        runner: StepRunner,
        session: BrowserSession,
        number: int,
        max_steps: int,
        plan: tuple[str, TokenUsage] | None,
    ) -> AgentStep:
        """The step, within ``step_timeout_s``; past it the step is failed and the tab's scripts stopped."""
        limit = self.settings.step_timeout_s
        text, usage = plan if plan is not None else (None, None)
        try:
            # asyncio.timeout, not wait_for: on 3.11 wait_for returns the step's result when a cancellation
            # (Ctrl-C) lands as the step ends, and the run goes on as if nothing was asked
            async with asyncio.timeout(limit) as scope:
                return await runner.step(number, max_steps, text, usage)
        except TimeoutError:
            if not scope.expired():
                raise
            await session.unstick()
            return runner.abandon(
                f"The step took longer than {limit:g} s and was stopped (a page that never answers, or a "
                "slow model: raise AgentSettings.step_timeout_s for slow models)."
            )

    def _fail(self, step: AgentStep, unreachable: ProviderUnreachableError | None = None) -> None:
        """End the run: too many failed steps, or (at once) a model server that is not there."""
        self.history.end_reason = "error" if unreachable is not None else "max_failures"
        if self.settings.save_history_path is not None:
            self._save_history()
        last = step.errors[-1] if step.errors else "?"
        message = (
            str(unreachable)
            if unreachable is not None
            else f"{self.consecutive_failures} steps failed in a row (max_failures="
            f"{self.settings.max_failures}); last error: {last}"
        )
        raise AgentRunError(self.secrets.redact(message), history=self.history) from unreachable

    async def _plan_if_due(self, number: int) -> tuple[str, TokenUsage] | None:
        planner = self.settings.planner_llm
        if planner is None or number % self.settings.planner_interval != 0:
            return None
        retry = replace(
            self.settings.retry_policy(),
            on_retry=lambda text: self.hooks.retry(self, self.secrets.redact(text)),
        )
        asking = make_plan(planner, self._messages, use_vision=self.settings.planner_use_vision, retry=retry)
        try:
            return await within(unless_halted(asking, self._halt), self.settings.step_timeout_s)
        except StepHalted:  # paused or stopped while planning: the next step goes without a new plan
            return None
        except (ModelError, TimeoutError) as exc:
            logger.warning(
                "The planner failed; going on without a new plan: %s", self.secrets.redact(str(exc))
            )
            return None

    def _fence(self, config: BrowserConfig) -> tuple[str, ...] | None:
        """The domains the run's browser is fenced to, by the one rule (``browser/fence_rule.py``): the
        browser's (the session's, or the config the agent launches with) and
        ``AgentSettings.allowed_domains``, a shortcut, are two choices; the narrower wins.

        Raises:
            UserError: the settings and the browser give two fences, neither within the other.
        """
        given = self.session.allowed_domains if self.session is not None else config.allowed_domains
        return resolve_fence(
            FenceSource.choice("the browser's allowed_domains", given),
            FenceSource.choice("AgentSettings.allowed_domains", self.settings.allowed_domains),
        )

    @asynccontextmanager
    async def _session(self) -> AsyncIterator[BrowserSession]:
        if self.session is not None:
            if self._config.allowed_domains is not None:  # before start: then the whole fence applies
                await self.session.fence_to(self._config.allowed_domains)
            await self.session.start()
            with self.session.driven_by(self.history.task):  # one running agent per session
                yield self.session
            return
        async with BrowserSession(self._config) as session:
            self.session = session
            try:
                yield session
            finally:
                self.session = None

    def _save_history(self) -> Path:
        self._stop_clock()  # a saved run says how long it took
        path = self.settings.save_history_path or Path("browser_agent_history.json")
        return self.history.save(path)

    def _stop_clock(self) -> None:
        """Record the run's wall time in the history, once per run (at its save, or at its end)."""
        if self._clock is not None:
            started, earlier = self._clock
            self.history.duration_seconds = earlier + time.monotonic() - started
            self._clock = None

    @property
    def sensitive_data(self) -> Secrets:
        """The run's secrets (values are never shown; see ``Secrets``)."""
        return self.secrets

    def _count_outcome(self, step: AgentStep) -> None:
        """Count consecutive failures: a step fails when the model failed or every action failed; one whose
        failed actions a check only held back counts neither way (``AgentStep.only_held``)."""
        self.consecutive_failures = self.consecutive_failures + (not step.only_held) if step.failed else 0
