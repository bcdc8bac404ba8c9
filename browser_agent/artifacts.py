"""The one gate for everything the project writes: files, JSON Lines, UI messages, log records.

Every secret the process has been given is redacted from whatever passes here, whoever wrote it: a run's
``sensitive_data``, a command's ``--secrets``, a UI server's secrets, a batch's or an evaluation's tasks,
an MCP server's, a replay's or a workflow's. They are remembered process-wide (``remember``) by the code
that receives them, so that a new writer cannot forget a run's secrets: it has none of its own to pass.
A test scans the package for file writes outside this module (``tests/unit/test_writers.py``). Streams
a person reads (the console, a command's standard output and error) go through ``redacting_stream``;
messages sent elsewhere (the UI's events and answers, MCP results) through ``redacted`` or
``redacted_obj`` where they leave the process.

Files are written atomically: a temporary file beside the target, then a rename, so that a reader (or a
run killed with ``kill -9`` half-way through a save) finds the previous complete file or the new one,
never a torn one.

Log records are redacted as they are made (``logging.setLogRecordFactory``), for every handler; that is
installed the first time a secret is remembered, not on import.
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import sys
import tempfile
import threading
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import IO, Any, TextIO, cast

from browser_agent.sensitive import Secrets, SensitiveData, as_secrets, combined_redactor

__all__ = [
    "append_line",
    "redacted",
    "redacted_obj",
    "redacted_stdio",
    "redacting_stream",
    "remember",
    "write_bytes",
    "write_text",
]

# A JPEG, PNG or GIF in base64, by its first bytes; the pictures the project writes are far longer.
_PICTURE = re.compile(r"(?:/9j/|iVBORw0KGgo|R0lGOD)[A-Za-z0-9+/]{256,}={0,2}")
_lock = threading.Lock()
_known: list[Secrets] = []
_log_factory_installed = False


def remember(secrets: Secrets | SensitiveData | None) -> Secrets:
    """Redact ``secrets`` from everything the process writes from now on; returns them as ``Secrets``.

    Remembering the same ``Secrets`` twice is harmless. Nothing is ever forgotten: a report written after
    the run ended must still be redacted.
    """
    found = as_secrets(secrets)
    if not found:
        return found
    with _lock:
        if not any(known is found for known in _known):
            _known.append(found)
        _install_log_redaction()
    return found


def redacted(text: str) -> str:
    """``text`` with every remembered secret, in any encoding, replaced by its placeholder.

    Pictures in base64 (a screenshot in a history, a report's ``data:`` image) are left as they are: what
    they show of secrets was masked when they were taken, and the letters of a short secret turn up in a
    megabyte of base64 by chance: replacing them would corrupt the picture.
    """
    known = _snapshot()
    if not known:
        return text
    pieces, start = [], 0
    for picture in _PICTURE.finditer(text):
        pieces += [_redact_with(known, text[start : picture.start()]), picture.group()]
        start = picture.end()
    pieces.append(_redact_with(known, text[start:]))
    return "".join(pieces)


def redacted_obj(obj: Any) -> Any:
    """``redacted`` applied to every string (keys too) inside nested dicts, lists and tuples."""
    if isinstance(obj, str):
        return redacted(obj)
    if isinstance(obj, dict):
        return {redacted_obj(key): redacted_obj(value) for key, value in obj.items()}
    if isinstance(obj, list | tuple):
        return type(obj)(redacted_obj(value) for value in obj)
    return obj


def write_text(path: str | Path, text: str) -> Path:
    """Write ``text``, redacted, to ``path`` atomically (UTF-8); the folders are made as needed."""
    return _replace(Path(path), redacted(text).encode("utf-8"))


def write_bytes(path: str | Path, data: bytes) -> Path:
    """Write binary ``data`` (an image, a GIF) atomically. Images cannot be redacted as text: what they
    show of secrets is masked in the browser before the screenshot is taken."""
    return _replace(Path(path), data)


def append_line(path: str | Path, line: str) -> None:
    """Append ``line`` (one JSON Lines record, say), redacted, and a newline; flushed at once so that a
    reader sees whole lines only. A last line cut short (a run killed while writing) is ended first."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    text = redacted(line).replace("\n", " ") + "\n"
    if target.is_file() and _ends_torn(target):  # not a pipe (/dev/stdout), which cannot be read back
        text = "\n" + text
    with target.open("ab") as handle:
        handle.write(text.encode("utf-8"))
        handle.flush()


def _ends_torn(path: Path) -> bool:
    """Whether the file's last line lacks its newline."""
    with path.open("rb") as handle:
        if handle.seek(0, os.SEEK_END) == 0:
            return False
        handle.seek(-1, os.SEEK_END)
        return handle.read(1) != b"\n"


class _RedactingStream:
    """A text stream that redacts what is written to it, then hands it on; the rest is ``inner``'s."""

    def __init__(self, inner: IO[str]) -> None:
        self.inner = inner

    def write(self, text: str) -> int:
        self.inner.write(redacted(text))
        return len(text)

    def writelines(self, lines: Iterable[str]) -> None:
        for line in lines:
            self.write(line)

    def __getattr__(self, name: str) -> Any:  # isatty, fileno, encoding, flush, buffer (binary: MCP's)
        if name == "rich_proxied_file":  # rich would write to the stream behind a proxy, around this one
            raise AttributeError(name)
        return getattr(self.inner, name)


def redacting_stream(stream: IO[str]) -> TextIO:
    """``stream`` with everything written to it redacted (a stream already so is returned as it is)."""
    gated = stream if isinstance(stream, _RedactingStream) else _RedactingStream(stream)
    return cast(TextIO, gated)


@contextlib.contextmanager
def redacted_stdio() -> Iterator[None]:
    """Redact standard output and error while the block runs (a command: its prints, its consoles, its
    log handlers), then put back the streams found, unless someone else replaced them meanwhile."""
    found = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = redacting_stream(found[0]), redacting_stream(found[1])
    mine = sys.stdout, sys.stderr
    try:
        yield
    finally:
        if sys.stdout is mine[0]:
            sys.stdout = found[0]
        if sys.stderr is mine[1]:
            sys.stderr = found[1]


def _replace(target: Path, data: bytes) -> Path:
    target.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".part", dir=target.parent)
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
    return target


