"""Secrets passed as sensitive data: placeholders in, clear text only at action time, redaction out.

The model only ever sees ``<secret>name</secret>``. ``Secrets.fill`` swaps the real value in right
before an action types it (and refuses when the value is scoped to other sites, or unknown);
``Secrets.redact`` replaces every real value, in any mix of the encodings browsers, pages and our own
formatting produce, by its placeholder in any text that leaves the process (prompts, logs, saved
history, reports, exceptions). Text that may hold a secret is redacted before it is cut or quoted:
a cut copy would keep part of a value that no longer matches.

Two shapes are accepted::

    {"user": "ada", "pw": "s3cret!"}                          # usable on every site
    {"https://*.bank.example": {"pw": "s3cret!"}, "user": "ada"}  # pw only on bank.example pages
"""

from __future__ import annotations

import contextlib
import html
import html.entities
import re
import string
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, TypeAlias

from browser_agent.errors import ActionError, UserError

__all__ = [
    "MIN_SECRET_LENGTH",
    "Secrets",
    "SensitiveData",
    "as_secrets",
    "combined_redactor",
    "placeholder",
]

SensitiveData: TypeAlias = Mapping[str, "str | Mapping[str, str]"]
"""``{name: value}``, or ``{domain_pattern: {name: value}}`` for values scoped to some sites."""

MIN_SECRET_LENGTH = 4
_NAME = re.compile(r"^[A-Za-z0-9_.\-]+$")
_PLACEHOLDER = re.compile(r"<secret>\s*([A-Za-z0-9_.\-]+)\s*</secret>")


def placeholder(name: str) -> str:
    return f"<secret>{name}</secret>"


@dataclass(frozen=True, slots=True)
class _Secret:
    name: str
    value: str
    domains: tuple[str, ...] | None  # None: usable on every site


# -- the normal form ---------------------------------------------------------------------------------
# A value is found character by character, each character in any of the forms a browser, a page or our
# own code writes it in: raw; percent-encoded in UTF-8 or windows-1252, either hex case (`%7E` for `~`
# too, `+` for a space); an HTML entity (named, decimal, hex); a JSON, JS or repr escape (`\u00e9`,
# `\x7e`, `\"`, `\\`, `\/`, `\'`). The punctuation those forms are made of may itself be written by one
# more layer (`%257E`, `%26amp%3B`, `\&quot;`), so a percent-encoded value in an HTML attribute or a JSON
# string inside a URL is found too. Any run of whitespace in the value matches any run of whitespace,
# raw or encoded, and whitespace or invisible characters may stand between two of its characters: the
# page may split a value over elements (the extractor joins text nodes with a space) or lines, or group
# its digits ("4111 1111 1111 1111"). One alternation per character is compiled once per secret set; a
# lookahead on the characters a match can start with keeps the scan cheap (benchmarks/redact_bench.py).

_Part: TypeAlias = tuple[str, str]
"""``("rx", regex)``, or ``("ch" | "opt", punctuation)``: a character another layer may write its own way
(``"opt"``: it may also be missing, as the ``;`` ending a numeric entity)."""

# Between two characters: whitespace, a soft hyphen, zero-width characters. (Written as two classes: one
# class mixing \s and those ranges compiles a quarter slower, and there is one between every character.)
_GAP = r"(?:\s|[\xad\u200b-\u200d\u2060\ufeff])*"
_WHITESPACE = " \t\n\r\xa0"  # whose encoded forms any whitespace run matches (raw, any \s does)
_ESCAPES = {"\n": "n", "\t": "t", "\r": "r", "\b": "b", "\f": "f", "\v": "v", "\0": "0"}
_STARTS = "<%&\\\\+"  # a placeholder, and every encoded form, starts with one of these


def _hex(number: int, width: int = 1) -> str:
    """``number`` in hexadecimal, as a regex taking either letter case."""
    return "".join(f"[{d.lower()}{d}]" if d.isalpha() else d for d in f"{number:0{width}X}")


def _percent(data: bytes) -> list[_Part]:
    return [part for byte in data for part in (("ch", "%"), ("rx", _hex(byte, 2)))]


@cache
def _entities() -> dict[str, list[str]]:
    """Character -> the HTML entity names that stand for it alone (``amp;``, ``AMP``, ``quot;``...)."""
    names: dict[str, list[str]] = {}
    for name, char in html.entities.html5.items():
        if len(char) == 1:
            names.setdefault(char, []).append(name)
    return names


