"""``McpBrowserServer``: ``BrowserTools`` served with the official MCP SDK, over stdio or streamable HTTP.

Which browser context a call uses is decided by who calls. Over stdio the process serves one client,
so there is one context. Over HTTP each MCP session (its ``Mcp-Session-Id``) gets its own context,
closed when the client ends the session or leaves it idle for ``idle_timeout_s``. The 2026-07-28
protocol has no sessions, so over HTTP the server advertises only the session-based versions (clients
then fall back to them) and answers a session-less tool call with a tool error that says so.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import sys
from collections.abc import AsyncIterator, MutableMapping
from importlib.metadata import PackageNotFoundError, version
from typing import Any

import mcp_types as types
import uvicorn
from mcp.server import Server, ServerRequestContext
from mcp.server.stdio import stdio_server
from mcp.shared.exceptions import MCPError
from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS
from playwright.async_api import Browser
from starlette.types import ASGIApp, Receive, Scope, Send

from browser_agent import artifacts
from browser_agent.controller import Controller
from browser_agent.errors import BrowserAgentError, UserError
from browser_agent.mcp.config import McpServerConfig
from browser_agent.mcp.sessions import SessionPool
from browser_agent.mcp.tools import PAGE_STATE, BrowserTools, ToolOutcome, ToolSpec

__all__ = ["SERVER_NAME", "McpBrowserServer"]

SERVER_NAME = "browser-agent"
_STDIO_CLIENT = "stdio"
_SESSION_HEADER = "mcp-session-id"
_INSTRUCTIONS = (
    "Drives a real Chromium. Call page_state to see the page: its interactive elements carry [index] "
    "numbers that the actions take. Every action returns its result and the page view after it ran."
)
_NO_SESSION = (
    "This server keeps one browser per MCP session, and this request belongs to none (the 2026-07-28 "
    "protocol has no sessions). Connect with a session-based protocol version (2025-11-25 or earlier)."
)


def _package_version() -> str:
    try:
        return version("browser-agent")
    except PackageNotFoundError:  # running from a source tree that was never installed
        return "0"


def _as_tool(spec: ToolSpec) -> types.Tool:
    annotations = types.ToolAnnotations(read_only_hint=True) if spec.read_only else None
    return types.Tool(
        name=spec.name, description=spec.description, input_schema=spec.input_schema, annotations=annotations
    )


def _as_result(outcome: ToolOutcome) -> types.CallToolResult:
    """The one place a tool's answer leaves: its text passes the gate (the picture was masked when taken)."""
    content: list[types.ContentBlock] = [types.TextContent(text=artifacts.redacted(outcome.text))]
    if outcome.image_b64 is not None:
        content.append(types.ImageContent(data=outcome.image_b64, mime_type="image/jpeg"))
    return types.CallToolResult(content=content, is_error=outcome.is_error)


