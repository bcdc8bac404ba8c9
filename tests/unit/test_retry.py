"""Transient provider errors are retried with backoff; the rest become a ModelError at once."""

from __future__ import annotations

import asyncio
import itertools
import socket

import pytest

from browser_agent.errors import ModelError, ProviderUnreachableError
from browser_agent.llm.methods import is_refusal
from browser_agent.llm.retry import RetryPolicy, call_with_retry, is_transient

FAST = RetryPolicy(attempts=3, initial_wait_s=0.001, max_wait_s=0.002, jitter_s=0.001)


class RateLimitError(Exception):
    """Named like the OpenAI/Anthropic SDK class, without importing them."""


class StatusError(Exception):
    def __init__(self, status: int) -> None:
        super().__init__(f"HTTP {status}")
        self.status_code = status


class _Response:
    def __init__(self, status: int) -> None:
        self.status_code = status


class ResponseError(Exception):
    def __init__(self, status: int) -> None:
        super().__init__("failed")
        self.response = _Response(status)


class TimeoutException(Exception):
    """Named like httpx's base timeout class."""


class ReadTimeout(TimeoutException):
    pass


@pytest.mark.parametrize(
    "exc",
    [
        RateLimitError("429"),
        StatusError(429),
        StatusError(503),
        StatusError(529),
        ResponseError(502),
        ReadTimeout("read timed out"),
        TimeoutError(),
        ConnectionResetError(),
        Exception("Overloaded: try later"),
    ],
)
def test_transient(exc: Exception) -> None:
    assert is_transient(exc)


@pytest.mark.parametrize(
    "exc",
    [
        StatusError(401),
        StatusError(400),
        ResponseError(404),
        ValueError("bad"),
        TypeError("x"),
        AssertionError(),
    ],
)
def test_not_transient(exc: Exception) -> None:
    assert not is_transient(exc)


def test_transient_cause_counts() -> None:
    try:
        try:
            raise ReadTimeout("slow")
        except ReadTimeout as inner:
            raise RuntimeError("wrapped") from inner
    except RuntimeError as outer:
        assert is_transient(outer)


def _flaky(failures: list[BaseException], result: str = "ok") -> tuple[list[int], object]:
    calls: list[int] = []

    async def call() -> str:
        calls.append(1)
        if failures:
            raise failures.pop(0)
        return result

    return calls, call


async def test_rate_limit_retried_then_succeeds() -> None:
    calls, call = _flaky([RateLimitError("slow down"), StatusError(503)])
    assert await call_with_retry(call, FAST) == "ok"  # type: ignore[arg-type]
    assert len(calls) == 3


async def test_exhausted_retries_raise_model_error_with_cause() -> None:
    calls, call = _flaky([RateLimitError(f"n{i}") for i in range(5)])
    with pytest.raises(ModelError, match="after 3 attempt") as info:
        await call_with_retry(call, FAST)  # type: ignore[arg-type]
    assert isinstance(info.value.__cause__, RateLimitError)
    assert "try again later" in str(info.value)
    assert len(calls) == 3


async def test_auth_error_not_retried() -> None:
    calls, call = _flaky([StatusError(401)])
    with pytest.raises(ModelError, match="API key") as info:
        await call_with_retry(call, FAST)  # type: ignore[arg-type]
    assert isinstance(info.value.__cause__, StatusError)
    assert len(calls) == 1


async def test_unknown_model_names_the_model_name() -> None:
    _, call = _flaky([ResponseError(404)])
    with pytest.raises(ModelError, match="model name"):
        await call_with_retry(call, FAST)  # type: ignore[arg-type]


async def test_assertion_error_passes_through() -> None:
    _, call = _flaky([AssertionError("script ran out")])
    with pytest.raises(AssertionError, match="script ran out"):
        await call_with_retry(call, FAST)  # type: ignore[arg-type]


async def test_a_cancellation_during_a_timeout_is_never_retried() -> None:
    """A Ctrl-C that lands while the client handles a read timeout carries that timeout as its context;
    retrying it swallowed the Ctrl-C (a batch then waited through two more model timeouts)."""
    calls: list[int] = []

    async def call() -> str:
        calls.append(1)
        try:
            raise TimeoutException("read timed out")
        except TimeoutException:
            raise asyncio.CancelledError()  # noqa: B904 - the context must be the timeout being handled

    with pytest.raises(asyncio.CancelledError) as info:
        await call_with_retry(call, FAST)
    assert isinstance(info.value.__context__, TimeoutException), "the case under test: a timeout as context"
    assert len(calls) == 1
    assert not is_transient(KeyboardInterrupt()) and not is_transient(asyncio.CancelledError())


async def test_backoff_waits_grow_and_are_capped() -> None:
    loop = asyncio.get_running_loop()
    stamps: list[float] = []

    async def call() -> str:
        stamps.append(loop.time())
        if len(stamps) < 5:
            raise StatusError(500)
        return "ok"

    # Waits of 0.1, 0.2, then capped at 0.2 where doubling would give 0.4 and 0.8: far enough apart for
    # the last check to hold on a loaded machine (a 50 ms cap was once seen 180 ms late).
    policy = RetryPolicy(attempts=5, initial_wait_s=0.1, max_wait_s=0.2, jitter_s=0.0)
    assert await call_with_retry(call, policy) == "ok"
    gaps = [b - a for a, b in itertools.pairwise(stamps)]
    assert gaps[0] >= 0.09
    assert gaps[1] >= 0.19  # doubled
    assert gaps[3] < 0.6  # capped at max_wait_s (0.2), not 0.8


class _Request:
    url = "http://127.0.0.1:9/v1/chat/completions"


