"""Tolerant extraction of a JSON object from a model's text reply (pure functions, no I/O).

Models without tool calling wrap their JSON in think blocks, code fences and prose, and break it in
small ways. This module finds the first JSON object that can be read and repairs only breakage whose
fix is unambiguous: trailing commas, single quotes, Python literals, unquoted keys, comments, and
brackets left open at the end of a truncated reply. It never adds a field the model did not write.
"""

from __future__ import annotations

import json
import re
from typing import Any

__all__ = ["MAX_DEPTH", "JSONExtractionError", "extract_json", "strip_think", "too_deep"]

_TAGS = "think|thinking|reasoning"
_THINK_BLOCK = re.compile(rf"<({_TAGS})>.*?</\1>", re.S | re.I)
_OPEN_TAG = re.compile(rf"<({_TAGS})>", re.I)
_ORPHAN_CLOSE = re.compile(rf"^.*</({_TAGS})>", re.S | re.I)
_FENCE = re.compile(r"```[\w+-]*[ \t]*\n?(.*?)(?:```|\Z)", re.S)
_WORD = re.compile(r"[A-Za-z_$][\w$-]*")
_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_LITERALS = {
    "true": "true",
    "True": "true",
    "false": "false",
    "False": "false",
    "null": "null",
    "None": "null",
    "NaN": "NaN",
    "Infinity": "Infinity",
}
# A reply with dozens of braces in prose is not worth scanning further.
_MAX_STARTS = 32
# No answer of ours nests deeper than this; deeper input would only exhaust the parser's stack.
MAX_DEPTH = 64


class JSONExtractionError(ValueError):
    """No JSON object could be read from a model's reply."""


def too_deep(value: Any, limit: int = MAX_DEPTH) -> bool:
    """Whether ``value`` (parsed JSON: dicts and lists) nests more than ``limit`` levels, checked without
    recursion so that no depth can exhaust the stack."""
    level: list[Any] = [value]
    for _ in range(limit + 1):
        level = [
            child
            for node in level
            if isinstance(node, dict | list)
            for child in (node.values() if isinstance(node, dict) else node)
            if isinstance(child, dict | list)
        ]
        if not level:
            return False
    return True


def strip_think(text: str) -> str:
    """Remove reasoning blocks (``<think>…</think>``, also unclosed ones) from a model's reply.

    A closing tag without its opening tag means the server put ``<think>`` in the prompt template,
    so everything before it is reasoning. An opening tag that is never closed runs to the end.
    """
    text = _THINK_BLOCK.sub("", text)
    text = _ORPHAN_CLOSE.sub("", text)
    opened = _OPEN_TAG.search(text)
    if opened:
        text = text[: opened.start()]
    return text.strip()


def extract_json(text: str) -> Any:
    """Return the first JSON object found in ``text``, repairing small breakage.

    Raises:
        JSONExtractionError: no object could be read; the message shows the start of the reply.
    """
    candidates = [strip_think(text)]
    unclosed = _OPEN_TAG.search(_ORPHAN_CLOSE.sub("", _THINK_BLOCK.sub("", text)))
    if unclosed:
        # The model never closed its think block: the answer may still be inside it.
        candidates.append(_ORPHAN_CLOSE.sub("", _THINK_BLOCK.sub("", text))[unclosed.end() :])
    for candidate in candidates:
        bodies = [m.group(1) for m in _FENCE.finditer(candidate)] + [candidate]
        for body in bodies:
            found, value = _first_value(body)
            if found:
                return value
    snippet = text.strip()[:200]
    raise JSONExtractionError(
        f"No JSON object could be read from the reply (it starts with {snippet!r}). "
        "Reply with a single JSON object."
    )


def _first_value(body: str) -> tuple[bool, Any]:
    opener = "{" if "{" in body else "["
    position = body.find(opener)
    tries = 0
    while position >= 0 and tries < _MAX_STARTS:
        tries += 1
        repaired, end = _repair_from(body, position)
        for attempt in (body[position:end], repaired):
            try:
                value = json.loads(attempt, strict=False)
            except (ValueError, RecursionError):
                continue
            if isinstance(value, dict | list):
                return True, value
        position = body.find(opener, max(end, position + 1))
    return False, None


def _repair_from(text: str, start: int) -> tuple[str, int]:
    """Rewrite the value opening at ``start`` as strict JSON; return it and the index after it."""
    out: list[str] = []
    closers: list[str] = []
    i, n = start, len(text)
    while i < n:
        ch = text[i]
        if ch in "\"'":
            literal, i = _read_string(text, i)
            out.append(literal)
        elif ch in "{[":
            if len(closers) >= MAX_DEPTH:
                raise JSONExtractionError(
                    f"The reply nests brackets more than {MAX_DEPTH} levels deep; "
                    "reply with a flat JSON object."
                )
            closers.append("}" if ch == "{" else "]")
            out.append(ch)
            i += 1
        elif ch in "}]":
            i += 1
            if _close(out, closers, ch) and not closers:
                return "".join(out), i
        elif text.startswith(("//", "#"), i) or text.startswith("/*", i):
            i = _skip_comment(text, i)
        elif (number := _NUMBER.match(text, i)) and not ch.isalpha():
            out.append(_json_number(number.group()))
            i = number.end()
        elif word := _WORD.match(text, i):
            out.append(_LITERALS.get(word.group()) or json.dumps(word.group()))
            i = word.end()
        else:
            out.append(ch)
            i += 1
    # The reply was cut off: close what is still open.
    _drop_trailing_comma(out)
    out.extend(reversed(closers))
    return "".join(out), n


def _close(out: list[str], closers: list[str], ch: str) -> bool:
    """Emit closer ``ch`` (and any it skips over); False when it closes nothing and is dropped."""
    if ch not in closers:
        return False
    _drop_trailing_comma(out)
    while closers[-1] != ch:
        out.append(closers.pop())
    closers.pop()
    out.append(ch)
    return True


def _read_string(text: str, i: int) -> tuple[str, int]:
    """Read the string literal opening at ``i`` (either quote); return it double-quoted and the end."""
    quote, j, n = text[i], i + 1, len(text)
    chars: list[str] = []
    while j < n:
        c = text[j]
        if c == "\\" and j + 1 < n:
            escaped = text[j + 1]
            chars.append("'" if escaped == "'" else c + escaped)
            j += 2
            continue
        if c == quote:
            return '"' + "".join(chars) + '"', j + 1
        chars.append('\\"' if c == '"' else "\\n" if c == "\n" else c)
        j += 1
    return '"' + "".join(chars) + '"', n


def _json_number(text: str) -> str:
    """``+2``, ``.5`` and ``1.`` are numbers to a model but not to JSON."""
    sign = "-" if text.startswith("-") else ""
    digits = text.lstrip("+-")
    if digits.startswith("."):
        digits = "0" + digits
    digits = digits.replace(".e", ".0e").replace(".E", ".0E")
    if digits.endswith("."):
        digits += "0"
    return sign + digits


def _skip_comment(text: str, i: int) -> int:
    if text.startswith("/*", i):
        end = text.find("*/", i + 2)
        return len(text) if end < 0 else end + 2
    end = text.find("\n", i)
    return len(text) if end < 0 else end


def _drop_trailing_comma(out: list[str]) -> None:
    k = len(out) - 1
    while k >= 0 and out[k].isspace():
        k -= 1
    if k >= 0 and out[k] == ",":
        del out[k]
