"""On a long page, the passages that match the task are shown under the page view, so that a question
about one sentence far down the page is answered from the first request; a short page gets nothing.

The page is a museum's visitor handbook written for this test (sections, lists and a table), unlike the
news articles of the reading suite the feature was built against."""

from __future__ import annotations

from typing import Any

from langchain_core.messages import BaseMessage

from browser_agent import Agent, AgentSettings, BrowserSession
from browser_agent.agent.conversation import PASSAGES_HEADER, page_of_state
from browser_agent.testing import ScriptedChatModel
from tests.support.server import LocalServer
from tests.support.tokens import count_tokens

HANDBOOK = "reading/museum_handbook.html"
QUESTION = "At what time does the lighthouse lamp room close?"
ANSWER = "The lighthouse lamp room closes at a quarter to five"
BRAIN = {"evaluation_previous_goal": "ok", "memory": "", "next_goal": "answer"}


def _answering(seen: list[str]) -> ScriptedChatModel:
    """A model that answers from the state when the answer's sentence is in it, and scrolls otherwise."""

    def policy(messages: list[BaseMessage]) -> dict[str, Any]:
        state = str(messages[-1].content)
        seen.append(state)
        if ANSWER in state:
            return {"current_state": BRAIN, "action": [{"action": "done", "text": "16:45", "success": True}]}
        return {"current_state": BRAIN, "action": [{"action": "scroll", "down": True}]}

    return ScriptedChatModel(policy=policy)


async def _first_state(session: BrowserSession, server: LocalServer, page: str, **settings: Any) -> str:
    seen: list[str] = []
    agent = Agent(
        f"Open {server.url(page)} and answer: {QUESTION}",
        _answering(seen),
        browser=session,
        settings=AgentSettings(**settings),
    )
    await agent.run(max_steps=1)
    return seen[0]


async def test_the_answer_far_down_a_long_page_is_in_the_first_request(
    session: BrowserSession, server: LocalServer
) -> None:
    seen: list[str] = []
    agent = Agent(f"Open {server.url(HANDBOOK)} and answer: {QUESTION}", _answering(seen), browser=session)
    history = await agent.run(max_steps=3)
    assert history.is_done() and history.final_result() == "16:45"
    assert len(seen) == 1  # answered from the first look, without scrolling five screens
    page = page_of_state(seen[0])  # inside the untrusted page's fence
    assert PASSAGES_HEADER in page and ANSWER in page.split(PASSAGES_HEADER)[1]
    assert "... " in page and "pages below" in page  # a long page: the view alone does not hold it


async def test_the_passages_cost_a_bounded_few_hundred_tokens(
    session: BrowserSession, server: LocalServer
) -> None:
    with_passages = await _first_state(session, server, HANDBOOK, task_passage_tokens=200)
    without = await _first_state(session, server, HANDBOOK, task_passage_tokens=0)
    assert PASSAGES_HEADER not in without and ANSWER not in without
    extra = count_tokens(with_passages) - count_tokens(without)
    assert 20 < extra <= 200 + 30  # the budget, and the header line


async def test_a_page_of_one_screen_gets_no_passages(session: BrowserSession, server: LocalServer) -> None:
    """Its text is all in the view already: the state is the same as with passages turned off."""
    short = await _first_state(session, server, "basic.html")
    off = await _first_state(session, server, "basic.html", task_passage_tokens=0)
    assert PASSAGES_HEADER not in short
    assert short == off


async def test_a_secret_on_the_page_never_reaches_the_passages(
    session: BrowserSession, server: LocalServer
) -> None:
    """The page's text is redacted whole before it is cut into passages: no part of the value is left."""
    secret = "Kestrel-8841. Harbour-2207"  # a sentence end inside it: the passage splitter cuts there
    await session.navigate(server.url(HANDBOOK))
    await session.page.evaluate(
        """(code) => { const p = document.createElement('p');
        p.textContent = 'Members who climb to the lighthouse lamp room in the late afternoon sign in '
          + 'at the membership desk. '
          + 'The desk keeps a list of the day, and the keepers check it at the foot of the stair. '
          + 'Please show your card and give the desk code when asked by the keepers on duty. '
          + 'Your membership desk code for the lighthouse lamp room is ' + code + ' today.';
        document.body.append(p); }""",
        secret,
    )
    seen: list[str] = []
    agent = Agent(
        "Tell me the membership desk code for the lighthouse lamp room",
        _answering(seen),
        browser=session,
        sensitive_data={"desk_code": secret},
    )
    await agent.run(max_steps=1)
    page = page_of_state(seen[0])
    assert PASSAGES_HEADER in page and "<secret>desk_code</secret>" in page.split(PASSAGES_HEADER)[1]
    assert "Kestrel" not in seen[0] and "2207" not in seen[0]
