"""An action that cannot apply to its element fails at once, in one line naming what the element is, the
action that works on it and the elements the action was meant for; nothing is done to the page."""

from __future__ import annotations

import pytest

from browser_agent.browser import BrowserSession
from browser_agent.controller import ActionResult, Controller
from tests.support.pages import index_of
from tests.support.server import LocalServer


@pytest.fixture
async def form(session: BrowserSession, server: LocalServer) -> BrowserSession:
    await session.navigate(server.url("controller/fields.html"))
    return session


async def _run(session: BrowserSession, action: dict[str, object]) -> ActionResult:
    [result] = await Controller().run([action], session)
    return result


FIELDS = '[7] <input> "Colour", [8] <input> "Locked date", [9] <input> "Full name", [10] <textarea> "Notes"'
TYPE_HERE = f"input_text types into fields: {FIELDS}."


@pytest.mark.parametrize(
    ("label", "said"),
    [
        (
            "Submit",
            f'element 14 is a <button> "Submit": click it with click_element; {TYPE_HERE}',
        ),
        (
            "Terms",
            f'element 13 is a <a> "Terms": click it with click_element; {TYPE_HERE}',
        ),
        (
            "I agree",
            f'element 12 is a checkbox <input> "I agree": click it with click_element; {TYPE_HERE}',
        ),
        (
            "Size",
            f'element 11 is a <select> "Size": choose with select_dropdown_option; {TYPE_HERE}',
        ),
    ],
)
async def test_typing_into_what_takes_no_text_says_what_it_is_and_where_to_type(
    form: BrowserSession, label: str, said: str
) -> None:
    index = await index_of(form, label)
    result = await _run(form, {"action": "input_text", "index": index, "text": "Submit"})
    assert result.error is not None
    assert result.error == said or (said.endswith("[12]") and result.error.startswith(said[:-4])), (
        result.error
    )
    assert await form.page.locator("#sent").inner_text() == "", "the old fallback clicked the button"
    assert not await form.page.locator("#agree").is_checked()


@pytest.mark.parametrize("action", ["select_dropdown_option", "get_dropdown_options"])
async def test_choosing_in_what_is_no_list_says_what_it_is_and_which_lists_there_are(
    form: BrowserSession, action: str
) -> None:
    await form.state()
    text = {"text": "Large"} if action == "select_dropdown_option" else {}
    button = await _run(form, {"action": action, "index": 14, **text})
    assert button.error == (
        'element 14 is a <button> "Submit", not a list: click it with click_element; '
        'lists here: [11] <select> "Size".'
    )
    field = await _run(form, {"action": action, "index": 9, **text})
    assert field.error == (
        "element 9 is a text field, not a list: type into it with input_text; "
        'lists here: [11] <select> "Size".'
    )
    box = await _run(form, {"action": action, "index": 12, **text})
    assert box.error is not None and box.error.startswith(
        'element 12 is a checkbox <input> "I agree", not a list'
    )
    assert await form.page.locator("#sent").inner_text() == "", "nothing was clicked"
    chosen = await _run(form, {"action": "select_dropdown_option", "index": 11, "text": "Large"})
    assert chosen.error is None and await form.page.locator("#size").input_value() == "Large"


async def test_switching_to_a_missing_tab_names_the_page_s_own_tabs(
    session: BrowserSession, server: LocalServer
) -> None:
    await session.navigate(server.url("dom/widget_states.html"))
    await session.state()
    result = await _run(session, {"action": "switch_tab", "tab_id": 1})
    assert result.error == (
        "There is no tab 1: there is one browser tab (0); the page's own tabs are elements: [0] Tab 1, "
        "[1] Tab 2, [2] Alpha, [3] Beta, [14] Section 3, [15] One; click one with click_element."
    )
    closing = await _run(session, {"action": "close_tab", "tab_id": 2})
    assert closing.error is not None and closing.error.startswith(
        "There is no tab 2: there is one browser tab"
    )
    assert len(session.context.pages) == 1


async def test_switching_to_a_missing_tab_on_a_page_without_tabs_says_which_exist(
    form: BrowserSession, server: LocalServer
) -> None:
    await form.state()
    await form.new_tab(server.url("controller/target.html"))
    result = await _run(form, {"action": "switch_tab", "tab_id": 5})
    assert result.error == "There is no tab 5: the browser tabs are 0, 1."
    assert (await _run(form, {"action": "switch_tab", "tab_id": 0})).error is None


async def test_reopening_the_open_page_that_holds_what_was_typed_is_refused_unless_asked_to_reload(
    form: BrowserSession, server: LocalServer
) -> None:
    url = server.url("controller/fields.html")
    untouched = await _run(form, {"action": "go_to_url", "url": url})
    assert untouched.extracted_content == f"Already at {url}: not reloaded", "nothing to lose: as before"
    name = await index_of(form, "Full name")
    typed = await _run(form, {"action": "input_text", "index": name, "text": "Ada"})
    assert typed.error is None
    refused = await _run(form, {"action": "go_to_url", "url": url})
    assert refused.error is not None and "would reload it and lose what was typed" in refused.error
    assert await form.page.locator("#name").input_value() == "Ada"
    fragment = await _run(form, {"action": "go_to_url", "url": url + "#terms"})
    assert fragment.error is None and form.page.url.endswith("#terms"), "another place in it is followed"
    assert await form.page.locator("#name").input_value() == "Ada", "and not reloaded"
    reloaded = await _run(form, {"action": "go_to_url", "url": url, "reload": True})
    assert reloaded.error is None and await form.page.locator("#name").input_value() == ""
