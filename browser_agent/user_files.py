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
from collections.abc import Callable, Collection, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from browser_agent.errors import UserError, first_line

if TYPE_CHECKING:  # pydantic is imported when a model is validated: `browser-agent --help` stays light
    from pydantic import BaseModel, ValidationError

__all__ = [
    "MAX_BYTES",
    "MAX_DEPTH",
    "UserFileError",
    "check_version",
    "parse_json",
    "read_json",
    "read_json_lines",
    "read_model",
    "read_text",
    "validated",
    "validation_message",
]

MAX_BYTES = 64 * 1024 * 1024
"""The largest file read (64 MiB): a history with screenshots of a long run stays well under it."""
MAX_DEPTH = 64
"""The deepest nesting of a JSON value accepted: our own files nest 8 deep at most."""

M = TypeVar("M", bound="BaseModel")

_ESCAPE = re.compile(r"\\.", re.DOTALL)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")


class UserFileError(UserError):
    """A file given by the user cannot be used; the message is one line naming the file and the fault."""


def read_text(path: str | Path, *, what: str, max_bytes: int | None = None) -> str:
    """The text of ``path``, refused when it is missing, larger than ``max_bytes`` (``MAX_BYTES`` by
    default) or not UTF-8.

    ``what`` names the file's role in the message (``"history"``, ``"--secrets file"``, ...).

    Raises:
        UserFileError: the file cannot be read, is too large, or is not UTF-8 text.
    """
    source = Path(path)
    if max_bytes is None:
        max_bytes = MAX_BYTES  # looked up now, so that a test can lower it for a whole command
    try:
        with source.open("rb") as handle:
            data = handle.read(max_bytes + 1)
    except OSError as exc:
        raise UserFileError(
            f"{what} {source}: cannot read it ({exc.strerror or type(exc).__name__})."
        ) from None
    if len(data) > max_bytes:
        raise UserFileError(f"{what} {source} is larger than {_size(max_bytes)}; is it the right file?")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise UserFileError(
            f"{what} {source} is not UTF-8 text (byte {exc.start}); save it as UTF-8."
        ) from None


def read_json(
    path: str | Path, *, what: str, max_bytes: int | None = None, max_depth: int = MAX_DEPTH
) -> Any:
    """The JSON value in ``path``, read within the size, encoding and nesting limits.

    Raises:
        UserFileError: as ``read_text``, or the text is not JSON, or it nests deeper than ``max_depth``.
    """
    source = Path(path)
    return parse_json(read_text(source, what=what, max_bytes=max_bytes), f"{what} {source}", max_depth)


def read_json_lines(
    path: str | Path,
    *,
    what: str,
    max_bytes: int | None = None,
    max_depth: int = MAX_DEPTH,
    skip_cut: bool = False,
) -> Iterator[tuple[int, Any]]:
    """``(line number, value)`` for each non-blank line of a JSON Lines file, read within the limits.

    With ``skip_cut``, a line that is not JSON is skipped, as the line a killed run left half written
    (a results file the package appends to); a file with lines but none of them JSON is still refused.

    Raises:
        UserFileError: as ``read_text``, or a line is not JSON (unless ``skip_cut``) or nests too
            deeply; the message names the line.
    """
    source = Path(path)
    text = read_text(source, what=what, max_bytes=max_bytes)
    seen = read = 0
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        seen += 1
        named = f"{what} {source}, line {number},"
        if skip_cut and _nesting(line) <= max_depth and not _is_json(line):
            continue
        read += 1
        yield number, parse_json(line, named, max_depth)
    if seen and not read:
        raise UserFileError(f"{what} {source} is not JSON Lines: none of its {seen} lines is JSON.")


def read_model(
    path: str | Path,
    model: type[M],
    *,
    what: str,
    check: Callable[[Any, str], None] | None = None,
    max_bytes: int | None = None,
) -> M:
    """A file of ours (a history, a workflow) read within the limits and validated as ``model``.

    ``check(data, named)`` looks at the decoded value first, to refuse another format or version in
    its own words (``named`` is "WHAT PATH", to begin the message with).

    Raises:
        UserFileError: as ``read_json``, or what ``check`` raises, or ``data`` is not a ``model``.
    """
    named = f"{what} {Path(path)}"
    data = read_json(path, what=what, max_bytes=max_bytes)
    if check is not None:
        check(data, named)
    return validated(model, data, named=f"{named} is not a valid {what}:")


