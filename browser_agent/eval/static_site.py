"""A folder served read-only on 127.0.0.1: MiniWoB++'s task pages, or the site of a suite (``--site``)."""

from __future__ import annotations

import functools
import os
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import TracebackType
from typing import Any, Self

from browser_agent.errors import UserError

__all__ = ["StaticSite"]


_TEXT_TYPES = ("text/", "application/javascript", "application/json", "image/svg+xml")


@functools.lru_cache(maxsize=512)
def _is_utf8(path: str, mtime_ns: int) -> bool:
    """Whether the file's bytes are UTF-8; read once per version of the file (``mtime_ns``), not on every
    request of an evaluation that loads the same task page hundreds of times."""
    try:
        Path(path).read_bytes().decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return False
    return True


class _QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:  # the evaluation's output is its progress
        return

    def guess_type(self, path: str | os.PathLike[str]) -> str:
        """The file's type, with ``charset=utf-8`` for a text file whose bytes are UTF-8.

        MiniWoB++'s pages and some saved real pages declare no charset; served without one, Chromium
        read them as windows-1252, and the agent saw "ãƒ˜ãƒ«ãƒ—" where the page says "ヘルプ" (and
        "â€™" for every curly quote of a saved article).
        """
        kind = super().guess_type(path)
        if not kind.startswith(_TEXT_TYPES) or "charset" in kind:
            return kind
        try:
            utf8 = _is_utf8(str(path), os.stat(path).st_mtime_ns)
        except OSError:
            return kind
        return f"{kind}; charset=utf-8" if utf8 else kind

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-store")  # every episode loads the page as it is now
        super().end_headers()


class StaticSite:
    """Serves ``folder`` on 127.0.0.1 while inside ``with``; ``origin`` is its address.

    ``port``: 0 (a free one) by default. The model reads the pages' URLs, port and all, and a small model
    at temperature 0 answered the same task differently on two ports: two runs meant to be compared
    (an A/B) should be served on the same one.
    """

    def __init__(self, folder: Path, *, port: int = 0) -> None:
        if not folder.is_dir():
            raise UserError(f"{folder} is not a folder; give the folder of the site's pages.")
        if not 0 <= port <= 65535:
            raise UserError(f"--port {port}: give a port from 1 to 65535 (or 0 for a free one).")
        self.folder = folder
        self.port = port
        self._server: ThreadingHTTPServer | None = None

    def __enter__(self) -> Self:
        handler = functools.partial(_QuietHandler, directory=str(self.folder))
        try:
            self._server = ThreadingHTTPServer(("127.0.0.1", self.port), handler)
        except OSError as exc:
            why = exc.strerror or type(exc).__name__
            raise UserError(f"Port {self.port} of 127.0.0.1 cannot be used ({why}); give another.") from exc
        self._server.daemon_threads = True
        threading.Thread(target=self._server.serve_forever, name="eval static site", daemon=True).start()
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    @property
    def origin(self) -> str:
        """``http://127.0.0.1:PORT`` (only while the site is served)."""
        if self._server is None:
            raise UserError("The site is served only inside `with StaticSite(folder) as site:`.")
        return f"http://127.0.0.1:{self._server.server_address[1]}"
