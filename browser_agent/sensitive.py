"""Secrets passed as sensitive data: placeholders in, clear text only at action time, redaction out.

The model only ever sees ``<secret>name</secret>``. ``Secrets.fill`` swaps the real value in right
before an action types it (and refuses when the value is scoped to other sites, or unknown);
``Secrets.redact`` replaces every real value, in every common encoding, by its placeholder in any text
that leaves the process (prompts, logs, saved history, reports, exceptions).

Two shapes are accepted::

    {"user": "ada", "pw": "s3cret!"}                          # usable on every site
    {"https://*.bank.example": {"pw": "s3cret!"}, "user": "ada"}  # pw only on bank.example pages
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, TypeAlias
from urllib.parse import quote, quote_plus

from browser_agent.errors import ActionError, UserError

__all__ = [
    "MIN_SECRET_LENGTH",
    "Secrets",
    "SensitiveData",
    "as_secrets",
    "placeholder",
]

SensitiveData: TypeAlias = Mapping[str, "str | Mapping[str, str]"]
"""``{name: value}``, or ``{domain_pattern: {name: value}}`` for values scoped to some sites."""

MIN_SECRET_LENGTH = 4
_NAME = re.compile(r"^[A-Za-z0-9_.\-]+$")
_PLACEHOLDER = re.compile(r"<secret>\s*([A-Za-z0-9_.\-]+)\s*</secret>")
_PERCENT = re.compile(r"%[0-9A-Fa-f]{2}")


def placeholder(name: str) -> str:
    return f"<secret>{name}</secret>"


@dataclass(frozen=True, slots=True)
class _Secret:
    name: str
    value: str
    domains: tuple[str, ...] | None  # None: usable on every site


def _encodings(value: str) -> set[str]:
    """The forms a value takes in URLs, HTML and JSON, besides itself."""
    forms = {
        value,
        quote(value, safe=""),
        quote(value),
        quote_plus(value),
        quote_plus(value, safe="/"),
        html.escape(value),
        html.escape(value, quote=False),
        json.dumps(value)[1:-1],
        json.dumps(value, ensure_ascii=False)[1:-1],
    }
    # A form on a page without a declared charset submits in windows-1252, not UTF-8.
    try:
        value.encode("cp1252")
    except UnicodeEncodeError:
        pass
    else:
        forms |= {quote(value, safe="", encoding="cp1252"), quote_plus(value, encoding="cp1252")}
    # A URL-encoded value shown inside HTML or JSON (a link's href, a URL in a JSON body).
    forms |= {html.escape(f) for f in list(forms)} | {json.dumps(f)[1:-1] for f in list(forms)}
    return {f for f in forms if f}


def _pattern_of(form: str) -> str:
    """A regex for ``form``; percent escapes match in either letter case (``%2f`` and ``%2F``)."""
    out, last = [], 0
    for escape in _PERCENT.finditer(form):
        out.append(re.escape(form[last : escape.start()]))
        hex_digits = escape.group()[1:]
        out.append("%" + "".join(f"[{c.lower()}{c.upper()}]" if c.isalpha() else c for c in hex_digits))
        last = escape.end()
    out.append(re.escape(form[last:]))
    return "".join(out)


class Secrets:
    """The run's secrets: validated once, filled in at action time, redacted everywhere else.

    Raises:
        UserError: a name that cannot be a placeholder, a value that is not a string, or a value
            shorter than ``MIN_SECRET_LENGTH`` (too short to redact without rewriting ordinary text).
    """

    def __init__(self, data: SensitiveData | None = None) -> None:
        self._items: dict[str, _Secret] = {}
        for key, value in (data or {}).items():
            if isinstance(value, Mapping):
                for name, inner in value.items():
                    self._add(name, inner, (key,))
            else:
                self._add(key, value, None)
        self._redactor = self._compile()

    def _add(self, name: Any, value: Any, domains: tuple[str, ...] | None) -> None:
        if not isinstance(name, str) or not _NAME.match(name):
            raise UserError(f"Secret name {name!r} must be letters, digits, '_', '.' or '-'.")
        if not isinstance(value, str):
            raise UserError(f"Secret {name!r} must be a string, not {type(value).__name__}.")
        if len(value) < MIN_SECRET_LENGTH:
            raise UserError(
                f"Secret {name!r} is {len(value)} character(s) long; secrets need at least "
                f"{MIN_SECRET_LENGTH} so that redacting them cannot rewrite ordinary text."
            )
        known = self._items.get(name)
        if known is not None and known.value != value:
            raise UserError(f"Secret {name!r} is given twice with different values; give it once.")
        if known is not None and known.domains is not None and domains is not None:
            domains = known.domains + domains
        self._items[name] = _Secret(name, value, domains)

    def _compile(self) -> re.Pattern[str] | None:
        if not self._items:
            return None
        forms: dict[str, str] = {}
        for secret in sorted(self._items.values(), key=lambda s: len(s.value)):
            for form in _encodings(secret.value):
                forms[form] = secret.name  # a longer value's forms win over a shorter one's
        alternatives = sorted(forms, key=len, reverse=True)
        self._names = forms
        self._lower = {f.lower(): n for f, n in forms.items()}
        # Existing placeholders are matched first and kept as they are: never rewritten inside themselves.
        body = "|".join(_pattern_of(f) for f in alternatives)
        return re.compile(rf"({_PLACEHOLDER.pattern})|({body})")

    # -- queries ---------------------------------------------------------------------------------

    def __bool__(self) -> bool:
        return bool(self._items)

    def __iter__(self) -> Iterator[str]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def values(self) -> list[str]:
        """Every secret value (to mask them in screenshots)."""
        return [s.value for s in self._items.values()]

    def describe(self) -> str:
        """The placeholders on offer, for the system prompt (names and scopes only, never values)."""
        parts = []
        for secret in self._items.values():
            scope = f" (only on {', '.join(secret.domains)})" if secret.domains else ""
            parts.append(placeholder(secret.name) + scope)
        return ", ".join(parts)

    # -- in and out ------------------------------------------------------------------------------

    def fill(
        self,
        text: str,
        url: str | Callable[[], str],
        allowed: Callable[[str, tuple[str, ...]], bool],
        *,
        is_url: bool = False,
        where: str = "this page",
    ) -> str:
        """Replace each placeholder in ``text`` by its value, for typing on the page at ``url``.

        ``url`` may be a function, asked only when a scoped secret is used; ``where`` names that page in
        the error. With ``is_url``, ``text`` is itself an address the browser will open: a scoped secret
        is then filled only when that address, once filled, is on its sites (``url`` is not asked).
        ``allowed(url, patterns)`` tells whether ``url`` is on one of a scoped secret's domains.

        Raises:
            ActionError: a placeholder names no secret of this run, or one scoped to other sites.
        """
        if "<secret>" not in text:
            return text
        scoped: list[tuple[str, tuple[str, ...]]] = []  # (name, domains) of the scoped secrets used

        def value_of(match: re.Match[str]) -> str:
            secret = self._known(match.group(1))
            if secret.domains is None:
                return secret.value
            if is_url:  # checked against the whole address once it is filled
                scoped.append((secret.name, secret.domains))
            elif not allowed(url if isinstance(url, str) else url(), secret.domains):
                raise ActionError(
                    f"{placeholder(secret.name)} may only be used on {', '.join(secret.domains)}, not on "
                    f"{where}; nothing was typed. Use it only on a page of those sites, in a field of "
                    "their own (not in a frame of another site)."
                )
            return secret.value

        filled = _PLACEHOLDER.sub(value_of, text)
        for name, domains in scoped:
            if not allowed(filled, domains):
                raise ActionError(
                    f"{placeholder(name)} may only be sent to {', '.join(domains)}, and this "
                    "address leads elsewhere; nothing was opened. Put it only in addresses of those sites."
                )
        return filled

    def _known(self, name: str) -> _Secret:
        secret = self._items.get(name)
        if secret is None:
            known = ", ".join(placeholder(n) for n in self._items) or "none"
            raise ActionError(
                f"{placeholder(name)} is not a secret of this run (secrets: {known}); nothing was "
                "typed. Use one of those placeholders, or ask for the value to be provided."
            )
        return secret

    def redact(self, text: str) -> str:
        """``text`` with every secret value, raw or encoded, replaced by its placeholder."""
        if self._redactor is None or not text:
            return text
        return self._redactor.sub(self._replacement, text)

    def _replacement(self, match: re.Match[str]) -> str:
        if match.group(1) is not None:
            return match.group(1)
        found = match.group(0)
        name = self._names.get(found) or self._lower.get(found.lower(), "")
        return placeholder(name)

    def redact_obj(self, obj: Any) -> Any:
        """``redact`` applied to every string (keys too) inside nested dicts, lists and tuples."""
        if self._redactor is None:
            return obj
        if isinstance(obj, str):
            return self.redact(obj)
        if isinstance(obj, dict):
            return {self.redact_obj(k): self.redact_obj(v) for k, v in obj.items()}
        if isinstance(obj, list | tuple):
            return type(obj)(self.redact_obj(v) for v in obj)
        return obj


def as_secrets(data: SensitiveData | Secrets | None) -> Secrets:
    """A ``Secrets`` for whatever the caller passed (a mapping, a ``Secrets``, or nothing)."""
    return data if isinstance(data, Secrets) else Secrets(data)
