"""Run one action: fill secrets in, resolve its index, inject what it asks for, turn what it returns
into a redacted ``ActionResult``. Model mistakes (``ActionError``) become results; bugs propagate.

Placeholders are filled per parameter, as its use says (``controller.placeholders``): text typed into
the page is checked against the frame of the action's element (or the tab), an address to open against
that address, and text for a model or the user is never filled."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from playwright.async_api import Frame

from browser_agent.browser.domains import matches_any, origin_of
from browser_agent.controller.action_types import ActionModel, ActionResult
from browser_agent.controller.context import ActionContext
from browser_agent.controller.placeholders import Placeholders
from browser_agent.controller.registry import RegisteredAction
from browser_agent.dom.snapshot import ElementNode
from browser_agent.errors import ActionError, HeldBackError, HeldForNowError, UserError

__all__ = ["execute"]


async def execute(registered: RegisteredAction, action: ActionModel, ctx: ActionContext) -> ActionResult:
    """Run ``action`` with ``registered``'s function; failures the model can fix come back as results."""
    node: ElementNode | None = None
    try:
        index = action.element_index()
        if index is not None:
            node = await ctx.node(index)
        params = _filled(registered, action.params(), ctx, node)
        raw = await _call(registered, params, ctx)
    except ActionError as exc:
        held, again = isinstance(exc, HeldBackError), isinstance(exc, HeldForNowError)
        error = ctx.redact(str(exc))
        return ActionResult(action=registered.name, error=error, element=node, held=held, offered_again=again)
    result = _as_result(registered.name, raw)
    return result.model_copy(
        update={
            "action": result.action or registered.name,
            "extracted_content": ctx.redact(result.extracted_content) if result.extracted_content else None,
            "error": ctx.redact(result.error) if result.error else None,
            "element": result.element or node,
        }
    )


def _filled(
    registered: RegisteredAction, params: dict[str, Any], ctx: ActionContext, node: ElementNode | None
) -> dict[str, Any]:
    """``params`` with their placeholders filled, each as its use says (``Placeholders``).

    Raises:
        ActionError: a placeholder names no secret of the run, or one scoped to other sites than where
            its text goes.
    """
    secrets = ctx.sensitive_data
    page, where = _typed_into(ctx, node)

    def typed(text: str) -> str:
        return secrets.fill(text, page, _allowed, where=where)

    def opened(text: str) -> str:
        return secrets.fill(text, "", _allowed, is_url=True)

    filled: dict[str, Any] = {}
    for name, value in params.items():
        use = registered.placeholders.get(name, Placeholders.TYPED)
        if use is Placeholders.KEPT:
            filled[name] = value
        else:
            filled[name] = _each_string(value, opened if use is Placeholders.URL else typed)
    return filled


def _typed_into(ctx: ActionContext, node: ElementNode | None) -> tuple[Callable[[], str], str]:
    """The URL of the document typed text reaches (the element's own frame, else the tab), and its name."""
    if node is None:
        return (lambda: _page_url(ctx)), "this page"
    frame = ctx.snapshot.frames.get(node.frame_id) if ctx.snapshot is not None else None
    url = _document_url(frame)
    if node.frame_id == 0:
        return (lambda: url), "this page"
    return (lambda: url), f"the frame of element {node.index} ({origin_of(url) or 'gone'})"


def _document_url(frame: Frame | None) -> str:
    """The URL of ``frame``'s document; an ``about:srcdoc`` frame's is its parent's (which wrote it)."""
    while frame is not None and frame.url == "about:srcdoc" and frame.parent_frame is not None:
        frame = frame.parent_frame
    return "" if frame is None or frame.is_detached() else frame.url


def _page_url(ctx: ActionContext) -> str:
    try:
        return ctx.page.url
    except ActionError:  # no tab: a scoped secret cannot be used, an unscoped one still can
        return ""


_C0_AND_SPACE = "".join(map(chr, range(0x21)))
_SPECIAL_SCHEMES = ("http", "https", "ws", "wss", "ftp", "file")


def _allowed(url: str, patterns: tuple[str, ...]) -> bool:
    """Whether ``url``, read the way a browser reads it, is on one of ``patterns``.

    A browser drops surrounding spaces and controls and every tab or newline, and takes ``\\`` for
    ``/`` in web addresses: ``https://evil.example\\@bank.example/`` goes to evil.example, whatever
    Python's ``urlsplit`` says. The address is checked as the browser will read it.
    """
    cleaned = url.strip(_C0_AND_SPACE).replace("\t", "").replace("\n", "").replace("\r", "")
    if cleaned.split(":", 1)[0].lower() in _SPECIAL_SCHEMES:
        cleaned = cleaned.replace("\\", "/")
    return matches_any(cleaned, patterns)


def _each_string(value: Any, fill: Callable[[str], str]) -> Any:
    """``fill`` applied to every string in ``value`` and in its lists and dicts."""
    if isinstance(value, str):
        return fill(value)
    if isinstance(value, dict):
        return {k: _each_string(v, fill) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return type(value)(_each_string(v, fill) for v in value)
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
