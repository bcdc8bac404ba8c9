"""The one gate for everything the project writes: files, JSON Lines, UI messages, log records.

Every secret the process has been given is redacted from whatever passes here, whoever wrote it: a run's
``sensitive_data``, a command's ``--secrets``, a UI server's secrets, what a person typed while taking
over a run. They are remembered process-wide (``remember``) by the code that receives them, so that a new
writer cannot forget a run's secrets: it has none of its own to pass. A test scans the package for file
writes outside this module.

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
import tempfile
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from browser_agent.sensitive import Secrets, SensitiveData, as_secrets

__all__ = [
    "append_line",
    "redacted",
    "redacted_obj",
    "remember",
    "write_bytes",
    "write_text",
]

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
    """``text`` with every remembered secret, in any encoding, replaced by its placeholder."""
    for secrets in _snapshot():
        text = secrets.redact(text)
    return text


def redacted_obj(obj: Any) -> Any:
    """``redacted`` applied to every string (keys too) inside nested dicts, lists and tuples."""
    for secrets in _snapshot():
        obj = secrets.redact_obj(obj)
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
    reader sees whole lines only."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    text = redacted(line).replace("\n", " ") + "\n"
    with target.open("a", encoding="utf-8") as handle:
        handle.write(text)
        handle.flush()


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
