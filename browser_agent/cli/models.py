"""Build a chat model from ``PROVIDER:NAME`` through the optional langchain provider packages.

The providers are the rows of ``browser_agent.llm.providers.PROVIDERS``: a row names the package, the
chat class, the extra that installs it, and the API key variable.

The provider's own SDK retries are turned off (``max_retries=0``): browser_agent retries transient
failures itself and says so while it waits, instead of leaving the user with a silent half minute.
"""

from __future__ import annotations

import importlib
import os
from typing import Any

from langchain_core.language_models import BaseChatModel

from browser_agent.errors import UserError
from browser_agent.extras import install_hint
from browser_agent.llm.providers import PROVIDERS, Provider

__all__ = ["PROVIDERS", "Provider", "load_chat_model"]

# The key a local OpenAI-compatible server gets when none is set: such servers ignore it.
_LOCAL_KEY = "not-needed"
_TIMEOUT_S = 120


def load_chat_model(
    spec: str, *, base_url: str | None = None, api_key_env: str | None = None, **options: Any
) -> BaseChatModel:
    """``openai:gpt-4o`` → ``ChatOpenAI(model="gpt-4o")``; the API key comes from the provider's variable.

    Args:
        base_url: The server to talk to (an OpenAI-compatible server, an Ollama host).
        api_key_env: Read the API key from this environment variable instead of the provider's.
        options: Passed to the chat model's class as they are (they win over the defaults above).

    Raises:
        UserError: unknown provider, missing name, provider package not installed, no API key, or
            options the provider's class refuses.
    """
    provider_name, _, name = spec.partition(":")
    provider = PROVIDERS.get(provider_name)
    if provider is None or not name:
        known = ", ".join(f"{p}:MODEL" for p in PROVIDERS)
        raise UserError(f"--model {spec!r} is not PROVIDER:NAME with a known provider; use one of {known}.")
    try:
        module = importlib.import_module(provider.module)
    except ImportError as exc:
        raise UserError(
            f"The {provider_name} provider needs {provider.module}: {install_hint(provider.extra)}"
        ) from exc
    kwargs: dict[str, Any] = {"model": name}
    if base_url:
        kwargs["base_url"] = base_url
    if provider.retries_option:
        kwargs[provider.retries_option] = 0
        kwargs["timeout"] = _TIMEOUT_S
    key = _api_key(spec, provider, base_url, api_key_env)
    if key is not None:
        kwargs["api_key"] = key
    try:
        model: BaseChatModel = getattr(module, provider.class_name)(**(kwargs | options))
    except Exception as exc:  # the provider's validation: say what it refused, in one line
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise UserError(f"Could not set up --model {spec}: {first}") from exc
    return model


def _api_key(spec: str, provider: Provider, base_url: str | None, api_key_env: str | None) -> str | None:
    """The key to pass, or None to let the SDK read its own variable (or for a provider without keys)."""
    if api_key_env:
        value = os.environ.get(api_key_env)
        if not value:
            raise UserError(
                f"--api-key-env {api_key_env}: that environment variable is not set; export it first."
            )
        return value
    if provider.key_env is None or os.environ.get(provider.key_env):
        return None
    if base_url:
        return _LOCAL_KEY  # a local server: no key needed; a hosted one answers 401, which is reported
    raise UserError(
        f"--model {spec} needs an API key: export {provider.key_env}=... (or name another variable with "
        "--api-key-env, or point --base-url at a local server)."
    )
