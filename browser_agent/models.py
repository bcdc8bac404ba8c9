"""A chat model from ``PROVIDER:NAME``, as ``browser-agent run --model`` builds it: for scripts and examples.

::

    from browser_agent.models import chat_model, chat_model_from_env

    llm = chat_model("openai:gpt-4o-mini")                                  # reads OPENAI_API_KEY
    llm = chat_model("openai:local", base_url="http://127.0.0.1:8088/v1")    # a local server: no key
    llm = chat_model_from_env() or ScriptedChatModel(policy=...)            # BROWSER_AGENT_MODEL, if set

The providers are the rows of ``browser_agent.llm.providers.PROVIDERS`` (``openai``, ``anthropic``,
``ollama``); each needs its extra installed (``pip install 'pw-browser-agent[openai]'``).
"""

from __future__ import annotations

import os
from typing import Any

from langchain_core.language_models import BaseChatModel

from browser_agent.errors import UserError
from browser_agent.llm.providers import PROVIDERS

__all__ = ["BASE_URL_ENV", "MODEL_ENV", "chat_model", "chat_model_from_env"]

MODEL_ENV = "BROWSER_AGENT_MODEL"
"""The variable naming the model to use, ``PROVIDER:NAME`` (``openai:gpt-4o-mini``, ``openai:local``)."""
BASE_URL_ENV = "BROWSER_AGENT_BASE_URL"
"""The variable giving the model's server, e.g. a local OpenAI-compatible one (``http://127.0.0.1:8088/v1``)."""


def chat_model(
    spec: str, *, base_url: str | None = None, api_key_env: str | None = None, **options: Any
) -> BaseChatModel:
    """The chat model ``spec`` names (``openai:gpt-4o``), built as the command line builds it: the
    provider's own retries off (browser_agent retries and says so), a timeout set.

    Args:
        spec: ``PROVIDER:NAME``.
        base_url: The server to talk to (a local OpenAI-compatible server, an Ollama host); a local
            server needs no API key.
        api_key_env: Read the API key from this variable instead of the provider's (``OPENAI_API_KEY``).
        options: Passed to the provider's chat model class as they are.

    Raises:
        UserError: unknown provider, provider package not installed, no API key, or options the
            provider refuses; in one line that says what to do.
    """
    # The command line's builder is the one home of how a provider's model is made.
    from browser_agent.cli.models import load_chat_model

    return load_chat_model(spec, base_url=base_url, api_key_env=api_key_env, **options)


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
