"""A click that would send a form with a text field still empty, or with nothing set at all, is held back
once, naming the fields; what the model asks a second time is done, and buttons that send nothing are never
held back."""

from __future__ import annotations

import pytest
from langchain_core.messages import BaseMessage

from browser_agent import Agent
from browser_agent.agent.conversation import page_of_state
from browser_agent.browser import BrowserSession
from browser_agent.controller import ActionResult, Controller
from browser_agent.testing import ScriptedChatModel, find_index
from tests.support.pages import index_of
from tests.support.server import LocalServer


@pytest.fixture
async def page(session: BrowserSession, server: LocalServer) -> BrowserSession:
    await session.navigate(server.url("controller/sending.html"))
    return session


async def _run(session: BrowserSession, *actions: dict[str, object]) -> list[ActionResult]:
    return await Controller().run(list(actions), session, model_chose=True)


async def _sent(session: BrowserSession) -> str:
    return str(await session.page.inner_text("#sent")).strip()


async def test_sending_a_form_with_an_empty_field_is_held_back_once_with_the_field_named(
    page: BrowserSession,
) -> None:
    login = await index_of(page, "Log in")
    user, password = await index_of(page, "User"), await index_of(page, "Password")
    [typed, held] = await _run(
        page,
        {"action": "input_text", "index": user, "text": "ada"},
        {"action": "click_element", "index": login},
    )
    assert typed.error is None
    assert held.error == (
        f"element {login} would send the form with fields not set yet: "
        f'[{password}] <input> "Password" empty; type into element {password} first, or click element '
        f"{login} again to send it as it is."
    )
    assert await _sent(page) == ""
    [again] = await _run(page, {"action": "click_element", "index": login})
    assert again.error is None and await _sent(page) == "login"


async def test_a_filled_form_is_sent_at_the_first_click(page: BrowserSession) -> None:
    user, password = await index_of(page, "User"), await index_of(page, "Password")
    results = await _run(
        page,
        {"action": "input_text", "index": user, "text": "ada"},
        {"action": "input_text", "index": password, "text": "s3cret"},
        {"action": "click_element", "index": await index_of(page, "Log in")},
    )
    assert [r.error for r in results] == [None, None, None] and await _sent(page) == "login"


async def test_a_button_named_as_sending_outside_a_form_is_held_back_and_others_are_not(
    page: BrowserSession,
) -> None:
    submit, shuffle = await index_of(page, "Submit"), await index_of(page, "Shuffle")
    [clicked] = await _run(page, {"action": "click_element", "index": shuffle})
    assert clicked.error is None and await _sent(page) == "shuffle"
    [held] = await _run(page, {"action": "click_element", "index": submit})
    assert held.error is not None and "fields not set yet: [" in held.error and '"Password"' not in held.error
    answer = await index_of(page, "answer")
    await _run(page, {"action": "input_text", "index": answer, "text": "ipsum"})
    [sent] = await _run(page, {"action": "click_element", "index": submit})
    assert sent.error is None and await _sent(page) == "shuffle quiz"


async def test_an_ok_button_beside_an_empty_field_outside_a_form_is_held_back_once(
    page: BrowserSession,
) -> None:
    # a box of fields confirmed with "OK" (no <form>): the small model pressed it with the password still
    # empty after a pop-up had turned the fields off and on again
    ok, got_it = await index_of(page, "OK"), await index_of(page, "Got it")
    [held] = await _run(page, {"action": "click_element", "index": ok})
    assert held.error is not None and '"Card number" empty' in held.error and await _sent(page) == ""
    [notice] = await _run(page, {"action": "click_element", "index": got_it})
    assert notice.error is None and await _sent(page) == "notice"
    [again] = await _run(page, {"action": "click_element", "index": ok})
    assert again.error is None and await _sent(page) == "notice gift"


