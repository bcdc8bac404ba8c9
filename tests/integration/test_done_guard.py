"""A ``done`` claiming success while a button the task names was never pressed is held back once, naming
the button; pressing it, pressing Enter, a ``done`` that admits failure, a task that names no button or a
second ``done`` all end the run as the model says."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from langchain_core.messages import BaseMessage

from browser_agent import Agent, AgentSettings
from browser_agent.browser import BrowserSession
from browser_agent.models import chat_model
from browser_agent.record import AgentHistory
from browser_agent.testing import ScriptedChatModel, find_index
from tests.support.fake_openai import FakeOpenAI
from tests.support.pages import index_of
from tests.support.server import LocalServer
from tests.support.turns import in_turn

Policy = Callable[[list[BaseMessage]], dict[str, object]]


def brain(goal: str) -> dict[str, str]:
    return {"evaluation_previous_goal": "Unknown", "memory": "", "next_goal": goal}


def _step(goal: str, *actions: dict[str, object]) -> dict[str, object]:
    return {"current_state": brain(goal), "action": list(actions)}


def _done(success: bool = True) -> dict[str, object]:
    return {"action": "done", "text": "all set", "success": success}


_steps = in_turn


def _tick(page: str) -> dict[str, object]:
    return _step("tick", {"action": "click_element", "index": find_index(page, "input", "Travel")})


def _finish(page: str) -> dict[str, object]:
    return _step("finish", _done())


def _save(page: str) -> dict[str, object]:
    return _step("save", {"action": "click_element", "index": find_index(page, "button", "Save preferences")})


async def _run(session: BrowserSession, server: LocalServer, task: str, policy: Policy) -> AgentHistory:
    await session.navigate(server.url("agent/preferences.html"))
    return await Agent(task, ScriptedChatModel(policy=policy), browser=session).run(max_steps=6)


async def _said(session: BrowserSession) -> str:
    return str(await session.page.inner_text("#said")).strip()


async def test_done_before_the_named_button_is_held_back_and_the_model_presses_it(
    session: BrowserSession, server: LocalServer
) -> None:
    history = await _run(
        session, server, "Tick Travel and press Save preferences.", _steps(_tick, _finish, _save, _finish)
    )
    held = history.steps[1].results[0]
    assert held.error is not None and not held.is_done
    assert held.error.startswith("not done yet: the task names [")
    assert '<button> "Save preferences"' in held.error
    assert held.error.endswith("first if the task needs it (a later done ends the run as it is).")
    assert [len(s.results) for s in history.steps] == [1, 1, 1, 1]
    assert history.is_done() and history.final_result() == "all set"
    assert await _said(session) == "saved"


async def test_a_second_done_ends_the_run_as_the_model_says(
    session: BrowserSession, server: LocalServer
) -> None:
    history = await _run(session, server, "Tick Travel and press Save preferences.", _steps(_tick, _finish))
    assert history.steps[1].results[0].error is not None
    assert len(history.steps) == 3 and history.is_done() and history.is_successful()
    assert await _said(session) == ""


def _search_with_enter(page: str) -> dict[str, object]:
    field = find_index(page, "input", "Archive")
    return _step(
        "search",
        {"action": "input_text", "index": field, "text": "rivers"},
        {"action": "send_keys", "keys": "Enter"},
    )


def _give_up(page: str) -> dict[str, object]:
    return _step("give up", _done(success=False))


@pytest.mark.parametrize(
    ("task", "policy"),
    [
        ("Tick Travel and press Save preferences.", _steps(_tick, _save, _finish)),  # pressed
        ("Search the archive for rivers with Find.", _steps(_search_with_enter, _finish)),  # Enter sent it
        ("Tick Travel and press Save preferences.", _steps(_tick, _give_up)),  # admits failure
        ("Tick Travel.", _steps(_tick, _finish)),  # names no button
    ],
    ids=["pressed", "enter", "failure", "unnamed"],
)
async def test_a_done_with_nothing_named_left_unpressed_ends_the_run_at_once(
    session: BrowserSession, server: LocalServer, task: str, policy: Policy
) -> None:
    history = await _run(session, server, task, policy)
    assert history.is_done()
    assert all(r.error is None for s in history.steps for r in s.results)
    assert history.steps[-1].results[-1].action == "done"


async def test_with_a_grammar_the_step_after_a_held_done_offers_no_done(
    session: BrowserSession, server: LocalServer
) -> None:
    """Told of the unpressed button, a small model called done again at once: a ``json_schema`` grammar
    leaves ``done`` out of the next step only, and a done after another action ends the run."""
    await session.navigate(server.url("agent/preferences.html"))
    travel = await index_of(session, "Travel")
    script = [
        _step("tick", {"action": "click_element", "index": travel}),
        _step("finish", _done()),
        _step("untick", {"action": "click_element", "index": travel}),
        _step("finish", _done()),
    ]
    with FakeOpenAI(script) as fake:
        llm = chat_model("openai:local", base_url=fake.base_url, api_key="local", max_retries=0)
        settings = AgentSettings(tool_calling_method="json_schema")
        history = await Agent(
            "Tick Travel and press Save preferences.", llm, browser=session, settings=settings
        ).run(6)
    assert fake.schema_errors == [] and history.is_done() and history.final_result() == "all set"
    assert history.steps[1].results[0].error is not None

    def offers_done(request: dict[str, object]) -> bool:
        schema = request["response_format"]["json_schema"]["schema"]  # type: ignore[index]
        return any(
            b["properties"]["action"]["enum"] == ["done"]
            for b in schema["properties"]["action"]["items"]["anyOf"]
        )

    assert [offers_done(r) for r in fake.requests] == [True, True, False, True]


async def test_done_before_clicking_the_item_the_task_quotes_is_held_back_once(
    session: BrowserSession, server: LocalServer
) -> None:
    """Told where a file was hidden, a small model opened the folder, saw the file, and called done
    without clicking it: an element whose whole name the task quotes counts as a button the task names."""

    def _open(name: str) -> Callable[[str], dict[str, object]]:
        return lambda page: _step(
            "open", {"action": "click_element", "index": find_index(page, "span", name)}
        )

    def _guide(page: str) -> dict[str, object]:
        return _step("open the guide", {"action": "click_element", "index": find_index(page, "a", "Mesh M3")})

    await session.navigate(server.url("agent/closed_parts.html"))
    policy = _steps(_open("Manuals"), _open("Routers"), _finish, _guide, _finish)
    history = await Agent(
        'Open the "Mesh M3 guide" in the manuals', ScriptedChatModel(policy=policy), browser=session
    ).run(max_steps=6)
    held = history.steps[2].results[0].error
    assert (
        held is not None and held.startswith("not done yet: the task names [") and '"Mesh M3 guide"' in held
    )
    assert history.is_done() and len(history.steps) == 5
    assert session.page.url.endswith("#m3")


async def test_a_quoted_text_typed_into_a_field_is_no_element_to_click(
    session: BrowserSession, server: LocalServer
) -> None:
    def _type(page: str) -> dict[str, object]:
        field = find_index(page, "input", "Archive")
        return _step("type", {"action": "input_text", "index": field, "text": "rivers"})

    history = await _run(session, server, 'Type "rivers" into the archive box.', _steps(_type, _finish))
    assert history.is_done() and len(history.steps) == 2
    assert all(r.error is None for s in history.steps for r in s.results)


async def test_a_quoted_name_the_model_typed_is_no_element_to_click(
    session: BrowserSession, server: LocalServer
) -> None:
    """ "Enter "rivers" and open the 2nd result": the first result is a link named rivers, and the task
    does not ask for it."""

    def _search(page: str) -> dict[str, object]:
        field = find_index(page, "input", "Catalogue")
        return _step(
            "search",
            {"action": "input_text", "index": field, "text": "rivers"},
            {"action": "click_element", "index": find_index(page, "button", "Search")},
        )

    def _second(page: str) -> dict[str, object]:
        return _step("open", {"action": "click_element", "index": find_index(page, "a", "rivers of Europe")})

    await session.navigate(server.url("agent/search_results.html"))
    task = 'Enter "rivers" in the catalogue, press Search and open the 2nd result.'
    history = await Agent(
        task, ScriptedChatModel(policy=_steps(_search, _second, _finish)), browser=session
    ).run(max_steps=5)
    assert history.is_done() and len(history.steps) == 3
    assert all(r.error is None for s in history.steps for r in s.results)
    assert session.page.url.endswith("#r2")


def _open(name: str, tag: str = "span") -> Callable[[str], dict[str, object]]:
    return lambda page: _step("open", {"action": "click_element", "index": find_index(page, tag, name)})


async def test_done_while_the_quoted_name_is_still_hidden_is_held_back_once(
    session: BrowserSession, server: LocalServer
) -> None:
    """The model opened the outer folder only and called done, the guide still in a closed one: held back
    once, naming the folder that opens it."""

    def _guide(page: str) -> dict[str, object]:
        return _step("open the guide", {"action": "click_element", "index": find_index(page, "a", "Mesh M3")})

    await session.navigate(server.url("agent/closed_parts.html"))
    policy = _steps(_open("Manuals"), _finish, _open("Routers"), _guide, _finish)
    history = await Agent(
        'Open the "Mesh M3 guide" in the manuals', ScriptedChatModel(policy=policy), browser=session
    ).run(max_steps=6)
    held = history.steps[1].results[0].error
    routers = await index_of(session, "Routers")
    assert held == (
        'not done yet: "Mesh M3 guide", which the task quotes, is still hidden on this page: '
        f'element {routers} opens the part holding it. Open it and click "Mesh M3 guide" first if the task '
        "needs it (a later done ends the run as it is)."
    )
    assert history.is_done() and len(history.steps) == 5
    assert session.page.url.endswith("#m3")


async def test_a_quoted_name_clicked_and_hidden_again_is_done(
    session: BrowserSession, server: LocalServer
) -> None:
    """The menu item was clicked, then the menu closed: nothing is left to open."""
    await session.navigate(server.url("agent/closed_parts.html"))
    policy = _steps(
        _open("Products", "button"), _open("Mesh router", "a"), _open("Products", "button"), _finish
    )
    history = await Agent(
        'Open "Products" and click "Mesh router".', ScriptedChatModel(policy=policy), browser=session
    ).run(max_steps=6)
    assert history.is_done() and len(history.steps) == 4
    assert all(r.error is None for s in history.steps for r in s.results)
    assert await session.page.locator("#products-menu").is_hidden()


async def test_done_before_the_step_the_task_gives_as_a_verb_is_held_back_once(
    session: BrowserSession, server: LocalServer
) -> None:
    """ "... and forward it": the model opened the mail and called done, Forward (a span) unclicked. Reply,
    which the task does not ask for, holds nothing back."""

    def _open(page: str) -> dict[str, object]:
        return _step("open", {"action": "click_element", "index": find_index(page, "div", "Ines Ferreira")})

    def _forward(page: str) -> dict[str, object]:
        return _step("forward", {"action": "click_element", "index": find_index(page, "span", "Forward")})

    await session.navigate(server.url("agent/webmail.html"))
    task = "Open the mail from Ines and forward it to Bo."
    history = await Agent(
        task, ScriptedChatModel(policy=_steps(_open, _finish, _forward, _finish)), browser=session
    ).run(max_steps=6)
    held = history.steps[1].results[0].error
    assert held is not None and held.startswith("not done yet: the task names [") and '"Forward"' in held
    assert history.is_done() and len(history.steps) == 4
    assert await session.page.inner_text("#kind") == "Fwd: Quarterly figures"


async def test_a_button_the_model_planned_to_press_counts_as_named(
    session: BrowserSession, server: LocalServer
) -> None:
    """The task names no button, but the model's own goal said "then press Save preferences"; it ticked
    the box and called done. The done is held back once, quoting the plan; the model presses the button."""

    def tick_planning_to_save(page: str) -> dict[str, object]:
        travel = find_index(page, "input", "Travel")
        return _step(
            "Tick Travel, then press Save preferences.", {"action": "click_element", "index": travel}
        )

    history = await _run(
        session, server, "Tick Travel.", _steps(tick_planning_to_save, _finish, _save, _finish)
    )
    held = history.steps[1].results[0]
    assert held.error is not None and held.error.startswith("not done yet: your plan was to press ["), held
    assert '<button> "Save preferences"' in held.error
    assert history.is_done() and await _said(session) == "saved"


async def test_a_button_the_plan_only_mentions_is_not_held(
    session: BrowserSession, server: LocalServer
) -> None:
    """A goal that names the button without planning to press it ("no need for Save preferences")."""

    def tick_noting_save(page: str) -> dict[str, object]:
        travel = find_index(page, "input", "Travel")
        return _step(
            "Tick Travel; Save preferences is not needed.", {"action": "click_element", "index": travel}
        )

    history = await _run(session, server, "Tick Travel.", _steps(tick_noting_save, _finish))
    assert [len(s.results) for s in history.steps] == [1, 1]
    assert history.steps[1].results[0].is_done


async def test_a_planned_button_covered_by_a_suggestion_list_is_held_for_by_its_text(
    session: BrowserSession, server: LocalServer
) -> None:
    """The model planned "then press Save tag", typed, and called done with the place list open over the
    button (which then reads as text only, with no index). The done is held back, saying something covers
    it; the model picks the place and presses the button."""

    def type_planning_to_save(page: str) -> dict[str, object]:
        place = find_index(page, "input", "Place")
        typing = {"action": "input_text", "index": place, "text": "Lat"}
        return _step("Type 'Lat' into the Place box, then press Save tag.", typing)

    def pick(page: str) -> dict[str, object]:
        return _step("pick Latvia", {"action": "click_element", "index": find_index(page, "li", "Latvia")})

    def save(page: str) -> dict[str, object]:
        return _step("save", {"action": "click_element", "index": find_index(page, "button", "Save tag")})

    await session.navigate(server.url("agent/photo_tags.html"))
    policy = _steps(type_planning_to_save, _finish, pick, save, _finish)
    history = await Agent(
        "Tag the photo with Latvia.", ScriptedChatModel(policy=policy), browser=session
    ).run(max_steps=6)
    held = history.steps[1].results[0]
    assert held.error == (
        'not done yet: your plan was to press "Save tag", and it was not pressed in this run; something '
        "covers it now (see the page): choose or close that first, then press it if the task needs it (a "
        "later done ends the run as it is)."
    ), held
    assert history.is_done() and await session.page.inner_text("#tagged") == "Latvia"
