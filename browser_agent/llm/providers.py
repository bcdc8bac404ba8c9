"""Every chat-model provider browser_agent knows, one row each: the one place that knows them apart.

A row says how to build the provider's chat model (``--model PROVIDER:NAME``) and each of its quirks: how
it takes a JSON schema to decode to, whether that schema is part of its cached prompt prefix, the
``cache_control`` marks it needs, where it reports token counts, and how it says a reply was cut at the
token limit. The rest of ``llm`` and the CLI read the rows; none of them looks at a provider's module or
class names. Adding a provider is one row in ``PROVIDERS`` (and a test).

The provider packages are optional extras: nothing here imports them. A row names its module, imported
only when the CLI builds that provider's model; ``provider_of`` recognises a chat model by the module of
its class (or of a class it derives from).
"""

from __future__ import annotations

import os
from dataclasses import KW_ONLY, dataclass
from typing import Literal

from langchain_core.language_models import BaseChatModel

__all__ = ["PROVIDERS", "HostedApi", "Provider", "SchemaParam", "UsageShape", "cut_error_row", "provider_of"]

SchemaParam = Literal["response_format", "format", "none"]
"""How a provider takes the JSON schema of ``json_schema``: OpenAI's ``response_format``, Ollama's
``format``, or not at all (``json_schema`` then asks in ``raw`` mode)."""


@dataclass(frozen=True, slots=True)
class HostedApi:
    """How to tell a chat model that talks to the provider's own service from one pointed at a
    self-hosted server speaking the same protocol (llama.cpp, vLLM, LM Studio).

    Attributes:
        hosts: Fragments of the service's base URLs.
        base_url_field: The chat model's attribute holding its base URL (unset: the service).
        base_url_env: The variable the SDK reads the base URL from when the attribute is unset.
        classes: Chat classes that only talk to the service, whatever their base URL (Azure's).
    """

    hosts: tuple[str, ...]
    base_url_field: str
    base_url_env: str | None = None
    classes: tuple[str, ...] = ()

    def serves(self, llm: BaseChatModel) -> bool:
        """Whether ``llm`` talks to the service."""
        if any(cls.__name__ in self.classes for cls in type(llm).__mro__):
            return True
        base = getattr(llm, self.base_url_field, None) or (
            os.environ.get(self.base_url_env) if self.base_url_env else None
        )
        return not base or any(host in str(base) for host in self.hosts)


@dataclass(frozen=True, slots=True)
class UsageShape:
    """Where a provider's integration puts token counts in ``response_metadata`` when it fills no
    standard ``usage_metadata``.

    Attributes:
        key: ``response_metadata[key]`` holds the counts.
        input: The key of the input tokens.
        output: The key of the output tokens.
        cached: The path to the input tokens read from the prompt cache.
        uncounted: Paths to tokens the input count leaves out and that are added to it (Anthropic counts
            cache reads and writes apart from ``input_tokens``).
    """

    key: str
    input: str
    output: str
    cached: tuple[str, ...]
    uncounted: tuple[tuple[str, ...], ...] = ()


@dataclass(frozen=True, slots=True)
class Provider:
    """One provider: how to build its chat model, and its quirks.

    Attributes:
        module: The package of its langchain integration; ``provider_of`` matches chat classes defined in
            it or below it.
        class_name: The chat model class the CLI builds.
        extra: The optional extra that installs the package (``pip install 'pw-browser-agent[extra]'``).
        key_env: The variable its SDK reads the API key from; None when it needs none.
        retries_option: The option that sets its SDK's own retries (turned off: browser_agent retries),
            None when it has none.
        schema_param: How it takes the JSON schema of ``json_schema``.
        schema_cached_by: The service whose prompt cache starts with that schema: a schema that changed
            each step would cost the cached prefix there, so it is kept the same. None: the schema becomes
            a sampling grammar outside the prompt.
        cache_control: The ``cache_control`` type to mark cache points with (Anthropic caches only up to
            marked blocks); None when the provider reuses the longest unchanged prefix by itself.
        usage: Where it reports token counts when it fills no standard ``usage_metadata``.
        cut_marker: The ``response_metadata`` key and value of a reply cut at the output token limit.
        cut_error: The name of the exception its SDK raises instead of returning a reply cut at the token
            limit; the exception carries the reply as ``completion`` (a chat completion, OpenAI's shape).
    """

    module: str
    class_name: str
    extra: str
    key_env: str | None = None
    retries_option: str | None = None
    _: KW_ONLY
    schema_param: SchemaParam = "response_format"
    schema_cached_by: HostedApi | None = None
    cache_control: str | None = None
    usage: UsageShape | None = None
    cut_marker: tuple[str, str] | None = None
    cut_error: str | None = None

    def __post_init__(self) -> None:
        if self.cut_error and not self.cut_marker:
            raise ValueError(f"Provider {self.class_name}: a cut_error needs the cut_marker of its reply.")

    def caches_the_schema(self, llm: BaseChatModel) -> bool:
        """Whether ``llm``'s prompt cache starts with the ``json_schema`` schema."""
        return self.schema_cached_by is not None and self.schema_cached_by.serves(llm)


PROVIDERS: dict[str, Provider] = {
    "openai": Provider(
        "langchain_openai",
        "ChatOpenAI",
        "openai",
        "OPENAI_API_KEY",
        "max_retries",
        schema_cached_by=HostedApi(
            hosts=("openai.com", "azure"),
            base_url_field="openai_api_base",
            base_url_env="OPENAI_BASE_URL",
            classes=("AzureChatOpenAI",),
        ),
        usage=UsageShape(
            "token_usage", "prompt_tokens", "completion_tokens", ("prompt_tokens_details", "cached_tokens")
        ),
        cut_marker=("finish_reason", "length"),
        cut_error="LengthFinishReasonError",
    ),
    "anthropic": Provider(
        "langchain_anthropic",
        "ChatAnthropic",
        "anthropic",
        "ANTHROPIC_API_KEY",
        "max_retries",
        cache_control="ephemeral",
        usage=UsageShape(
            "usage",
            "input_tokens",
            "output_tokens",
            ("cache_read_input_tokens",),
            uncounted=(("cache_read_input_tokens",), ("cache_creation_input_tokens",)),
        ),
        cut_marker=("stop_reason", "max_tokens"),
    ),
    "ollama": Provider(
        "langchain_ollama",
        "ChatOllama",
        "ollama",
        schema_param="format",
        cut_marker=("done_reason", "length"),
    ),
}
"""The providers, by the prefix of ``--model PROVIDER:NAME``."""


def provider_of(llm: BaseChatModel) -> Provider | None:
    """The row of ``llm``'s provider: the first whose module holds ``llm``'s class or a class it derives
    from; None for a chat model of no known provider (it gets the plain behaviour)."""
    for cls in type(llm).__mro__:
        for provider in PROVIDERS.values():
            if _within(cls.__module__, provider.module):
                return provider
    return None


def cut_error_row(exc: BaseException) -> Provider | None:
    """The row whose SDK raised ``exc`` for a reply cut at the token limit; None for any other error."""
    return next((p for p in PROVIDERS.values() if p.cut_error == type(exc).__name__), None)


def _within(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")
