"""The model's context: asked of the configured server (llama.cpp, vLLM), bounded, cached, never fatal."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler
from typing import Any

import pytest

from browser_agent.agent.budget import REPLY_RESERVE, begins_replies, model_budget, request_budget
from browser_agent.agent.settings import AgentSettings
from browser_agent.llm import context_window
from browser_agent.llm.context_window import discover_context_tokens
from browser_agent.testing import ScriptedChatModel
from tests.support.server import LoopbackServer

Route = Callable[[], tuple[int, Any]]


class ModelServer(LoopbackServer):
    """Answers GET paths from ``routes`` (status, JSON body); 404 elsewhere; records each path asked."""

    def __init__(self, routes: dict[str, Route]) -> None:
        self.asked: list[tuple[str, str | None]] = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: object) -> None:
                return

            def do_GET(self) -> None:
                server.asked.append((self.path, self.headers.get("Authorization")))
                status, body = routes.get(self.path, lambda: (404, {"error": "not found"}))()
                data = json.dumps(body).encode()
                self.send_response(status)
                if status in (301, 302):
                    self.send_header("Location", str(body))
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                try:
                    self.wfile.write(data)
                except ConnectionError:  # the client gave up at its bound: as it should
                    return

        super().__init__(Handler)


@pytest.fixture(autouse=True)
def _forget() -> Iterator[None]:
    context_window._known.clear()
    yield
    context_window._known.clear()


def _fixed(body: Any, status: int = 200) -> Route:
    return lambda: (status, body)


async def test_llama_cpp_says_its_slot_context_at_props_under_the_root() -> None:
    props = {"default_generation_settings": {"n_ctx": 8192}, "n_ctx": 16384, "chat_template": "x" * 5000}
    with ModelServer({"/props": _fixed(props)}) as server:
        assert await discover_context_tokens(server.url("v1")) == 8192
        assert await discover_context_tokens(server.url("v1/")) == 8192  # cached: asked once
        assert [path for path, _ in server.asked] == ["/props"]


async def test_vllm_says_max_model_len_at_models_and_gets_the_key() -> None:
    models = {"data": [{"id": "qwen", "max_model_len": 32768}, {"id": "x", "max_model_len": 4096}]}
    with ModelServer({"/v1/models": _fixed(models)}) as server:
        assert await discover_context_tokens(server.url("v1"), api_key="k-1") == 4096
        assert server.asked == [("/props", "Bearer k-1"), ("/v1/models", "Bearer k-1")]


async def test_a_server_that_says_nothing_usable_is_no_answer_and_no_error() -> None:
    routes = {
        "/props": _fixed({"n_ctx": "big", "default_generation_settings": []}),
        "/v1/models": _fixed({"data": [{"id": "a", "max_model_len": True}]}),
    }
    with ModelServer(routes) as server:
        assert await discover_context_tokens(server.url("v1")) is None
    assert await discover_context_tokens("http://127.0.0.1:9/v1") is None  # nothing listens there


async def test_a_hostile_answer_is_no_answer_never_the_end_of_the_run() -> None:
    class Raw(LoopbackServer):
        def __init__(self, body: bytes) -> None:
            class Handler(BaseHTTPRequestHandler):
                def log_message(self, format: str, *args: object) -> None:
                    return

                def do_GET(self) -> None:
                    self.send_response(200)
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    try:
                        self.wfile.write(body)
                    except ConnectionError:  # the client stopped reading at its bound: as it should
                        return

            super().__init__(Handler)

    for body in (b"[" * 200_000, b'{"n_ctx": 8192' + b" " * 2_000_000 + b"}", b"\xff\xfe not json"):
        context_window._known.clear()
        with Raw(body) as server:
            assert await discover_context_tokens(server.url("v1")) is None


async def test_a_redirect_is_not_followed() -> None:
    with ModelServer({}) as elsewhere:
        target = elsewhere.url("props")
        with ModelServer({"/props": _fixed(target, 302)}) as server:
            assert await discover_context_tokens(server.url("v1")) is None
        assert elsewhere.asked == []


async def test_a_server_that_never_answers_costs_at_most_about_two_seconds() -> None:
    def stall() -> tuple[int, Any]:
        time.sleep(5)
        return 200, {"n_ctx": 1}

    with ModelServer({"/props": stall}) as server:
        started = time.monotonic()
        assert await discover_context_tokens(server.url("v1")) is None
        assert time.monotonic() - started < 3.0


async def test_the_budget_is_the_context_less_the_reply_and_a_margin_in_estimated_tokens() -> None:
    assert request_budget(32_000, None, None) == 32_000
    small = request_budget(32_000, 8192, None)
    assert small < 8192 - REPLY_RESERVE and small >= (8192 - REPLY_RESERVE - 512) * 0.75 - 1
    assert request_budget(32_000, 8192, 2_000) < small
    assert request_budget(3_000, 200_000, None) == 3_000  # the cost ceiling still holds
    assert request_budget(32_000, 1_000, 900) == 256  # never nothing


async def test_a_model_given_a_base_url_is_asked_only_when_the_settings_do_not_say() -> None:
    props = {"default_generation_settings": {"n_ctx": 4096}}
    with ModelServer({"/props": _fixed(props)}) as server:
        llm = ScriptedChatModel(replies=[])
        assert await model_budget(llm, AgentSettings()) == 32_000  # no base URL: nothing asked
        object.__setattr__(llm, "openai_api_base", server.url("v1"))
        assert await model_budget(llm, AgentSettings()) == request_budget(32_000, 4096, None)
        context_window._known.clear()
        assert await model_budget(llm, AgentSettings(context_tokens=16_000)) == request_budget(
            32_000, 16_000, None
        )
        assert len(server.asked) == 1


async def test_only_a_llama_cpp_server_is_sent_the_start_of_the_reply_unless_the_settings_say() -> None:
    llm = ScriptedChatModel(replies=[])
    assert not await begins_replies(llm, AgentSettings())  # no base URL: nothing asked
    assert await begins_replies(llm, AgentSettings(prefill_reply=True))
    models = {"data": [{"id": "qwen", "max_model_len": 32768}]}
    with ModelServer({"/v1/models": _fixed(models)}) as vllm:
        object.__setattr__(llm, "openai_api_base", vllm.url("v1"))
        assert not await begins_replies(llm, AgentSettings())
    with ModelServer({"/props": _fixed({"default_generation_settings": {"n_ctx": 8192}})}) as llama:
        object.__setattr__(llm, "openai_api_base", llama.url("v1"))
        assert await begins_replies(llm, AgentSettings())
        assert not await begins_replies(llm, AgentSettings(prefill_reply=False))
        assert await discover_context_tokens(llama.url("v1")) == 8192
        assert len(llama.asked) == 1, "what the server said is kept, for both questions"
