"""The one loader for every file a user hands over: histories, workflows, suites, results, logins, secrets.

A file is read within limits before any parser sees it: its size (``MAX_BYTES``), its encoding (UTF-8,
a byte-order mark allowed) and its nesting (``MAX_DEPTH``, counted on the text, so that a file nested
100,000 deep is refused before ``json`` recurses into it). Whatever is wrong becomes one
``UserFileError``: one line that names the file and what is wrong, which the CLI prints as it is
(exit 2). A parser's or a validator's traceback never reaches the user.

The checks of a file's shape (is it a history, a workflow, ...) stay with the type that knows it:
``read_json`` hands it the decoded data, and ``validation_message`` turns a pydantic error into the line.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from browser_agent.errors import UserError

__all__ = [
    "MAX_BYTES",
    "MAX_DEPTH",
    "UserFileError",
    "read_json",
    "read_json_lines",
    "read_text",
    "validation_message",
]

MAX_BYTES = 64 * 1024 * 1024
"""The largest file read (64 MiB): a history with screenshots of a long run stays well under it."""
MAX_DEPTH = 64
"""The deepest nesting of a JSON value accepted: our own files nest 8 deep at most."""

# A JSON string, then any bracket: strings are skipped whole, so a bracket inside one does not count.
_STRING_OR_BRACKET = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]', re.DOTALL)


class UserFileError(UserError):
    """A file given by the user cannot be used; the message is one line naming the file and the fault."""


def read_text(path: str | Path, *, what: str, max_bytes: int = MAX_BYTES) -> str:
    """The text of ``path``, refused when it is missing, larger than ``max_bytes`` or not UTF-8.

    ``what`` names the file's role in the message (``"history"``, ``"--secrets file"``, ...).

    Raises:
        UserFileError: the file cannot be read, is too large, or is not UTF-8 text.
    """
    source = Path(path)
    try:
        with source.open("rb") as handle:
            data = handle.read(max_bytes + 1)
    except OSError as exc:
        raise UserFileError(
            f"{what} {source}: cannot read it ({exc.strerror or type(exc).__name__})."
        ) from None
    if len(data) > max_bytes:
        raise UserFileError(
            f"{what} {source} is larger than {max_bytes // (1024 * 1024)} MiB; is it the right file?"
        )
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise UserFileError(
            f"{what} {source} is not UTF-8 text (byte {exc.start}); save it as UTF-8."
        ) from None


def read_json(path: str | Path, *, what: str, max_bytes: int = MAX_BYTES, max_depth: int = MAX_DEPTH) -> Any:
    """The JSON value in ``path``, read within the size, encoding and nesting limits.

    Raises:
        UserFileError: as ``read_text``, or the text is not JSON, or it nests deeper than ``max_depth``.
    """
    source = Path(path)
    return _decode(read_text(source, what=what, max_bytes=max_bytes), f"{what} {source}", max_depth)


def read_json_lines(
    path: str | Path, *, what: str, max_bytes: int = MAX_BYTES, max_depth: int = MAX_DEPTH
) -> Iterator[tuple[int, Any]]:
    """``(line number, value)`` for each non-blank line of a JSON Lines file, read within the limits.

    Raises:
        UserFileError: as ``read_text``, or a line is not JSON or nests too deeply (naming the line).
    """
    source = Path(path)
    text = read_text(source, what=what, max_bytes=max_bytes)
    for number, line in enumerate(text.splitlines(), start=1):
        if line.strip():
            yield number, _decode(line, f"{what} {source}, line {number},", max_depth)


def validation_message(exc: ValidationError) -> str:
    """The first fault of a pydantic error in a few words: ``where: what`` (never the input's value)."""
    errors = exc.errors(include_url=False, include_input=False)
    if not errors:
        return "it does not have the expected shape"
    first = errors[0]
    where = ".".join(str(part) for part in first["loc"]) or "the top level"
    more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
    return f"{where}: {_one_line(first['msg'])}{more}"


def _decode(text: str, named: str, max_depth: int) -> Any:
    depth = _nesting(text)
    if depth > max_depth:
        raise UserFileError(f"{named} nests {depth} levels deep; at most {max_depth} are read.")
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise UserFileError(
            f"{named} is not JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})."
        ) from None
    except (ValueError, RecursionError) as exc:
        raise UserFileError(f"{named} is not JSON: {_one_line(str(exc))}.") from None


def _nesting(text: str) -> int:
    """The deepest bracket nesting of ``text``, outside JSON strings (an upper bound for bad JSON)."""
    depth = deepest = 0
    for match in _STRING_OR_BRACKET.finditer(text):
        token = match.group()
        if token == "[" or token == "{":
            depth += 1
            deepest = max(deepest, depth)
        elif token == "]" or token == "}":
            depth -= 1
    return deepest


def _one_line(text: str) -> str:
    line = text.strip().splitlines()[0] if text.strip() else ""
    return line[:200]
