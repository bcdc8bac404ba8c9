"""Run one action: fill secrets in, resolve its index, inject what it asks for, turn what it returns
into a redacted ``ActionResult``. Model mistakes (``ActionError``) become results; bugs propagate."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from browser_agent.browser.domains import matches_any
from browser_agent.controller.context import ActionContext
from browser_agent.controller.models import ActionModel, ActionResult
from browser_agent.controller.registry import RegisteredAction
from browser_agent.dom.models import ElementNode
from browser_agent.errors import ActionError, UserError
from browser_agent.sensitive import Secrets

__all__ = ["execute"]


async def execute(registered: RegisteredAction, action: ActionModel, ctx: ActionContext) -> ActionResult:
    """Run ``action`` with ``registered``'s function; failures the model can fix come back as results."""
    node: ElementNode | None = None
    try:
        index = action.element_index()
        if index is not None:
            node = await ctx.node(index)
        params = _filled(action.params(), ctx.sensitive_data, lambda: _page_url(ctx))
        raw = await _call(registered, params, ctx)
    except ActionError as exc:
        return ActionResult(action=registered.name, error=ctx.redact(str(exc)), element=node)
    result = _as_result(registered.name, raw)
    return result.model_copy(
        update={
            "action": result.action or registered.name,
            "extracted_content": ctx.redact(result.extracted_content) if result.extracted_content else None,
            "error": ctx.redact(result.error) if result.error else None,
            "element": result.element or node,
        }
    )


def _page_url(ctx: ActionContext) -> str:
    try:
        return ctx.page.url
    except ActionError:  # no tab: a scoped secret cannot be used, an unscoped one still can
        return ""


def _filled(value: Any, secrets: Secrets, url: Callable[[], str]) -> Any:
    """Placeholders swapped for real values, in strings and in lists and dicts of strings.

    Raises:
        ActionError: a placeholder names no secret of the run, or one scoped to other sites.
    """
    if isinstance(value, str):
        return secrets.fill(value, url, matches_any)
    if isinstance(value, dict):
        return {k: _filled(v, secrets, url) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return type(value)(_filled(v, secrets, url) for v in value)
    return value


async def _call(registered: RegisteredAction, params: dict[str, Any], ctx: ActionContext) -> Any:
    kwargs = dict(params)
    for name, kind in registered.injected.items():
        if kind == "params":
            kwargs = {name: registered.param_model.model_validate(params)}
    for name, kind in registered.injected.items():
        if kind != "params":
            kwargs[name] = _injected(registered.name, kind, ctx)
    if registered.is_async:
        return await registered.function(**kwargs)
    # A sync action may block (files, HTTP): keep the event loop, and so the browser, responsive.
    return await asyncio.to_thread(registered.function, **kwargs)


def _injected(action: str, kind: str, ctx: ActionContext) -> Any:
    if kind == "context":
        return ctx
    if kind == "session":
        return ctx.session
    if kind == "page":
        return ctx.page
    if kind == "llm" and ctx.extraction_llm is None:
        raise UserError(
            f"Action {action!r} needs a chat model but none was given; pass extraction_llm= "
            "(AgentSettings.page_extraction_llm), or annotate the parameter `BaseChatModel | None`."
        )
    return ctx.extraction_llm


def _as_result(name: str, raw: Any) -> ActionResult:
    if isinstance(raw, ActionResult):
        return raw
    if isinstance(raw, str):
        return ActionResult(action=name, extracted_content=raw)
    if raw is None:
        return ActionResult(action=name, extracted_content=f"{name} ran")
    raise UserError(f"Action {name!r} returned {type(raw).__name__}; return an ActionResult, a str or None.")
