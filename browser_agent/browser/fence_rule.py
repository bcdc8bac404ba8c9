"""Which domain fence a run keeps to, when several places name one: the one rule, and pattern coverage.

A fence can come from the browser's configuration, ``AgentSettings.allowed_domains``, a saved run's or
workflow's recorded fence, a UI server's fence, a batch's or suite's default, a task's own list, or the
command line. Every entry point names its sources and asks ``resolve_fence``; none combines its own.

The rule (also in docs/safety.md):

* a **choice** is set for this run (the command line, a task's own list, the UI's form, the browser's
  configuration, ``AgentSettings.allowed_domains``). Choices that differ must be comparable: the
  narrower wins. Two choices neither within the other are a ``UserError`` naming both;
* a **default** applies only when no choice is given (a recorded fence, a batch's or suite's default):
  the narrowest default;
* a **limit** bounds everything run under it (a server's fence, a session already fenced): with no
  choice and no default, the limit is the fence; a default wider than a limit gives way to it; a
  choice, or a default, not within a limit is a ``UserError`` ("... is not within the server's fence").

"Within" is ``covers``: a conservative check of the pattern grammar of ``domains.matches_domain``. It
says yes only when every address one pattern lets through the other lets through too; when unsure, no.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from browser_agent.errors import UserError

__all__ = ["FenceKind", "FenceSource", "covers", "pattern_covers", "resolve_fence"]

FenceKind = Literal["limit", "choice", "default"]


@dataclass(frozen=True, slots=True)
class FenceSource:
    """One place a fence comes from: its name (for messages), its patterns (None: it names none), its kind."""

    name: str
    domains: tuple[str, ...] | None
    kind: FenceKind = "choice"

    @classmethod
    def limit(cls, name: str, domains: Sequence[str] | None) -> FenceSource:
        return cls(name, _tuple(domains), "limit")

    @classmethod
    def choice(cls, name: str, domains: Sequence[str] | None) -> FenceSource:
        return cls(name, _tuple(domains), "choice")

    @classmethod
    def default(cls, name: str, domains: Sequence[str] | None) -> FenceSource:
        return cls(name, _tuple(domains), "default")

    def said(self) -> str:
        return f"{self.name} {list(self.domains or ())}"


def _tuple(domains: Sequence[str] | None) -> tuple[str, ...] | None:
    return None if domains is None else tuple(domains)


def resolve_fence(*sources: FenceSource) -> tuple[str, ...] | None:
    """The fence a run keeps to, by the rule of this module's docstring; None: no fence.

    Raises:
        UserError: two choices (or two defaults) neither within the other, or a result outside a limit.
    """
    given = [s for s in sources if s.domains is not None]
    limits = [s for s in given if s.kind == "limit"]
    result = _narrowest([s for s in given if s.kind == "choice"])
    if result is None:
        result = _narrowest([s for s in given if s.kind == "default"])
        for limit in limits:  # a default (or nothing) gives way to a narrower limit
            if result is None or _within(limit, result):
                result = limit
    for limit in limits:
        if result is not None and not _within(result, limit):
            raise UserError(f"{result.said()} is not within {limit.said()}; keep to sites inside it.")
    return None if result is None else result.domains


def _within(narrow: FenceSource, wide: FenceSource) -> bool:
    return covers(wide.domains or (), narrow.domains or ())


def _narrowest(sources: list[FenceSource]) -> FenceSource | None:
    """The narrowest of ``sources`` (the first of equal ones).

    Raises:
        UserError: two of them differ and neither is within the other.
    """
    best: FenceSource | None = None
    for source in sources:
        if best is None or (_within(source, best) and not _within(best, source)):
            best = source
        elif not _within(best, source):
            raise UserError(
                f"{best.said()} and {source.said()} are two fences, neither within the other; "
                "give one, or one inside the other."
            )
    return best


# -- coverage ----------------------------------------------------------------------------------------

_SCHEME = re.compile(r"[a-z][a-z0-9+.-]*")
# A host written without wildcards or anything fnmatch or the URL grammar would read otherwise.
_LITERAL_HOST = re.compile(r"[a-z0-9_-]+(?:\.[a-z0-9_-]+)*")
_PORT = re.compile(r"[0-9]{1,5}")


@dataclass(frozen=True, slots=True)
class _Shape:
    """What a pattern lets through, in a form two patterns can be compared in.

    ``scheme`` None: every scheme a site pattern allows. ``host`` None: every host (``*``). ``apex``:
    the host itself; ``subs``: its subdomains. ``port``: ``any`` (no condition), ``some`` (an explicit
    port, any), ``none`` (no explicit port), or its digits. ``whole_scheme``: a ``data:``-like pattern.
    """

    scheme: str | None
    host: str | None = None
    apex: bool = True
    subs: bool = True
    port: str = "any"
    whole_scheme: bool = False


def covers(wide: Sequence[str], narrow: Sequence[str]) -> bool:
    """Whether every address a fence of ``narrow`` lets through, a fence of ``wide`` lets through too
    (each pattern of ``narrow`` within one of ``wide``; conservative: when unsure, False)."""
    return all(any(pattern_covers(w, n) for w in wide) for n in narrow)


def pattern_covers(wide: str, narrow: str) -> bool:
    """Whether the pattern ``wide`` lets through every address ``narrow`` does; when unsure, False.

    ``example.com`` covers itself, its subdomains and ``*.example.com``; ``*`` covers every site
    pattern but no scheme pattern (``data:``); ``http://127.0.0.1:*`` covers ``http://127.0.0.1:8000``.
    Patterns with wildcards anywhere else are covered only by themselves.
    """
    w, n = wide.strip().lower(), narrow.strip().lower()
    if w == n:
        return True
    outer, inner = _shape(w), _shape(n)
    if outer is None or inner is None or inner.whole_scheme:
        return False
    if outer.whole_scheme:
        return inner.scheme == outer.scheme
    if outer.scheme is not None and outer.scheme != inner.scheme:
        return False
    return _host_covers(outer, inner) and _port_covers(outer.port, inner.port)


def _host_covers(outer: _Shape, inner: _Shape) -> bool:
    if outer.host is None:
        return inner.host is not None
    if inner.host is None:
        return False
    wide, narrow = outer.host, inner.host
    below = narrow.endswith("." + wide)
    if inner.apex and not ((outer.apex and narrow == wide) or (outer.subs and below)):
        return False
    return not inner.subs or (outer.subs and (narrow == wide or below))


def _port_covers(outer: str, inner: str) -> bool:
    if outer == "any":
        return True
    if outer == "some":
        return inner == "some" or inner.isdigit()
    return outer == inner


def _shape(pattern: str) -> _Shape | None:
    """The shape of a normalised pattern, read as ``domains.matches_domain`` reads it; None: opaque."""
    if not pattern:
        return None
    if pattern.endswith(":") and "/" not in pattern:
        scheme = pattern[:-1]
        return _Shape(scheme, whole_scheme=True) if _SCHEME.fullmatch(scheme) else None
    if pattern == "*":
        return _Shape(None)
    if "://" in pattern:
        scheme, rest = pattern.split("://", 1)
        if scheme != "*" and not _SCHEME.fullmatch(scheme):
            return None
        return _site(None if scheme == "*" else scheme, rest.removesuffix("/"), absent="none")
    if ":" in pattern:
        return _site(None, pattern, absent="any")
    if pattern.startswith("*."):
        return _Shape(None, pattern[2:], apex=False) if _LITERAL_HOST.fullmatch(pattern[2:]) else None
    # A plain pattern is compared as written (wildcards included): the host or a subdomain of it.
    return _Shape(None, pattern)


def _site(scheme: str | None, text: str, *, absent: str) -> _Shape | None:
    """The shape of ``host[:port]`` (fnmatch'ed by the matcher): a literal or ``*.``-literal host."""
    host, port = text, absent
    if ":" in text:
        host, written = text.rsplit(":", 1)
        if written == "*":
            port = "some"
        elif _PORT.fullmatch(written):
            port = written
        else:
            return None
    if host.startswith("*.") and _LITERAL_HOST.fullmatch(host[2:]):
        return _Shape(scheme, host[2:], apex=False, subs=True, port=port)
    if _LITERAL_HOST.fullmatch(host):
        return _Shape(scheme, host, apex=True, subs=False, port=port)
    return None