def _forms(char: str) -> list[list[_Part]]:
    """Every form of one character. Where one form's match can be the start of another's (``%26`` of
    ``%26amp%3B``, ``&`` of ``&amp;``), the longer is tried first: entities, then escapes, then percent
    forms, the raw character last."""
    code = ord(char)
    forms = [
        [("ch", "&"), ("rx", re.escape(name.rstrip(";")))] + [("ch", ";")] * name.endswith(";")
        for name in _entities().get(char, ())
    ]
    forms.append([("ch", "&"), ("ch", "#"), ("rx", f"(?:0*{code}|[xX]0*{_hex(code)})"), ("opt", ";")])
    if code < 0x10000:
        forms.append([("ch", "\\"), ("rx", "u" + _hex(code, 4))])
    else:  # JSON and JS write a surrogate pair, repr a \U escape
        high, low = divmod(code - 0x10000, 0x400)
        pair = [("rx", "u" + _hex(0xD800 + high, 4)), ("ch", "\\"), ("rx", "u" + _hex(0xDC00 + low, 4))]
        forms += [[("ch", "\\"), *pair], [("ch", "\\"), ("rx", "U" + _hex(code, 8))]]
    if code < 0x100:
        forms.append([("ch", "\\"), ("rx", "x" + _hex(code, 2))])
    if char in string.punctuation:  # \" \' \\ \/ of JSON, JS and repr, and markdown's escapes
        forms.append([("ch", "\\"), ("ch", char)])
    if char in _ESCAPES:
        forms.append([("ch", "\\"), ("rx", _ESCAPES[char])])
    forms.append(_percent(char.encode()))
    with contextlib.suppress(UnicodeEncodeError):  # a form on a page without a charset sends windows-1252
        if char.encode("cp1252") != char.encode():
            forms.append(_percent(char.encode("cp1252")))
    if char == " ":
        forms.append([("ch", "+")])
    return [*forms, [("rx", re.escape(char))]]


@cache
def _outer(char: str) -> str:
    """A form's punctuation ``char`` as one more layer writes it: raw, percent-encoded, or escaped the way
    HTML and JSON escape their special characters (some JSON encoders escape ``&<>'`` for HTML too)."""
    code = ord(char)
    forms = ["%" + _hex(code, 2)]
    if char in "&<>\"'":
        forms += [re.escape(html.escape(char)), r"\\u" + _hex(code, 4)]
    if char in "\"'":  # quotes have more than one HTML escape in use
        forms += [f"&#0*{code};", re.escape("&apos;" if char == "'" else "&quot;")]
    if char in "\\\"'/":
        forms.append(re.escape("\\" + char))
    return "(?:" + "|".join(dict.fromkeys([*forms, re.escape(char)])) + ")"


def _part_pattern(part: _Part) -> str:
    kind, text = part
    return text if kind == "rx" else _outer(text) + "?" * (kind == "opt")


def _alternation(forms: list[list[_Part]]) -> str:
    """``forms`` as one regex; forms that start alike share their start (a pattern half the size
    compiles in half the time). Order is kept: the first form of each start is tried first."""
    by_start: dict[_Part, list[list[_Part]]] = {}
    for form in forms:
        by_start.setdefault(form[0], []).append(form[1:])
    alternatives = []
    for start, rests in by_start.items():
        longer = [rest for rest in rests if rest]
        tail = _alternation(longer) if longer else ""
        if longer and [] in rests:  # one form ends here, others go on
            tail = f"(?:{tail})?"
        alternatives.append(_part_pattern(start) + tail)
    return alternatives[0] if len(alternatives) == 1 else "(?:" + "|".join(alternatives) + ")"


@cache
def _char_pattern(char: str) -> str:
    """One character in any of its forms, their punctuation written by one more layer or not."""
    return _alternation(_forms(char))


@cache
def _space_pattern(chars: str) -> str:
    """A run of whitespace, raw or encoded: the common kinds and ``chars``, the value's own."""
    forms = [form for char in chars for form in _forms(char)[:-1]]  # \s stands for every raw one
    return "(?:" + _alternation(forms) + r"|\s)+"


