"""What an action did is read back from the page into its result: the value a field holds after typing,
whether a checkbox, radio or switch is checked after a click. A small model that was not told typed the
same text again, or toggled a checkbox on, off, on, off."""

from __future__ import annotations

from browser_agent.browser import BrowserSession
from browser_agent.controller import Controller
from browser_agent.testing import PageServer
from tests.support.pages import index_of

PAGE = """<!doctype html><title>Readback</title>
<label>Name <input id="name" name="name"></label>
<label>Code <input id="code" name="code" oninput="this.value = this.value.toUpperCase()"></label>
<label>Password <input id="pw" name="pw" type="password"></label>
<label>Email <input id="email" name="email" type="email" value="augusta.ada.lovelace@example"></label>
<label>Story <textarea id="story" name="story"></textarea></label>
<label><input id="news" type="checkbox" name="news"> Newsletter</label>
<label><input id="red" type="radio" name="colour" value="red"> Red</label>
<div id="dark" role="switch" aria-checked="false" tabindex="0" aria-label="Dark mode"
     onclick="flip(this)">Dark</div>
<button id="go" onclick="this.textContent = 'Sent'">Send</button>
<script>
function flip(el) { el.setAttribute('aria-checked', String(el.getAttribute('aria-checked') !== 'true')); }
</script>
"""


async def _said(session: BrowserSession, action: str, target: str, **params: object) -> str:
    step = {"action": action, "index": await index_of(session, target), **params}
    [result] = await Controller().run([step], session)  # type: ignore[list-item]
    assert result.error is None, result.error
    return result.extracted_content or ""


async def test_typing_says_what_the_field_now_holds(session: BrowserSession) -> None:
    with PageServer({"/": PAGE}) as site:
        await session.navigate(site.url("/"))
        assert (await _said(session, "input_text", "name", text="Ada")).endswith("now holds 'Ada'")
        # what the page made of the typed text, not what was sent
        assert "the field now holds 'AB12'" in await _said(session, "input_text", "code", text="ab12")
        assert (await _said(session, "input_text", "pw", text="hunter2")).endswith("now holds 7 characters")
        # appended at the end of the value, also in a field without a selection API (the caret would
        # stay where the click landed, in the middle of the value)
        said = await _said(session, "input_text", "email", text=".com", clear=False)
        assert said.endswith("now holds 'augusta.ada.lovelace@example.com'"), said
        story = "once upon a time " * 10
        said = await _said(session, "input_text", "story", text=story)
        held = said.split("now holds", 1)[1]
        assert f"({len(story)} characters)" in held and held.count("once upon") < 10  # cut, with its length


async def test_a_click_says_whether_a_checkbox_radio_or_switch_is_checked(session: BrowserSession) -> None:
    with PageServer({"/": PAGE}) as site:
        await session.navigate(site.url("/"))
        assert (await _said(session, "click_element", "news")).endswith("; it is now checked")
        assert (await _said(session, "click_element", "news")).endswith("; it is now unchecked")
        assert (await _said(session, "click_element", "red")).endswith("; it is now checked")
        assert (await _said(session, "click_element", "Dark mode")).endswith("; it is now checked")
        assert "checked" not in await _said(session, "click_element", "Send")  # a button has no such state
