"""Retries of transient provider failures, and the one place provider exceptions become ``ModelError``.

Provider packages are never imported here: an exception is classified by the HTTP status it carries
(``status_code``, ``status``, ``http_status`` or ``response.status_code``) and by the names of its
classes, which are stable across the OpenAI, Anthropic, Google, Ollama and httpx clients.
"""

from __future__ import annotations

import socket
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TypeVar

from tenacity import (
    AsyncRetrying,
    RetryCallState,
    retry_if_exception,
    stop_after_attempt,
    wait_exponential,
    wait_random,
)

from browser_agent.errors import ModelError, NotAModelServerError, ProviderUnreachableError, first_line

__all__ = [
    "RetryPolicy",
    "call_with_retry",
    "is_transient",
    "not_a_model_server",
    "retry_notice",
    "status_of",
    "to_model_error",
    "unreachable",
]

T = TypeVar("T")

_TRANSIENT_STATUS = frozenset({408, 409, 425, 429})
_TRANSIENT_NAMES = frozenset(
    {
        "RateLimitError",
        "APITimeoutError",
        "APIConnectionError",
        "InternalServerError",
        "ServiceUnavailableError",
        "OverloadedError",
        "TimeoutException",  # httpx: ConnectTimeout, ReadTimeout, ... derive from it
        "NetworkError",  # httpx: ConnectError, ReadError, ...
        "RemoteProtocolError",
        "TimeoutError",  # builtin, and asyncio.TimeoutError since 3.11
        "ConnectionError",  # builtin: resets, refused connections
        "ResourceExhausted",  # google.api_core: 429
        "ServiceUnavailable",
        "DeadlineExceeded",
    }
)
# How many links of the __cause__/__context__ chain to follow: SDKs wrap httpx errors once or twice.
_CHAIN_DEPTH = 4
# A failed connection sits deeper: SDK error <- its subclass <- httpx <- httpcore <- OSError <- the refusal.
_CONNECT_DEPTH = 8


@dataclass(frozen=True, slots=True)
class RetryPolicy:
    """How often and how patiently a transient provider failure is retried.

    Attributes:
        attempts: Total calls, the first included (1 disables retrying).
        initial_wait_s: Wait before the first retry; it doubles on each retry.
        max_wait_s: Cap on any single wait, before jitter.
        jitter_s: Random extra wait up to this, so parallel agents do not retry in lockstep.
        on_retry: Told, in one line, each time a failure is about to be retried (what failed, the
            wait, the attempt), so a user does not watch a silent wait.
    """

    attempts: int = 4
    initial_wait_s: float = 1.0
    max_wait_s: float = 30.0
    jitter_s: float = 1.0
    on_retry: Callable[[str], None] | None = None


def retry_notice(what: str, state: RetryCallState, attempts: int) -> str:
    """``The chat model call failed (APIConnectionError: ...); retrying in 2.0 s (attempt 2 of 4)``."""
    outcome = state.outcome
    exc = outcome.exception() if outcome is not None else None
    detail = f"{type(exc).__name__}: {first_line(str(exc), 160)}"
    wait = state.next_action.sleep if state.next_action is not None else 0.0
    return (
        f"{what} failed ({detail.rstrip(': ')}); retrying in {wait:.1f} s "
        f"(attempt {state.attempt_number + 1} of {attempts})"
    )


def status_of(exc: BaseException) -> int | None:
    """The HTTP status an exception carries, if any."""
    for name in ("status_code", "status", "http_status"):
        value = getattr(exc, name, None)
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    response = getattr(exc, "response", None)
    value = getattr(response, "status_code", None)
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    return None


def _chain(exc: BaseException, depth: int = _CHAIN_DEPTH) -> list[BaseException]:
    chain = [exc]
    while len(chain) < depth:
        nxt = chain[-1].__cause__ or chain[-1].__context__
        if nxt is None or nxt in chain:
            break
        chain.append(nxt)
    return chain


def _is_transient_one(exc: BaseException) -> bool:
    status = status_of(exc)
    if status is not None:
        return status in _TRANSIENT_STATUS or status >= 500
    if any(cls.__name__ in _TRANSIENT_NAMES for cls in type(exc).__mro__):
        return True
    # Some SDKs raise a bare APIError for Anthropic's "overloaded_error" without a status attribute.
    return "overloaded" in str(exc).lower()


def _request_url(exc: BaseException) -> str | None:
    try:  # httpx's errors raise RuntimeError from .request when it was never set
        url = getattr(getattr(exc, "request", None), "url", None)
    except Exception:
        return None
    return str(url) if url else None


def unreachable(exc: BaseException) -> tuple[str | None, str] | None:
    """``(url, reason)`` when ``exc`` is a connection that never opened: refused (nothing listens at the
    address) or a host name that does not resolve; None for anything else.

    A temporary failure of the name lookup (``EAI_AGAIN``) and a connection reset or timed out are not
    this: they may pass, and are retried.
    """
    if not isinstance(exc, Exception) or status_of(exc) is not None:
        return None
    chain = _chain(exc, _CONNECT_DEPTH)
    reason = None
    for link in chain:
        if isinstance(link, ConnectionRefusedError):
            reason = "connection refused"
        elif isinstance(link, socket.gaierror) and link.errno != socket.EAI_AGAIN:
            reason = "the host name does not resolve"
        if reason is not None:
            return next((u for u in map(_request_url, chain) if u), None), reason
    return None