def _value_pattern(value: str) -> tuple[str, str]:
    """The regex of ``value`` in any mix of its forms, and the class of the characters it can start with.

    Whitespace around the value is left out (a page trims it away), unless the rest is too short to be
    told apart from ordinary text.
    """
    core = value.strip()
    if len(core) < MIN_SECRET_LENGTH:
        core = value
    parts: list[str] = []
    after_char = False
    for run in re.findall(r"\s+|\S", core):
        if run.isspace():
            parts.append(_space_pattern("".join(sorted(set(_WHITESPACE + run)))))
        else:
            parts += [_GAP, _char_pattern(run)] if after_char else [_char_pattern(run)]
        after_char = not run.isspace()
    first = core[0]
    return "".join(parts), r"\s" if first.isspace() else re.escape(first)


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

    def add(self, name: str, value: str, domains: Sequence[str] | None = None) -> None:
        """One more secret, after construction (what a person typed into the run's browser): from now
        on it is redacted by everyone holding this ``Secrets``, and filled only on ``domains`` (patterns
        as in the scoped form; every site without them).

        Raises:
            UserError: as the constructor does (a bad name, a short value, a name given another value).
        """
        self._add(name, value, tuple(domains) if domains is not None else None)
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
        # A group is named for the secret's place in the insertion order, which ``add`` never changes: a
        # redaction under way with the pattern before an ``add`` (another thread's) names the same secrets.
        self._groups = {f"s{n}": name for n, name in enumerate(self._items)}
        group = {name: f"s{n}" for n, name in enumerate(self._items)}
        # A longer value is tried first where two start alike ("adaa" and "adaa-password").
        ordered = sorted(self._items.values(), key=lambda s: len(s.value), reverse=True)
        patterns = [(group[secret.name], *_value_pattern(secret.value)) for secret in ordered]
        values = "|".join(f"(?P<{name}>{pattern})" for name, pattern, _ in patterns)
        starts = _STARTS + "".join(sorted({first for _, _, first in patterns}))
        # This run's placeholders are matched first and kept as they are: never rewritten inside
        # themselves. Placeholder-shaped text naming no secret of the run is ordinary text.
        names = "|".join(re.escape(n) for n in sorted(self._items, key=len, reverse=True))
        return re.compile(rf"(?=[{starts}])(?:<secret>\s*(?:{names})\s*</secret>|{values})")

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
        """``text`` with every secret value, raw or in any mix of encodings, replaced by its placeholder.

        Placeholders of this run's secrets are kept whole; any other placeholder-shaped text is ordinary
        text (a page may wrap a typed value in ``<secret>…</secret>``).
        """
        if self._redactor is None or not text:
            return text
        return self._redactor.sub(self._replacement, text)

    def _replacement(self, match: re.Match[str]) -> str:
        group = match.lastgroup
        return match.group() if group is None else placeholder(self._groups[group])

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


def combined_redactor(sets: Sequence[Secrets]) -> Callable[[str], str]:
    """One pass that redacts every secret of ``sets``, as each set's ``redact`` would: one regular
    expression however many sets there are (a process that ran many agents remembers many). A name may
    stand for other values in other sets; each value is replaced by its own name's placeholder."""
    pairs = list(dict.fromkeys((s.name, s.value) for secrets in sets for s in secrets._items.values()))
    if not pairs:
        return lambda text: text
    ordered = sorted(range(len(pairs)), key=lambda n: len(pairs[n][1]), reverse=True)
    patterns = [(n, *_value_pattern(pairs[n][1])) for n in ordered]
    values = "|".join(f"(?P<s{n}>{pattern})" for n, pattern, _ in patterns)
    starts = _STARTS + "".join(sorted({first for _, _, first in patterns}))
    names = "|".join(re.escape(n) for n in sorted({name for name, _ in pairs}, key=len, reverse=True))
    redactor = re.compile(rf"(?=[{starts}])(?:<secret>\s*(?:{names})\s*</secret>|{values})")

    def replacement(match: re.Match[str]) -> str:
        group = match.lastgroup
        return match.group() if group is None else placeholder(pairs[int(group[1:])][0])

    return lambda text: redactor.sub(replacement, text) if text else text


def as_secrets(data: SensitiveData | Secrets | None) -> Secrets:
    """A ``Secrets`` for whatever the caller passed (a mapping, a ``Secrets``, or nothing)."""
    return data if isinstance(data, Secrets) else Secrets(data)
