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
from pathlib import Path
from typing import Any

from langchain_core.language_models import BaseChatModel

from browser_agent.agent.history import AgentHistory, AgentStep
from browser_agent.agent.hooks import AgentHooks
from browser_agent.agent.messages import MessageBuilder
from browser_agent.agent.models import AgentSettings
from browser_agent.agent.planner import make_plan
from browser_agent.agent.replay import Listener, ReplayOptions, ReplayReport, replay
from browser_agent.agent.step_runner import StepRunner
from browser_agent.browser import BrowserConfig, BrowserSession
from browser_agent.controller import Controller
from browser_agent.errors import AgentRunError
from browser_agent.sensitive import SensitiveData, redact, redact_obj

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
        hooks: Callbacks on step start and end.
    """

    def __init__(
        self,
        task: str,
        llm: BaseChatModel,
        *,
        controller: Controller | None = None,
        browser: BrowserSession | BrowserConfig | None = None,
        settings: AgentSettings | None = None,
        sensitive_data: SensitiveData | None = None,
        hooks: AgentHooks | None = None,
    ) -> None:
        self.task = task
        self.llm = llm
        self.settings = settings or AgentSettings()
        self.controller = controller or Controller()
        self.sensitive_data = dict(sensitive_data or {})
        self.hooks = hooks or AgentHooks()
        self.history = AgentHistory(task=redact(task, self.sensitive_data))
        self.session: BrowserSession | None = browser if isinstance(browser, BrowserSession) else None
        self._config = browser if isinstance(browser, BrowserConfig) else None
        self._messages = MessageBuilder(
            task,
            max_actions=self.settings.max_actions_per_step,
            max_input_tokens=self.settings.max_input_tokens,
            extend_system_message=self.settings.extend_system_message,
            sensitive_data=self.sensitive_data,
        )
        self._running = asyncio.Event()
        self._running.set()
        self._stop_requested = False
        self.consecutive_failures = 0

    # -- control ---------------------------------------------------------------------------------

    def pause(self) -> None:
        """Finish the current step, then wait for ``resume()``."""
        self._running.clear()

    def resume(self) -> None:
        self._running.set()

    def stop(self) -> None:
        """End the run after the current step; the history so far is saved."""
        self._stop_requested = True
        self._running.set()

    # -- running ---------------------------------------------------------------------------------

    async def rerun_history(
        self, history: AgentHistory, options: ReplayOptions | None = None, on_action: Listener | None = None
    ) -> ReplayReport:
        """Replay ``history`` on this agent's browser without calling the model (see ``replay``)."""
        opts = options or ReplayOptions(sensitive_data=self.sensitive_data)
        async with self._session() as session:
            return await replay(history, session, self.controller, opts, on_action)

    def run_sync(self, max_steps: int = 50) -> AgentHistory:
        """``run`` for code without an event loop."""
        return asyncio.run(self.run(max_steps=max_steps))

    async def run(self, max_steps: int = 50) -> AgentHistory:
        """Run until the model calls ``done``, ``max_steps`` pass, or ``stop()`` is called.

        Raises:
            AgentRunError: ``max_failures`` consecutive steps failed; ``.history`` holds the run.
        """
        try:
            async with self._session() as session:
                runner = StepRunner(self, session)
                await runner.run_initial_actions()
                await self._loop(runner, max_steps)
        except (KeyboardInterrupt, asyncio.CancelledError):
            path = self._save_history()
            logger.warning("Interrupted; the history so far is saved to %s", path)
            raise
        if self._stop_requested:
            path = self._save_history()
            logger.info("Stopped; the history so far is saved to %s", path)
        elif self.settings.save_history_path is not None:
            self._save_history()
        return self.history

    async def _loop(self, runner: StepRunner, max_steps: int) -> None:
        plan: str | None = None
        for number in range(1, max_steps + 1):
            await self._running.wait()
            if self._stop_requested:
                return
            await self.hooks.step_start(self, number)
            step = await runner.step(number, max_steps, plan)
            self.history.append(step)
            await self.hooks.step_end(self, step)
            if self.history.is_done():
                return
            if self.consecutive_failures >= self.settings.max_failures:
                if self.settings.save_history_path is not None:
                    self._save_history()
                raise AgentRunError(
                    f"{self.consecutive_failures} steps failed in a row (max_failures="
                    f"{self.settings.max_failures}); last error: {step.errors[-1] if step.errors else '?'}",
                    history=self.history,
                )
            plan = await self._plan_if_due(number)
        logger.info("Reached max_steps=%d without the task being done", max_steps)

    async def _plan_if_due(self, number: int) -> str | None:
        planner = self.settings.planner_llm
        if planner is None or number % self.settings.planner_interval != 0:
            return None
        return await make_plan(
            planner,
            self._messages,
            use_vision=self.settings.planner_use_vision,
            retry=self.settings.retry_policy(),
        )

    @asynccontextmanager
    async def _session(self) -> AsyncIterator[BrowserSession]:
        if self.session is not None:
            await self.session.start()
            with self.session.driven_by(self.history.task):  # one running agent per session
                yield self.session
            return
        config = self._config or BrowserConfig()
        if self.settings.allowed_domains is not None and config.allowed_domains is None:
            config = config.model_copy(update={"allowed_domains": self.settings.allowed_domains})
        async with BrowserSession(config) as session:
            self.session = session
            try:
                yield session
            finally:
                self.session = None

    def _save_history(self) -> Path:
        path = self.settings.save_history_path or Path("browser_agent_history.json")
        return self.history.save(path)

    # -- for the step runner ---------------------------------------------------------------------

    @property
    def messages(self) -> MessageBuilder:
        return self._messages

    def redacted(self, value: Any) -> Any:
        return redact_obj(value, self.sensitive_data)

    def record_outcome(self, step: AgentStep) -> None:
        """Count consecutive failures: a step fails when the model failed or every action failed."""
        failed = step.error is not None or (bool(step.results) and all(r.get("error") for r in step.results))
        self.consecutive_failures = self.consecutive_failures + 1 if failed else 0

    def log(self, message: str, *args: object) -> None:
        logger.info(redact(message % args if args else message, self.sensitive_data))

    @staticmethod
    def now() -> float:
        return time.perf_counter()