# A model server's chat endpoint never answers these to a POST: the address is some other HTTP server.
_NOT_AN_ENDPOINT = frozenset({404, 405, 501})


def _content_type(exc: BaseException) -> str:
    try:
        headers = getattr(getattr(exc, "response", None), "headers", None)
        value = headers.get("content-type", "") if headers is not None else ""
    except Exception:
        return ""
    return value.lower() if isinstance(value, str) else ""


def not_a_model_server(exc: BaseException) -> tuple[str | None, str] | None:
    """``(url, what it answered)`` when an HTTP server answered the model call, but not as a model server
    does: a page of HTML, or 404/405/501 with a body that is not JSON. None for anything else, and when
    the answer's type is not known (a real server's 404 for an unknown model comes as JSON, and stays a
    ``ModelError`` with advice).
    """
    if not isinstance(exc, Exception):
        return None
    for link in _chain(exc):
        status = status_of(link)
        if status is None:
            continue
        kind = _content_type(link)
        # A proxy in front of a real model server answers 502-504 (and a busy server 429) with a page of
        # HTML too: those are waited out. Any other page of HTML is a web server's.
        html = "html" in kind and status < 500 and status not in _TRANSIENT_STATUS
        if html or (status in _NOT_AN_ENDPOINT and kind and "json" not in kind):
            shown = "an HTML page" if "html" in kind else kind.split(";")[0]
            return next((u for u in map(_request_url, _chain(exc)) if u), None), f"HTTP {status}, {shown}"
        return None
    return None


def is_transient(exc: BaseException) -> bool:
    """Whether a provider exception is worth retrying (rate limit, timeout, connection, 5xx, overloaded).

    Never a cancellation (or Ctrl-C), whatever it interrupted: one that lands while a client handles a
    timeout carries that timeout as its context, and retrying it would swallow the Ctrl-C. Never a
    server that is not there (``unreachable``): waiting does not start it.
    """
    if isinstance(exc, AssertionError) or not isinstance(exc, Exception) or unreachable(exc):
        return False
    if not_a_model_server(exc):
        return False
    return any(_is_transient_one(link) for link in _chain(exc))


def to_model_error(exc: BaseException, *, what: str, attempts: int = 1) -> ModelError:
    """Describe a provider failure as a ``ModelError`` that says what to do next.

    The caller raises it ``from exc`` so the provider's exception stays visible as ``__cause__``.
    """
    gone = unreachable(exc)
    if gone is not None:
        return ProviderUnreachableError(*gone)
    other = not_a_model_server(exc)
    if other is not None:
        return NotAModelServerError(*other)
    detail = f"{type(exc).__name__}: {exc}"
    status = status_of(exc)
    if is_transient(exc):
        advice = "The provider is busy or unreachable; try again later or lower the request rate."
        return ModelError(f"{what} still failed after {attempts} attempt(s) ({detail}). {advice}")
    if status in (401, 403):
        advice = "Check the API key and that it may use this model."
    elif status == 404:
        advice = "Check the model name and the provider's base URL."
    elif status in (400, 413, 422):
        advice = "The provider rejected the request; check the model's options and the prompt size."
    else:
        advice = "Check the API key, the model name and the provider's status page."
    return ModelError(f"{what} failed ({detail}). {advice}")


def _announcer(policy: RetryPolicy, what: str) -> Callable[[RetryCallState], None] | None:
    notify = policy.on_retry
    if notify is None:
        return None
    return lambda state: notify(retry_notice(what, state, policy.attempts))


async def call_with_retry(
    call: Callable[[], Awaitable[T]], policy: RetryPolicy | None = None, *, what: str = "The model call"
) -> T:
    """Await ``call()``, retrying transient provider failures with exponential backoff and jitter.

    Raises:
        ModelError: the last attempt failed, or the failure was not transient (the provider's
            exception is its ``__cause__``).
        AssertionError: passed through unchanged: it is a failing test (for example a
            ``ScriptedChatModel`` whose script ran out), never a provider's answer.
    """
    policy = policy or RetryPolicy()
    retrying = AsyncRetrying(
        stop=stop_after_attempt(max(1, policy.attempts)),
        wait=wait_exponential(multiplier=policy.initial_wait_s, max=policy.max_wait_s)
        + wait_random(0, policy.jitter_s),
        retry=retry_if_exception(is_transient),
        before_sleep=_announcer(policy, what),
        reraise=True,
    )
    attempt_number = 0
    try:
        async for attempt in retrying:
            attempt_number = attempt.retry_state.attempt_number
            with attempt:
                return await call()
    except (AssertionError, ModelError):
        raise
    except Exception as exc:
        raise to_model_error(exc, what=what, attempts=attempt_number) from exc
    raise AssertionError("tenacity ended without a result or an exception")  # unreachable
