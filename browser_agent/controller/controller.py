"""``Controller``: the actions on offer, their schema for the model, and running a list of them.

A list runs in order and stops early, reporting the rest as skipped, when the page moved under the
model's feet: an action failed or finished the task, the URL changed, a tab opened, closed or became
current, or new elements appeared that the next action's index may no longer mean.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, TypeVar

from langchain_core.language_models import BaseChatModel
from pydantic import BaseModel

from browser_agent import reid
from browser_agent.action_specs import Renderer
from browser_agent.browser import BrowserSession
from browser_agent.browser.domains import is_url_allowed
from browser_agent.browser.watchdog import within
from browser_agent.controller.action_types import ActionModel, ActionResult
from browser_agent.controller.actions import register_builtins
from browser_agent.controller.actions.done import register_structured_done
from browser_agent.controller.context import DEFAULT_SEARCH_ENGINE_URL, ActionContext, ControllerSettings
from browser_agent.controller.execution import execute
from browser_agent.controller.opened_typing import opened_field
from browser_agent.controller.registry import InputRules, RegisteredAction, Registry
from browser_agent.controller.same_indices import same_up_to
from browser_agent.controller.schema import action_union, describe_action, parse_action
from browser_agent.dom.snapshot import DomSnapshot, ElementNode
from browser_agent.errors import ActionError, ActionTimeoutError
from browser_agent.sensitive import Secrets, SensitiveData, as_secrets

__all__ = ["Controller"]

F = TypeVar("F", bound=Callable[..., Any])


class Controller:
    """The built-in actions plus yours; runs the actions the model chose.

    Args:
        exclude_actions: Names of actions not to offer (built-in or yours).
        search_engine_url: The URL ``search_web`` opens; ``{query}`` is replaced by the quoted query.
        action_timeout_s: Longest one action may take; past it the action fails and the tab's
            scripts are stopped (a page whose script never yields cannot hold the run).
    """

    def __init__(
        self,
        *,
        exclude_actions: Iterable[str] = (),
        search_engine_url: str = DEFAULT_SEARCH_ENGINE_URL,
        action_timeout_s: float = 60.0,
    ) -> None:
        self.registry = Registry(exclude=exclude_actions)
        self.settings = ControllerSettings(
            search_engine_url=search_engine_url, action_timeout_s=action_timeout_s
        )
        register_builtins(self.registry)

    def action(
        self,
        description: str,
        param_model: type[BaseModel] | None = None,
        domains: Sequence[str] | None = None,
        *,
        name: str | None = None,
        override: bool = False,
        export: Renderer[Any] | None = None,
        inputs: InputRules | None = None,
    ) -> Callable[[F], F]:
        """Register an action (``override=True`` replaces one of the same name; ``export=`` says how the
        Playwright export writes it, ``inputs=`` which parameters are workflow inputs); see
        ``Registry.action``."""
        return self.registry.action(
            description, param_model, domains, name=name, override=override, export=export, inputs=inputs
        )

    def with_output_model(self, output_model: type[BaseModel]) -> Controller:
        """A copy of this controller whose ``done`` takes ``data: output_model`` (validated) instead of text.

        This controller is left as it is; the agent uses the copy when given ``output_model=``.
        """
        twin = copy.copy(self)
        twin.registry = self.registry.copy()
        register_structured_done(twin.registry, output_model)
        return twin

    def fenced_to(self, allowed_domains: Sequence[str]) -> Controller:
        """This controller, or a copy without the actions that can only leave ``allowed_domains``.

        ``search_web`` is left out when its search engine is outside the fence: offered, it could only
        ever be refused, and small models reach for it to use a site's own search box.
        """
        probe = self.settings.search_engine_url.replace("{query}", "q")
        if "search_web" not in self.registry or is_url_allowed(probe, allowed_domains):
            return self
        twin = copy.copy(self)
        twin.registry = self.registry.without(["search_web"])
        return twin

    def without_uploads(self) -> Controller:
        """This controller, or a copy without ``upload_file``: for a run that allows no file, where the
        action could only ever be refused (a small model sent it four times in a row on a page with no
        file input at all)."""
        if "upload_file" not in self.registry:
            return self
        twin = copy.copy(self)
        twin.registry = self.registry.without(["upload_file"])
        return twin

    def describe_actions(self) -> str:
        """One line per action, every one of them (a domain-limited one says where), for the system
        prompt: the same whatever the page, so the prompt's beginning never changes within a run."""
        lines = []
        for registered in self.registry.actions(every=True):
            note = f" Only on {', '.join(registered.domains)}." if registered.domains else ""
            lines.append(describe_action(registered.action_model, note))
        return "\n".join(lines)

    def action_models(self, url: str | None = None) -> list[type[ActionModel]]:
        """One model per action offered on ``url`` (domain-limited actions only where they match)."""
        return [a.action_model for a in self.registry.actions(url)]

    def action_union(self, url: str | None = None) -> Any:
        """The discriminated union of the actions offered on ``url``, for the model's output schema."""
        return action_union(self.action_models(url))

    def parse_action(self, data: dict[str, Any] | ActionModel) -> ActionModel:
        """Validate one action dict against every registered action (domains are not checked here).

        Raises:
            pydantic.ValidationError: no such action, or a bad field.
        """
        return parse_action([a.action_model for a in self.registry.actions(every=True)], data)

    async def run(  # noqa: PLR0913 - goal and task are what the guards of a model's step read
        self,
        actions: Sequence[ActionModel | dict[str, Any]],
        session: BrowserSession,
        *,
        extraction_llm: BaseChatModel | None = None,
        sensitive_data: SensitiveData | Secrets | None = None,
        allowed_files: Iterable[str | Path] = (),
        model_chose: bool = False,
        goal: str = "",
        task: str = "",
    ) -> list[ActionResult]:
        """Run ``actions`` in order on ``session``; one result per action, skipped ones included.

        ``model_chose``: the actions are an agent's model's choice, and a click that would send a form
        with its fields unset is held back once (``controller/actions/submit_guard.py``). ``goal``: the
        step's goal in the model's words; a click on an element it does not name, while it names another,
        is held back once (``controller/actions/goal_guard.py``). ``task``: the agent's task; a click that
        would send a form before the part it asks to expand is open is held back once
        (``controller/actions/expand_guard.py``).

        Raises:
            pydantic.ValidationError: a dict in ``actions`` names no known action or has a bad field.
            UserError: an action was registered or returned wrongly (a bug in its code).
        """
        ctx = ActionContext(
            session=session,
            snapshot=session.last_snapshot,
            extraction_llm=extraction_llm,
            sensitive_data=as_secrets(sensitive_data),
            allowed_files=tuple(Path(p) for p in allowed_files),
            settings=self.settings,
            model_chose=model_chose,
            goal=goal,
            task=task,
        )
        parsed = [self.parse_action(a) for a in actions]
        results: list[ActionResult] = []
        moved: str | None = None  # how the page the model saw went away, once it has
        seen = ctx.snapshot  # the page the model chose from: what its indices mean
        for position, action in enumerate(parsed):
            before = _Marker.take(session)
            result = _fingerprinted(await _bounded(self.registry.get(action.action), action, ctx), ctx)
            results.append(result)
            rest = parsed[position + 1 :]
            if not rest:
                break
            moved = _moved(before, _Marker.take(session)) or moved
            reason, opened = await _stop_reason(result, moved, ctx, rest[0], seen)
            if reason is not None:
                if opened is not None:
                    results.append(await self._type_into_opened(rest[0], ctx, *opened))
                    rest = rest[1:]
                results.extend(_skipped(a, ctx.redact(reason)) for a in rest)
                break
        return results

    async def _type_into_opened(
        self, typing: ActionModel, ctx: ActionContext, fresh: DomSnapshot, field: ElementNode
    ) -> ActionResult:
        """``typing`` run on ``field`` of ``fresh``, the one empty text field the click before it opened
        (``controller/opened_typing.py``)."""
        named = typing.element_index()
        there = replace(ctx, snapshot=fresh)
        moved = typing.model_copy(update={"index": field.index})
        result = _fingerprinted(await _bounded(self.registry.get(typing.action), moved, there), there)
        if result.error is not None:
            return result
        note = f" (the field the click opened: element {named} was no place to type)"
        return result.model_copy(update={"extracted_content": f"{result.extracted_content}{note}"})