# One regular expression for every remembered secret, made again when a set is remembered or grows
# (``Secrets.add``: what a person typed): one pass per text, however many runs the process has seen.
_combined: tuple[tuple[tuple[int, int], ...], Callable[[str], str]] | None = None


def _redact_with(known: tuple[Secrets, ...], text: str) -> str:
    global _combined
    key = tuple((id(secrets), len(secrets)) for secrets in known)
    combined = _combined
    if combined is None or combined[0] != key:
        combined = _combined = (key, combined_redactor(known))
    return combined[1](text)


def _snapshot() -> tuple[Secrets, ...]:
    with _lock:
        return tuple(_known)


def _install_log_redaction() -> None:
    """Make every log record with its message (and traceback) already redacted; once per process."""
    global _log_factory_installed
    if _log_factory_installed:
        return
    _log_factory_installed = True
    logging.setLogRecordFactory(_redacting_factory(logging.getLogRecordFactory()))


def _redacting_factory(make: Callable[..., logging.LogRecord]) -> Callable[..., logging.LogRecord]:
    def factory(*args: Any, **kwargs: Any) -> logging.LogRecord:
        record = make(*args, **kwargs)
        try:
            message = record.getMessage()
        except Exception:  # a malformed record is left for logging's own error report
            return record
        record.msg, record.args = redacted(message), None
        if record.exc_info and record.exc_info[1] is not None:
            record.exc_text = redacted(logging.Formatter().formatException(record.exc_info))
        return record

    return factory
