"""A name the task quotes that the page holds only in a closed part (a tab panel, a menu, a ``<details>``, a
tree folder) is said to be there, with the element that opens the part; a name also shown, or hidden where
nothing opens it, is not.

The page is a shop's support page written for this test, unlike the MiniWoB++ file tree the feature was
chosen on."""

from __future__ import annotations

from langchain_core.messages import BaseMessage

from browser_agent import Agent, BrowserSession
from browser_agent.agent.task_hidden import hidden_openers, quoted_names
from browser_agent.testing import ScriptedChatModel, find_index
from tests.support.pages import index_of
from tests.support.server import LocalServer

PAGE = "agent/closed_parts.html"


async def _openers(session: BrowserSession, task: str) -> tuple[str, ...]:
    state = await session.state()
    return tuple(hidden.line for hidden in await hidden_openers(session.page, task, state.snapshot))


def _line(name: str, index: int) -> str:
    return f'"{name}" is on this page but hidden: element {index} opens the part holding it.'


def test_the_names_a_task_quotes_are_read_once_each() -> None:
    task = """Open the 'Return label' link, then "Order desk", then “Mesh router” and "order desk" again."""
    assert quoted_names(task) == ("Return label", "Order desk", "Mesh router")
    assert quoted_names("Click the user's account, don't wait") == ()  # apostrophes quote nothing


async def test_each_closed_part_is_opened_by_its_own_control(
    session: BrowserSession, server: LocalServer
) -> None:
    await session.navigate(server.url(PAGE))
    returns, products = await index_of(session, "Returns"), await index_of(session, "Products")
    question, manuals = await index_of(session, "Can I change my order?"), await index_of(session, "Manuals")
    task = 'Download the "Return label", open "Mesh router", then "Order desk" and the "Mesh M3 guide".'
    assert await _openers(session, task) == (
        _line("Return label", returns),  # the tab that says it controls the panel
        _line("Mesh router", products),  # the menu button, by aria-controls
        _line("Order desk", question),  # the closed details' summary
        _line("Mesh M3 guide", manuals),  # the outer folder: the inner one is not shown
    )
    await session.page.click("text=Manuals")
    routers = await index_of(session, "Routers")
    assert await _openers(session, 'Open the "Mesh M3 guide"') == (_line("Mesh M3 guide", routers),)


async def test_a_name_shown_anywhere_or_hidden_with_no_opener_is_not_mentioned(
    session: BrowserSession, server: LocalServer
) -> None:
    await session.navigate(server.url(PAGE))
    assert await _openers(session, 'Read the "Warranty terms"') == ()  # a link shows it; a hidden copy too
    assert await _openers(session, 'Find the "Escalation codes"') == ()  # hidden, nothing opens it
    assert await _openers(session, 'Read "Orders leave our warehouse"') == ()  # shown in the open tab
    assert await _openers(session, "Download the return label") == ()  # nothing quoted


async def test_in_a_run_the_model_is_told_which_element_opens_the_part(
    session: BrowserSession, server: LocalServer
) -> None:
    states: list[str] = []

    def policy(messages: list[BaseMessage]) -> dict[str, object]:
        state = str(messages[-1].content)
        states.append(state)
        brain = {"evaluation_previous_goal": "ok", "memory": "", "next_goal": "find the label"}
        if "Return label" in state.split("<page>", 1)[1]:
            index = find_index(state, "a", "Return label")
            return {"current_state": brain, "action": [{"action": "click_element", "index": index}]}
        if "is on this page but hidden: element" in state:
            opener = int(state.split("hidden: element ", 1)[1].split(" ", 1)[0])
            return {"current_state": brain, "action": [{"action": "click_element", "index": opener}]}
        return {"current_state": brain, "action": [{"action": "done", "text": "not found", "success": False}]}

    task = f'Open {server.url(PAGE)} and download the "Return label"'
    await Agent(task, ScriptedChatModel(policy=policy), browser=session).run(max_steps=3)
    assert "is on this page but hidden" in states[0]
    assert "is on this page but hidden" not in states[-1]  # open: said no more
    assert session.page.url.endswith("#label")


async def test_the_page_is_given_the_quoted_names_never_the_task(
    session: BrowserSession, server: LocalServer
) -> None:
    """A page's scripts can watch what runs in it: here every string ``includes`` compares, both sides."""
    await session.navigate(server.url(PAGE))
    await session.page.evaluate(
        """() => {
          window.__seen = [];
          const includes = String.prototype.includes;
          String.prototype.includes = function (s, ...rest) {
            window.__seen.push(String(this), String(s));
            return includes.call(this, s, ...rest);
          };
        }"""
    )
    task = 'My account number is 4417-2290; download the "Return label" for it.'
    returns = await index_of(session, "Returns")
    assert await _openers(session, task) == (_line("Return label", returns),)
    # a shown copy in a sentence of the page's own: compared with the task, outside the page
    await session.page.evaluate(
        """() => document.body.insertAdjacentHTML('beforeend',
          '<p>Print the Return label at the post office counter, or show it on your phone.</p>')"""
    )
    assert await _openers(session, task) == ()
    seen = " ".join(await session.page.evaluate("window.__seen"))
    assert "return label" in seen and "4417" not in seen and "account" not in seen
