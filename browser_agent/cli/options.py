"""The flags the subcommands share, each group added by one function and read back by one function.

Groups: the model (``--model``, ``--base-url``, ``--api-key-env``, ``--tool-calling-method``,
``--planner-model``), the browser (``--headed``, ``--cdp-url``, ``--ws-endpoint``), the fence
(``--allowed-domain``) and the secrets (``--secrets FILE``, ``--secret NAME=ENVVAR``, read by
``secret_files.load_secrets``). Every parser is made
by ``command``: no abbreviated flags (``--max-step`` is an error, not ``--max-steps``), defaults shown.

Nothing heavy is imported here: the providers, langchain and Playwright load when a command reads its
flags back (``ModelOptions.load``, ``browser_config``), never for ``--help``.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from browser_agent.errors import UserError

if TYPE_CHECKING:
    from langchain_core.language_models import BaseChatModel

    from browser_agent.browser import BrowserConfig

__all__ = [
    "TOOL_CALLING_METHODS",
    "HelpFormatter",
    "MethodName",
    "ModelOptions",
    "add_browser_options",
    "add_fence_options",
    "add_login_options",
    "add_model_options",
    "add_network_options",
    "add_secret_options",
    "allowed_domains",
    "browser_config",
    "browser_configs",
    "check_login",
    "command",
    "model_options",
    "tool_calling_methods",
]

# AgentSettings.tool_calling_method's type, spelt out here so that --help does not import the agent
# (tests/integration/test_cli.py keeps the two the same); and each value in one line.
MethodName = Literal["auto", "function_calling", "json_mode", "json_schema", "raw"]
TOOL_CALLING_METHODS: dict[MethodName, str] = {
    "auto": "tool calling; moves on to json_schema, then raw, by itself when refused",
    "function_calling": "a forced tool call only (hosted OpenAI, Anthropic, most large models)",
    "json_mode": "a JSON object (response_format json_object); the schema is in the prompt",
    "json_schema": "the server decodes to the schema (llama.cpp, vLLM, LM Studio, Ollama)",
    "raw": "plain text; the JSON is read out of the reply (any chat model)",
}


def tool_calling_methods() -> tuple[MethodName, ...]:
    """The values ``--tool-calling-method`` takes: those of ``AgentSettings.tool_calling_method``."""
    return tuple(TOOL_CALLING_METHODS)


class HelpFormatter(argparse.RawDescriptionHelpFormatter, argparse.ArgumentDefaultsHelpFormatter):
    """Descriptions and epilogs keep their lines; a flag's default is shown when it has a real one."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        if action.default in (None, False, [], (), "") or "%(default)" in (action.help or ""):
            return action.help
        return super()._get_help_string(action)


