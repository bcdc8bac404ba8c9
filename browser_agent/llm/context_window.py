"""How many tokens the model's server holds in one request, and which server it is: asked, never guessed.

A local server's context is often small (llama.cpp's default slot of 4,096 or 8,192 tokens) and a
request beyond it fails outright (``request (8251 tokens) exceeds the available context size``). Two
OpenAI-compatible servers say theirs: llama.cpp at ``GET {root}/props``
(``default_generation_settings.n_ctx``, or ``n_ctx``), vLLM at ``GET {base}/models`` (``max_model_len``).

Asked only of a base URL that was configured (``--base-url``, ``ChatOpenAI(base_url=...)``): no request
goes anywhere but the server the model already talks to. Each question is bounded (2 s in all), never
raises, and its answer (also "no answer") is kept for the process.

A server that answers ``/props`` is llama.cpp's, which continues a reply the request began under its
JSON-schema grammar (``llm/structured.py`` writes the reply's fixed opening for it).
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
import urllib.request
from typing import Any, NamedTuple

from langchain_core.language_models import BaseChatModel

__all__ = [
    "context_tokens_of",
    "continues_replies",
    "discover_context_tokens",
    "reply_tokens_of",
    "server_base_url",
]

logger = logging.getLogger("browser_agent")

_DEADLINE_S = 2.0
_MAX_BODY = 1 << 20  # /props holds the chat template; more than a megabyte is not a model server


class _Server(NamedTuple):
    """What a server said about itself: its context in tokens, and whether it is llama.cpp's."""

    tokens: int | None = None
    llama_cpp: bool = False


_known: dict[str, _Server] = {}


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:  # only the configured server is asked
        return None


# Straight to the server: no environment proxy, no redirect elsewhere.
_OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}), _NoRedirect())


def server_base_url(llm: BaseChatModel) -> str | None:
    """The base URL an OpenAI-compatible chat model was configured with; None for the provider's own."""
    url = getattr(llm, "openai_api_base", None)
    return url if isinstance(url, str) and url.startswith(("http://", "https://")) else None


def reply_tokens_of(llm: BaseChatModel) -> int | None:
    """The reply's token limit the chat model was configured with, if any (``max_tokens``)."""
    value = getattr(llm, "max_tokens", None)
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else None


def _api_key(llm: BaseChatModel) -> str | None:
    key = getattr(llm, "openai_api_key", None)
    getter = getattr(key, "get_secret_value", None)
    secret = getter() if callable(getter) else key
    return secret if isinstance(secret, str) and secret else None


async def context_tokens_of(llm: BaseChatModel) -> int | None:
    """The context size of ``llm``'s server, when it was given a base URL and the server says it."""
    base = server_base_url(llm)
    return None if base is None else await discover_context_tokens(base, api_key=_api_key(llm))


async def continues_replies(llm: BaseChatModel) -> bool:
    """Whether ``llm`` talks to a llama.cpp server (given by base URL), which continues a reply the request
    began, under the reply's JSON-schema grammar."""
    base = server_base_url(llm)
    return base is not None and (await _server_at(base, _api_key(llm))).llama_cpp


async def discover_context_tokens(base_url: str, *, api_key: str | None = None) -> int | None:
    """The context size the server at ``base_url`` reports (llama.cpp or vLLM); None when it says none.

    Bounded to 2 s; never raises; the answer is cached per base URL.
    """
    return (await _server_at(base_url, api_key)).tokens


async def _server_at(base_url: str, api_key: str | None) -> _Server:
    base = base_url.rstrip("/")
    if base in _known:
        return _known[base]
    try:
        found = await asyncio.wait_for(asyncio.to_thread(_ask_server, base, api_key), _DEADLINE_S + 0.5)
    except (TimeoutError, OSError, ValueError) as exc:
        logger.debug("No context size from %s: %s", base, exc)
        found = _Server()
    _known[base] = found
    return found


def _ask_server(base: str, api_key: str | None) -> _Server:
    """``/props`` at the server's root (llama.cpp), then ``/models`` under the base (vLLM)."""
    root = base.removesuffix("/v1")
    deadline = time.monotonic() + _DEADLINE_S
    props = _get_json(f"{root}/props", api_key, _DEADLINE_S)
    llama_cpp = _llama_cpp(props)
    if llama_cpp is not None:
        return _Server(llama_cpp, llama_cpp=True)
    left = deadline - time.monotonic()
    return _Server(_vllm(_get_json(f"{base}/models", api_key, left)) if left > 0 else None)


def _get_json(url: str, api_key: str | None, timeout_s: float) -> Any:
    request = urllib.request.Request(url, headers={"Accept": "application/json"})
    if api_key:
        request.add_header("Authorization", f"Bearer {api_key}")
    try:
        # The URL is the configured model server's own, never one a page or a model gave.
        with _OPENER.open(request, timeout=timeout_s) as response:
            return json.loads(response.read(_MAX_BODY + 1)[:_MAX_BODY])
    except (OSError, ValueError, RecursionError):  # not there, not JSON, refused, nested past reading
        return None


def _positive(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else None


def _llama_cpp(data: Any) -> int | None:
    if not isinstance(data, dict):
        return None
    settings = data.get("default_generation_settings")
    per_slot = _positive(settings.get("n_ctx")) if isinstance(settings, dict) else None
    return per_slot or _positive(data.get("n_ctx"))


def _vllm(data: Any) -> int | None:
    models = data.get("data") if isinstance(data, dict) else None
    if not isinstance(models, list):
        return None
    sizes = [_positive(m.get("max_model_len")) for m in models if isinstance(m, dict)]
    found = [s for s in sizes if s is not None]
    return min(found) if found else None
