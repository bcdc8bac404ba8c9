"""A chat model from ``PROVIDER:NAME``, as ``browser-agent run --model`` builds it: for scripts and examples.

::

    from browser_agent.models import chat_model, chat_model_from_env

    llm = chat_model("openai:gpt-4o-mini")                                  # reads OPENAI_API_KEY
    llm = chat_model("openai:local", base_url="http://127.0.0.1:8088/v1")    # a local server: no key
    llm = chat_model_from_env() or ScriptedChatModel(policy=...)            # BROWSER_AGENT_MODEL, if set

The providers are the rows of ``browser_agent.llm.providers.PROVIDERS`` (``openai``, ``anthropic``,
``ollama``); each needs its extra installed (``pip install 'pw-browser-agent[openai]'``). The provider's
own SDK retries are turned off (``max_retries=0``): browser_agent retries transient failures itself and
says so while it waits, instead of leaving the user with a silent half minute.
"""

from __future__ import annotations

import importlib
import os
from typing import Any

from langchain_core.language_models import BaseChatModel

from browser_agent.errors import UserError, first_line
from browser_agent.extras import install_hint
from browser_agent.llm.providers import PROVIDERS, Provider

__all__ = ["BASE_URL_ENV", "MODEL_ENV", "chat_model", "chat_model_from_env"]

MODEL_ENV = "BROWSER_AGENT_MODEL"
"""The variable naming the model to use, ``PROVIDER:NAME`` (``openai:gpt-4o-mini``, ``openai:local``)."""
BASE_URL_ENV = "BROWSER_AGENT_BASE_URL"
"""The variable giving the model's server, e.g. a local OpenAI-compatible one (``http://127.0.0.1:8088/v1``)."""


# The key a local OpenAI-compatible server gets when none is set: such servers ignore it.
_LOCAL_KEY = "not-needed"
_TIMEOUT_S = 120


def chat_model(
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
        raise UserError(f"Could not set up --model {spec}: {first_line(exc)}") from exc
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


def chat_model_from_env() -> BaseChatModel | None:
    """The model ``BROWSER_AGENT_MODEL`` names, at ``BROWSER_AGENT_BASE_URL`` when that is set; ``None``
    when ``BROWSER_AGENT_MODEL`` is unset (the caller then runs without a model, e.g. scripted).

    Raises:
        UserError: the variable names no known provider, or a hosted provider without its API key;
            the message names the variables to set.
    """
    spec = os.environ.get(MODEL_ENV, "").strip()
    if not spec:
        return None
    base_url = os.environ.get(BASE_URL_ENV, "").strip() or None
    provider_name, _, name = spec.partition(":")
    provider = PROVIDERS.get(provider_name)
    if provider is None or not name:
        known = ", ".join(f"{p}:MODEL" for p in PROVIDERS)
        raise UserError(f"{MODEL_ENV}={spec} is not PROVIDER:NAME with a known provider; use one of {known}.")
    if provider.key_env is not None and not os.environ.get(provider.key_env) and base_url is None:
        raise UserError(
            f"{MODEL_ENV}={spec} needs an API key: export {provider.key_env}=... (or set {BASE_URL_ENV} "
            f"to a local server, or unset {MODEL_ENV} to run offline with a scripted model)."
        )
    try:
        return chat_model(spec, base_url=base_url)
    except UserError as exc:
        raise UserError(f"{MODEL_ENV}={spec}: {exc}") from exc
