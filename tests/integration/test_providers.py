"""Real provider packages, driven against a local stand-in endpoint: the code path users run."""

from __future__ import annotations

import re

import pytest

from browser_agent import Agent, AgentSettings, BrowserSession, UserError
from browser_agent.models import chat_model
from tests.support.fake_openai import FakeOpenAI

pytest.importorskip("langchain_openai")


def _brain(goal: str) -> dict[str, str]:
    return {"evaluation_previous_goal": "Unknown", "memory": goal, "next_goal": goal}


async def test_openai_tool_calling_with_retry_on_429(session: BrowserSession, server) -> None:
    answers = [
        429,
        {
            "current_state": _brain("open"),
            "action": [{"action": "go_to_url", "url": server.url("agent/code.html")}],
        },
        {"current_state": _brain("report"), "action": [{"action": "done", "text": "XK-42", "success": True}]},
    ]
    with FakeOpenAI(answers) as fake:
        llm = chat_model("openai:gpt-4o-mini", base_url=fake.base_url, api_key="sk-test", max_retries=0)
        settings = AgentSettings(retry_initial_wait_s=0.01, retry_max_wait_s=0.02)
        history = await Agent("Read the code", llm, browser=session, settings=settings).run(max_steps=3)
    assert history.final_result() == "XK-42"
    assert len(fake.requests) == 3, "the 429 was retried once"
    request = fake.requests[-1]
    assert request["tool_choice"]["function"]["name"] == request["tools"][0]["function"]["name"]
    assert "Current URL:" in request["messages"][-1]["content"]
    assert history.total_input_tokens() == 2400


def test_unknown_provider_and_missing_name_are_user_errors() -> None:
    with pytest.raises(UserError, match="PROVIDER:NAME"):
        chat_model("nope:model")
    with pytest.raises(UserError, match="PROVIDER:NAME"):
        chat_model("openai")


@pytest.mark.parametrize("spec", ["anthropic:claude-sonnet-4-5", "ollama:llama3.1"])
def test_other_providers_build_their_chat_model(spec: str, monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("langchain_" + spec.split(":")[0])
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-test")
    llm = chat_model(spec)
    assert spec.split(":")[1] in repr(llm)
    llm.bind_tools([{"type": "function", "function": {"name": "t", "parameters": {"type": "object"}}}])


def test_missing_provider_package_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    import browser_agent.models as models

    def fail(name: str) -> None:
        raise ImportError(name)

    monkeypatch.setattr(models.importlib, "import_module", fail)
    from browser_agent.extras import install_hint

    with pytest.raises(UserError, match=re.escape(install_hint("anthropic"))):
        chat_model("anthropic:claude-sonnet-4-5")