def command(
    subparsers: Any, name: str, *, help: str, description: str | None = None, epilog: str | None = None
) -> argparse.ArgumentParser:
    """A subcommand's parser: no abbreviated flags, defaults shown in ``--help``."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        name,
        help=help,
        description=description or help[0].upper() + help[1:] + ".",
        epilog=epilog,
        formatter_class=HelpFormatter,
        allow_abbrev=False,
    )
    return parser


# -- the model ---------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ModelOptions:
    """The model flags as given; ``load`` builds the chat model (importing its provider package)."""

    spec: str | None
    base_url: str | None = None
    api_key_env: str | None = None
    tool_calling_method: MethodName = "auto"
    planner: str | None = None
    extraction: str | None = None  # the model that answers extract_content from the page's passages
    temperature: float | None = None  # None: the provider's own default
    step_timeout_s: float = 120.0  # AgentSettings.step_timeout_s's default
    context_tokens: int | None = None  # None: asked of the server at --base-url

    def settings(self, **more: Any) -> dict[str, Any]:
        """The ``AgentSettings`` fields these flags set: the method, the planner, the extraction model,
        the step's time limit, the model's context."""
        return {
            "tool_calling_method": self.tool_calling_method,
            "planner_llm": self.load_second(self.planner),
            "page_extraction_llm": self.load_second(self.extraction),
            "step_timeout_s": self.step_timeout_s,
            "context_tokens": self.context_tokens,
            **more,
        }

    def load(self) -> BaseChatModel:
        """The chat model of ``--model``.

        Raises:
            ProviderUnreachableError: nothing listens at ``--base-url`` (checked first, in milliseconds).
            UserError: no ``--model``, or its provider package or API key is missing.
        """
        if self.base_url:
            from browser_agent.cli.server_check import check_reachable

            check_reachable(self.base_url)
        return self.factory()()

    def factory(self) -> Callable[[], BaseChatModel]:
        """A function building the chat model where it is called (a Ray worker reads its own keys)."""
        from functools import partial

        from browser_agent.models import chat_model

        if self.spec is None:
            raise UserError("No --model given; name one, e.g. --model openai:gpt-4o.")
        extra = {} if self.temperature is None else {"temperature": self.temperature}
        return partial(chat_model, self.spec, base_url=self.base_url, api_key_env=self.api_key_env, **extra)

    def load_second(self, spec: str | None) -> BaseChatModel | None:
        """The chat model of ``--planner-model`` or ``--extraction-model`` (same server and key flags)."""
        if spec is None:
            return None
        return ModelOptions(spec, self.base_url, self.api_key_env, temperature=self.temperature).load()


def add_model_options(
    parser: argparse.ArgumentParser,
    *,
    required: bool,
    method: bool = True,
    planner: bool = True,
    step_timeout: bool = False,
    also: Sequence[str] = (),
    purpose: str = "the model that drives the browser",
) -> argparse._ArgumentGroup:
    """``--model`` (also named ``also``), ``--base-url``, ``--api-key-env``, and where the command uses
    them ``--tool-calling-method`` (explained in the epilog), ``--planner-model`` and ``--step-timeout``
    (every command that runs an agent: a slow local model needs more than the default)."""
    group = parser.add_argument_group("model")
    group.add_argument(
        "--model",
        *also,
        required=required,
        metavar="PROVIDER:NAME",
        help=f"{purpose}, e.g. openai:gpt-4o, ollama:qwen3 (openai:NAME with --base-url: any "
        "OpenAI-compatible server)",
    )
    group.add_argument(
        "--base-url",
        metavar="URL",
        help="the provider's server, e.g. a local OpenAI-compatible one (http://127.0.0.1:8088/v1) or an "
        "Ollama host; no API key is needed then",
    )
    group.add_argument(
        "--api-key-env",
        metavar="VAR",
        help="read the API key from this environment variable (default: the provider's own, e.g. "
        "OPENAI_API_KEY)",
    )
    if method:
        group.add_argument(
            "--tool-calling-method",
            choices=tool_calling_methods(),
            default="auto",
            help="how a structured reply is asked for (each value is explained below)",
        )
        lines = [f"  {name:<18}{text}" for name, text in TOOL_CALLING_METHODS.items()]
        before = [parser.epilog, ""] if parser.epilog else []
        parser.epilog = "\n".join([*before, "--tool-calling-method values:", *lines])
    if planner:
        group.add_argument(
            "--planner-model",
            metavar="PROVIDER:NAME",
            help="a second model that writes a plan every 3 steps (same --base-url and --api-key-env)",
        )
        group.add_argument(
            "--extraction-model",
            metavar="PROVIDER:NAME",
            help="a model that answers extract_content from the page's passages that match its goal (may "
            "be the --model itself; same --base-url and --api-key-env). Without it the passages are the "
            "result",
        )
    if step_timeout:
        group.add_argument(
            "--step-timeout",
            type=_seconds,
            default=120,
            metavar="S",
            help="the longest one step (the model's answer and the actions) may take; raise it for a slow "
            "local model",
        )
        group.add_argument(
            "--context-tokens",
            type=_context_tokens,
            metavar="N",
            help="the model's context size; every request is kept within it (default: asked of the "
            "server at --base-url, llama.cpp or vLLM, else only the 32,000-token budget)",
        )
    return group


def _at_least(
    kind: type[float] | type[int], low: float, unit: str, *, above: bool = False
) -> Callable[[str], float]:
    """An argparse type: a number of ``unit`` of at least ``low`` (above it, with ``above``), finite."""

    def parse(text: str) -> float:
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a number of {unit}") from None
        if not value >= low or (above and value == low) or value == float("inf"):  # NaN too
            bound = f"above {low:g}" if above else f"at least {low:g}"
            raise argparse.ArgumentTypeError(f"{text!r}: give {bound} {unit}")
        return value

    return parse


_seconds = _at_least(float, 0, "seconds", above=True)
_context_tokens = _at_least(int, 1_000, "tokens")


def model_options(args: argparse.Namespace) -> ModelOptions:
    """The model flags of ``args`` (those the command does not have are left at their defaults)."""
    return ModelOptions(
        spec=args.model,
        base_url=args.base_url,
        api_key_env=args.api_key_env,
        tool_calling_method=getattr(args, "tool_calling_method", "auto"),
        planner=getattr(args, "planner_model", None),
        extraction=getattr(args, "extraction_model", None),
        temperature=getattr(args, "temperature", None),
        step_timeout_s=getattr(args, "step_timeout", 120.0),
        context_tokens=getattr(args, "context_tokens", None),
    )


# -- the browser and its fence -----------------------------------------------------------------------


def add_browser_options(
    parser: argparse.ArgumentParser, *, remote: bool = True, fleet: bool = False
) -> argparse._ArgumentGroup:
    """``--headed``; with ``remote``, ``--cdp-url`` and ``--ws-endpoint`` (repeatable for a ``fleet``)."""
    group = parser.add_argument_group("browser (default: launch a local Chromium)")
    group.add_argument("--headed", action="store_true", help="show the browser window(s)")
    if remote and fleet:
        group.add_argument(
            "--cdp-url", action="append", default=[], metavar="URL", help="a Chromium's DevTools (repeatable)"
        )
        group.add_argument(
            "--ws-endpoint",
            action="append",
            default=[],
            metavar="URL",
            help="a Playwright server (repeatable)",
        )
    elif remote:
        group.add_argument("--cdp-url", metavar="URL", help="drive a Chromium already running (DevTools URL)")
        group.add_argument("--ws-endpoint", metavar="URL", help="drive a Playwright server (ws://...)")
    return group


def browser_configs(args: argparse.Namespace, **settings: Any) -> list[BrowserConfig]:
    """One ``BrowserConfig`` per browser the flags name (one local Chromium when none), with ``settings``."""
    from browser_agent.browser import BrowserConfig

    common = {"headless": not args.headed, **settings}
    if getattr(args, "login", None) is not None:
        common["storage_state"] = args.login
    cdp, ws = getattr(args, "cdp_url", None), getattr(args, "ws_endpoint", None)
    cdp_urls = cdp if isinstance(cdp, list) else [cdp] if cdp else []
    ws_urls = ws if isinstance(ws, list) else [ws] if ws else []
    fleet = [BrowserConfig(ws_endpoint=url, **common) for url in ws_urls]
    fleet += [BrowserConfig(cdp_url=url, **common) for url in cdp_urls]
    return fleet or [BrowserConfig(**common)]


def browser_config(args: argparse.Namespace, **settings: Any) -> BrowserConfig:
    """The one browser of a single-browser command.

    Raises:
        UserError: both ``--cdp-url`` and ``--ws-endpoint`` were given.
    """
    configs = browser_configs(args, **settings)
    if len(configs) > 1:
        raise UserError("Give --cdp-url or --ws-endpoint, not both: this command drives one browser.")
    return configs[0]


def add_network_options(group: argparse._ArgumentGroup, *, local_by_default: bool) -> None:
    """``--local-only`` and ``--allow-network``: whether the browser reaches hosts other than this machine.
    The same two names for every command; the default is the command's (``inspect`` looks at local pages,
    ``mcp`` serves a client that browses). Read back as ``args.local_only``."""
    choice = group.add_mutually_exclusive_group()
    choice.add_argument(
        "--local-only",
        dest="local_only",
        action="store_true",
        default=local_by_default,
        help="only 127.0.0.1 and localhost are reachable" + (" (the default)" if local_by_default else ""),
    )
    choice.add_argument(
        "--allow-network",
        dest="local_only",
        action="store_false",
        help="let the browser reach hosts other than this machine"
        + (" (needed for any remote URL)" if local_by_default else " (the default)"),
    )


def add_login_options(group: argparse._ArgumentGroup, *, save: bool = False) -> None:
    """``--login FILE`` (start from a saved login) and, with ``save``, ``--save-login FILE``."""
    group.add_argument(
        "--login",
        type=Path,
        metavar="FILE",
        help="start logged in: cookies and local storage saved by --save-login (each agent its own copy)",
    )
    if save:
        group.add_argument(
            "--save-login",
            type=Path,
            metavar="FILE",
            help="save the browser's cookies and local storage here when the run ends, also a failed one "
            "(owner-only file; it holds credentials)",
        )


def check_login(args: argparse.Namespace) -> None:
    """Read ``--login`` once before anything starts, so that a bad file is said before a model loads.

    Raises:
        UserError: the file is missing or not a saved login.
    """
    if getattr(args, "login", None) is not None:
        from browser_agent.browser.storage import read_storage_state

        read_storage_state(args.login)


def add_fence_options(
    parser: argparse.ArgumentParser,
    help: str = "keep every page on these sites, e.g. example.com, *.example.com, http://127.0.0.1:* or "
    "file: for local files (repeatable; default: every site)",
) -> None:
    group = parser.add_argument_group("fence")
    group.add_argument("--allowed-domain", action="append", default=[], metavar="PATTERN", help=help)


def allowed_domains(args: argparse.Namespace) -> tuple[str, ...] | None:
    """The fence of ``--allowed-domain``; None when none was given."""
    return tuple(args.allowed_domain) or None


# -- secrets -----------------------------------------------------------------------------------------


def add_secret_options(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("secrets (typed where <secret>NAME</secret> is written; never shown)")
    group.add_argument(
        "--secrets",
        type=Path,
        metavar="FILE",
        help='a JSON file of secrets: {"pw": "..."} or {"https://*.bank.example": {"pw": "..."}}',
    )
    group.add_argument(
        "--secret",
        action="append",
        default=[],
        metavar="NAME=ENVVAR",
        help="a secret read from environment variable ENVVAR, typed for <secret>NAME</secret> (repeatable)",
    )