def check_version(version: Any, readable: Collection[int], *, named: str) -> None:
    """Refuse a version of one of our formats that this browser_agent does not read, saying whether it
    is newer (upgrade) or none of ours; ``named`` is "WHAT PATH has FORMAT version".

    Raises:
        UserFileError: ``version`` is not one of ``readable``.
    """
    if type(version) is int and version in readable:
        return
    newer = type(version) is int and version > max(readable)
    hint = "upgrade browser_agent to read it" if newer else "it is not a file of ours"
    plural = "s" if len(readable) > 1 else ""
    raise UserFileError(
        f"{named} {_one_line(repr(version))[:20]}; this browser_agent reads version{plural} "
        f"{', '.join(map(str, readable))}: {hint}."
    )


def validated(model: type[M], data: Any, *, named: str) -> M:
    """``data`` validated as ``model``; its first fault becomes ``"{named} {where}: {what}."``.

    Raises:
        UserFileError: ``data`` does not have the model's shape (its values are never shown).
    """
    from pydantic import ValidationError

    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise UserFileError(f"{named} {validation_message(exc)}.") from None
    except RecursionError:  # data built in memory escapes the depth limit of the readers
        raise UserFileError(f"{named} nests too deeply.") from None


def validation_message(exc: ValidationError, *, whole: str = "the top level") -> str:
    """The first fault of a pydantic error in a few words: ``where: what`` (never the input's value).

    ``where`` is a path such as ``cookies[0].sameSite``; ``whole`` names the value itself, for a fault
    of the whole (a check across its fields).
    """
    errors = exc.errors(include_url=False, include_input=False)
    if not errors:
        return "it does not have the expected shape"
    first = errors[0]
    where = _where(first["loc"]) or whole
    what = _one_line(first["msg"]).removeprefix("Value error, ")
    more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
    return f"{where}: {what}{more}"


def parse_json(text: str, named: str, max_depth: int = MAX_DEPTH) -> Any:
    """The JSON value of ``text``, its nesting checked first; ``named`` begins the message.

    For a reader that must look at its lines itself (comments, placeholders); else ``read_json``.

    Raises:
        UserFileError: ``text`` nests deeper than ``max_depth`` or is not JSON (``NaN`` is not).
    """
    depth = _nesting(text)
    if depth > max_depth:
        raise UserFileError(f"{named} nests {depth} levels deep; at most {max_depth} are read.")
    try:
        return json.loads(text, parse_constant=_no_constant)
    except json.JSONDecodeError as exc:
        where = f"line {exc.lineno}, column {exc.colno}" if "\n" in text else f"column {exc.colno}"
        raise UserFileError(f"{named} is not JSON: {exc.msg} ({where}).") from None
    except (ValueError, RecursionError) as exc:
        raise UserFileError(f"{named} is not JSON: {_one_line(str(exc))}.") from None


def _is_json(text: str) -> bool:
    try:
        json.loads(text, parse_constant=_no_constant)
    except (ValueError, RecursionError):
        return False
    return True


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _where(loc: tuple[int | str, ...]) -> str:
    """``cookies[0].sameSite`` from pydantic's location (its ``function-after[...]`` steps left out)."""
    where = ""
    for part in loc:
        if isinstance(part, int):
            where += f"[{part}]"
        elif not part.startswith("function-"):
            where += f".{part}" if where else part
    return where


def _size(count: int) -> str:
    mib = 1024 * 1024
    return f"{count // mib} MiB" if count >= mib else f"{count} bytes"


def _nesting(text: str) -> int:
    """The deepest bracket nesting of ``text``, outside JSON strings (what ``json`` would recurse into).

    In C where it can be: escapes dropped, so that every quote left opens or closes a string, then the
    text between quotes (the strings) and every character but brackets. A history of 20 MB, mostly
    screenshots, takes 0.1 s (a regular expression matching each string took 1.5 s).
    """
    outside = "".join(_ESCAPE.sub("", text).split('"')[::2])
    depth = deepest = 0
    for bracket in _NOT_BRACKET.sub("", outside):
        if bracket == "[" or bracket == "{":
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth -= 1
    return deepest


def _one_line(text: str) -> str:
    return first_line(text, 200)
