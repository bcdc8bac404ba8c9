"""A provider is one row of ``llm.providers.PROVIDERS``: the CLI, the method selection, the usage reading,
the cut detection and the cache points all read it, so a new row is picked up everywhere."""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys

import pytest
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage
from pydantic import BaseModel

from browser_agent import UserError
from browser_agent.llm import PromptShape, TokenUsage, ask_structured, usage_of
from browser_agent.llm.methods import prepare
from browser_agent.llm.providers import PROVIDERS, HostedApi, Provider, UsageShape, provider_of
from browser_agent.models import chat_model
from browser_agent.testing import ScriptedChatModel


class StandInChat(ScriptedChatModel):
    """The chat class of a provider browser_agent has never heard of (defined here, in this module)."""

    model: str = ""
    tries: int | None = None
    timeout: float | None = None
    api_key: str | None = None
    endpoint: str | None = None


class Click(BaseModel):
    """Click an element."""

    index: int


class Step(BaseModel):
    """One step's actions."""

    action: list[Click]


STAND_IN = Provider(
    __name__,
    "StandInChat",
    "standin",
    "STANDIN_API_KEY",
    "tries",
    schema_param="format",
    schema_cached_by=HostedApi(hosts=("standin.example",), base_url_field="endpoint"),
    cache_control="ephemeral",
    usage=UsageShape("stats", "in", "out", ("hit",)),
    cut_marker=("stop", "limit"),
)


def _reply(data: object, **stats: int) -> AIMessage:
    return AIMessage(content=json.dumps(data), response_metadata={"stats": stats})


@pytest.fixture
def stand_in(monkeypatch: pytest.MonkeyPatch) -> Provider:
    monkeypatch.setitem(PROVIDERS, "standin", STAND_IN)
    monkeypatch.setenv("STANDIN_API_KEY", "sk-standin")
    return STAND_IN


def test_the_cli_builds_a_new_providers_model_from_its_row(
    stand_in: Provider, monkeypatch: pytest.MonkeyPatch
) -> None:
    llm = chat_model("standin:tiny-1")
    assert isinstance(llm, StandInChat)
    assert (llm.model, llm.tries, llm.timeout, llm.api_key) == ("tiny-1", 0, 120, None)
    assert provider_of(llm) is stand_in
    monkeypatch.setenv("OTHER_KEY", "sk-other")
    assert chat_model("standin:tiny-1", api_key_env="OTHER_KEY").api_key == "sk-other"
    monkeypatch.delenv("STANDIN_API_KEY")
    with pytest.raises(UserError, match="export STANDIN_API_KEY="):
        chat_model("standin:tiny-1")
    with pytest.raises(UserError, match="standin:MODEL"):
        chat_model("nope:tiny-1")


def test_without_its_row_the_stand_in_is_no_provider() -> None:
    assert "standin" not in PROVIDERS
    assert provider_of(StandInChat()) is None
    assert usage_of(_reply({}, **{"in": 30, "out": 4, "hit": 20})) == TokenUsage()
    with pytest.raises(UserError, match="PROVIDER:NAME"):
        chat_model("standin:tiny-1")


async def test_a_new_row_sets_how_the_schema_is_passed_the_usage_the_cut_and_the_cache_points(
    stand_in: Provider,
) -> None:
    answer = {"action": [{"index": 1}]}
    cut = _reply(answer, **{"in": 5, "out": 9})
    cut.response_metadata["stop"] = "limit"  # complete JSON, yet cut: its last action may be short
    llm = StandInChat(replies=[cut, _reply(answer, **{"in": 30, "out": 4, "hit": 20})])
    messages = [SystemMessage(content="system"), HumanMessage(content="task"), HumanMessage(content="now")]
    reply = await ask_structured(llm, messages, Step, method="json_schema")
    assert reply.parsed == Step.model_validate(answer) and reply.method == "json_schema"
    assert reply.usage == TokenUsage(35, 13, 20)  # read from the row's usage shape, both calls
    assert reply.attempts == 2, "the reply cut at the row's marker went back to the model"
    assert "cut off at the output token limit" in str(llm.calls[1].messages[-1].content)
    first = llm.calls[0]
    assert "response_format" not in first.kwargs
    assert first.kwargs["format"]["properties"]["action"]["items"]["properties"]["index"] == {
        "type": "integer"
    }
    assert first.messages[0].content == [
        {"type": "text", "text": "system", "cache_control": {"type": "ephemeral"}}
    ]
    assert first.messages[2].content == "now", "the current state is not a cache point"


def test_the_row_says_whether_the_schema_is_part_of_the_cached_prefix(stand_in: Provider) -> None:
    shape = PromptShape(indices=(0, 2))

    def index_schema(llm: StandInChat) -> object:
        runnable = prepare(llm, Step, "json_schema", shape).runnable
        return runnable.kwargs["format"]["properties"]["action"]["items"]["properties"]["index"]  # type: ignore[attr-defined]

    assert index_schema(StandInChat()) == {"type": "integer"}, "its own service caches the schema"
    assert index_schema(StandInChat(endpoint="https://eu.standin.example/v1")) == {"type": "integer"}
    self_hosted = StandInChat(endpoint="http://127.0.0.1:9/v1")
    assert index_schema(self_hosted) == {"type": "integer", "enum": [0, 2]}


def test_a_provider_that_takes_no_schema_is_asked_in_raw_mode(
    stand_in: Provider, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(PROVIDERS, "standin", dataclasses.replace(stand_in, schema_param="none"))
    llm = StandInChat()
    plan = prepare(llm, Step, "json_schema", PromptShape())
    assert plan.mode == "raw" and plan.runnable is llm


def test_the_known_providers_are_found_by_the_module_of_their_class_or_its_bases() -> None:
    openai = pytest.importorskip("langchain_openai")
    ollama = pytest.importorskip("langchain_ollama")

    class MyOpenAI(openai.ChatOpenAI):  # type: ignore[misc]
        """A user's subclass, in the user's module."""

    assert provider_of(openai.ChatOpenAI(api_key="sk-test", model="m")) is PROVIDERS["openai"]
    assert provider_of(MyOpenAI(api_key="sk-test", model="m")) is PROVIDERS["openai"]
    assert provider_of(ollama.ChatOllama(model="m")) is PROVIDERS["ollama"]
    assert provider_of(ScriptedChatModel()) is None


def test_a_row_that_names_a_cut_error_needs_the_cut_marker() -> None:
    with pytest.raises(ValueError, match="cut_marker"):
        Provider("somewhere", "SomeChat", "some", cut_error="TooLongError")


def test_the_rows_import_no_provider_package() -> None:
    """The provider packages are optional extras: reading the rows must not need them."""
    code = (
        "import sys, browser_agent.llm, browser_agent.models\n"
        "print(sorted({m.split('.')[0] for m in sys.modules} & "
        "{'langchain_openai', 'langchain_anthropic', 'langchain_ollama', 'openai', 'anthropic', 'ollama'}))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"
