"""Each built-in action against real Chromium and local pages."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.async_api import Browser

from browser_agent.browser import BrowserConfig, BrowserSession
from browser_agent.controller import Controller, ControllerSettings
from browser_agent.dom import render
from browser_agent.testing import ScriptedChatModel
from tests.support.actions import run1
from tests.support.pages import index_of
from tests.support.server import LocalServer


async def text_of(session: BrowserSession, selector: str) -> str:
    return await session.page.locator(selector).inner_text()


@pytest.fixture
async def form(session: BrowserSession, server: LocalServer) -> BrowserSession:
    await session.navigate(server.url("controller/form.html"))
    return session


async def test_go_to_url_go_back_and_a_refused_domain(
    browser: Browser, server: LocalServer, other_server: LocalServer
) -> None:
    config = BrowserConfig(allowed_domains=(f"127.0.0.1:{server.port}",))
    async with BrowserSession(config, browser=browser) as session:
        result = await run1(session, {"action": "go_to_url", "url": server.url("controller/form.html")})
        assert result.error is None and session.page.url.endswith("form.html")
        await run1(session, {"action": "go_to_url", "url": server.url("controller/target.html")})
        back = await run1(session, {"action": "go_back"})
        assert back.error is None and session.page.url.endswith("form.html")
        refused = await run1(
            session, {"action": "go_to_url", "url": other_server.url("controller/target.html")}
        )
        assert refused.error is not None and "outside the allowed domains" in refused.error
        assert session.page.url.endswith("form.html")


async def test_go_to_url_with_the_name_of_an_element_names_the_element(
    session: BrowserSession, server: LocalServer
) -> None:
    """A small model sent go_to_url("urna") for 'Click on the link "urna"', was told to give a whole
    address, and made one up. The page here is a long navigation list, unlike MiniWoB++'s paragraph."""
    await session.navigate(server.url("reading/nav_first.html"))
    section = await index_of(session, "Section 12")
    named = await run1(session, {"action": "go_to_url", "url": " section 12 "})
    assert named.error == (
        f"' section 12 ' is no address: it is the name of element {section} on this page; click_element with "
        f"index {section} clicks it."
    ), named
    other = await run1(session, {"action": "go_to_url", "url": "Section 99"})
    assert other.error is not None and "not a valid address: 'Section 99' (it has no scheme" in other.error
    assert session.page.url.endswith("nav_first.html")


async def test_go_back_to_the_blank_page_the_tab_opened_with_is_refused(
    browser: Browser, server: LocalServer
) -> None:
    async with BrowserSession(browser=browser) as session:
        await session.new_tab()  # a fresh tab: about:blank first
        await run1(session, {"action": "go_to_url", "url": server.url("controller/form.html")})
        back = await run1(session, {"action": "go_back"})
        assert back.error is not None and "the tab showed only a blank page before it" in back.error
        assert session.page.url.endswith("form.html")


async def test_search_uses_the_configured_engine(session: BrowserSession, server: LocalServer) -> None:
    controller = Controller(search_engine_url=server.url("controller/target.html?q={query}"))
    [result] = await controller.run([{"action": "search_web", "query": "blue mugs & cups"}], session)
    assert result.error is None
    assert session.page.url.endswith("target.html?q=blue+mugs+%26+cups")


async def test_wait_is_capped(session: BrowserSession) -> None:
    controller = Controller()
    controller.settings = ControllerSettings(max_wait_s=0.05)
    [result] = await controller.run([{"action": "wait", "seconds": 60}], session)
    assert result.extracted_content == "Waited 0.05 s (capped at 0.05 s)"


async def test_click_counts_and_a_file_input_is_refused(form: BrowserSession) -> None:
    result = await run1(form, {"action": "click_element", "index": await index_of(form, "Count")})
    assert result.error is None and result.element is not None and result.element.tag == "button"
    assert await text_of(form, "#counter") == "Clicked 1"
    file_input = {"action": "click_element", "index": await index_of(form, "file")}
    refused = await run1(form, file_input, allowed_files=[Path(__file__).parent])
    assert refused.error is not None and "use upload_file" in refused.error
    refused = await run1(form, file_input)  # a run that allows no file is not sent to an action it lacks
    assert refused.error is not None and "allows no file to be uploaded" in refused.error
    assert "upload_file" not in refused.error


async def test_a_click_that_opens_a_tab_switches_to_it(form: BrowserSession) -> None:
    first_tab = form.current_tab_id
    result = await run1(form, {"action": "click_element", "index": await index_of(form, "new tab")})
    assert result.error is None and result.new_tab is not None and result.new_tab != first_tab
    assert form.current_tab_id == result.new_tab
    assert form.page.url.endswith("target.html")
    assert "new tab" in (result.extracted_content or "")