class McpBrowserServer:
    """An MCP server whose tools are ``controller``'s actions plus ``page_state``.

    Args:
        controller: The actions to offer (built-ins and your own).
        config: Browser, domain fence, secrets and limits.
        browser: A running browser to open the clients' contexts in (left running); else one is started
            on the first tool call as ``config.browser`` says.

    Raises:
        UserError: the controller has an action named ``page_state``.
    """

    def __init__(
        self, controller: Controller, config: McpServerConfig | None = None, *, browser: Browser | None = None
    ) -> None:
        self.config = config or McpServerConfig()
        self.tools = BrowserTools(controller, self.config)
        self.pool = SessionPool(self.config.browser, browser=browser)

    def build(self, *, sessions: bool = False) -> Server[dict[str, Any]]:
        """The SDK server; with ``sessions`` (HTTP), one context per MCP session and only session versions."""
        server: Server[dict[str, Any]] = Server(
            SERVER_NAME,
            version=_package_version(),
            instructions=_INSTRUCTIONS,
            lifespan=lambda _server: self._lifespan(close_idle=sessions),
            on_list_tools=self._list_tools,
            on_call_tool=self._call_tool,
        )
        if sessions:

            async def discover(
                ctx: ServerRequestContext[Any], params: types.RequestParams
            ) -> types.DiscoverResult:
                return types.DiscoverResult(
                    supported_versions=list(HANDSHAKE_PROTOCOL_VERSIONS),
                    capabilities=server.get_capabilities(),
                )

            server.add_request_handler("server/discover", types.RequestParams, discover)
        return server

    async def serve_stdio(self) -> None:
        """Serve one client on standard input and output until it closes them."""
        server = self.build()
        async with stdio_server() as (read_stream, write_stream):
            await server.run(read_stream, write_stream, server.create_initialization_options())

    def http_app(self, host: str = "127.0.0.1") -> ASGIApp:
        """The streamable HTTP app at ``/mcp``: one browser context per MCP session."""
        app = self.build(sessions=True).streamable_http_app(
            host=host, max_sessions=self.config.max_sessions, session_idle_timeout=self.config.idle_timeout_s
        )
        return _ClosesContextOnSessionEnd(app, self.pool)

    async def serve_http(self, host: str = "127.0.0.1", port: int = 8931) -> None:
        """Serve clients over streamable HTTP at ``http://HOST:PORT/mcp`` (port 0: any free port).

        The address is printed on standard error once the port is bound.

        Raises:
            UserError: the address cannot be used.
        """
        sock = _listening_socket(host, port)
        shown = f"[{host}]" if sock.family == socket.AF_INET6 else host
        print(
            f"browser-agent mcp: serving on http://{shown}:{sock.getsockname()[1]}/mcp",
            file=sys.stderr,
            flush=True,
        )
        config = uvicorn.Config(self.http_app(host), log_level="warning", lifespan="on")
        await uvicorn.Server(config).serve(sockets=[sock])

    @contextlib.asynccontextmanager
    async def _lifespan(self, *, close_idle: bool) -> AsyncIterator[dict[str, Any]]:
        """Close idle contexts while serving (HTTP); close every context and the browser at the end."""
        reaper = asyncio.create_task(self._close_idle_forever()) if close_idle else None
        try:
            yield {}
        finally:
            if reaper is not None:
                reaper.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await reaper
            await self.pool.aclose()

    async def _close_idle_forever(self) -> None:
        idle = self.config.idle_timeout_s
        while True:
            await asyncio.sleep(min(60.0, idle / 2))
            await self.pool.close_idle(idle)

    async def _list_tools(
        self, ctx: ServerRequestContext[Any], params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        return types.ListToolsResult(tools=[_as_tool(s) for s in self.tools.specs()])

    async def _call_tool(
        self, ctx: ServerRequestContext[Any], params: types.CallToolRequestParams
    ) -> types.CallToolResult:
        if params.name not in self.tools:
            names = ", ".join(s.name for s in self.tools.specs())
            raise MCPError(
                code=types.INVALID_PARAMS, message=f"Unknown tool {params.name!r}; tools: {names}."
            )
        key = _client_key(ctx)
        if key is None:
            return _as_result(ToolOutcome(_NO_SESSION, is_error=True))
        try:
            client = await self.pool.acquire(key)
        except BrowserAgentError as exc:  # no Chromium, or the remote browser is unreachable
            text = f"The browser could not be started: {exc} Call {PAGE_STATE} again once it is fixed."
            return _as_result(ToolOutcome(text, is_error=True))
        try:
            return _as_result(await self.tools.call(params.name, params.arguments, client))
        finally:
            self.pool.touch(client)


def _listening_socket(host: str, port: int) -> socket.socket:
    """A socket listening on ``host:port``.

    Raises:
        UserError: the address cannot be used (taken, or not an address of this machine).
    """
    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(128)
    except OSError as exc:
        sock.close()
        raise UserError(
            f"Cannot listen on {host}:{port} ({exc.strerror}); pick another --host or --port"
        ) from exc
    return sock


def _client_key(ctx: ServerRequestContext[Any]) -> str | None:
    """Who is calling: the one stdio client, or the HTTP request's MCP session (None without one)."""
    request = ctx.request
    if request is None:  # stdio, or an in-process client: this process serves one client
        return _STDIO_CLIENT
    session_id = request.headers.get(_SESSION_HEADER)
    return str(session_id) if session_id else None


class _ClosesContextOnSessionEnd:
    """ASGI wrapper: when a client ends its MCP session (HTTP DELETE), close that session's context."""

    def __init__(self, app: ASGIApp, pool: SessionPool) -> None:
        self.app = app
        self.pool = pool

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope.get("method") != "DELETE":
            await self.app(scope, receive, send)
            return
        status = 0

        async def watch(message: MutableMapping[str, Any]) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = int(message["status"])
            await send(message)

        await self.app(scope, receive, watch)
        key = dict(scope.get("headers", [])).get(_SESSION_HEADER.encode("latin-1"))
        if key and status < 400:  # the SDK ended that session (an unknown one answers 404)
            await self.pool.close(key.decode("latin-1"))
