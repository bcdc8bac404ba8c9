"""``browser_agent.models``: a chat model from ``PROVIDER:NAME`` or from BROWSER_AGENT_MODEL, and one
line that names the variables to set when it cannot be built."""

from __future__ import annotations

import pytest
from langchain_openai import ChatOpenAI

from browser_agent.errors import UserError
from browser_agent.models import chat_model, chat_model_from_env


@pytest.fixture(autouse=True)
def _no_model_variables(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("BROWSER_AGENT_MODEL", "BROWSER_AGENT_BASE_URL", "OPENAI_API_KEY", "OPENAI_BASE_URL"):
        monkeypatch.delenv(name, raising=False)


def test_unset_means_no_model() -> None:
    assert chat_model_from_env() is None


def test_a_hosted_provider_without_its_key_names_the_variables(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BROWSER_AGENT_MODEL", "openai:gpt-4o-mini")
    with pytest.raises(UserError) as caught:
        chat_model_from_env()
    text = str(caught.value)
    assert "\n" not in text and text.startswith("BROWSER_AGENT_MODEL=openai:gpt-4o-mini needs an API key")
    assert "OPENAI_API_KEY" in text and "BROWSER_AGENT_BASE_URL" in text and "--" not in text


@pytest.mark.parametrize("spec", ["gpt-4o", "nope:model", "openai:"])
def test_an_unknown_provider_says_which_exist(spec: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BROWSER_AGENT_MODEL", spec)
    with pytest.raises(UserError, match=r"is not PROVIDER:NAME .*openai:MODEL"):
        chat_model_from_env()


def test_a_local_server_needs_no_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BROWSER_AGENT_MODEL", "openai:local")
    monkeypatch.setenv("BROWSER_AGENT_BASE_URL", "http://127.0.0.1:8088/v1")
    llm = chat_model_from_env()
    assert isinstance(llm, ChatOpenAI) and llm.model_name == "local"
    assert llm.openai_api_base == "http://127.0.0.1:8088/v1" and llm.max_retries == 0


def test_chat_model_builds_as_the_command_line_does(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MY_KEY", "sk-test")
    llm = chat_model("openai:gpt-4o-mini", api_key_env="MY_KEY", temperature=0)
    assert isinstance(llm, ChatOpenAI) and llm.temperature == 0 and llm.max_retries == 0