async def test_input_reaches_a_controlled_input_and_contenteditable(form: BrowserSession) -> None:
    name = await index_of(form, "Full name")
    result = await run1(form, {"action": "input_text", "index": name, "text": "ada lovelace"})
    assert result.error is None
    assert await text_of(form, "#state") == "ADA LOVELACE"  # the page's handler saw the typed value
    assert "ADA LOVELACE" in (result.extracted_content or "")  # and the model is told what the field shows
    notes = await index_of(form, "Notes")
    await run1(form, {"action": "input_text", "index": notes, "text": "new notes"})
    assert await text_of(form, "#notes") == "new notes"
    await run1(form, {"action": "input_text", "index": notes, "text": " and more", "clear": False})
    assert await text_of(form, "#notes") == "new notes and more"


async def test_hover_opens_a_hover_menu(form: BrowserSession) -> None:
    assert not await form.page.locator("#profile-link").is_visible()
    result = await run1(form, {"action": "hover", "index": await index_of(form, "Account")})
    assert result.error is None
    assert await form.page.locator("#profile-link").is_visible()


async def test_send_keys_presses_keys(form: BrowserSession) -> None:
    result = await run1(form, {"action": "send_keys", "keys": "Shift+A Escape"})
    assert result.error is None
    assert await text_of(form, "#lastkey") == "Escape"
    bad = await run1(form, {"action": "send_keys", "keys": "NoSuchKey"})
    assert bad.error is not None and "'NoSuchKey' is no key" in bad.error and "input_text" in bad.error
    # a text sent to be typed: said at its first word, with what was pressed before it
    typed = await run1(form, {"action": "send_keys", "keys": "Escape Audrey Hale"})
    assert typed.error is not None and typed.error.startswith("'Audrey' is no key (Escape pressed before it)")
    assert await text_of(form, "#lastkey") == "Escape"


async def test_upload_only_allowed_files(form: BrowserSession, tmp_path: Path) -> None:
    allowed = tmp_path / "allowed" / "cv.txt"
    allowed.parent.mkdir()
    allowed.write_text("cv")
    secret = tmp_path / "secret.txt"
    secret.write_text("nope")
    index = await index_of(form, "file")
    refused = await run1(
        form, {"action": "upload_file", "index": index, "path": str(secret)}, allowed_files=[allowed.parent]
    )
    assert refused.error is not None and "not a file you may upload" in refused.error
    assert await text_of(form, "#uploaded") == ""
    ok = await run1(
        form, {"action": "upload_file", "index": index, "path": str(allowed)}, allowed_files=[allowed.parent]
    )
    assert ok.error is None
    assert await text_of(form, "#uploaded") == "cv.txt"


async def test_native_select_options_and_choice(form: BrowserSession) -> None:
    index = await index_of(form, "Size")
    listed = await run1(form, {"action": "get_dropdown_options", "index": index})
    assert listed.error is None
    assert all(f"'{o}'" in (listed.extracted_content or "") for o in ("Small", "Medium", "Large"))
    chosen = await run1(form, {"action": "select_dropdown_option", "index": index, "text": "large"})
    assert chosen.error is None, chosen.error
    assert await form.page.locator("#size").input_value() == "l"
    missing = await run1(form, {"action": "select_dropdown_option", "index": index, "text": "Huge"})
    assert missing.error is not None and "get_dropdown_options" in missing.error


async def test_a_click_on_a_native_select_says_how_to_choose(form: BrowserSession) -> None:
    index = await index_of(form, "Size")
    clicked = await run1(form, {"action": "click_element", "index": index})
    assert clicked.error is not None and "select_dropdown_option" in clicked.error
    assert f"index {index}" in clicked.error and "'Medium'" in clicked.error, clicked.error


async def test_an_option_copied_with_the_marks_of_the_view_is_chosen(form: BrowserSession) -> None:
    """The view marks the chosen option with ✓ and ends a cut one with …; a small model copied
    "✓Heard Island and McDonald Islands" into select_dropdown_option, and no option reads that."""
    index = await index_of(form, "Size")
    clicked = await run1(form, {"action": "click_element", "index": index})
    assert clicked.error is not None and "'✓Small'" in clicked.error
    cut = await run1(form, {"action": "select_dropdown_option", "index": index, "text": "Lar…"})
    assert cut.error is None and await form.page.locator("#size").input_value() == "l"
    marked = await run1(form, {"action": "select_dropdown_option", "index": index, "text": "✓Small"})
    assert marked.error is None and await form.page.locator("#size").input_value() == "s"


