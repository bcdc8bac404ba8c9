"""A folder served read-only on 127.0.0.1: MiniWoB++'s task pages, or the site of a suite (``--site``)."""

from __future__ import annotations

import functools
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import TracebackType
from typing import Any, Self

from browser_agent.errors import UserError

__all__ = ["StaticSite"]


class _QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:  # the evaluation's output is its progress
        return

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-store")  # every episode loads the page as it is now
        super().end_headers()


class StaticSite:
    """Serves ``folder`` on a free port of 127.0.0.1 while inside ``with``; ``origin`` is its address."""

    def __init__(self, folder: Path) -> None:
        if not folder.is_dir():
            raise UserError(f"{folder} is not a folder; give the folder of the site's pages.")
        self.folder = folder
        self._server: ThreadingHTTPServer | None = None

    def __enter__(self) -> Self:
        handler = functools.partial(_QuietHandler, directory=str(self.folder))
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
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
