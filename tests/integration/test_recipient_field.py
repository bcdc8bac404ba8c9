"""The "to:" field of whom a task forwards or sends to: the click that opens it says whom to type, and a
text without that name typed into it is held back once. Chosen on MiniWoB++'s mail client (the 1.5B
model typed the mail's subject into "to:"); this page is a help desk whose hand-over box asks "to:"."""

from __future__ import annotations

from browser_agent.browser import BrowserSession
from browser_agent.controller import ActionResult
from tests.support.actions import run1
from tests.support.pages import index_of
from tests.support.server import LocalServer

TASK = "Open ticket T-311 and forward it to Priya."


async def _open_hand_over(
    session: BrowserSession, server: LocalServer, task: str = TASK, **kwargs: object
) -> ActionResult:
    await session.navigate(server.url("agent/helpdesk.html"))
    await session.state()
    await run1(session, {"action": "click_element", "index": await index_of(session, "T-311")})
    await session.state()
    click = {"action": "click_element", "index": await index_of(session, "Hand over")}
    return await run1(session, click, model_chose=True, task=task, **kwargs)


async def _to_field(session: BrowserSession) -> int:
    """The index of the hand-over box's field, which has no name of its own ("to:" is the text above)."""
    state = await session.state()
    assert state.snapshot is not None
    return next(n.index for n in state.snapshot.selector_map.values() if n.tag == "input" and not n.name)


async def _type(session: BrowserSession, text: str, task: str = TASK, **kwargs: object) -> ActionResult:
    action = {"action": "input_text", "index": await _to_field(session), "text": text}
    return await run1(session, action, model_chose=True, task=task, **kwargs)


async def test_the_opened_to_field_is_named_with_whom_the_task_sends_to(
    session: BrowserSession, server: LocalServer
) -> None:
    opened = await _open_hand_over(session, server)
    assert opened.error is None, opened
    assert opened.extracted_content == (
        "Clicked element 3 (Hand over); it opened an empty 'to:' field (marked * on the page): type 'Priya' "
        "into it with input_text (whom the task sends to)"
    ), opened.extracted_content


async def test_a_to_without_the_name_is_held_once_and_the_name_is_typed_at_once(
    session: BrowserSession, server: LocalServer
) -> None:
    await _open_hand_over(session, server)
    field = await _to_field(session)
    held = await _type(session, "Printer on floor 2 jams")
    assert held.error == (
        f"Not typed into element {field}: it is the 'to:' field, and the task sends to 'Priya': type 'Priya' "
        f"into element {field} (or 'Printer on floor 2 jams' again if you meant it)."
    ), held.error
    assert await session.page.input_value("#assignee") == ""
    again = await _type(session, "Printer on floor 2 jams")
    assert again.error is None and await session.page.input_value("#assignee") == "Printer on floor 2 jams"
    named = await _type(session, "priya")
    assert named.error is None and await session.page.input_value("#assignee") == "priya", named


async def test_a_task_that_names_no_one_leaves_the_field_alone(
    session: BrowserSession, server: LocalServer
) -> None:
    task = "Open ticket T-311 and hand it over to the night shift."
    opened = await _open_hand_over(session, server, task)
    assert opened.extracted_content is not None and opened.extracted_content.endswith(
        "; it opened an empty text field (marked * on the page): input_text types into it"
    ), opened.extracted_content
    typed = await _type(session, "Night shift", task)
    assert typed.error is None and await session.page.input_value("#assignee") == "Night shift", typed


async def test_a_secret_recipient_is_never_spelled_out(session: BrowserSession, server: LocalServer) -> None:
    """Whom the task sends to, given as a secret, is neither named in the note nor in a hold."""
    secrets = {"boss": "Priya"}
    opened = await _open_hand_over(session, server, sensitive_data=secrets)
    assert opened.extracted_content is not None and "Priya" not in opened.extracted_content, opened
    typed = await _type(session, "Nobody", sensitive_data=secrets)
    assert typed.error is None and "Priya" not in (typed.extracted_content or ""), typed


async def test_a_handle_is_matched_without_its_at_sign(session: BrowserSession, server: LocalServer) -> None:
    task = "Open ticket T-311 and send it to @priya."
    await _open_hand_over(session, server, task)
    typed = await _type(session, "priya", task)
    assert typed.error is None and await session.page.input_value("#assignee") == "priya", typed