async def test_an_index_on_a_page_whose_elements_are_all_below_says_to_scroll(
    session: BrowserSession, server: LocalServer
) -> None:
    await session.navigate(server.url("controller/far_button.html"))
    await session.state()
    missing = await run1(session, {"action": "click_element", "index": 0})
    assert missing.error is not None
    assert "none is in view and 1 more are below: scroll down" in missing.error, missing.error


async def test_custom_listbox_options_and_choice(form: BrowserSession) -> None:
    index = await index_of(form, "Choose a fruit")
    listed = await run1(form, {"action": "get_dropdown_options", "index": index})
    assert listed.error is None, listed.error
    assert all(f"'{o}'" in (listed.extracted_content or "") for o in ("Apple", "Banana", "Cherry"))
    await form.page.keyboard.press("Escape")
    chosen = await run1(form, {"action": "select_dropdown_option", "index": index, "text": "Banana"})
    assert chosen.error is None, chosen.error
    assert await text_of(form, "#fruit") == "Banana"
    assert await form.page.locator("#o-banana").get_attribute("aria-selected") == "true"


async def test_a_listbox_that_opens_late_is_not_taken_for_another_widgets_option(
    session: BrowserSession, server: LocalServer
) -> None:
    # Another widget shows an option all the time; the combobox's own list comes 250 ms after the click.
    await session.navigate(server.url("controller/late_listbox.html"))
    index = await index_of(session, "Pick a colour")
    listed = await run1(session, {"action": "get_dropdown_options", "index": index})
    assert listed.error is None, listed.error
    assert "'Red'" in (listed.extracted_content or "") and "Basic" not in (listed.extracted_content or "")
    await session.navigate(server.url("controller/late_listbox.html"))
    index = await index_of(session, "Pick a colour")
    chosen = await run1(session, {"action": "select_dropdown_option", "index": index, "text": "Green"})
    assert chosen.error is None, chosen.error
    assert await text_of(session, "#chosen") == "Green"


async def test_tabs_open_switch_close(session: BrowserSession, server: LocalServer) -> None:
    first = session.current_tab_id
    opened = await run1(session, {"action": "open_tab", "url": server.url("controller/target.html")})
    assert opened.new_tab is not None and session.current_tab_id == opened.new_tab
    assert len(await session.tabs()) == 2
    switched = await run1(session, {"action": "switch_tab", "tab_id": first})
    assert switched.error is None and session.current_tab_id == first
    closed = await run1(session, {"action": "close_tab", "tab_id": opened.new_tab})
    assert closed.error is None and len(await session.tabs()) == 1
    missing = await run1(session, {"action": "switch_tab", "tab_id": 99})
    assert missing.error is not None and "There is no tab 99" in missing.error


async def test_scroll_the_page_a_container_and_to_text(session: BrowserSession, server: LocalServer) -> None:
    await session.navigate(server.url("controller/scroll.html"))
    page = session.page
    result = await run1(session, {"action": "scroll", "direction": "down", "pages": 1})
    assert result.error is None and await page.evaluate("scrollY") > 500
    await run1(session, {"action": "scroll", "direction": "up", "pages": 5})
    assert await page.evaluate("scrollY") == 0
    inner = await run1(session, {"action": "scroll", "index": await index_of(session, "Message 1")})
    assert inner.error is None and "container" in (inner.extracted_content or "")
    assert await page.evaluate("document.getElementById('panel').scrollTop") > 100
    assert await page.evaluate("scrollY") == 0
    found = await run1(session, {"action": "scroll_to_text", "text": "treasure is buried"})
    assert found.error is None
    assert await page.locator("#far").evaluate("(e) => e.getBoundingClientRect().top < innerHeight")
    missing = await run1(session, {"action": "scroll_to_text", "text": "no such words"})
    assert missing.error is not None


async def test_a_scroll_with_no_index_on_a_page_that_does_not_scroll_moves_its_largest_panel(
    session: BrowserSession, server: LocalServer
) -> None:
    """The result said "Scrolled the container of element None" (email-inbox, whose page does not scroll
    but its list does)."""
    await session.navigate(server.url("controller/scroll.html"))
    page = session.page
    await page.evaluate("document.querySelectorAll('body > div[style]').forEach((e) => e.remove())")
    result = await run1(session, {"action": "scroll", "direction": "down", "pages": 1})
    assert result.error is None and (result.extracted_content or "").startswith(
        "Scrolled the page's largest scroll panel (the page itself does not scroll) down 1 page(s); "
    ), result.extracted_content
    assert await page.evaluate("document.getElementById('panel').scrollTop") > 100
    assert await page.evaluate("scrollY") == 0


