"""A forward proxy on 127.0.0.1 that every request of a fenced browser context must pass.

Playwright's routing and a per-tab DevTools guard see what a tab asks for; the browser also makes
requests they never see (workers, other renderer processes, speculative loads, beacons sent while a
page unloads). A proxy set on the context sees all of them, and it judges the address the browser
actually connects to, after the browser itself resolved the URL.

What it refuses:

* a plain HTTP request (absolute URL) for a *document* off the list: a navigation is answered
  ``204 No Content``, which the browser takes as "stay where you are", so the tab or frame keeps its
  page; other refused requests get ``403``;
* with ``subresources``, every request off the list, and every ``CONNECT`` tunnel (HTTPS, WebSockets)
  to a host and port off the list.

Without ``subresources`` a tunnel is allowed anywhere, since nothing in it tells a document from an
image: HTTPS documents are kept on the list by the context route and the tab guards (``fence.py``).

Each client connection carries one request (the response is sent with ``Connection: close``), so a
kept-alive connection can never carry a second request past the check. A refusal is reported through
``on_refuse(url, document)``.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import urlsplit

__all__ = ["UNREACHABLE_HEADER", "FenceProxy", "ProxyRequest"]

# On the proxy's own "cannot reach the server" reply: the connection was refused or timed out, as a browser
# without the fence would have said with an error instead of a page.
UNREACHABLE_HEADER = "X-Browser-Agent-Unreachable"

logger = logging.getLogger("browser_agent")

_HEAD_LIMIT = 64 * 1024
_HEAD_TIMEOUT_S = 30.0
_CONNECT_TIMEOUT_S = 15.0
_CHUNK = 64 * 1024
_HOP_HEADERS = frozenset({"connection", "proxy-connection", "keep-alive", "proxy-authorization"})
_DOCUMENT_DESTS = frozenset({"document", "iframe", "frame", "embed", "object"})


@dataclass(frozen=True, slots=True)
class ProxyRequest:
    """What the proxy was asked: ``url`` (``https://host:port`` for a tunnel) and whether it is a document."""

    url: str
    document: bool
    tunnel: bool


Judge = Callable[[ProxyRequest], bool]


class FenceProxy:
    """Serve as the HTTP proxy of one browser context; ``allows`` decides each request.

    Args:
        allows: ``True`` when a request may go on.
        on_refuse: Told of every refused request.
        loopback_only: Connect only to loopback addresses (``BrowserConfig.block_external_network``).
    """

    def __init__(
        self, allows: Judge, on_refuse: Callable[[ProxyRequest], None], *, loopback_only: bool = False
    ) -> None:
        self._allows = allows
        self._on_refuse = on_refuse
        self._loopback_only = loopback_only
        self._server: asyncio.Server | None = None
        self._writers: set[asyncio.StreamWriter] = set()

    async def start(self) -> str:
        """Listen on a free port of 127.0.0.1; return the proxy's address for the browser."""
        if self._server is None:
            self._server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        port = self._server.sockets[0].getsockname()[1]
        return f"http://127.0.0.1:{port}"

    async def close(self) -> None:
        server, self._server = self._server, None
        if server is None:
            return
        server.close()
        for writer in list(self._writers):
            writer.close()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(server.wait_closed(), 2)

    # -- one client connection -------------------------------------------------------------------

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self._writers.add(writer)
        try:
            head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), _HEAD_TIMEOUT_S)
            if len(head) > _HEAD_LIMIT:
                return
            await self._handle(head, reader, writer)
        except (asyncio.IncompleteReadError, asyncio.LimitOverrunError, TimeoutError, ConnectionError):
            return
        except Exception:  # one bad connection must never stop the proxy
            logger.debug("fence proxy: a connection failed", exc_info=True)
        finally:
            self._writers.discard(writer)
            writer.close()

    async def _handle(self, head: bytes, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        request_line, _, rest = head.decode("latin-1").partition("\r\n")
        method, _, remainder = request_line.partition(" ")
        target, _, version = remainder.partition(" ")
        headers = _parse_headers(rest)
        if method.upper() == "CONNECT":
            await self._tunnel(target, reader, writer)
        else:
            await self._forward(method, target, version, headers, reader, writer)

    async def _tunnel(self, target: str, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        host, port = _split_authority(target, 443)
        request = ProxyRequest(f"https://{_bracket(host)}:{port}", document=False, tunnel=True)
        if not host or not self._allows(request) or not self._reachable(host):
            self._on_refuse(request)
            await _reply(writer, "403 Forbidden", b"outside the allowed domains")
            return
        upstream = await self._open(host, port, writer)
        if upstream is None:
            return
        writer.write(b"HTTP/1.1 200 Connection Established\r\n\r\n")
        await _pipe_both(reader, writer, *upstream)

    async def _forward(
        self,
        method: str,
        target: str,
        version: str,
        headers: list[tuple[str, str]],
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
    ) -> None:
        parts = urlsplit(target)
        if parts.scheme.lower() not in ("http", "ws") or not parts.hostname:
            await _reply(writer, "400 Bad Request", b"this proxy takes absolute http URLs")
            return
        document = _is_document(headers)
        request = ProxyRequest(target, document=document, tunnel=False)
        host = parts.hostname
        if not self._allows(request) or not self._reachable(host):
            self._on_refuse(request)
            # A navigation answered 204 is not committed: the tab or frame keeps the page it had.
            status = "204 No Content" if _is_navigation(headers) else "403 Forbidden"
            await _reply(writer, status, b"" if status.startswith("204") else b"outside the allowed domains")
            return
        port = parts.port or 80
        upstream = await self._open(host, port, writer)
        if upstream is None:
            return
        up_reader, up_writer = upstream
        path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        upgrade = any(name.lower() == "upgrade" for name, _ in headers)
        up_writer.write(_request_head(method, path, version, headers, upgrade))
        await _pipe_response(reader, writer, up_reader, up_writer, keep_upgrade=upgrade)

    def _reachable(self, host: str) -> bool:
        if not self._loopback_only:
            return True
        if host.lower() == "localhost":
            return True
        try:
            return ipaddress.ip_address(host.strip("[]")).is_loopback
        except ValueError:
            return False

    async def _open(
        self, host: str, port: int, writer: asyncio.StreamWriter
    ) -> tuple[asyncio.StreamReader, asyncio.StreamWriter] | None:
        try:
            return await asyncio.wait_for(asyncio.open_connection(host.strip("[]"), port), _CONNECT_TIMEOUT_S)
        except (OSError, TimeoutError):
            await _reply(writer, "502 Bad Gateway", b"cannot reach the server", unreachable=True)
            return None


def _parse_headers(block: str) -> list[tuple[str, str]]:
    headers = []
    for line in block.split("\r\n"):
        name, sep, value = line.partition(":")
        if sep and name.strip():
            headers.append((name.strip(), value.strip()))
    return headers


def _header(headers: list[tuple[str, str]], name: str) -> str:
    return next((v for k, v in headers if k.lower() == name), "")


def _is_navigation(headers: list[tuple[str, str]]) -> bool:
    mode = _header(headers, "sec-fetch-mode").lower()
    if mode:
        return mode == "navigate"
    # No Fetch Metadata (plain http to a non-local host): a navigation asks for HTML and for https.
    return "text/html" in _header(headers, "accept") and _header(headers, "upgrade-insecure-requests") == "1"


def _is_document(headers: list[tuple[str, str]]) -> bool:
    dest = _header(headers, "sec-fetch-dest").lower()
    return (
        _is_navigation(headers)
        or dest in _DOCUMENT_DESTS
        or (not dest and "text/html" in _header(headers, "accept"))
    )


def _split_authority(authority: str, default_port: int) -> tuple[str, int]:
    if authority.startswith("["):
        host, _, rest = authority[1:].partition("]")
        port_text = rest.removeprefix(":")
    else:
        host, _, port_text = authority.rpartition(":") if ":" in authority else (authority, "", "")
    try:
        port = int(port_text) if port_text else default_port
    except ValueError:
        return "", 0
    return host.lower(), port


def _bracket(host: str) -> str:
    return f"[{host}]" if ":" in host else host


def _request_head(
    method: str, path: str, version: str, headers: list[tuple[str, str]], upgrade: bool
) -> bytes:
    lines = [f"{method} {path} {version or 'HTTP/1.1'}"]
    lines += [f"{k}: {v}" for k, v in headers if k.lower() not in _HOP_HEADERS]
    lines.append("Connection: Upgrade" if upgrade else "Connection: close")
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")


async def _reply(
    writer: asyncio.StreamWriter, status: str, body: bytes, *, unreachable: bool = False
) -> None:
    mark = f"{UNREACHABLE_HEADER}: 1\r\n" if unreachable else ""
    head = (
        f"HTTP/1.1 {status}\r\nContent-Type: text/plain\r\nContent-Length: {len(body)}\r\n"
        f"Cache-Control: no-store\r\n{mark}Connection: close\r\n\r\n"
    )
    writer.write(head.encode("latin-1") + body)
    with contextlib.suppress(ConnectionError):
        await writer.drain()


async def _pipe_response(
    reader: asyncio.StreamReader,
    writer: asyncio.StreamWriter,
    up_reader: asyncio.StreamReader,
    up_writer: asyncio.StreamWriter,
    *,
    keep_upgrade: bool,
) -> None:
    """Send the request's body on, and the response back with ``Connection: close`` (unless upgraded)."""
    sending = asyncio.ensure_future(_copy(reader, up_writer))
    try:
        head = await asyncio.wait_for(up_reader.readuntil(b"\r\n\r\n"), _HEAD_TIMEOUT_S)
        status_line, _, rest = head.decode("latin-1").partition("\r\n")
        switching = " 101 " in f"{status_line} "
        if not (switching and keep_upgrade):
            kept = [(k, v) for k, v in _parse_headers(rest) if k.lower() not in _HOP_HEADERS]
            lines = [status_line, *(f"{k}: {v}" for k, v in kept), "Connection: close"]
            head = ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")
        writer.write(head)
        await _copy(up_reader, writer)
    finally:
        sending.cancel()
        up_writer.close()


async def _pipe_both(
    reader: asyncio.StreamReader,
    writer: asyncio.StreamWriter,
    up_reader: asyncio.StreamReader,
    up_writer: asyncio.StreamWriter,
) -> None:
    there = asyncio.ensure_future(_copy(reader, up_writer))
    back = asyncio.ensure_future(_copy(up_reader, writer))
    try:
        await asyncio.wait({there, back}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        there.cancel()
        back.cancel()
        up_writer.close()


async def _copy(source: asyncio.StreamReader, target: asyncio.StreamWriter) -> None:
    with contextlib.suppress(ConnectionError, asyncio.IncompleteReadError):
        while data := await source.read(_CHUNK):
            target.write(data)
            await target.drain()
        if target.can_write_eof():
            with contextlib.suppress(OSError):
                target.write_eof()
