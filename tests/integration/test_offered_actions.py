"""Actions that could only be refused are not offered: ``switch_tab`` while one browser tab is open (a
small model sent it, step after step, for the tabs of the page itself), and ``upload_file`` in a run that
allows no file: a ``json_schema`` grammar leaves them out."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from browser_agent import Agent, AgentSettings
from browser_agent.browser import BrowserSession
from browser_agent.models import chat_model
from browser_agent.testing import find_index
from tests.support.fake_openai import FakeOpenAI
from tests.support.pages import index_of
from tests.support.server import LocalServer


def _step(goal: str, *actions: dict[str, object]) -> dict[str, object]:
    brain = {"evaluation_previous_goal": "Unknown", "memory": "", "next_goal": goal}
    return {"current_state": brain, "action": list(actions)}


def _offered(request: dict[str, Any]) -> set[str]:
    """The action names a ``json_schema`` request's grammar admits."""
    schema = request["response_format"]["json_schema"]["schema"]
    return {b["properties"]["action"]["enum"][0] for b in schema["properties"]["action"]["items"]["anyOf"]}


def _system(request: dict[str, Any]) -> str:
    return str(request["messages"][0]["content"])


async def test_switch_tab_is_offered_only_with_a_second_tab_open(
    session: BrowserSession, server: LocalServer
) -> None:
    await session.navigate(server.url("agent/help_center.html"))
    shipping = await index_of(session, "Shipping")
    first_tab = session.current_tab_id

    def policy(request: dict[str, Any]) -> dict[str, object]:
        step = len(fake.requests)
        if step == 1:
            return _step("open the Shipping tab of the page", {"action": "click_element", "index": shipping})
        if step == 2:
            desk = find_index(str(request["messages"][-1]["content"]), "a", "shipping desk")
            return _step("write to the desk", {"action": "click_element", "index": desk})
        if step == 3:
            return _step("back to the help centre", {"action": "switch_tab", "tab_id": first_tab})
        return _step("finish", {"action": "done", "text": "two days", "success": True})

    with FakeOpenAI(policy) as fake:
        llm = chat_model("openai:local", base_url=fake.base_url, api_key="local", max_retries=0)
        settings = AgentSettings(tool_calling_method="json_schema")
        history = await Agent("How fast do parcels leave?", llm, browser=session, settings=settings).run(6)
    assert fake.schema_errors == [] and history.final_result() == "two days"
    assert history.steps[1].results[0].new_tab is not None, "the link opened a second tab"
    assert history.steps[2].results[0].error is None
    offered = [_offered(r) for r in fake.requests]
    assert ["switch_tab" in names for names in offered] == [False, False, True, True]  # two tabs open
    assert all("click_element" in names for names in offered)
    # no file may be chosen in this run: the grammar never offers upload_file, although the system
    # prompt (the same for every run) describes it
    assert not any("upload_file" in names for names in offered)
    assert "upload_file" in _system(fake.requests[0])


async def test_upload_file_is_offered_when_files_are_allowed(
    session: BrowserSession, server: LocalServer, tmp_path: Path
) -> None:
    await session.navigate(server.url("agent/help_center.html"))
    script = [_step("finish", {"action": "done", "text": "nothing to send", "success": True})]
    with FakeOpenAI(script) as fake:
        llm = chat_model("openai:local", base_url=fake.base_url, api_key="local", max_retries=0)
        settings = AgentSettings(tool_calling_method="json_schema", allowed_files=(tmp_path,))
        agent = Agent("Attach the receipt if the page takes one.", llm, browser=session, settings=settings)
        await agent.run(2)
    assert "upload_file" in _offered(fake.requests[0])
