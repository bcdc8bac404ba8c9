"""Replay a saved run without the model: re-locate each recorded element, act, never guess.

Actions that failed while recording are not replayed (they changed nothing). For each recorded action
that names an element, a fresh snapshot is taken and the element's fingerprint is located in it. Only a
clearly best match is acted on; an ambiguous or missing element is retried (late elements), then handed
to the optional ``llm`` for that one step, or skipped or stops the replay.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Literal

from langchain_core.language_models import BaseChatModel

from browser_agent import artifacts, reid
from browser_agent.browser import BrowserSession
from browser_agent.browser.fence_rule import FenceSource, resolve_fence
from browser_agent.controller import ActionResult, Controller
from browser_agent.dom.snapshot import DomSnapshot
from browser_agent.playback.rescue import Rescue, rescue_step
from browser_agent.record import ActionCall, AgentHistory, AgentStep
from browser_agent.reid import Fingerprint, LocateResult
from browser_agent.sensitive import Secrets, SensitiveData, as_secrets

__all__ = ["ReplayOptions", "ReplayReport", "ReplayedAction", "replay", "replay_fence"]

logger = logging.getLogger("browser_agent")

OnFailure = Literal["stop", "skip"]
Chooser = Callable[[Fingerprint, DomSnapshot], Fingerprint]
Status = Literal["done", "relocated", "handed_to_llm", "skipped", "failed"]


@dataclass(frozen=True, slots=True)
class ReplayOptions:
    """How to replay: retries for late elements, what to do on failure, values to substitute.

    ``substitutions`` replace text in every string argument, whole values and parts of them alike
    (``{"shop.example": "staging.shop.example"}`` changes the host inside a URL); one that matches no
    recorded argument is reported in ``ReplayReport.warnings``. ``allowed_domains`` fences the replay's
    browser; ``None`` applies the fence the run was recorded under (``history.allowed_domains``), and
    ``("*",)`` lets it go to every site. ``choose`` may name the element to look for on the page as it
    is now (a workflow's input names another item whose card shows another price); it gets the recorded
    fingerprint and the snapshot, and returns the fingerprint to re-locate.
    """

    retries: int = 3
    retry_wait_s: float = 0.5
    on_failure: OnFailure = "stop"
    substitutions: Mapping[str, str] = field(default_factory=dict)
    llm: BaseChatModel | None = None
    sensitive_data: SensitiveData | Secrets | None = None
    allowed_domains: tuple[str, ...] | None = None
    choose: Chooser | None = None


@dataclass(frozen=True, slots=True)
class ReplayedAction:
    """What happened to one recorded action."""

    step: int
    action: ActionCall
    status: Status
    message: str
    score: float | None = None
    result: ActionResult | None = None
    rescue: Rescue | None = None
    """What the model did in place of ``action`` (status ``handed_to_llm``): the step a healing keeps."""


@dataclass(slots=True)
class ReplayReport:
    actions: list[ReplayedAction] = field(default_factory=list)
    stopped: str | None = None
    warnings: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.stopped is None and not any(a.status == "failed" for a in self.actions)

    def final_result(self) -> str | None:
        for item in reversed(self.actions):
            if item.result is not None and item.result.is_done:
                return item.result.extracted_content
        return None


Listener = Callable[[ReplayedAction], Awaitable[None] | None]


async def replay(
    history: AgentHistory,
    session: BrowserSession,
    controller: Controller,
    options: ReplayOptions | None = None,
    on_action: Listener | None = None,
) -> ReplayReport:
    """Run every recorded action of ``history`` again on ``session``, without the model.

    The replay is fenced (``replay_fence``); a ``session`` not started yet is started here under the
    whole fence, one already started gets the route and tab guards only (``BrowserSession.fence_to``).
    """
    opts = options or ReplayOptions()
    # validated and compiled once for the whole replay, and redacted from all the process writes
    opts = replace(opts, sensitive_data=artifacts.remember(opts.sensitive_data))
    fence = replay_fence(history, opts)
    if fence is not None:
        await session.fence_to(fence)  # the whole fence when the session is not started yet
    await session.start()
    report = ReplayReport(warnings=_unmatched(history, opts.substitutions))
    for warning in report.warnings:
        logger.warning("%s", warning)
    for step in history.steps:
        for position, action in enumerate(step.actions):
            result = step.results[position] if position < len(step.results) else None
            if result is not None and (result.skipped or result.error):
                continue  # it changed nothing when recorded: replaying it would only fail
            recorded = step.interacted[position] if position < len(step.interacted) else None
            item = await _replay_one(
                step.step,
                _substitute(action, opts.substitutions),
                recorded,
                session,
                controller,
                opts,
                _goal(history, step),
            )
            report.actions.append(item)
            if on_action is not None:
                maybe = on_action(item)
                if asyncio.iscoroutine(maybe):
                    await maybe
            if item.status == "failed" and opts.on_failure == "stop":
                report.stopped = f"step {step.step}: {item.message}"
                return report
    return report


def replay_fence(
    history: AgentHistory, options: ReplayOptions, *limits: FenceSource
) -> tuple[str, ...] | None:
    """The domains a replay is kept to, by the one rule (``browser/fence_rule.py``): the options' are a
    choice, the fence the run was recorded under a default, and ``limits`` (a server's fence) bound both.

    Raises:
        UserError: the fence is not within a limit.
    """
    return resolve_fence(
        FenceSource.choice("the replay's allowed_domains", options.allowed_domains),
        FenceSource.default("the fence the run was recorded under", history.allowed_domains),
        *limits,
    )


async def _replay_one(
    number: int,
    action: ActionCall,
    recorded: Fingerprint | None,
    session: BrowserSession,
    controller: Controller,
    opts: ReplayOptions,
    goal: str = "",
) -> ReplayedAction:
    if recorded is None or "index" not in action.params:
        result = await _run(controller, session, action, opts)
        status: Status = "failed" if result.error else "done"
        return ReplayedAction(number, action, status, result.error or _summary(result), result=result)
    found = await _locate_with_retries(recorded, session, opts)
    if found.node is None:
        return await _fallback(number, action, found, session, controller, opts, goal)
    moved = ActionCall(name=action.name, params=action.params | {"index": found.node.index})
    result = await _run(controller, session, moved, opts)
    moved_status: Status = "failed" if result.error else "relocated"
    message = result.error or f"found [{found.node.index}] (score {found.score:.2f}); {_summary(result)}"
    return ReplayedAction(number, moved, moved_status, message, score=found.score, result=result)


async def _locate_with_retries(fp: Fingerprint, session: BrowserSession, opts: ReplayOptions) -> LocateResult:
    found: LocateResult | None = None
    secrets = as_secrets(opts.sensitive_data)  # the recorded fingerprints hold redacted texts: so does this
    for attempt in range(opts.retries + 1):
        if attempt:
            await session.settle()
            await asyncio.sleep(opts.retry_wait_s * attempt)  # late elements: back off before looking again
        snapshot = await session.capture_whole_page(redact=secrets.redact if secrets else None)
        found = reid.relocate(opts.choose(fp, snapshot) if opts.choose else fp, snapshot)
        if found.node is not None or found.status == "ambiguous":
            return found  # ambiguity does not go away by waiting: hand it on at once
    assert found is not None
    return found


async def _fallback(
    number: int,
    action: ActionCall,
    found: LocateResult,
    session: BrowserSession,
    controller: Controller,
    opts: ReplayOptions,
    goal: str,
) -> ReplayedAction:
    reason = f"could not re-locate the element for {action.name}: {found.reason}"
    if opts.llm is not None:
        secrets = as_secrets(opts.sensitive_data)
        rescue = await rescue_step(opts.llm, action, reason, session, controller, secrets, goal)
        result = rescue.result
        if not result.error and rescue.target is None:  # it only looked around: the step is not done
            result = result.model_copy(update={"error": "the llm acted on no element"})
        rescued: Status = "failed" if result.error else "handed_to_llm"
        message = f"{reason}; handed to the llm: {_summary(result)}"
        return ReplayedAction(number, action, rescued, message, result=result, rescue=rescue)
    status: Status = "skipped" if opts.on_failure == "skip" else "failed"
    return ReplayedAction(number, action, status, reason, score=found.score or None)


async def _run(
    controller: Controller, session: BrowserSession, action: ActionCall, opts: ReplayOptions
) -> ActionResult:
    call = action.flat()
    if _reloads(controller, action):
        call["reload"] = True  # a replay opens the page as the run did: the guard on reloading is the model's
    results = await controller.run(
        [controller.parse_action(call)], session, sensitive_data=opts.sensitive_data
    )
    return results[0]


def _reloads(controller: Controller, action: ActionCall) -> bool:
    """Whether ``action`` is the built-in ``go_to_url``, which takes ``reload``."""
    registry = controller.registry
    return (
        action.name == "go_to_url"
        and action.name in registry
        and "reload" in registry.get(action.name).action_model.model_fields
    )


def _substitute(action: ActionCall, subs: Mapping[str, str]) -> ActionCall:
    if not subs:
        return action
    return ActionCall(name=action.name, params={k: _replaced(v, subs) for k, v in action.params.items()})


def _replaced(value: Any, subs: Mapping[str, str]) -> Any:
    """``value`` with every substitution applied inside its strings (longest key first)."""
    if isinstance(value, str):
        for old in sorted(subs, key=len, reverse=True):
            if old:
                value = value.replace(old, subs[old])
        return value
    if isinstance(value, dict):
        return {k: _replaced(v, subs) for k, v in value.items()}
    if isinstance(value, list):
        return [_replaced(v, subs) for v in value]
    return value


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


def _unmatched(history: AgentHistory, subs: Mapping[str, str]) -> list[str]:
    """A warning for each substitution that no replayed argument contains."""
    texts = [
        s
        for step in history.steps
        for action in step.actions
        for value in action.params.values()
        for s in _strings(value)
    ]
    return [
        f"substitution {old!r} -> {new!r} matches nothing in the recorded actions; check its spelling"
        for old, new in subs.items()
        if not any(old and old in text for text in texts)
    ]


def _goal(history: AgentHistory, step: AgentStep) -> str:
    """What a step was for, in words, for a model that takes it over: the task and the step's goal."""
    parts = [f"the run's task: {history.task}" if history.task else "", step.next_goal]
    return "; ".join(part for part in parts if part)


def _summary(result: ActionResult) -> str:
    return result.error or result.extracted_content or "ok"
