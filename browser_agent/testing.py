"""A scripted chat model and a page server for tests: no network, no API key, every call recorded.

``ScriptedChatModel`` is a real langchain-core ``BaseChatModel``, so it goes wherever a provider's
model goes (``Agent(llm=...)``, ``bind_tools``, ``with_structured_output``). ``PageServer`` serves a
few pages from memory on 127.0.0.1. This module imports langchain-core and the standard library only,
so users can test their own actions with it.
"""

from __future__ import annotations

import asyncio
import json
import re
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any, Self
from urllib.parse import urlsplit

from langchain_core.callbacks import AsyncCallbackManagerForLLMRun, CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel, LanguageModelInput
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.runnables import Runnable
from langchain_core.tools import BaseTool
from langchain_core.utils.function_calling import convert_to_openai_tool
from pydantic import Field, PrivateAttr

__all__ = ["PageServer", "Reply", "ScriptExhaustedError", "ScriptedCall", "ScriptedChatModel", "find_index"]

Reply = dict[str, Any] | str | AIMessage | BaseException
"""What a script entry or a policy gives: tool arguments, text, a whole message, or an error to raise."""

_GENERIC_CHOICES = frozenset({"auto", "any", "required", "none"})
_ELEMENT = re.compile(r"\[(\d+)\]<(\w+)")


def find_index(page: str, tag: str, *needles: str) -> int:
    """The index of the first ``<tag>`` element in a page text that mentions every needle.

    For policies of a ``ScriptedChatModel``: they read the page part of the state message, as a model
    does, and act on an element by its ``[index]``. A needle may stand on the element's line or on the
    text line just before it, because the page text names unlabelled fields by the text above them.

    Args:
        page: The page text of a state message (lines such as ``[12]<button>Add to cart</button>``).
        tag: The element's tag name, e.g. ``"a"``, ``"input"``, ``"button"``.
        *needles: Texts that must all appear (case-insensitive); none matches the first ``<tag>``.

    Returns:
        The element's index.

    Raises:
        LookupError: No such element is in the page text (a policy may then scroll, as a model would).
    """
    previous = ""
    for line in page.splitlines():
        match = _ELEMENT.search(line)
        before = line[: match.start()].strip(" *") if match else ""  # "*" marks a new element, no text
        context = (line if before else previous + " " + line).lower()
        if match and match.group(2) == tag and all(n.lower() in context for n in needles):
            return int(match.group(1))
        previous = "" if match else line
    raise LookupError(f"no <{tag}> with {needles} in the page")


class ScriptExhaustedError(AssertionError):
    """The model was called more often than its script has replies.

    An ``AssertionError`` on purpose: it is a failing test, and the retry layer lets it through
    instead of reporting it as a provider failure.
    """


@dataclass(frozen=True, slots=True)
class ScriptedCall:
    """One call the model received: the messages, and the tools bound (OpenAI tool format)."""

    messages: list[BaseMessage]
    tools: list[dict[str, Any]] = field(default_factory=list)
    tool_choice: Any = None
    kwargs: dict[str, Any] = field(default_factory=dict)

    @property
    def tool_names(self) -> list[str]:
        """Names of the bound tools, in binding order."""
        return [t["function"]["name"] for t in self.tools]


