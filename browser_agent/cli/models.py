"""Build a chat model from ``PROVIDER:NAME`` through the optional langchain provider packages."""

from __future__ import annotations

import importlib
from typing import Any

from langchain_core.language_models import BaseChatModel

from browser_agent.errors import UserError
from browser_agent.extras import install_hint

__all__ = ["PROVIDERS", "load_chat_model"]

# provider -> (module, class, extra that installs it, keyword for the model name)
PROVIDERS: dict[str, tuple[str, str, str, str]] = {
    "openai": ("langchain_openai", "ChatOpenAI", "openai", "model"),
    "anthropic": ("langchain_anthropic", "ChatAnthropic", "anthropic", "model"),
    "ollama": ("langchain_ollama", "ChatOllama", "ollama", "model"),
}


def load_chat_model(spec: str, **options: Any) -> BaseChatModel:
    """``openai:gpt-4o`` → ``ChatOpenAI(model="gpt-4o")``; API keys come from the provider's env vars.

    Raises:
        UserError: unknown provider, missing name, or the provider package is not installed.
    """
    provider, _, name = spec.partition(":")
    if provider not in PROVIDERS or not name:
        known = ", ".join(f"{p}:MODEL" for p in PROVIDERS)
        raise UserError(f"--model {spec!r} is not PROVIDER:NAME with a known provider; use one of {known}.")
    module_name, class_name, extra, keyword = PROVIDERS[provider]
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise UserError(
            f"The {provider} provider needs {module_name}: {install_hint(extra)}"
        ) from exc
    model_class = getattr(module, class_name)
    model: BaseChatModel = model_class(**{keyword: name}, **options)
    return model
