"""A local static server for test pages, bound to 127.0.0.1 on a random port.

Besides the files under its root it answers a few special paths that tests need:
``/__slow?ms=N`` (a response that takes N ms, capped at 10 s), ``/__delay/N/PATH`` (the file at PATH,
sent after N ms), ``/__download/NAME`` (a file sent as an attachment), ``/__status/CODE``.
"""

from __future__ import annotations

import contextlib
import socket
import sys
import threading
import time
from collections.abc import Callable
from functools import partial
from http.server import BaseHTTPRequestHandler, SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Self
from urllib.parse import parse_qs, urlsplit


class _Handler(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        return

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-store")
        super().end_headers()

    def do_GET(self) -> None:
        parts = urlsplit(self.path)
        if parts.path == "/__slow":
            ms = min(int(parse_qs(parts.query).get("ms", ["1000"])[0]), 10_000)
            time.sleep(ms / 1000)
            self._send(200, "image/gif", b"GIF89a")
        elif parts.path.startswith("/__delay/"):
            ms, _, rest = parts.path.removeprefix("/__delay/").partition("/")
            time.sleep(min(int(ms), 10_000) / 1000)
            self.path = "/" + rest + (f"?{parts.query}" if parts.query else "")
            super().do_GET()
        elif parts.path.startswith("/__download/"):
            name = parts.path.rsplit("/", 1)[-1]
            body = f"content of {name}\n".encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/octet-stream")
            self.send_header("Content-Disposition", f'attachment; filename="{name}"')
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        elif parts.path.startswith("/__status/"):
            code = int(parts.path.rsplit("/", 1)[-1])
            self._send(code, "text/html", f"<h1>status {code}</h1>".encode())
        else:
            super().do_GET()

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length", "0"))
        body = self.rfile.read(length).decode(errors="replace")
        self._send(200, "text/html", f"<html><body><pre id='posted'>{body}</pre></body></html>".encode())

    def _send(self, code: int, ctype: str, body: bytes) -> None:
        self.send_response(code)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


class _QuietServer(ThreadingHTTPServer):
    """A threading server that says nothing when the browser drops a request (a navigation away, a page
    closed): its handler thread printed a traceback to the test process's stderr, which a test reading
    stderr then saw as its own."""

    daemon_threads = True

    def handle_error(self, request: object, client_address: object) -> None:
        if isinstance(sys.exc_info()[1], ConnectionError):
            return
        super().handle_error(request, client_address)  # type: ignore[arg-type]


class LoopbackServer:
    """Run ``handler`` on a loopback address (127.0.0.1 unless ``host`` says another of 127/8; a random
    port) in a background thread while entered."""

    def __init__(self, handler: Callable[..., BaseHTTPRequestHandler], host: str = "127.0.0.1") -> None:
        self._httpd = _QuietServer((host, 0), handler)
        self.host = host
        self.port = self._httpd.server_address[1]
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)

    def __enter__(self) -> Self:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        # ``shutdown`` waits for the serving loop to look again, up to half a second; a connection (an
        # empty request: no handler method runs) makes it look at once. Four workers ending their
        # session together waited for it with nothing else to do (1-2 s at the end of a run).
        stopping = threading.Thread(target=self._httpd.shutdown)
        stopping.start()
        while stopping.is_alive():
            with contextlib.suppress(OSError):
                socket.create_connection((self.host, self.port), timeout=0.2).close()
            stopping.join(0.02)
        self._httpd.server_close()

    @property
    def origin(self) -> str:
        return f"http://{self.host}:{self.port}"

    def url(self, path: str = "/") -> str:
        return self.origin + "/" + path.lstrip("/")


class LocalServer(LoopbackServer):
    """Serve ``root`` (test pages) on 127.0.0.1; ``url(path)`` builds addresses."""

    def __init__(self, root: Path) -> None:
        super().__init__(partial(_Handler, directory=str(root)))