class ScriptedChatModel(BaseChatModel):
    """A chat model that answers from a list of replies or from a policy function.

    A reply is one of:

    * a ``dict``: tool-call arguments. With one tool bound it becomes a call to that tool; with
      several, ``{"name": tool, "args": {...}}`` picks one (or ``tool_choice`` names it). With no
      tool bound, the dict is sent as JSON text (the raw-JSON mode of models without tool calling).
    * a ``str``: the text content of the reply.
    * an ``AIMessage``: returned as it is.
    * an exception instance: raised, e.g. to simulate a rate limit.

    Each reply carries ``usage_metadata`` of about one token per four characters, so token
    accounting can be tested. Every call is kept in ``calls``; a call beyond the end of the
    script raises ``ScriptExhaustedError``.

    Example:
        ```python
        from pydantic import BaseModel
        from browser_agent.testing import ScriptedChatModel

        class Answer(BaseModel):
            city: str

        model = ScriptedChatModel(replies=[{"city": "Paris"}, "plain text"])
        assert model.with_structured_output(Answer).invoke("Capital of France?") == Answer(city="Paris")
        assert model.invoke("hello").content == "plain text"
        assert model.calls[0].tool_names == ["Answer"]

        echo = ScriptedChatModel(policy=lambda messages: f"you said {messages[-1].content}")
        ```

    Attributes:
        replies: The script, answered in order.
        policy: Instead of a script, ``policy(messages) -> reply`` decides each reply.
        supports_tools: When False, ``bind_tools`` raises ``NotImplementedError`` like a model
            without tool calling.
        keep_calls: Keep only the last N calls in ``calls`` (long runs, memory benchmarks); all by
            default.
        latency_s: Seconds each call waits before answering, as a remote provider would (the async
            path sleeps without blocking the event loop, so concurrent agents overlap their waits).
    """

    replies: list[Any] = Field(default_factory=list)
    policy: Callable[[list[BaseMessage]], Any] | None = None
    supports_tools: bool = True
    keep_calls: int | None = None
    latency_s: float = Field(default=0.0, ge=0)

    _calls: list[ScriptedCall] = PrivateAttr(default_factory=list)
    _count: int = PrivateAttr(default=0)

    def model_post_init(self, context: Any, /) -> None:
        """Reject a model given both a script and a policy: only one of them can answer."""
        super().model_post_init(context)
        if self.policy is not None and self.replies:
            raise ValueError("ScriptedChatModel takes either replies=[...] or policy=fn, not both.")

    @property
    def calls(self) -> list[ScriptedCall]:
        """Every call received so far, oldest first."""
        return self._calls

    @property
    def _llm_type(self) -> str:
        return "scripted-chat-model"

    def bind_tools(
        self,
        tools: Sequence[dict[str, Any] | type | Callable[..., Any] | BaseTool],
        *,
        tool_choice: Any = None,
        **kwargs: Any,
    ) -> Runnable[LanguageModelInput, AIMessage]:
        """Return a copy of this model with ``tools`` bound; calls through it record the tools.

        Raises:
            NotImplementedError: ``supports_tools`` is False.
        """
        if not self.supports_tools:
            raise NotImplementedError("This ScriptedChatModel was built with supports_tools=False.")
        formatted = [convert_to_openai_tool(tool) for tool in tools]
        return self.bind(tools=formatted, tool_choice=tool_choice, **kwargs)

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        if self.latency_s:
            time.sleep(self.latency_s)
        return self._answer(messages, kwargs)

    async def _agenerate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: AsyncCallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        if self.latency_s:
            await asyncio.sleep(self.latency_s)
        return self._answer(messages, kwargs)

    def _answer(self, messages: list[BaseMessage], kwargs: dict[str, Any]) -> ChatResult:
        tools: list[dict[str, Any]] = list(kwargs.pop("tools", None) or [])
        tool_choice = kwargs.pop("tool_choice", None)
        kwargs.pop("ls_structured_output_format", None)
        self._count += 1
        self._calls.append(ScriptedCall(list(messages), tools, tool_choice, kwargs))
        if self.keep_calls is not None and len(self._calls) > self.keep_calls:
            del self._calls[: len(self._calls) - self.keep_calls]
        reply = self._next_reply(messages)
        if isinstance(reply, BaseException):
            raise reply
        message = self._to_message(reply, tools, tool_choice)
        if isinstance(reply, AIMessage):
            return ChatResult(generations=[ChatGeneration(message=message)])
        # Real providers count the tool schemas as prompt tokens too.
        usage_in = _approx_tokens(_messages_chars(messages) + (len(json.dumps(tools)) if tools else 0))
        usage_out = _approx_tokens(_messages_chars([message]))
        message.usage_metadata = {
            "input_tokens": usage_in,
            "output_tokens": usage_out,
            "total_tokens": usage_in + usage_out,
        }
        return ChatResult(generations=[ChatGeneration(message=message)])

    def _next_reply(self, messages: list[BaseMessage]) -> Any:
        if self.policy is not None:
            return self.policy(list(messages))
        index = self._count - 1
        if index >= len(self.replies):
            last = _message_text(messages[-1])[:200] if messages else ""
            raise ScriptExhaustedError(
                f"ScriptedChatModel ran out of replies: its script had {len(self.replies)} and this is "
                f"call {index + 1}. Add replies to the script (or use a policy). Last message: {last!r}"
            )
        return self.replies[index]

    def _to_message(self, reply: Any, tools: list[dict[str, Any]], tool_choice: Any) -> AIMessage:
        if isinstance(reply, AIMessage):
            return reply
        if isinstance(reply, str):
            return AIMessage(content=reply)
        if isinstance(reply, dict):
            if not tools:
                return AIMessage(content=json.dumps(reply))
            name, args = _pick_tool(reply, [t["function"]["name"] for t in tools], tool_choice)
            call_id = f"call_{self._count}"
            return AIMessage(content="", tool_calls=[{"name": name, "args": args, "id": call_id}])
        raise TypeError(
            f"ScriptedChatModel cannot answer with a {type(reply).__name__} ({reply!r}); "
            "give a dict, a str, an AIMessage or an exception instance."
        )


