"""Running action lists: early stops, custom actions with injected context, secrets, errors, domains."""

from __future__ import annotations

import pytest
from playwright.async_api import Page

from browser_agent.browser import BrowserSession
from browser_agent.controller import ActionContext, ActionResult, Controller
from tests.support.pages import index_of
from tests.support.server import LocalServer


@pytest.fixture
async def form(session: BrowserSession, server: LocalServer) -> BrowserSession:
    await session.navigate(server.url("controller/form.html"))
    return session


async def test_a_list_runs_in_order_when_the_page_stays(form: BrowserSession) -> None:
    count = await index_of(form, "Count")
    results = await Controller().run(
        [{"action": "click_element", "index": count}, {"action": "click_element", "index": count}], form
    )
    assert [r.error for r in results] == [None, None] and not any(r.skipped for r in results)
    assert await form.page.locator("#counter").inner_text() == "Clicked 2"


async def test_a_list_stops_after_navigation(form: BrowserSession) -> None:
    go, count = await index_of(form, "Go to target"), await index_of(form, "Count")
    actions = [
        {"action": "click_element", "index": go},
        {"action": "click_element", "index": count},
        {"action": "done", "text": "x", "success": True},
    ]
    results = await Controller().run(actions, form)
    assert results[0].error is None and form.page.url.endswith("target.html")
    assert [r.skipped for r in results] == [False, True, True]
    assert "navigated" in (results[1].extracted_content or "")


async def test_after_a_navigation_only_actions_that_read_any_page_still_run(form: BrowserSession) -> None:
    go, count = await index_of(form, "Go to target"), await index_of(form, "Count")
    actions = [
        {"action": "click_element", "index": go},
        {"action": "wait", "seconds": 0},
        {"action": "scroll_to_text", "text": "Target reached"},
        {"action": "click_element", "index": count},  # an index of the page the model saw
        {"action": "wait", "seconds": 0},
    ]
    results = await Controller().run(actions, form)
    assert [r.skipped for r in results] == [False, False, False, True, True]
    assert [r.error for r in results[:3]] == [None, None, None], results
    assert "navigated to" in (results[3].extracted_content or "")
    assert form.page.url.endswith("target.html")


async def test_a_list_stops_when_an_autocomplete_list_appears(
    session: BrowserSession, server: LocalServer
) -> None:
    await session.navigate(server.url("controller/autocomplete.html"))
    city, submit = await index_of(session, "City"), await index_of(session, "Submit")
    actions = [
        {"action": "input_text", "index": city, "text": "Pa"},
        {"action": "click_element", "index": submit},
    ]
    results = await Controller().run(actions, session)
    assert results[0].error is None
    assert results[1].skipped and "new element" in (results[1].extracted_content or "")
    assert await session.page.locator("#chosen").inner_text() == ""  # the submit click never ran
    state = await session.state()  # the suggestions are new for the model in the next step
    assert state.snapshot is not None
    assert any(n.is_new and n.text == "Paris" for n in state.snapshot.selector_map.values())
    # the check only matters when the next action names an index: here both actions run
    again = await Controller().run(
        [{"action": "input_text", "index": city, "text": "Pe"}, {"action": "send_keys", "keys": "End"}],
        session,
    )
    assert [r.skipped for r in again] == [False, False]


async def test_a_list_stops_when_a_tab_opens_and_done_ends_it(form: BrowserSession) -> None:
    new_tab, count = await index_of(form, "new tab"), await index_of(form, "Count")
    results = await Controller().run(
        [{"action": "click_element", "index": new_tab}, {"action": "click_element", "index": count}], form
    )
    assert results[1].skipped and "tab" in (results[1].extracted_content or "")
    done = await Controller().run(
        [{"action": "done", "text": "ok", "success": True}, {"action": "wait", "seconds": 5}], form
    )
    assert done[0].is_done and done[1].skipped


async def test_a_bad_index_is_an_error_for_the_model_and_stops_the_list(form: BrowserSession) -> None:
    state = await form.state()
    assert state.snapshot is not None
    last = max(state.snapshot.selector_map)
    results = await Controller().run(
        [{"action": "click_element", "index": 999}, {"action": "done", "text": "x", "success": True}], form
    )
    assert results[0].error == (
        f"element 999 is not on the page; this page has indices 0-{last}. "
        "Use an index from the current page state."
    )
    assert results[1].skipped


async def test_a_failed_scroll_to_text_leaves_the_page_and_the_next_click_runs(form: BrowserSession) -> None:
    count = await index_of(form, "Count")
    results = await Controller().run(
        [
            {"action": "scroll_to_text", "text": "a sentence this page never had"},
            {"action": "click_element", "index": count},
        ],
        form,
    )
    assert results[0].error is not None and "not on the page" in results[0].error, results
    assert results[1].error is None and not results[1].skipped, results
    assert await form.page.locator("#counter").inner_text() == "Clicked 1"


async def test_custom_sync_and_async_actions_get_the_context_injected(form: BrowserSession) -> None:
    controller = Controller()

    @controller.action("Read the page title")
    async def page_title(ctx: ActionContext, page: Page) -> ActionResult:
        assert page is ctx.page
        return ActionResult(extracted_content=await page.title(), include_in_memory=False)

    @controller.action("Count the open tabs")
    def tab_count(ctx: ActionContext, prefix: str = "tabs:") -> str:
        return f"{prefix} {len(ctx.session.context.pages)} at {ctx.page.url.rsplit('/', 1)[-1]}"

    @controller.action("Label of an element")
    async def label(index: int, ctx: ActionContext) -> str:
        node, handle = await ctx.element(index)
        return f"{node.tag}: {await handle.inner_text()}"

    count = await index_of(form, "Count")
    results = await controller.run(
        [{"action": "page_title"}, {"action": "tab_count"}, {"action": "label", "index": count}], form
    )
    assert [r.extracted_content for r in results] == [
        "Controller form",
        "tabs: 1 at form.html",
        "button: Count",
    ]
    assert results[0].include_in_memory is False and results[0].action == "page_title"
    assert results[2].element is not None and results[2].element.index == count


async def test_secrets_are_typed_for_real_and_never_returned(form: BrowserSession) -> None:
    name = await index_of(form, "Full name")
    results = await Controller().run(
        [{"action": "input_text", "index": name, "text": "<secret>user</secret>"}],
        form,
        sensitive_data={"user": "ADA-LOVELACE"},
    )
    assert await form.page.locator("#state").inner_text() == "ADA-LOVELACE"
    dumped = results[0].model_dump_json()
    assert "ADA-LOVELACE" not in dumped and "<secret>user</secret>" in dumped


async def test_domain_limited_action_is_offered_on_its_pages_only(
    form: BrowserSession, server: LocalServer, other_server: LocalServer
) -> None:
    controller = Controller()

    @controller.action("Only on the first server", domains=[f"127.0.0.1:{server.port}"])
    async def local_only(ctx: ActionContext) -> str:
        return "ran"

    def offered(url: str) -> bool:
        return any(m.__name__ == "LocalOnlyAction" for m in controller.action_models(url))

    assert offered(form.page.url)
    assert not offered(other_server.url("controller/form.html"))