async def test_an_ok_button_the_task_names_is_clicked_at_once(page: BrowserSession) -> None:
    ok = await index_of(page, "OK")
    action = {"action": "click_element", "index": ok}
    [clicked] = await Controller().run([action], page, model_chose=True, task='Click on the "ok" button.')
    assert clicked.error is None and await _sent(page) == "gift"


@pytest.mark.parametrize(
    ("task", "held"),
    [
        ('Click the "Log in" button.', False),  # the button is all the task quotes: the click is asked for
        ('Log in as "ada" and press "Log in".', True),  # the task quotes a text to type too
        ('Type your member number from the card into the box and press "Log in".', True),  # asks to type
        ("Log in.", True),
    ],
)
async def test_a_button_that_is_all_the_task_quotes_is_clicked_at_once(
    page: BrowserSession, task: str, held: bool
) -> None:
    action = {"action": "click_element", "index": await index_of(page, "Log in")}
    [clicked] = await Controller().run([action], page, model_chose=True, task=task)
    assert (clicked.error is not None) is held
    assert await _sent(page) == ("" if held else "login")


async def test_a_form_with_nothing_set_names_its_list_and_radios(page: BrowserSession) -> None:
    order = await index_of(page, "Order")
    [held] = await _run(page, {"action": "click_element", "index": order})
    assert held.error is not None and await _sent(page) == ""
    size, box = await index_of(page, "Size"), await index_of(page, "Box")
    assert f'[{size}] <select> "Size" not chosen yet' in held.error
    assert f"[{box}] <input>" in held.error and '"Bag"' not in held.error  # one radio a group
    await _run(page, {"action": "select_dropdown_option", "index": size, "text": "Large"})
    [sent] = await _run(page, {"action": "click_element", "index": order})
    assert sent.error is None and await _sent(page) == "order"


async def test_the_radio_the_task_names_is_the_one_the_hold_names(page: BrowserSession) -> None:
    """Told that the group's first radio was not chosen yet, the 1.5B model clicked Submit again; named the
    radio its task asked for, it has the index to click."""
    order, bag = await index_of(page, "Order"), await index_of(page, "Bag")
    task = "Wrap it in a Bag and order."
    [held] = await Controller().run(
        [{"action": "click_element", "index": order}], page, model_chose=True, task=task
    )
    assert held.error is not None and f'[{bag}] <input> "Bag" not chosen yet' in held.error, held.error
    assert '"Box"' not in held.error


async def test_the_recipient_the_task_names_is_the_text_the_hold_asks_for(page: BrowserSession) -> None:
    """Told to "set them first" over the empty "to:" of a forwarded mail, the 1.5B model clicked send
    again; the hold names whom the task sends to."""
    send, to = await index_of(page, "Send"), await index_of(page, "share-to")
    task = "Send the price list to Marguerite."
    [held] = await Controller().run(
        [{"action": "click_element", "index": send}], page, model_chose=True, task=task
    )
    assert held.error == (
        f'element {send} would send the form with fields not set yet: [{to}] <input> "to:" empty; type '
        f"'Marguerite' into element {to} first (the task gives it), then click element {send}."
    ), held.error
    assert await _sent(page) == ""
    # held every time while it is empty: offered "or click again to send it as it is", the 1.5B model sent
    # the empty reply whose text the task gave (email-inbox seed 10)
    [again] = await Controller().run(
        [{"action": "click_element", "index": send}], page, model_chose=True, task=task
    )
    assert again.error == held.error and await _sent(page) == ""


async def test_the_text_to_type_is_named_only_where_it_is_plain(page: BrowserSession) -> None:
    """The one empty field and the one quoted text no field shows: named. Two empty fields: which text
    goes where is left to the model ("set them first")."""
    login = await index_of(page, "Log in")
    user, password = await index_of(page, "User"), await index_of(page, "Password")
    task = 'Enter the username "ada" and the password "s3cret", then press Log in.'
    typed, held = await Controller().run(
        [{"action": "input_text", "index": user, "text": "ada"}, {"action": "click_element", "index": login}],
        page,
        model_chose=True,
        task=task,
    )
    assert typed.error is None and held.error is not None, (typed, held)
    assert f"type 's3cret' into element {password} first (the task gives it)" in held.error, held.error