async def test_scroll_to_a_text_copied_from_the_page_where_the_view_cut_it_or_the_model_ended_it(
    session: BrowserSession, server: LocalServer
) -> None:
    """The view cuts a long line with an ellipsis; a model that copies the line asks for the cut text, or
    ends a clause of it with a full stop the page does not have there."""
    await session.navigate(server.url("reading/museum_handbook.html"))
    lamp = session.page.get_by_text("The lighthouse lamp room closes")
    await lamp.scroll_into_view_if_needed()
    state = await session.state()
    assert state.snapshot is not None
    (line,) = [x for x in render(state.snapshot).splitlines() if x.startswith("The lighthouse lamp room")]
    assert line.endswith("…"), line
    await session.page.evaluate("scrollTo(0, 0)")
    assert not await lamp.evaluate("(e) => e.getBoundingClientRect().top < innerHeight")
    found = await run1(session, {"action": "scroll_to_text", "text": line})
    assert found.error is None, found.error
    assert await lamp.evaluate("(e) => e.getBoundingClientRect().top < innerHeight")
    # A clause ended with a full stop where the page goes on with a comma.
    await session.page.evaluate("scrollTo(0, 0)")
    clause = "The lighthouse lamp room closes at a quarter to five, half an hour before the galleries."
    found = await run1(session, {"action": "scroll_to_text", "text": clause})
    assert found.error is None, found.error
    assert await lamp.evaluate("(e) => e.getBoundingClientRect().top < innerHeight")
    other = await run1(session, {"action": "scroll_to_text", "text": "The lamp room closes at noon."})
    assert other.error is not None and "is not on the page" in other.error
    only_dots = await run1(session, {"action": "scroll_to_text", "text": " … "})
    assert only_dots.error is not None and "not only an ellipsis" in only_dots.error


async def test_extract_content_as_text_and_through_the_extraction_llm(
    session: BrowserSession, server: LocalServer
) -> None:
    await session.navigate(server.url("controller/scroll.html"))
    raw = await run1(session, {"action": "extract_content", "goal": "the price of the lamp"})
    content = raw.extracted_content or ""
    assert raw.include_in_memory and "# Top of the page" in content
    assert "treasure is buried here" in content and "Lamp | 42 EUR" in content
    llm = ScriptedChatModel(replies=["The lamp costs 42 EUR."])
    answered = await run1(session, {"action": "extract_content", "goal": "lamp price"}, extraction_llm=llm)
    assert answered.extracted_content == "Extracted for 'lamp price':\nThe lamp costs 42 EUR."
    asked = str(llm.calls[0].messages[-1].content)
    assert "Goal: lamp price" in asked and "Lamp | 42 EUR" in asked


async def test_extract_content_never_sends_a_secret_to_the_extraction_llm(form: BrowserSession) -> None:
    name = await index_of(form, "Full name")
    secrets = {"user": "ADA KING"}
    typed = await run1(
        form, {"action": "input_text", "index": name, "text": "<secret>user</secret>"}, sensitive_data=secrets
    )
    assert typed.error is None and await text_of(form, "#state") == "ADA KING"
    llm = ScriptedChatModel(replies=["The name is ADA KING."])
    result = await run1(
        form, {"action": "extract_content", "goal": "the name"}, extraction_llm=llm, sensitive_data=secrets
    )
    asked = str(llm.calls[0].messages[-1].content)
    assert "ADA KING" not in asked and "<secret>user</secret>" in asked
    assert result.extracted_content == "Extracted for 'the name':\nThe name is <secret>user</secret>."


async def test_clicks_in_a_cross_origin_iframe_and_a_shadow_root(
    session: BrowserSession, server: LocalServer, other_server: LocalServer
) -> None:
    child = other_server.url("controller/inner.html")
    await session.navigate(server.url(f"controller/frames.html?child={child}"))
    await session.page.frame_locator("#child").locator("#inner-btn").wait_for()
    inner = await run1(session, {"action": "click_element", "index": await index_of(session, "Inner button")})
    assert inner.error is None, inner.error
    assert await session.page.frame_locator("#child").locator("#inner-btn").inner_text() == "Inner clicked"
    shadow = await run1(
        session, {"action": "click_element", "index": await index_of(session, "Shadow button")}
    )
    assert shadow.error is None, shadow.error
    assert await text_of(session, "#shadow-clicks") == "1"