def _fingerprinted(result: ActionResult, ctx: ActionContext) -> ActionResult:
    """``result`` with the fingerprint of the element it acted on, taken in the page the model saw."""
    if result.element is None or ctx.snapshot is None or result.fingerprint is not None:
        return result
    return result.model_copy(update={"fingerprint": reid.record(result.element, ctx.snapshot)})


async def _bounded(registered: RegisteredAction, action: ActionModel, ctx: ActionContext) -> ActionResult:
    """``execute``, within ``action_timeout_s``; a page that never answers has its scripts stopped."""
    limit = ctx.settings.action_timeout_s
    try:
        return await within(execute(registered, action, ctx), limit)
    except TimeoutError:
        kept = await ctx.session.unstick()
        note = "; its script was stopped" if kept else "; the tab never answered and was closed"
        return ActionResult(
            action=registered.name,
            error=f"{registered.name} got no answer from the page in {limit:g} s{note}. "
            "Look at the new state; try another way or another page.",
        )


@dataclass(frozen=True, slots=True)
class _Marker:
    """Where the session stood before an action: to tell whether it moved."""

    tab_id: int
    pages: tuple[int, ...]
    url: str

    @classmethod
    def take(cls, session: BrowserSession) -> _Marker:
        pages = tuple(id(p) for p in session.context.pages)
        try:
            url = session.page.url
        except ActionError:
            url = ""
        return cls(session.current_tab_id, pages, url)