async def test_with_two_fields_empty_which_text_goes_where_is_left_to_the_model(page: BrowserSession) -> None:
    task = 'Enter the username "ada" and the password "s3cret", then press Log in.'
    action = {"action": "click_element", "index": await index_of(page, "Log in")}
    [held] = await Controller().run([action], page, model_chose=True, task=task)
    assert held.error is not None and "; set them first, or click element" in held.error, held.error


async def test_a_list_chosen_at_the_option_the_page_had_chosen_counts_as_set(page: BrowserSession) -> None:
    """Told to choose the list's first option, the model chose it; the guard still called the list "not
    chosen yet", and the model, confused, never sent the form."""
    size = await index_of(page, "Size")
    chosen, sent = await _run(
        page,
        {"action": "select_dropdown_option", "index": size, "text": "Small"},
        {"action": "click_element", "index": await index_of(page, "Order")},
    )
    assert chosen.error is None and sent.error is None and await _sent(page) == "order"


async def test_a_list_left_at_its_default_beside_a_filled_field_holds_nothing_back(
    page: BrowserSession,
) -> None:
    results = await _run(
        page,
        {"action": "input_text", "index": await index_of(page, "Name"), "text": "Ada"},
        {"action": "click_element", "index": await index_of(page, "Ship")},
    )
    assert [r.error for r in results] == [None, None] and await _sent(page) == "ship"


async def test_actions_no_model_chose_are_run_as_given(page: BrowserSession) -> None:
    """A replay, a workflow or a script clicks once where the recorded run clicked twice (a held click
    is an error, and replays skip errors): the form is sent at once."""
    [sent] = await Controller().run(
        [{"action": "click_element", "index": await index_of(page, "Log in")}], page
    )
    assert sent.error is None and await _sent(page) == "login"


async def test_in_a_run_the_model_is_told_and_its_second_click_sends(
    session: BrowserSession, server: LocalServer
) -> None:
    def policy(messages: list[BaseMessage]) -> dict[str, object]:
        page = page_of_state(str(messages[-1].content))
        order = find_index(page, "button", "Order")
        if "would send the form" not in str(messages):
            return {"current_state": brain("send"), "action": [{"action": "click_element", "index": order}]}
        if "order" not in page:
            return {"current_state": brain("again"), "action": [{"action": "click_element", "index": order}]}
        return {
            "current_state": brain("end"),
            "action": [{"action": "done", "text": "sent", "success": True}],
        }

    task = f"Open {server.url('controller/sending.html')} and order"
    history = await Agent(task, ScriptedChatModel(policy=policy), browser=session).run(max_steps=5)
    held = history.steps[1].results[0].error
    assert held is not None and '<select> "Size" not chosen yet' in held
    assert history.steps[2].results[0].error is None and history.final_result() == "sent"


def brain(goal: str) -> dict[str, str]:
    return {"evaluation_previous_goal": "Unknown", "memory": "", "next_goal": goal}


async def test_fields_without_a_label_are_named_by_the_text_above_them(
    session: BrowserSession, server: LocalServer
) -> None:
    await session.navigate(server.url("controller/unlabelled_fields.html"))
    state = await session.state()
    assert state.snapshot is not None
    member, pin, note, sign_in = sorted(state.snapshot.selector_map)
    [typed, held] = await _run(
        session,
        {"action": "input_text", "index": member, "text": "4711"},
        {"action": "click_element", "index": sign_in},
    )
    # a long sentence above a field is no label: that field is named by its tag alone
    assert typed.error is None and held.error is not None
    assert f'[{pin}] <input> "PIN" empty, [{note}] <input> empty;' in held.error
    [refused] = await _run(session, {"action": "input_text", "index": sign_in, "text": "1234"})
    assert refused.error is not None and f'[{member}] <input> "Member number"' in refused.error