def _pick_tool(reply: dict[str, Any], names: list[str], tool_choice: Any) -> tuple[str, dict[str, Any]]:
    """Which bound tool a dict reply calls, and with which arguments."""
    if set(reply) == {"name", "args"} and reply["name"] in names and isinstance(reply["args"], dict):
        return reply["name"], reply["args"]
    chosen = _chosen_name(tool_choice)
    if chosen in names:
        return chosen, reply
    if len(names) == 1:
        return names[0], reply
    raise ValueError(
        f"ScriptedChatModel has several tools bound ({', '.join(names)}) and the reply {reply!r} does "
        'not pick one; reply with {"name": <tool>, "args": {...}}.'
    )


def _chosen_name(tool_choice: Any) -> str | None:
    if isinstance(tool_choice, str) and tool_choice not in _GENERIC_CHOICES:
        return tool_choice
    if isinstance(tool_choice, dict):
        function = tool_choice.get("function")
        name = function.get("name") if isinstance(function, dict) else tool_choice.get("name")
        return name if isinstance(name, str) else None
    return None


def _message_text(message: BaseMessage) -> str:
    content = message.content
    if isinstance(content, str):
        return content
    parts = [p if isinstance(p, str) else str(p.get("text", "")) for p in content]
    return "".join(parts)


def _messages_chars(messages: Sequence[BaseMessage]) -> int:
    total = 0
    for message in messages:
        total += len(_message_text(message))
        if isinstance(message, AIMessage) and message.tool_calls:
            total += len(json.dumps([c["args"] for c in message.tool_calls]))
    return total


def _approx_tokens(chars: int) -> int:
    return (chars + 3) // 4


class PageServer:
    """Serves a few HTML pages from memory on 127.0.0.1, on a free port, while in its ``with`` block.

    Example:
        ```python
        with PageServer({"/": "<h1>Home</h1>", "/shop.html": SHOP}) as site:
            url = site.url("/shop.html")  # http://127.0.0.1:PORT/shop.html
        ```

    A path is answered whatever its query string (so a form sent with GET lands on its page); any
    other path answers 404.

    Attributes:
        requested: Every path asked for, in order (with its query string).
    """

    def __init__(self, pages: Mapping[str, str]) -> None:
        self.pages = dict(pages)
        self.requested: list[str] = []
        self._server: ThreadingHTTPServer | None = None

    def __enter__(self) -> Self:
        server = ThreadingHTTPServer(("127.0.0.1", 0), _page_handler(self))
        server.daemon_threads = True
        threading.Thread(target=server.serve_forever, name="PageServer", daemon=True).start()
        self._server = server
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        server, self._server = self._server, None
        if server is not None:
            server.shutdown()
            server.server_close()

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:PORT`` (only inside the ``with`` block)."""
        if self._server is None:
            raise RuntimeError("PageServer serves only inside its `with` block.")
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def url(self, path: str = "/") -> str:
        return self.base_url + (path if path.startswith("/") else "/" + path)


def _page_handler(site: PageServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            site.requested.append(self.path)
            page = site.pages.get(urlsplit(self.path).path)
            body = (page if page is not None else "<h1>Not found</h1>").encode()
            self.send_response(200 if page is not None else 404)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: object) -> None:  # quiet: tests and examples print
            return

    return Handler
