"""A model server that is not there ends a run at its first model call, for the library as for the CLI
(tests/integration/test_cli.py); a busy one is still retried (tests/unit/test_retry.py)."""

from __future__ import annotations

import pytest
from playwright.async_api import Browser

from browser_agent import Agent, AgentRunError, AgentSettings, BrowserSession, run_many
from browser_agent.errors import ProviderUnreachableError
from browser_agent.testing import ScriptedChatModel
from tests.support.server import LocalServer


def _refused() -> Exception:
    """A refused connection as a client library reports it: its own error, caused by the OSError."""
    try:
        try:
            raise ConnectionRefusedError(111, "Connect call failed ('127.0.0.1', 9)")
        except OSError as exc:
            raise RuntimeError("Connection error.") from exc
    except RuntimeError as outer:
        return outer


@pytest.mark.parametrize("task", ["Read the code", "Open {url} and read the code"])
async def test_the_run_ends_at_the_first_call_without_counting_failed_steps(
    task: str, session: BrowserSession, server: LocalServer
) -> None:
    llm = ScriptedChatModel(replies=[_refused(), _refused(), _refused()])
    settings = AgentSettings(max_failures=3)
    agent = Agent(task.format(url=server.url("agent/code.html")), llm, browser=session, settings=settings)
    with pytest.raises(AgentRunError) as raised:
        await agent.run(max_steps=5)
    cause = raised.value.__cause__
    assert isinstance(cause, ProviderUnreachableError) and cause.reason == "connection refused"
    assert str(raised.value) == "cannot reach the model server: connection refused — is the server running?"
    assert len(llm.calls) == 1, "no retry, no second step, no other tool calling method"
    history = raised.value.history
    assert history.end_reason == "error" and [s.step for s in history.steps][-1] == 1
    assert history.steps[-1].error.startswith("ProviderUnreachableError: cannot reach")


async def test_each_batch_task_records_the_one_line_reason(browser: Browser) -> None:
    llm = ScriptedChatModel(policy=lambda messages: _refused())
    histories = await run_many(["Read the code", "Count the links"], llm=llm, browser=browser, concurrency=2)
    said = "cannot reach the model server: connection refused — is the server running?"
    assert [h.error for h in histories] == [f"AgentRunError: {said}"] * 2
    assert [len(h.steps) for h in histories] == [1, 1] and len(llm.calls) == 2
