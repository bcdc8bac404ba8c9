"""A "yes" to a question about leaving the page is held back once unless the task asks to leave (a small
model clicked OK on a pop-up's "Exit to home page?" while filling a login form, and lost the form). The
fixture is a bank's transfer form with an idle dialog: "Do you want to sign out now? [Sign out] [Stay
signed in]" that the first focus on the amount opens, turning the form off."""

from __future__ import annotations

import pytest

from browser_agent.browser import BrowserSession
from browser_agent.controller import ActionResult, Controller
from tests.support.pages import index_of
from tests.support.server import LocalServer

TASK = "Send 25 euros to Ann Ortiz"


@pytest.fixture
async def transfer(session: BrowserSession, server: LocalServer) -> BrowserSession:
    """The transfer form with the idle question open, asked as the amount field took the focus."""
    await session.navigate(server.url("controller/transfer.html"))
    amount = await index_of(session, "Amount (EUR)")
    [typed] = await Controller().run(
        [{"action": "input_text", "index": amount, "text": "25"}],
        session,
        model_chose=True,
        task=TASK,
    )
    assert typed.error is not None and "the page turned the field off" in typed.error
    # The question is named with the answer that stays: told only "answer it", a small model gave up.
    assert "and asked 'Do you want to sign out now?': 'Stay signed in' answers it and stays" in typed.error
    return session


async def _click(session: BrowserSession, index: int, task: str = TASK, chose: bool = True) -> ActionResult:
    [result] = await Controller().run(
        [{"action": "click_element", "index": index}], session, model_chose=chose, task=task
    )
    return result


async def _signed_out(session: BrowserSession) -> bool:
    return "You are signed out" in await session.page.inner_text("body")


async def test_signing_out_unasked_is_held_back_once(transfer: BrowserSession) -> None:
    sign_out = await index_of(transfer, "Sign out")
    stay = await index_of(transfer, "Stay signed in")
    held = await _click(transfer, sign_out)
    assert held.error == (
        f"Not clicked: element {sign_out} answers yes to 'Do you want to sign out now?', which would leave "
        "this page and what the task has done on it; the task does not ask to leave. Element "
        f"{stay} ('Stay signed in') closes the question and stays: click it, then go on with the task (or "
        f"element {sign_out} again if you mean to leave)."
    )
    assert not await _signed_out(transfer)
    again = await _click(transfer, await index_of(transfer, "Sign out"))
    assert again.error is None and await _signed_out(transfer)


@pytest.mark.parametrize("case", ["task leaves", "replay"])
async def test_leaving_that_is_meant_goes_through(transfer: BrowserSession, case: str) -> None:
    sign_out = await index_of(transfer, "Sign out")
    if case == "task leaves":
        result = await _click(transfer, sign_out, task="Sign out of the bank")
    else:
        result = await _click(transfer, sign_out, chose=False)
    assert result.error is None and await _signed_out(transfer)


async def test_a_question_that_does_not_leave_is_answered_at_once(transfer: BrowserSession) -> None:
    assert (await _click(transfer, await index_of(transfer, "Stay signed in"))).error is None
    result = await _click(transfer, await index_of(transfer, "Yes"))  # "Save this payee for next time?"
    assert result.error is None
    assert await transfer.page.input_value("#payee") == "Ann Ortiz"


async def test_the_forms_own_button_beside_the_question_is_no_answer(transfer: BrowserSession) -> None:
    """The form's Confirm shares a box with the idle question: turned off, it is no answer to it (a click
    on it fails at once, sending the model to the question), and once the question is gone it sends the
    form (a box that holds fields is a form, not a question)."""
    confirm = await index_of(transfer, "Confirm")
    stay = await index_of(transfer, "Stay signed in")
    off = await _click(transfer, confirm)
    # the answer that stays is named by its index: told "(its controls are marked * on the page)", the 1.5B
    # model clicked the turned-off button twice more (login-user-popup seed 55)
    assert off.error == (
        f"element {confirm} (Confirm) is turned off: the page asked 'Do you want to sign out now?': 'Stay "
        f"signed in' answers it and stays: click element {stay}, then go on with the task."
    )
    await _click(transfer, await index_of(transfer, "Stay signed in"))
    await transfer.page.fill("#amount", "25")
    sent = await _click(transfer, await index_of(transfer, "Confirm"))
    assert sent.error is None and await transfer.page.is_visible("#sent")


async def test_a_secret_in_the_question_is_redacted_before_it_is_cut(transfer: BrowserSession) -> None:
    """The question is quoted back cut to 120 characters: a secret that straddles the cut is replaced by
    its placeholder first, so no part of it is quoted."""
    secret = "Kestrel-4417-Harbour"
    question = "Do you want to sign out of " + "a" * 90 + " " + secret + " now?"  # the secret starts at 118
    await transfer.page.evaluate("(q) => { document.querySelector('#idle p').textContent = q; }", question)
    [held] = await Controller().run(
        [{"action": "click_element", "index": await index_of(transfer, "Sign out")}],
        transfer,
        model_chose=True,
        task=TASK,
        sensitive_data={"code": secret},
    )
    assert held.error is not None and held.error.startswith("Not clicked:")
    assert "Ke" not in held.error
