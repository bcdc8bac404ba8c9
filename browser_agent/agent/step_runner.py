"""One step of the loop, in named phases: observe, decide, act, record.

The step gets what it needs in one ``StepDeps`` and hands back a finished, redacted ``AgentStep``;
the loop (``Agent``) decides what the outcome means for the run. Data flows one way: nothing here
knows the ``Agent``.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from typing import Any

from langchain_core.language_models import BaseChatModel

from browser_agent.agent.conversation import Conversation
from browser_agent.agent.conversation_file import save_conversation
from browser_agent.agent.done_guard import DoneGuard
from browser_agent.agent.evaluation_pins import FIRST_EVALUATION, Pins, verdict
from browser_agent.agent.halt import StepHalted, unless_halted
from browser_agent.agent.hooks import PHASE_WORDS, StepPhase
from browser_agent.agent.loops import MAX_REPEATS, LoopWatch, loop_error, page_key, repeat_warning
from browser_agent.agent.settings import AgentSettings
from browser_agent.agent.step_pictures import final_picture, recorded
from browser_agent.agent.task_hints import NO_HINTS, TaskHints, task_hints
from browser_agent.agent.task_url import task_url
from browser_agent.agent.unusable_actions import unusable_actions
from browser_agent.browser import BrowserSession, BrowserState
from browser_agent.controller import ActionResult, Controller
from browser_agent.controller.actions.refusals import misfit_actions
from browser_agent.controller.actions.submenus import opened_by_pointing
from browser_agent.controller.reply import AgentOutput, build_output_model, tool_parameters
from browser_agent.errors import (
    ActionError,
    BrowserError,
    ModelError,
    ModelOutputError,
    ProviderUnreachableError,
)
from browser_agent.llm import (
    Method,
    Mode,
    PromptShape,
    RetryPolicy,
    StructuredReply,
    TokenUsage,
    ask_structured,
)
from browser_agent.record import ActionCall, AgentStep, StepOutput, StepScreenshot, describe_step
from browser_agent.sensitive import Secrets

__all__ = ["StepDeps", "StepRunner"]

logger = logging.getLogger("browser_agent")


@dataclass(frozen=True, slots=True)
class StepDeps:
    """Everything a step uses, handed down by the loop."""

    llm: BaseChatModel
    controller: Controller
    session: BrowserSession
    settings: AgentSettings
    secrets: Secrets
    messages: Conversation
    on_retry: Callable[[str], None] | None = None
    on_phase: Callable[[int, StepPhase], Awaitable[None]] | None = None
    halt: asyncio.Event | None = None  # set by pause() and stop(): the model call under way is cancelled
    opening: bool = False  # requests begin the reply (agent/budget.py, begins_replies)


def _now() -> float:
    return time.perf_counter()


class StepRunner:
    """Runs the steps of one run; keeps what the next step must be told (memos, warnings)."""

    def __init__(self, deps: StepDeps) -> None:
        self.deps = deps
        self._current: AgentStep | None = None
        self._started = 0.0
        self._phase: StepPhase | None = None
        self.method: Method = deps.settings.tool_calling_method
        self._loops = LoopWatch()
        self._done_guard = DoneGuard()
        self._opened: tuple[tuple[str, int], ...] = ()  # items whose submenu the last step opened by pointing
        self._warnings: list[str] = []
        self._answered = False  # the model has given a valid reply in this run
        self._opening = deps.opening
        self._verdict: Pins = ()  # the evaluation the last step's outcome pins
        self._unsaid: tuple[str, ...] = ()  # the page's events a halted step read and the model never heard
        # Set when the model's server cannot be reached: the loop ends the run instead of stepping on.
        self.unreachable: ProviderUnreachableError | None = None

    def initial_actions(self) -> list[dict[str, Any]]:
        """What step 0 runs before the first step: ``settings.initial_actions``, or, without them, the
        opening of the one web address the task names (``settings.open_task_url``); often nothing."""
        settings = self.deps.settings
        fence = self.deps.session.allowed_domains
        url = task_url(self.deps.messages.task, fence) if settings.open_task_url else None
        if settings.initial_actions or url is None:
            return list(settings.initial_actions)
        return [{"action": "go_to_url", "url": url}]

    async def initial_step(self, raw: list[dict[str, Any]]) -> AgentStep:
        """Run ``raw`` (``initial_actions()``) without the model, as step 0."""
        controller = self.deps.controller
        actions = [controller.parse_action(a) for a in raw]
        step = self._begin(0, None)
        await self._enter(step, "observe")
        state = await self.deps.session.state(redact=self._redactor())
        step.url, step.title = state.url, state.title
        step.model_output = StepOutput(
            action=[ActionCall.model_validate(a.model_dump(mode="json")) for a in actions]
        )
        await self._enter(step, "act")
        results = await self._act(actions)
        self._done_guard.note(results)
        self._record_results(step, results)
        return self._finish(step)

    @property
    def in_progress(self) -> bool:
        """Whether a step has begun and not finished (what an interruption cuts short)."""
        return self._current is not None

    async def step(
        self, number: int, max_steps: int, plan: str | None, plan_usage: TokenUsage | None = None
    ) -> AgentStep:
        """Observe the page, ask the model, run its actions; a failure is recorded, not raised."""
        step = self._begin(number, plan)
        if plan_usage is not None:
            step.planner_usage = plan_usage
        settings = self.deps.settings
        await self._enter(step, "observe")
        try:
            state = await self.deps.session.state(
                screenshot=settings.use_vision or settings.record_screenshots,
                mask_values=self.deps.secrets.values(),
                marks=True,
                redact=self._redactor(),
            )
        except ActionError as exc:  # a tab that never answers: say so, let the model recover
            step.error = str(exc)
            return self._finish(step)
        if self._unsaid:
            state, self._unsaid = replace(state, events=self._unsaid + state.events), ()
        hints = await self._hints(state)
        step.url, step.title = state.url, state.title
        step.timings.state_ms = self._elapsed_ms()
        self._keep_screenshot(step, state)
        vision = state.screenshot_b64 if settings.use_vision else None
        page = page_key(state.url, state.snapshot)
        await self._enter(step, "decide")
        warnings = self._warnings
        try:
            reply = await self._decide(
                step, state, vision, (number, max_steps), plan, self._left_out(page, state), hints
            )
        except StepHalted:  # told again when the step runs again
            self._unsaid, self._warnings = state.events, warnings
            raise
        step.timings.model_ms = self._elapsed_ms() - step.timings.state_ms
        if reply is not None:
            step.model_output = StepOutput.model_validate(reply.parsed.model_dump(mode="json"))
            self._done_guard.note_typed(step.model_output.action)
            self._done_guard.note_goal(reply.parsed.current_state.next_goal)
            if not self._repeats_itself(step, page):
                await self._enter(step, "act")
                results = await self._act(reply.parsed.action, reply.parsed.current_state.next_goal)
                task, redact, last = self.deps.messages.task, self.deps.secrets.redact, number >= max_steps
                session = self.deps.session
                checked = self._done_guard.check(
                    task, state.snapshot, results, redact, hints.hidden, session, last
                )
                self._record_results(step, checked)
                self._loops.release_held(step.step, page, step.actions, checked)
                self._opened = tuple(("click_element", index) for index in opened_by_pointing(results))
        return self._finish(step)

    def _left_out(self, page: str, state: BrowserState) -> tuple[tuple[str, int], ...]:
        """The ``(action, index)`` pairs the grammar leaves out: actions already sent on this same page,
        typing into what takes no text, actions that could only be refused (``unusable_actions``),
        ``done`` right after one was held back, and, once, a click on the menu item whose submenu the
        last step opened."""
        misfits = misfit_actions(state.snapshot) + unusable_actions(state, self.deps.settings.allowed_files)
        opened, self._opened = self._opened, ()
        return self._loops.spent(page) + misfits + self._done_guard.left_out() + opened

    async def _hints(self, state: BrowserState) -> TaskHints:
        """The long page's passages that match the task, redacted, and where it hides what the task
        quotes; none when the page cannot be read."""
        deps = self.deps
        try:
            page = deps.session.page
        except BrowserError:
            return NO_HINTS
        redact, budget = deps.secrets.redact, deps.settings.task_passage_tokens
        return await task_hints(page, deps.messages.task, state, budget, redact)

    def _repeats_itself(self, step: AgentStep, page: str) -> bool:
        """Whether the step's actions were sent ``MAX_REPEATS`` times on this same page already (the step
        then fails without running them); a first or second repeat is told to the model next step."""
        earlier = self._loops.check(step.step, page, step.actions)
        if len(earlier) >= MAX_REPEATS:
            step.error = loop_error(earlier, step.actions)
            return True
        if earlier:
            self._warnings.append(repeat_warning(earlier, step.actions))
        return False

    def _keep_screenshot(self, step: AgentStep, state: BrowserState) -> None:
        """Record the marked, masked screenshot in the step (``record_screenshots``)."""
        if self.deps.settings.record_screenshots and state.screenshot_b64:
            step.screenshot = recorded(self.deps.session, state.screenshot_b64)

    async def final_picture(self) -> StepScreenshot | None:
        """The page after the last action, for the record (``record_screenshots`` only)."""
        if not self.deps.settings.record_screenshots:
            return None
        return await final_picture(self.deps.session, self.deps.secrets)

    def abandon(self, message: str, unfinished: str = "the step ran out of time") -> AgentStep:
        """End the step in progress as failed with ``message`` (it ran out of time, or was interrupted);
        its actions that have no result yet are marked ``not finished: {unfinished}``."""
        step = self._current or self._begin(0, None)
        step.error = message
        if self._phase == "decide":  # cut off while the model answered: that time is the model's
            step.timings.model_ms = max(0.0, self._elapsed_ms() - step.timings.state_ms)
        if step.model_output and not step.results:
            missing = f"not finished: {unfinished}"
            step.results = [ActionResult(action=a.name, error=missing) for a in step.actions]
        return self._finish(step)

    def withdraw(self) -> None:
        """Forget the step in progress, halted by a pause: it runs again, with its number, on resume."""
        self._current, self._phase = None, None

    def interrupted(self) -> AgentStep:
        """End the step in progress as cut short by Ctrl-C (or a cancellation), saying in which phase."""
        doing = PHASE_WORDS[self._phase] if self._phase is not None else "starting"
        return self.abandon(f"Interrupted while {doing}.", unfinished="the run was interrupted")

    # -- phases ----------------------------------------------------------------------------------

    def _begin(self, number: int, plan: str | None) -> AgentStep:
        self._current = AgentStep(step=number, plan=plan)
        self._started = _now()
        self._phase = None
        return self._current

    async def _enter(self, step: AgentStep, phase: StepPhase) -> None:
        """Move ``step`` to ``phase``, telling ``on_phase`` (progress output starts its spinner there)."""
        self._phase = phase
        if self.deps.on_phase is not None:
            await self.deps.on_phase(step.step, phase)

    def _elapsed_ms(self) -> float:
        return (_now() - self._started) * 1000

    def _redactor(self) -> Callable[[str], str] | None:
        """What a capture redacts the page's texts with before it cuts them; none without secrets."""
        return self.deps.secrets.redact if self.deps.secrets else None

    async def _decide(
        self,
        step: AgentStep,
        state: BrowserState,
        screenshot: str | None,
        position: tuple[int, int],
        plan: str | None,
        left_out: tuple[tuple[str, int], ...],
        hints: TaskHints,
    ) -> StructuredReply[AgentOutput] | None:
        deps, settings = self.deps, self.deps.settings
        number, max_steps = position
        warnings, self._warnings = self._warnings, []
        text = deps.messages.state_text(
            state,
            step=number,
            max_steps=max_steps,
            plan=plan,
            warnings=warnings,
            hints=hints,
        )
        messages = deps.messages.build(text, screenshot)
        if deps.settings.save_conversation_path is not None:
            save_conversation(deps.settings.save_conversation_path, number, messages)
        output_model = self._output_model(state.url)
        try:
            asking = ask_structured(
                deps.llm,
                messages,
                output_model,
                method=self.method,
                max_corrections=settings.max_corrections,
                retry=self._retry_policy(step),
                shape=PromptShape(
                    tool_parameters=tool_parameters(output_model),
                    described=True,
                    indices=tuple(state.snapshot.selector_map) if state.snapshot is not None else (),
                    left_out=left_out,
                    pinned=self._verdict if self._answered else FIRST_EVALUATION,
                    opening=self._opening,
                ),
            )
            reply = await unless_halted(asking, deps.halt)
        except ModelError as exc:
            step.error = f"{type(exc).__name__}: {exc}"
            if isinstance(exc, ProviderUnreachableError):
                self.unreachable = exc
            if isinstance(exc, ModelOutputError):
                step.usage = TokenUsage(exc.input_tokens, exc.output_tokens, exc.cached_input_tokens)
            return None
        self._keep_method(reply.method)
        self._opening = self._opening and not reply.opening_ignored
        self._answered = True
        step.usage = reply.usage
        step.corrections = reply.attempts - 1
        return reply

    def _keep_method(self, used: Mode) -> None:
        """Under ``auto``, keep the method that worked; say once when it is not tool calling."""
        if self.method != "auto":
            return
        self.method = used
        if used != "function_calling":
            logger.warning(
                "This model or server does not call tools; the rest of the run uses tool_calling_method=%r",
                used,
            )

    def _retry_policy(self, step: AgentStep) -> RetryPolicy:
        """The settings' policy, telling the step and ``on_retry`` about each retry as it happens."""

        def announce(message: str) -> None:
            text = self.deps.secrets.redact(message)
            step.retries.append(text)
            if self.deps.on_retry is not None:
                self.deps.on_retry(text)

        return replace(self.deps.settings.retry_policy(), on_retry=announce)

    def _output_model(self, url: str) -> type[AgentOutput]:
        """The step's output model, built once per set of offered actions (schemas are costly)."""
        union = self.deps.controller.action_union(url)
        return build_output_model(union, self.deps.settings.max_actions_per_step)

    async def _act(self, actions: list[Any], goal: str = "") -> list[ActionResult]:
        deps = self.deps
        return await deps.controller.run(
            actions,
            deps.session,
            extraction_llm=deps.settings.page_extraction_llm,
            sensitive_data=deps.secrets,
            allowed_files=deps.settings.allowed_files,
            model_chose=True,
            goal=goal,
            task=deps.messages.task,
        )

    @staticmethod
    def _record_results(step: AgentStep, results: list[ActionResult]) -> None:
        """The results, the fingerprints the controller took of the elements acted on, their boxes on
        the screenshot, and the extraction model's tokens."""
        step.results = list(results)
        step.interacted = [r.fingerprint for r in results]
        for r in results:
            if r.usage is not None:
                step.extraction_usage += r.usage
        if step.screenshot is not None:
            step.screenshot.targets = [
                [r.element.rect.x, r.element.rect.y, r.element.rect.width, r.element.rect.height]
                for r in results
                if r.element is not None
            ]

    def _finish(self, step: AgentStep) -> AgentStep:
        """Time the step, redact every field of it, and remember it for the next request."""
        step.timings.total_ms = self._elapsed_ms()
        step.timings.actions_ms = max(
            0.0, step.timings.total_ms - step.timings.state_ms - step.timings.model_ms
        )
        self._current, self._phase = None, None
        # The screenshot was masked when taken; its base64 text is not redacted (that would corrupt it).
        shot = step.screenshot
        step = AgentStep.model_validate(self.deps.secrets.redact_obj(step.model_dump(exclude={"screenshot"})))
        step.screenshot = shot
        self.deps.messages.add_memo(step)
        self._verdict = verdict(step)
        logger.info("step %d: %s", step.step, describe_step(step))
        return step