class APIConnectionError(Exception):
    """Named like the OpenAI and Anthropic SDK class, which carries the request it could not send."""

    def __init__(self) -> None:
        super().__init__("Connection error.")
        self.request = _Request()


def _connection_error(inner: OSError) -> APIConnectionError:
    """``inner`` wrapped as the SDKs do: APIConnectionError from httpx's ConnectError from the OSError."""
    try:
        try:
            try:
                raise inner
            except OSError as exc:
                raise OSError("All connection attempts failed") from exc
        except OSError as exc:
            raise APIConnectionError() from exc
    except APIConnectionError as outer:
        return outer


@pytest.mark.parametrize(
    ("inner", "said"),
    [
        (ConnectionRefusedError(111, "Connect call failed"), "connection refused — is the server running?"),
        (socket.gaierror(socket.EAI_NONAME, "Name or service not known"), "the host name does not resolve"),
    ],
)
async def test_an_unreachable_server_fails_at_once_saying_where_and_why(inner: OSError, said: str) -> None:
    calls, call = _flaky([_connection_error(inner), StatusError(503), StatusError(503)])
    with pytest.raises(ProviderUnreachableError) as info:
        await call_with_retry(call, FAST)  # type: ignore[arg-type]
    assert len(calls) == 1, "nothing listens there: no retry"
    assert str(info.value).startswith(f"cannot reach {_Request.url}: {said}"), str(info.value)
    assert info.value.url == _Request.url and isinstance(info.value, ModelError)
    assert isinstance(info.value.__cause__, APIConnectionError)
    assert not is_transient(info.value.__cause__)
    assert not is_refusal(info.value), "auto must not try another method on a server that is not there"


async def test_a_temporary_name_lookup_failure_and_a_reset_are_still_retried() -> None:
    again = _connection_error(socket.gaierror(socket.EAI_AGAIN, "Temporary failure in name resolution"))
    calls, call = _flaky([again, _connection_error(ConnectionResetError(104, "reset"))])
    assert await call_with_retry(call, FAST) == "ok"  # type: ignore[arg-type]
    assert len(calls) == 3


async def test_a_real_client_on_a_closed_port_is_one_call_and_one_line() -> None:
    langchain_openai = pytest.importorskip("langchain_openai")
    llm = langchain_openai.ChatOpenAI(
        model="m", base_url="http://127.0.0.1:9/v1", api_key="sk-none", max_retries=0
    )
    calls: list[int] = []

    async def call() -> object:
        calls.append(1)
        return await llm.ainvoke("hi")

    with pytest.raises(ProviderUnreachableError) as info:
        await call_with_retry(call, FAST)
    assert len(calls) == 1
    assert str(info.value) == (
        "cannot reach http://127.0.0.1:9/v1/chat/completions: connection refused — is the server running?"
    )


def test_what_took_a_click_is_named_from_playwrights_log_with_only_safe_characters() -> None:
    from browser_agent.browser.playwright_errors import covering

    log = '  - <p>…</p> from <div id="popup" class="modal nag big">…</div> subtree intercepts pointer events'
    assert covering(log) == '<div id=popup class="modal nag">'
    assert covering("  - <canvas></canvas> intercepts pointer events") == "<canvas>"
    hostile = '  - <div id="x IGNORE;ALL" class="a\\u0000b">…</div> intercepts pointer events'
    assert covering(hostile) == '<div id="x IGNOREALL" class=au0000b>'  # what is not a word character goes
    assert covering("Timeout 5000ms exceeded.") is None


def test_why_an_element_never_became_ready_is_read_from_the_log_and_nothing_else_of_it() -> None:
    from browser_agent.browser.playwright_errors import not_ready

    log = (
        'Page.fill: Timeout 1000ms exceeded.\nCall log:\n  - fill("hunter2")\n'
        "    - element is not visible\n    - retrying fill action\n      - element is not enabled\n"
    )
    said = not_ready(log)
    assert said is not None and said.startswith("is disabled") and "hunter2" not in said
    assert not_ready("Timeout 1000ms exceeded.") is None


class _TypedResponse:
    def __init__(self, status: int, content_type: str) -> None:
        self.status_code = status
        self.headers = {"content-type": content_type}


class PageError(Exception):
    """An SDK status error carrying the HTTP response (status and headers), as openai's does."""

    def __init__(self, status: int, content_type: str) -> None:
        super().__init__(f"Error code: {status}")
        self.status_code = status
        self.response = _TypedResponse(status, content_type)


@pytest.mark.parametrize(
    ("status", "kind", "web_server"),
    [
        (501, "text/html;charset=utf-8", True),  # python -m http.server, any static file server
        (405, "text/plain", True),
        (404, "text/html", True),
        (200, "text/html", True),
        (404, "application/json", False),  # a real server's "model not found"
        (503, "text/html", False),  # a proxy in front of a model server that is starting: waited out
        (502, "text/html", False),
        (429, "text/html", False),
        (500, "application/json", False),
    ],
)
def test_a_web_server_is_told_apart_from_a_model_server(status: int, kind: str, web_server: bool) -> None:
    from browser_agent.errors import NotAModelServerError
    from browser_agent.llm.retry import to_model_error

    exc = PageError(status, kind)
    error = to_model_error(exc, what="The chat model call")
    assert isinstance(error, NotAModelServerError) is web_server
    assert is_transient(exc) is (not web_server and (status >= 500 or status == 429))
    if web_server:
        assert "is not a model server" in str(error) and "\n" not in str(error)


def test_first_line_is_the_one_way_a_message_becomes_a_line() -> None:
    from browser_agent.errors import first_line

    assert first_line(ValueError("  bad thing\nmore detail")) == "bad thing"
    assert first_line(ValueError()) == "ValueError"
    assert first_line("one\ntwo", limit=2) == "on" and first_line("") == "" and first_line(None) == ""
