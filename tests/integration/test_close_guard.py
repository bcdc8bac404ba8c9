"""A click on the ✕ of a box whose text field is still empty is held back once when the task gives text to
type, naming the field; a sending icon over the empty field is held back by the submit guard; a second
click, a filled field or a task that asks to close goes through."""

from __future__ import annotations

import pytest

from browser_agent.browser import BrowserSession
from browser_agent.controller import ActionResult, Controller
from tests.support.pages import index_of
from tests.support.server import LocalServer

_TASK = 'Add a comment to the release notes saying "Works for me."'


@pytest.fixture
async def composer(session: BrowserSession, server: LocalServer) -> BrowserSession:
    await session.navigate(server.url("controller/comment_composer.html"))
    await session.page.click("#open")
    return session


async def _run(session: BrowserSession, task: str, *actions: dict[str, object]) -> list[ActionResult]:
    return await Controller().run(list(actions), session, model_chose=True, task=task)


async def _log(session: BrowserSession) -> str:
    return str(await session.page.inner_text("#log")).strip()


async def _post_icon(session: BrowserSession) -> int:
    state = await session.state()
    assert state.snapshot is not None
    return next(n.index for n in state.snapshot.selector_map.values() if n.icon == "post")


async def _textarea(session: BrowserSession) -> int:
    state = await session.state()
    assert state.snapshot is not None
    return next(n.index for n in state.snapshot.selector_map.values() if n.tag == "textarea")


async def test_closing_the_box_over_its_empty_field_is_held_back_once_with_the_field_named(
    composer: BrowserSession,
) -> None:
    close, body = await index_of(composer, "✕"), await _textarea(composer)
    [held] = await _run(composer, _TASK, {"action": "click_element", "index": close})
    assert held.error == (
        f'element {close} would close the box holding [{body}] <textarea> "Signed as Lena", still empty: '
        f"type what the task gives into it first (input_text with index {body}), or click element {close} "
        "again to close the box."
    )
    assert await _log(composer) == "" and await composer.page.is_visible("#body")
    [again] = await _run(composer, _TASK, {"action": "click_element", "index": close})
    assert again.error is None and await _log(composer) == "dismissed;"


async def test_the_typing_after_the_held_click_still_runs_and_a_click_after_it_does_not(
    composer: BrowserSession,
) -> None:
    """The 1.5B model sent [click ✕, type the reply]: the click held back changed nothing, so the typing
    into the field it saw runs; a click after a held click waits for the model to look again."""
    close, body, post = await index_of(composer, "✕"), await _textarea(composer), await _post_icon(composer)
    held, typed = await _run(
        composer,
        _TASK,
        {"action": "click_element", "index": close},
        {"action": "input_text", "index": body, "text": "Works for me."},
    )
    assert held.held and typed.error is None and not typed.skipped, typed
    assert await composer.page.input_value("#body") == "Works for me."
    await composer.page.fill("#body", "")
    held, clicked = await _run(
        composer,
        _TASK,
        {"action": "click_element", "index": post},
        {"action": "click_element", "index": post},
    )
    assert held.held and clicked.skipped and await _log(composer) == ""


@pytest.mark.parametrize(
    ("task", "typed"),
    [
        ("Close the comment box.", ""),  # asked to close
        ("Read the release notes.", ""),  # nothing to type
        (_TASK, "Works for me."),  # the field holds text
    ],
)
async def test_the_box_closes_at_once_when_asked_to_when_nothing_is_to_type_or_the_field_is_filled(
    composer: BrowserSession, task: str, typed: str
) -> None:
    if typed:
        await composer.page.fill("#body", typed)
    [closed] = await _run(composer, task, {"action": "click_element", "index": await index_of(composer, "✕")})
    assert closed.error is None and await _log(composer) == "dismissed;"


async def test_a_sending_icon_over_the_empty_field_is_held_back_and_sends_once_it_is_typed(
    composer: BrowserSession,
) -> None:
    post, body = await _post_icon(composer), await _textarea(composer)
    [held] = await _run(composer, _TASK, {"action": "click_element", "index": post})
    assert held.error == (
        f'element {post} would send the form with fields not set yet: [{body}] <textarea> "Signed as Lena" '
        f"empty; type 'Works for me.' into element {body} first (the task gives it), then click element "
        f"{post}."
    )
    assert await _log(composer) == ""
    results = await _run(
        composer,
        _TASK,
        {"action": "input_text", "index": body, "text": "Works for me."},
        {"action": "click_element", "index": post},
    )
    assert [r.error for r in results] == [None, None] and await _log(composer) == "posted Works for me.;"
