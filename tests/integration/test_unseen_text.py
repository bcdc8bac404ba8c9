"""A few words to type that neither the task nor the page shows are held back once where the page labels
a value with a word of the task, quoting that label and value; the same typing again goes through. Text
the page or the task shows, a word that begins with one of the task's, a number and a secret are typed at
once, and so is a value of the model's own where the page labels nothing the task names (a form to fill).
The page is a parcel's details in a definition list, unlike the MiniWoB++ table of label-value rows the
rule was chosen on."""

from __future__ import annotations

from browser_agent.browser import BrowserSession
from browser_agent.controller import ActionResult
from tests.support.actions import type_as_model
from tests.support.server import LocalServer

_TASK = "Enter the courier of this parcel into the tracking form and press Track."


async def _type(
    session: BrowserSession,
    server: LocalServer,
    text: str,
    task: str = _TASK,
    sensitive_data: dict[str, str] | None = None,
) -> ActionResult:
    page = server.url("controller/parcel_details.html")
    field = "Carrier to track with"
    return await type_as_model(session, page, field, text, task, sensitive_data=sensitive_data)


async def test_a_made_up_value_is_held_once_quoting_the_label_and_value_the_page_shows(
    session: BrowserSession, server: LocalServer
) -> None:
    held = await _type(session, server, "FedEx")
    assert held.error is not None and held.error.startswith("Not typed into element "), held
    assert held.error.endswith(
        ": 'FedEx' is in neither the task nor the page (a made-up value?); the page gives Courier as "
        "'Hallmark Freight': type 'Hallmark Freight' (or 'FedEx' again if you meant it)."
    ), held.error
    assert await session.page.input_value("#carrier") == ""
    again = await _type(session, server, "FedEx")
    assert again.error is None and await session.page.input_value("#carrier") == "FedEx"


async def test_what_the_page_or_the_task_shows_is_typed_at_once(
    session: BrowserSession, server: LocalServer
) -> None:
    for text in ("Hallmark Freight", "hallmark", "the courier", "Trackers"):  # the last begins with "Track"
        typed = await _type(session, server, text)
        assert typed.error is None, (text, typed)
        assert await session.page.input_value("#carrier") == text


async def test_numbers_long_texts_and_secrets_are_not_checked(
    session: BrowserSession, server: LocalServer
) -> None:
    for text in ("4471 B", "please send it by the quickest way you have"):
        typed = await _type(session, server, text)
        assert typed.error is None, (text, typed)
    secret = await _type(
        session,
        server,
        "<secret>carrier</secret>",
        task="Enter <secret>carrier</secret> into the tracking form.",
        sensitive_data={"carrier": "Zephyr Lines"},
    )
    assert secret.error is None, secret
    assert await session.page.input_value("#carrier") == "Zephyr Lines"


async def test_where_the_page_labels_nothing_the_task_names_a_value_of_the_models_own_is_typed(
    session: BrowserSession, server: LocalServer
) -> None:
    typed = await _type(session, server, "Globex", task="Fill in the form with a carrier of your choice.")
    assert typed.error is None, typed
    assert await session.page.input_value("#carrier") == "Globex"


async def test_a_label_value_line_is_quoted_too(session: BrowserSession, server: LocalServer) -> None:
    held = await _type(session, server, "Sunday", task="Type the day it was shipped into the carrier field.")
    assert held.error is not None, held
    assert "the page gives Shipped as 'Tuesday': type 'Tuesday'" in held.error, held
