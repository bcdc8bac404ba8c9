"""Reading a long real page within a small model's means: passages picked before any model sees them,
requests kept within the model's context, relative addresses read against the page."""

from __future__ import annotations

import json
from typing import Any

from langchain_core.messages import BaseMessage

from browser_agent import Agent, AgentSettings, BrowserSession
from browser_agent.agent.budget import REPLY_RESERVE
from browser_agent.dom import render
from browser_agent.testing import ScriptedChatModel
from tests.support.actions import run1
from tests.support.server import LocalServer
from tests.support.tokens import count_tokens

LWN = "reading/lwn.html"  # LWN's weekly edition of 2015-03-26, from the real-page corpus: 32,000 characters
QUESTION = "In what year was Arduino LLC incorporated?"
ANSWER_SENTENCE = "Arduino LLC was incorporated in 2008"


def _tokens(messages: list[BaseMessage]) -> int:
    return sum(
        count_tokens(m.content if isinstance(m.content, str) else json.dumps(m.content)) for m in messages
    )


async def test_extract_content_returns_the_passage_that_answers_in_a_few_hundred_tokens(
    session: BrowserSession, server: LocalServer
) -> None:
    await session.navigate(server.url(LWN))
    result = await run1(session, {"action": "extract_content", "goal": QUESTION})
    content = result.extracted_content or ""
    assert result.error is None and result.include_in_memory
    assert ANSWER_SENTENCE in content
    assert content.startswith("The 5 of") or "page passages that best match" in content.splitlines()[0]
    assert count_tokens(content) < 550  # the page is about 8,400 tokens
    assert "http://" not in content  # link addresses left out


async def test_the_extraction_model_is_given_the_passages_not_the_page(
    session: BrowserSession, server: LocalServer
) -> None:
    await session.navigate(server.url(LWN))
    llm = ScriptedChatModel(replies=["2008" + " and more" * 2_000])
    result = await run1(session, {"action": "extract_content", "goal": QUESTION}, extraction_llm=llm)
    asked = llm.calls[0].messages
    assert ANSWER_SENTENCE in str(asked[-1].content)
    assert _tokens(asked) < 800  # before: the whole page (60,000 characters at most), 8,475 tokens here
    content = result.extracted_content or ""
    assert content.startswith("Extracted for") and len(content) < 2_200  # a long answer is cut
    assert "more characters]" in content


async def test_no_request_exceeds_a_small_context_and_the_run_goes_on(
    session: BrowserSession, server: LocalServer
) -> None:
    """A 2,400-token context (smaller than any local server's): the long page view is cut with a line that
    says so, the extracted passages come back, the run ends with the answer."""
    context = 2_400
    seen: list[str] = []

    def policy(messages: list[BaseMessage]) -> dict[str, Any]:
        state = str(messages[-1].content)
        seen.append(state)
        brain = {"evaluation_previous_goal": "ok", "memory": "", "next_goal": "read"}
        earlier = "\n".join(str(m.content) for m in messages[:-1])
        if ANSWER_SENTENCE in earlier:
            return {"current_state": brain, "action": [{"action": "done", "text": "2008", "success": True}]}
        return {"current_state": brain, "action": [{"action": "extract_content", "goal": QUESTION}]}

    llm = ScriptedChatModel(policy=policy)
    agent = Agent(
        f"Open {server.url(LWN)} and answer: {QUESTION}",
        llm,
        browser=session,
        settings=AgentSettings(context_tokens=context, max_failures=1),
    )
    history = await agent.run(max_steps=4)
    assert history.is_done() and history.final_result() == "2008"
    assert len(llm.calls) == 2
    for call in llm.calls:
        tools = count_tokens(json.dumps(call.tools))
        assert _tokens(call.messages) + tools <= context - REPLY_RESERVE
    assert "(the page view was cut to fit the model's context:" in seen[0]


async def test_a_relative_address_is_opened_against_the_current_page(
    session: BrowserSession, server: LocalServer
) -> None:
    await session.navigate(server.url("reading/lwn.html"))
    result = await run1(session, {"action": "go_to_url", "url": "/basic.html"})
    assert result.error is None
    assert result.extracted_content == f"Opened {server.url('basic.html')}"
    result = await run1(session, {"action": "go_to_url", "url": "reading/lwn.html"})
    assert result.error is not None and "no scheme" in result.error  # not a path: said, as before


async def test_the_page_view_says_how_far_below_the_main_content_starts(
    session: BrowserSession, server: LocalServer
) -> None:
    """An unstyled page's first screens are its navigation: the last line says where <main> begins."""
    await session.navigate(server.url("reading/nav_first.html"))
    state = await session.state()
    assert state.snapshot is not None
    below = state.snapshot.scroll.main_pages_below
    assert below is not None and below > 1
    text = render(state.snapshot)
    assert text.splitlines()[-1].endswith(f"; the main content starts {below:.1f} pages below")
    await session.page.evaluate("document.querySelector('main').scrollIntoView()")
    state = await session.state()
    assert state.snapshot is not None and "main content starts" not in render(state.snapshot)
