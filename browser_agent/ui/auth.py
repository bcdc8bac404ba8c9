"""Who may talk to the UI server: a random token on every request and WebSocket, and same-origin only.

The server binds 127.0.0.1, but any web page the user opens could still send requests there (a form
post, an image, a WebSocket: browsers let pages reach loopback addresses). So every request must carry
the token printed at start (``?token=`` or the ``X-Token`` header), its ``Host`` must be the server's
own loopback address (a DNS-rebound name is refused), and an ``Origin``, when sent, must be the UI's own
(a WebSocket must send one). The token is compared in constant time; responses say nothing to keep.
"""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any
from urllib.parse import parse_qs

__all__ = ["TOKEN_HEADER", "TokenGuard", "new_token"]

TOKEN_HEADER = "x-token"
Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]
App = Callable[[Scope, Receive, Send], Awaitable[None]]

# Said to every response: no page of the UI is framed (take-over clicks cannot be hijacked), no address
# with the token goes out as a Referer, nothing is cached.
_HEADERS = [
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
    (b"content-security-policy", b"frame-ancestors 'none'"),
    (b"x-content-type-options", b"nosniff"),
    (b"cache-control", b"no-store"),
]


def new_token() -> str:
    """A fresh token: 32 random bytes, URL-safe."""
    return secrets.token_urlsafe(32)


class TokenGuard:
    """ASGI middleware: refuses (403) any request or WebSocket without the token, from another origin,
    or addressed to another host; adds the safety headers to every response."""

    def __init__(self, app: App, token: str, port: Callable[[], int]) -> None:
        self.app = app
        self._token = token.encode()
        self._port = port  # known once the server has bound its socket

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        reason = self.refusal(scope)
        if reason is not None:
            await _refuse(scope, receive, send, reason)
            return
        await self.app(scope, receive, send if scope["type"] == "websocket" else _with_headers(send))

    def refusal(self, scope: Scope) -> str | None:
        """Why ``scope`` is refused, or None when it may pass."""
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        hosts = {f"127.0.0.1:{self._port()}", f"localhost:{self._port()}"}
        if headers.get("host") not in hosts:
            return "unknown host"
        origin = headers.get("origin")
        if origin is not None and origin not in {f"http://{h}" for h in hosts}:
            return "cross-origin request"
        if scope["type"] == "websocket" and origin is None:
            return "a WebSocket without an Origin"
        given = headers.get(TOKEN_HEADER) or _query_token(scope)
        if not given or not hmac.compare_digest(given.encode(), self._token):
            return "missing or wrong token"
        return None


def _query_token(scope: Scope) -> str:
    query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
    found: list[str] = query.get("token") or [""]
    return found[0]


def _with_headers(send: Send) -> Send:
    async def sending(message: MutableMapping[str, Any]) -> None:
        if message["type"] == "http.response.start":
            message["headers"] = [*message.get("headers", []), *_HEADERS]
        await send(message)

    return sending


async def _refuse(scope: Scope, receive: Receive, send: Send, reason: str) -> None:
    body = f"Forbidden: {reason}. Open the address the server printed at start (with its token).".encode()
    if scope["type"] == "websocket":
        await receive()  # the connect message; closing before accepting answers 403
        await send({"type": "websocket.close", "code": 1008})
        return
    await send(
        {
            "type": "http.response.start",
            "status": 403,
            "headers": [(b"content-type", b"text/plain; charset=utf-8"), *_HEADERS],
        }
    )
    await send({"type": "http.response.body", "body": body})
