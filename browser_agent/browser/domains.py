"""Allow-list matching of URLs against domain patterns."""

from __future__ import annotations

import fnmatch
from collections.abc import Sequence
from urllib.parse import urlsplit

from browser_agent.errors import DomainNotAllowedError

__all__ = ["check_url_allowed", "is_url_allowed", "matches_domain"]

ALWAYS_ALLOWED_SCHEMES = ("about", "data", "blob", "chrome-error")


def matches_domain(url: str, pattern: str) -> bool:
    """Whether ``url`` matches ``pattern``.

    Patterns: ``example.com`` (that host and its subdomains), ``*.example.com`` (subdomains only),
    a full origin with wildcards such as ``http://127.0.0.1:*``, or ``*`` for everything.
    """
    parts = urlsplit(url)
    host = (parts.hostname or "").lower()
    pattern = pattern.strip().lower()
    if pattern == "*":
        return True
    if "://" in pattern:
        origin = f"{parts.scheme}://{host}" + (f":{parts.port}" if parts.port else "")
        return fnmatch.fnmatchcase(origin, pattern) or fnmatch.fnmatchcase(origin + "/", pattern)
    if ":" in pattern:
        hostport = f"{host}:{parts.port}" if parts.port else host
        return fnmatch.fnmatchcase(hostport, pattern)
    if pattern.startswith("*."):
        return fnmatch.fnmatchcase(host, pattern)
    return host == pattern or host.endswith("." + pattern)


def is_url_allowed(url: str, allowed: Sequence[str] | None) -> bool:
    if allowed is None:
        return True
    scheme = urlsplit(url).scheme.lower()
    if scheme in ALWAYS_ALLOWED_SCHEMES:
        return True
    return any(matches_domain(url, p) for p in allowed)


def check_url_allowed(url: str, allowed: Sequence[str] | None) -> None:
    """Raise ``DomainNotAllowedError`` (a message for the model) when ``url`` is not allowed."""
    if not is_url_allowed(url, allowed):
        raise DomainNotAllowedError(
            f"{url} is outside the allowed domains ({', '.join(allowed or ())}); choose a URL on one of them."
        )