# Actions that read whichever page is shown: planned before a navigation, they still do what the model
# meant on the new page ("open the pricing page; extract the Pro price"). Anything that names an element,
# types, presses keys or ends the task waits for the model to see the new page.
PAGE_INDEPENDENT = frozenset({"extract_content", "scroll_to_text", "wait"})


def _runs_after_failure(failed: ActionResult, following: ActionModel) -> bool:
    """Whether ``following`` still runs after ``failed``, an action that changed nothing: a read or a
    scroll that failed (the 1.5B model put an invented scroll_to_text before its click on Forward, and
    lost the click four steps in a row), or a click held back (nothing done) before typing into a field the
    model saw (told that its click on a reply box's × would close the box before its text was typed, the
    model had the typing that followed the click left undone, and gave up)."""
    if failed.action in PAGE_INDEPENDENT:
        return True
    return failed.held and failed.action == "click_element" and following.action == "input_text"


def _moved(before: _Marker, after: _Marker) -> str | None:
    """How the page changed under an action: a tab opened or closed, another tab current, a navigation."""
    if after.pages != before.pages:
        return "a tab was opened or closed"
    if after.tab_id != before.tab_id:
        return f"tab {after.tab_id} became current"
    if after.url != before.url:
        return f"the page navigated to {after.url}"
    return None


_Opened = tuple[DomSnapshot, ElementNode]  # a new capture, and the one empty field a click opened in it


async def _stop_reason(
    result: ActionResult,
    moved: str | None,
    ctx: ActionContext,
    following: ActionModel,
    seen: DomSnapshot | None,
) -> tuple[str | None, _Opened | None]:
    """Why the actions after ``result`` must not run (``None`` when ``following`` may), and, when
    ``following`` is typing meant for the one empty field the click opened, the new capture and that
    field (``controller/opened_typing.py``)."""
    if result.is_done:
        return "done ends the step", None
    if result.error and not _runs_after_failure(result, following):
        return f"{result.action} failed", None
    if result.error:  # the failure changed nothing: the model's indices still hold
        return None, None
    if following.action in PAGE_INDEPENDENT:
        return None, None
    if moved is not None:
        return moved, None
    index = following.element_index()
    if index is None or ctx.snapshot is None or seen is None:
        return None, None
    return await _new_elements_reason(ctx, seen, index, result, following)


async def _new_elements_reason(
    ctx: ActionContext, seen: DomSnapshot, index: int, result: ActionResult, following: ActionModel
) -> tuple[str | None, _Opened | None]:
    """Re-capture the page and compare: new elements mean the model's indices may be stale.

    Unless ``index``, and every index before it, still names an element that reads as it did in ``seen``
    (the page the model chose from): new elements came after it, or the page drew the same elements
    anew (a search run again shows its results in new elements). Then the next action runs, its index
    resolved in the new capture.

    The capture is the session's own, bounded by its time limit; it is not kept as the session's last
    snapshot, so the next state still marks these elements as new. A page that does not answer it has
    its scripts stopped, and the rest of the list waits for the model to look again.
    """
    assert ctx.snapshot is not None
    await ctx.session.settle()
    try:
        fresh = await ctx.session.capture(keep=False, retry=False)
    except ActionTimeoutError:
        limit = ctx.session.config.capture_timeout_ms / 1000
        late = f"the page did not answer a look for new elements within {limit:g} s (a script never yields)"
        return late, None
    appeared = fresh.element_ids - ctx.snapshot.element_ids
    if not appeared:
        return None, None
    reason = f"{len(appeared)} new element(s) appeared (a menu, suggestions, a dialog); indices may differ"
    field = opened_field(result, following, seen, fresh)
    if field is not None:
        return reason, (fresh, field)  # typing meant for the field the click opened: the caller puts it there
    if same_up_to(seen, fresh, index):
        ctx.snapshot = fresh
        return None, None
    return reason, None


def _skipped(action: ActionModel, reason: str) -> ActionResult:
    return ActionResult(
        action=action.action,
        skipped=True,
        extracted_content=f"not run: {reason}",  # a bare fact: "send it again" made small models resend all
    )
