"""A text the model copied from the page view as the view cut it is typed whole; the page's own text typed
back into the field that holds it is held once, naming the empty field. Chosen on MiniWoB++'s copy-paste
(the view's "…" typed into the answer; the text typed into its own text area); this page is a team
invitation with a suggested message, a referral line and an address field."""

from __future__ import annotations

import pytest

from browser_agent.browser import BrowserSession
from browser_agent.controller import ActionResult, Controller
from browser_agent.dom.serializer import render
from tests.support.pages import index_of
from tests.support.server import LocalServer

SUGGESTED = (
    "Join me on Larchwood Boards: we plan the spring catalogue there. Sign in with your work address. "
)
REFERRAL = (
    "Your referral line: Larchwood Boards gives every new team three months of the Studio plan free of "
    "charge with code LARCH-7731"
)


@pytest.fixture
async def page(session: BrowserSession, server: LocalServer) -> BrowserSession:
    await session.navigate(server.url("controller/invite_message.html"))
    return session


async def _type(session: BrowserSession, index: int, text: str, chose: bool = True) -> ActionResult:
    action = {"action": "input_text", "index": index, "text": text, "clear": True}
    [result] = await Controller().run([action], session, model_chose=chose)
    return result


async def _value(session: BrowserSession) -> str:
    return str(await session.page.input_value("#message"))


async def test_the_views_cut_value_is_typed_whole(page: BrowserSession) -> None:
    field = await index_of(page, "Your invitation")
    state = await page.state()
    assert state.snapshot is not None and "we plan … your work address." in render(state.snapshot)
    result = await _type(page, field, "Join me on Larchwood Boards: we plan … your work address.")
    assert result.error is None, result
    assert await _value(page) == SUGGESTED, "the text area's whole value, its last space too"
    assert result.extracted_content is not None
    assert (
        "in place of 'Join me on Larchwood Boards: we plan … your work address.'" in result.extracted_content
    )
    assert "the page view showed that text cut; this is all of it" in result.extracted_content


async def test_three_dots_for_the_mark_and_a_cut_end_are_typed_whole(page: BrowserSession) -> None:
    field = await index_of(page, "Your invitation")
    dots = await _type(page, field, "Join me on Larchwood Boards: we plan...your work address")
    assert dots.error is None and await _value(page) == SUGGESTED, dots
    head = await _type(page, field, "Your referral line: Larchwood Boards gives every new…")
    assert head.error is None and await _value(page) == REFERRAL, head


async def test_a_value_retyped_without_its_last_space_or_with_a_stop_is_the_value(
    page: BrowserSession,
) -> None:
    field = await index_of(page, "Your invitation")
    for typed in (SUGGESTED.strip(), SUGGESTED.strip().rstrip(".") + ".", SUGGESTED.replace(" ", "  ")):
        result = await _type(page, field, typed)
        assert result.error is None and await _value(page) == SUGGESTED, (typed, result)


async def test_a_cut_that_fits_several_texts_or_none_is_typed_as_it_is(page: BrowserSession) -> None:
    field = await index_of(page, "Your invitation")
    for typed in (
        "Larchwood Boards welcomes teams…",  # two lines begin so
        "Join me on Larchwood Boards … every country",  # no text begins and ends so
        "Our team plans the catalogue on Larchwood Boards...",  # the model's own dots, no text begins so
        "Join me on Larchwood Boards: we plan the spring catalogue here",  # not the value: a text of its own
        "Join me on Larchwood Boards: invite … the spring team",  # only a hidden input's value begins so
    ):
        result = await _type(page, field, typed)
        assert result.error is None and await _value(page) == typed, (typed, result)
        assert result.extracted_content is not None and "in place of" not in result.extracted_content


async def test_a_replay_types_what_it_is_given(page: BrowserSession) -> None:
    field = await index_of(page, "Your invitation")
    cut = "Join me on Larchwood Boards: we plan … your work address."
    result = await _type(page, field, cut, chose=False)
    assert result.error is None and await _value(page) == cut


async def test_the_text_typed_back_into_its_own_field_is_held_once(page: BrowserSession) -> None:
    source, field = await index_of(page, "Suggested invitation"), await index_of(page, "Your invitation")
    held = await _type(page, source, "Join me on Larchwood Boards: we plan … your work address.")
    assert held.error == (
        f"element {source} (Suggested invitation) holds this text already, written by the page: typing it "
        f"there changes nothing. To copy it, type it into element {field}, the page's empty text field; to "
        f"type into element {source} anyway, repeat this action."
    ), held.error
    assert await page.page.input_value("#suggested") == SUGGESTED
    again = await _type(page, source, SUGGESTED)
    assert again.error is None and await page.page.input_value("#suggested") == SUGGESTED


async def test_other_text_into_the_pages_field_is_not_held_as_a_copy(page: BrowserSession) -> None:
    source = await index_of(page, "Suggested invitation")
    result = await _type(page, source, "Join us on Larchwood Boards.")
    assert (
        result.error is None and await page.page.input_value("#suggested") == "Join us on Larchwood Boards."
    )