async def test_a_table_cell_names_only_a_field_in_the_table_and_a_shown_value_names_none(
    session: BrowserSession, server: LocalServer
) -> None:
    await session.navigate(server.url("controller/table_fields.html"))
    state = await session.state()
    assert state.snapshot is not None
    code, ref, note, send = sorted(state.snapshot.selector_map)
    [held] = await _run(session, {"action": "click_element", "index": send})
    # the field under the table is not "1998" (its last cell); the one in a row is named by its row; the
    # box under "Status: open" is not named by that line, which shows a value
    assert held.error is not None
    assert (
        f'fields not set yet: [{code}] <input> empty, [{ref}] <input> "Reference" empty, [{note}] <textarea> '
        "empty;"
    ) in held.error, held.error


async def test_sending_a_field_whose_suggestions_are_open_is_held_back_once(
    session: BrowserSession, server: LocalServer
) -> None:
    await session.navigate(server.url("controller/airport_search.html"))
    field = await index_of(session, "From")
    [typed] = await _run(session, {"action": "input_text", "index": field, "text": "Oslo"})
    assert typed.error is None and "2 suggestions appeared under it" in str(typed.extracted_content)
    search, torp = await index_of(session, "Search flights"), await index_of(session, "Oslo Torp")
    assert torp == search - 1, "the options come before the button, in the order of the page"
    [held] = await _run(session, {"action": "click_element", "index": search})
    assert held.error is not None and held.error.startswith(
        f"element {search} would send [{field}] <input> \"From\" holding only 'Oslo' while its suggestion "
        f"list is open: [{torp - 1}] 'Oslo Gardermoen', [{torp}] 'Oslo Torp'; click a suggestion"
    )
    assert await session.page.inner_text("#sent") == ""
    [again] = await _run(session, {"action": "click_element", "index": search})
    assert again.error is None and await session.page.inner_text("#sent") == "Oslo"


async def test_a_chosen_suggestion_is_sent_at_the_first_click(
    session: BrowserSession, server: LocalServer
) -> None:
    await session.navigate(server.url("controller/airport_search.html"))
    await _run(session, {"action": "input_text", "index": await index_of(session, "From"), "text": "kansai"})
    await _run(session, {"action": "click_element", "index": await index_of(session, "Osaka Kansai")})
    [sent] = await _run(
        session, {"action": "click_element", "index": await index_of(session, "Search flights")}
    )
    assert sent.error is None and await session.page.inner_text("#sent") == "Osaka Kansai"


async def test_a_box_drawn_as_a_button_and_named_as_sending_is_held_back_once(
    session: BrowserSession, server: LocalServer
) -> None:
    """A feedback card built of boxes: its <div>Send</div> sends what the card holds, its <div>Preview</div>
    and a link named Search send nothing the guard knows of."""
    await session.navigate(server.url("controller/div_buttons.html"))
    name, send = await index_of(session, "Name"), await index_of(session, "Send")
    email, comment = await index_of(session, "Email"), await index_of(session, "Comment")
    preview, search = await index_of(session, "Preview"), await index_of(session, "Search")
    [typed, previewed, held] = await _run(
        session,
        {"action": "input_text", "index": name, "text": "Ada"},
        {"action": "click_element", "index": preview},
        {"action": "click_element", "index": send},
    )
    assert typed.error is None and previewed.error is None
    assert held.error == (
        f'element {send} would send the form with fields not set yet: [{email}] <input> "Email" empty, '
        f'[{comment}] <textarea> "Comment" empty; set them first, or click element {send} again to send it '
        "as it is."
    )
    assert await _sent(session) == "preview"
    [again] = await _run(session, {"action": "click_element", "index": send})
    assert again.error is None and await _sent(session) == "preview sent"
    [link] = await _run(session, {"action": "click_element", "index": search})
    assert link.error is None and session.page.url.endswith("#help")