async def test_done_ends_the_task(session: BrowserSession) -> None:
    result = await run1(session, {"action": "done", "text": "All set", "success": False})
    assert result.is_done and result.success is False and result.extracted_content == "All set"


async def test_a_failing_extraction_model_is_reported_not_fatal(
    session: BrowserSession, server: LocalServer
) -> None:
    await session.navigate(server.url("controller/scroll.html"))

    class AuthError(Exception):
        status_code = 401

    llm = ScriptedChatModel(replies=[AuthError("bad key")])
    result = await run1(session, {"action": "extract_content", "goal": "lamp price"}, extraction_llm=llm)
    assert result.error is not None and "extraction model failed" in result.error


async def test_a_click_taken_by_a_pop_up_names_what_covers_the_element(
    browser: Browser, server: LocalServer, tmp_path: Path
) -> None:
    """Focusing the field opens a pop-up over the page and turns the field off (as MiniWoB's
    login-user-popup does): the click on the button indexed before is reported with what took it, and
    typing into the field with why it never became ready, so the model can close the pop-up first."""
    config = BrowserConfig(action_timeout_ms=1_500, downloads_dir=tmp_path)
    async with BrowserSession(config, browser=browser) as session:
        await session.navigate(server.url("controller/popup.html"))
        user, go = await index_of(session, "Username"), await index_of(session, "Go")
        await session.page.focus("#user")
        result = await run1(session, {"action": "click_element", "index": go})
        assert result.error is not None
        assert '<div id=popup class="modal nag">' in result.error
        assert "close or answer it first" in result.error
        assert await text_of(session, "#said") == ""  # nothing clicked through the pop-up
        typed = await run1(session, {"action": "input_text", "index": user, "text": "ada"})
        assert typed.error is not None and f"typing into element {user} timed out" in typed.error
        assert "is disabled" in typed.error and "ada" not in typed.error


async def test_a_text_written_from_memory_is_answered_with_the_passage_closest_to_it(
    session: BrowserSession, server: LocalServer
) -> None:
    """A small model wrote the sentence it expected ("Edward Lorenz died in 2008.") and looked for it step
    after step; the failure now quotes the page's own passage holding most of its words."""
    await session.navigate(server.url("reading/museum_handbook.html"))
    sentence = "The lighthouse has 212 steps to climb."
    made_up = await run1(session, {"action": "scroll_to_text", "text": sentence})
    assert made_up.error is not None and "is not on the page word for word" in made_up.error
    assert (
        "closest to it: 'The lighthouse: The restored lighthouse beside the museum is part of the visit and "
        "can be climbed by its 212 steps.'" in made_up.error
    ), made_up.error
    unrelated = await run1(session, {"action": "scroll_to_text", "text": "Parking fees rise in winter"})
    assert unrelated.error is not None and unrelated.error.endswith("scroll or check the spelling.")


async def test_scroll_to_a_text_also_in_view_goes_to_where_it_is_out_of_view(
    session: BrowserSession, server: LocalServer
) -> None:
    """The name the model looks for is in the line that asks for it, and again far down a scroll panel:
    scrolling to the first match moved nothing while saying "Scrolled", and the model clicked by the
    indices of a list it had not seen. The one out of view is scrolled to, and a click planned in the
    same reply waits for the model to see it."""
    await session.navigate(server.url("controller/directory_panel.html"))
    page = session.page
    priya = page.locator(".person", has_text="Priya Raman")
    assert not await priya.evaluate(_IN_PANEL)
    found = await run1(session, {"action": "scroll_to_text", "text": "Priya Raman"})
    assert found.extracted_content == "Scrolled to 'Priya Raman'", found
    assert await priya.evaluate(_IN_PANEL)
    here = await run1(session, {"action": "scroll_to_text", "text": "Team directory"})
    assert (
        here.extracted_content
        == "'Team directory' is in view already: nothing scrolled; read the page as it is"
    )

    await page.evaluate("document.getElementById('people').scrollTop = 0")
    state = await session.state()
    assert state.snapshot is not None
    first_call = next(n.index for n in state.snapshot.selector_map.values() if (n.name or n.text) == "Call")
    results = await Controller().run(
        [
            {"action": "scroll_to_text", "text": "Priya Raman"},
            {"action": "click_element", "index": first_call},
        ],
        session,
    )
    assert results[0].error is None and results[1].skipped, results
    assert await page.text_content("#called") == "No call yet."


# Whether a person's row is inside the scroll panel's box.
_IN_PANEL = """(row) => {
  const r = row.getBoundingClientRect(), b = row.parentElement.getBoundingClientRect();
  return r.top >= b.top - 1 && r.bottom <= b.bottom + 1;
}"""
