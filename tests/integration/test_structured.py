"""Structured results: done takes the caller's model, extraction follows a schema, built-ins are replaced."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import BaseMessage
from pydantic import BaseModel, Field

from browser_agent import Agent, AgentHistory, AgentSettings, BrowserSession, Controller, UserError
from browser_agent.testing import ScriptedChatModel


class Product(BaseModel):
    name: str
    price: float = Field(description="Price in EUR")


class Cheapest(BaseModel):
    product: Product
    count: int


class MugList(BaseModel):
    mugs: list[Product]


def _brain(goal: str) -> dict[str, str]:
    return {"evaluation_previous_goal": "Success", "memory": goal, "next_goal": goal}


def _last_text(messages: list[BaseMessage]) -> str:
    return str(messages[-1].content)


async def test_done_takes_the_output_model_and_a_bad_one_goes_back(
    session: BrowserSession, server, tmp_path: Path
) -> None:
    corrections: list[str] = []

    def policy(messages: list[BaseMessage]) -> dict[str, Any]:
        if "Your last reply was invalid" in _last_text(messages):
            corrections.append(_last_text(messages))
            answer = {"product": {"name": "Red mug", "price": 9.9}, "count": 3}
            return {
                "current_state": _brain("report"),
                "action": [{"action": "done", "data": answer, "success": True}],
            }
        if "Red mug" in next(str(m.content) for m in reversed(messages) if "Current URL:" in str(m.content)):
            answer = {"product": {"name": "Red mug", "price": "cheap"}, "count": 3}
            return {
                "current_state": _brain("report"),
                "action": [{"action": "done", "data": answer, "success": True}],
            }
        return {
            "current_state": _brain("open"),
            "action": [{"action": "go_to_url", "url": server.url("report/products.html")}],
        }

    llm = ScriptedChatModel(policy=policy)
    agent = Agent("Find the cheapest mug", llm, browser=session, output_model=Cheapest)
    history = await agent.run(max_steps=4)

    assert history.end_reason == "done" and history.is_successful()
    result = history.structured_output()
    assert isinstance(result, Cheapest)
    assert result == Cheapest(product=Product(name="Red mug", price=9.9), count=3)
    assert len(corrections) == 1 and "price" in corrections[0], corrections
    assert history.steps[-1].corrections == 1
    system = str(llm.calls[-1].messages[0].content)
    assert "done(data: {product: {name: str, price: number (Price in EUR)}, count: int}" in system, (
        "the model sees the output schema, field descriptions included"
    )
    assert "done" in Controller().registry and agent.controller is not Controller, (
        "user's controller untouched"
    )

    loaded = AgentHistory.load(history.save(tmp_path / "run.json"))
    assert loaded.structured_output(Cheapest) == result
    with pytest.raises(UserError, match="structured_output"):
        loaded.structured_output()


async def test_the_callers_controller_keeps_its_text_done(session: BrowserSession, server) -> None:
    controller = Controller()
    reply = {
        "current_state": _brain("end"),
        "action": [{"action": "done", "data": {"mugs": []}, "success": True}],
    }
    agent = Agent(
        "x", ScriptedChatModel(replies=[reply]), browser=session, controller=controller, output_model=MugList
    )
    await agent.run(max_steps=1)
    assert "text" in controller.registry.get("done").param_model.model_fields
    assert "data" in agent.controller.registry.get("done").param_model.model_fields


async def test_extract_content_follows_a_schema_and_counts_its_tokens(
    session: BrowserSession, server
) -> None:
    url = server.url("report/products.html")
    extractor = ScriptedChatModel(
        replies=[
            {"mugs": [{"name": "Blue mug"}]},  # no price: sent back
            {"mugs": [{"name": n, "price": p} for n, p in (("Blue mug", 12.5), ("Red mug", 9.9))]},
        ]
    )
    extract = {
        "action": "extract_content",
        "goal": "every mug with its price",
        "output_schema": MugList.model_json_schema(),
    }
    script = [
        {"current_state": _brain("open"), "action": [{"action": "go_to_url", "url": url}]},
        {"current_state": _brain("extract"), "action": [extract]},
        {"current_state": _brain("end"), "action": [{"action": "done", "text": "ok", "success": True}]},
    ]
    planner = ScriptedChatModel(replies=["1. open the page 2. extract", "3. finish"])
    settings = AgentSettings(page_extraction_llm=extractor, planner_llm=planner, planner_interval=1)
    history = await Agent(
        "List the mugs", ScriptedChatModel(replies=script), browser=session, settings=settings
    ).run(max_steps=3)

    content = history.steps[1].results[0].extracted_content
    data = MugList.model_validate_json(content.split("\n", 1)[1])
    assert [m.name for m in data.mugs] == ["Blue mug", "Red mug"]
    assert "Field required" in str(extractor.calls[1].messages[-1].content)
    assert extractor.calls[0].kwargs.get("response_format") == {"type": "json_object"}
    usage = history.usage
    assert (
        usage.extraction.input_tokens > 0 and usage.planner.input_tokens > 0 and usage.agent.input_tokens > 0
    )
    assert history.steps[1].planner_usage.input_tokens > 0, "the plan's tokens go to the step that got it"
    assert (
        history.total_input_tokens()
        == usage.total.input_tokens
        == (usage.agent.input_tokens + usage.planner.input_tokens + usage.extraction.input_tokens)
    )
    assert "usage" not in history.steps[1].results[0].model_dump(), "token counts are not shown to the model"


async def test_a_schema_the_converter_cannot_read_goes_back_to_the_model(
    session: BrowserSession, server
) -> None:
    await session.navigate(server.url("report/products.html"))
    extractor = ScriptedChatModel(replies=[])
    [result] = await Controller().run(
        [{"action": "extract_content", "goal": "g", "output_schema": {"type": "tuple"}}],
        session,
        extraction_llm=extractor,
    )
    assert result.error and "tuple" in result.error
    assert not extractor.calls


class RateLimitError(Exception):
    status_code = 429


async def test_reporter_hooks_show_retries_as_they_happen_and_a_summary_when_the_run_fails(
    session: BrowserSession,
) -> None:
    import io

    from rich.console import Console

    from browser_agent import AgentRunError, ConsoleReporter

    out = io.StringIO()
    reporter = ConsoleReporter(Console(file=out, width=300, soft_wrap=True, no_color=True))
    bad = {"current_state": _brain("try"), "action": [{"action": "click_element", "index": 77}]}
    llm = ScriptedChatModel(replies=[RateLimitError("slow down"), bad, bad])
    settings = AgentSettings(max_failures=2, retry_initial_wait_s=0.01, retry_max_wait_s=0.02)
    agent = Agent("t", llm, browser=session, settings=settings, hooks=reporter.hooks())
    with pytest.raises(AgentRunError):
        await agent.run(max_steps=5)
    text = out.getvalue()
    retry_at, step_at = (
        text.index("retry: The chat model call failed (RateLimitError"),
        text.index("Step 1/5"),
    )
    assert retry_at < step_at, "the retry is shown while the step waits, before the step's line"
    assert "attempt 2 of 4" in text and "element 77 is not on the page" in text
    assert "Run summary" in text and "max_failures" in text
    assert agent.history.steps[0].retries and "RateLimitError" in agent.history.steps[0].retries[0]
