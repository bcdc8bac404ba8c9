"""Looking for a secret in what the project wrote: every file of a folder, every message, in each of the
encodings a page, a browser or our own formatting gives it."""

from __future__ import annotations

import html
import json
import secrets
from pathlib import Path
from urllib.parse import quote, quote_plus


def new_secret(prefix: str) -> str:
    """A secret no other test of the process has given (the gate never forgets one): a space, ``+``,
    ``&`` and a non-ASCII letter, so that every encoding differs from the raw text."""
    return f"{prefix}{secrets.token_hex(3)}-Pa55+wörd &q"


def encodings(secret: str) -> dict[str, str]:
    """The secret as it may be written: raw, percent-encoded (a form GET's ``+``, ``%20``, lower-case hex),
    HTML entities (named, decimal), JSON ``\\u`` escapes, and a JSON string inside a URL."""
    json_escaped = json.dumps(secret)[1:-1]
    return {
        "raw": secret,
        "percent, + for a space": quote_plus(secret),
        "percent, %20 for a space": quote(secret, safe=""),
        "percent, lower-case hex": _lower_hex(quote(secret, safe="")),
        "HTML entities": html.escape(secret),
        "decimal entities": "".join(f"&#{ord(c)};" for c in secret),
        "JSON \\u escapes": json_escaped,
        "JSON escapes, percent-encoded": quote(json_escaped, safe=""),
    }


def _lower_hex(text: str) -> str:
    parts = text.split("%")
    return parts[0] + "".join(p[:2].lower() + p[2:] for p in parts[1:])


def found(text: str, secret: str) -> list[str]:
    """The encodings of ``secret`` in ``text``, and ``"its core"`` when the secret's distinctive middle
    (the part no encoding changes) shows: a cut copy or an encoding not listed."""
    hits = [name for name, form in encodings(secret).items() if form in text]
    core = secret.split("+")[0]  # "<prefix><hex>-Pa55": plain ASCII, written alike in every encoding
    if not hits and core in text:
        hits.append("its core")
    return hits


def leaks_in_files(folder: Path, secret: str) -> dict[str, list[str]]:
    """``{file: encodings found}`` for every file under ``folder`` (binary files read as Latin-1)."""
    leaks = {}
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        data = path.read_bytes()
        hits = found(data.decode("utf-8", errors="replace"), secret) + found(data.decode("latin-1"), secret)
        if hits:
            leaks[str(path.relative_to(folder))] = sorted(set(hits))
    return leaks


def leaks_in_texts(texts: dict[str, str], secret: str) -> dict[str, list[str]]:
    """``{name: encodings found}`` for the named texts (console output, log lines, messages)."""
    return {name: hits for name, text in texts.items() if (hits := found(text, secret))}
