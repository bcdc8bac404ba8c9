"""A ``done`` while the result the task asks to click (the 6th of a paged list) was never clicked is held
back once, naming the result or the link of its page; the model opens that page and clicks it. A task
that only asks about a result, a run that clicked a result, or a second ``done`` ends as the model says.
The page is a library catalogue of four books a page, titles in headings (MiniWoB++'s search engine,
where the rule was chosen, lists three a page as plain links)."""

from __future__ import annotations

from browser_agent import Agent
from browser_agent.browser import BrowserSession
from browser_agent.record import AgentHistory
from browser_agent.testing import ScriptedChatModel, find_index
from tests.support.server import LocalServer
from tests.support.turns import Policy, in_turn, step

PAGE = "dom/catalogue_pages.html"


def _done(page: str) -> dict[str, object]:
    return step("The result is opened.", {"action": "done", "text": "opened", "success": True})


def _page_two(page: str) -> dict[str, object]:
    return step("open page 2", {"action": "click_element", "index": find_index(page, "a", "page 2")})


def _sixth(page: str) -> dict[str, object]:
    index = find_index(page, "a", "A River Runs Through It")
    return step("open the 6th result", {"action": "click_element", "index": index})


def _second(page: str) -> dict[str, object]:
    return step("open it", {"action": "click_element", "index": find_index(page, "a", "The River Between")})


async def _run(session: BrowserSession, server: LocalServer, task: str, policy: Policy) -> AgentHistory:
    await session.navigate(server.url(PAGE))
    return await Agent(task, ScriptedChatModel(policy=policy), browser=session).run(max_steps=6)


async def test_a_done_before_the_asked_result_is_clicked_names_its_page_and_then_the_result(
    session: BrowserSession, server: LocalServer
) -> None:
    links: list[int] = []

    def page_two(page: str) -> dict[str, object]:
        links.append(find_index(page, "a", "page 2"))
        return _page_two(page)

    policy = in_turn(_done, page_two, _sixth, _done)
    history = await _run(session, server, "Find books about rivers and open the 6th result.", policy)
    held = history.steps[0].results[0]
    assert held.error is not None and not held.is_done, held
    assert held.error == (
        "not done yet: no result was clicked in this run, and the 6th result is on page 2: click element "
        f"{links[0]} (page 2) first, then the 6th result there if the task needs it (a later done ends the "
        "run as it is)."
    )
    assert history.is_done() and history.steps[-1].results[-1].error is None
    assert session.page.url.endswith("?p=2#book")


async def test_with_the_result_in_view_the_refusal_names_it(
    session: BrowserSession, server: LocalServer
) -> None:
    history = await _run(session, server, "Click the 2nd result.", in_turn(_done, _second, _done))
    held = history.steps[0].results[0]
    assert held.error is not None
    assert "no result was clicked in this run, and the 2nd result is element " in held.error
    assert held.error.endswith(": click it first if the task needs it (a later done ends the run as it is).")
    assert history.is_done() and session.page.url.endswith("#book")


async def test_a_done_ends_the_run_when_a_result_was_clicked_or_the_task_only_asks(
    session: BrowserSession, server: LocalServer
) -> None:
    clicked = await _run(session, server, "Open the 2nd result.", in_turn(_second, _done))
    assert clicked.is_done() and all(r.error is None for s in clicked.steps for r in s.results)
    asked = await _run(session, server, "Who wrote the 3rd result?", in_turn(_done))
    assert all("no result was clicked" not in (r.error or "") for s in asked.steps for r in s.results)


async def test_a_second_done_ends_the_run(session: BrowserSession, server: LocalServer) -> None:
    history = await _run(session, server, "Open the 6th result.", in_turn(_done))
    assert history.steps[0].results[0].error is not None
    assert history.is_done() and len(history.steps) == 2


async def test_the_link_the_refusal_names_is_clicked_whatever_the_next_goal_says(
    session: BrowserSession, server: LocalServer
) -> None:
    """Told to click page 2's link, the model wrote a goal naming pages 1 and 3 and clicked the link all
    the same: the goal guard, which holds a click its goal does not name, lets the advised one through."""

    def page_two_muddled(page: str) -> dict[str, object]:
        link = find_index(page, "a", "page 2")
        return step("Try the 6th result on page 1 or page 3.", {"action": "click_element", "index": link})

    policy = in_turn(_done, page_two_muddled, _sixth, _done)
    history = await _run(session, server, "Find books about rivers and open the 6th result.", policy)
    clicked = history.steps[1].results[0]
    assert clicked.error is None and clicked.extracted_content is not None, clicked
    assert history.is_done() and session.page.url.endswith("?p=2#book")
