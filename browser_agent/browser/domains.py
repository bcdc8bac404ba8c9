"""Allow-list matching of URLs against domain patterns. Never raises: an address Python cannot read
(``http://[zz/``) or whose port is not one is on no list, so a fence refuses it."""

from __future__ import annotations

import fnmatch
from collections.abc import Sequence

from browser_agent.browser.addresses import port_of, split_address
from browser_agent.errors import DomainNotAllowedError

__all__ = [
    "LOCAL_SCHEMES",
    "blocked_message",
    "check_url_allowed",
    "is_url_allowed",
    "matches_any",
    "matches_domain",
    "origin_of",
    "refused_local_schemes",
]

# Pages of the browser itself: an empty tab, an error page. Always allowed.
_BROWSER_SCHEMES = ("about", "chrome-error")
# Documents that do not come from a site: allowed only when listed, as "data:", "file:", ...
LOCAL_SCHEMES = ("data", "javascript", "file", "blob", "filesystem", "view-source")


def origin_of(url: str) -> str:
    """``scheme://host[:port]`` of ``url`` (the URL itself when it has no host, such as ``data:``)."""
    parts = split_address(url)
    if parts is None:
        return url
    if not parts.netloc:
        return f"{parts.scheme}:" if parts.scheme else url
    host = parts.hostname or ""
    port = port_of(parts)
    return f"{parts.scheme}://{host}" + (f":{port}" if port else "")


def matches_domain(url: str, pattern: str) -> bool:
    """Whether ``url`` matches ``pattern``.

    Patterns: ``example.com`` (that host and its subdomains), ``*.example.com`` (subdomains only),
    a full origin with wildcards such as ``http://127.0.0.1:*``, ``*`` for every site, or a scheme
    such as ``data:`` for documents that have no site.
    """
    parts = split_address(url)
    if parts is None:
        return False
    scheme = parts.scheme.lower()
    pattern = pattern.strip().lower()
    if pattern.endswith(":") and "/" not in pattern:
        return scheme == pattern[:-1]
    if scheme in LOCAL_SCHEMES:
        return False  # only a scheme pattern lets these through; "*" means every *site*
    host = (parts.hostname or "").lower()
    if pattern == "*":
        return bool(host)
    try:
        port = parts.port
    except ValueError:  # not a port: on no list
        return False
    if "://" in pattern:
        origin = f"{scheme}://{host}" + (f":{port}" if port else "")
        return fnmatch.fnmatchcase(origin, pattern) or fnmatch.fnmatchcase(origin + "/", pattern)
    if ":" in pattern:
        hostport = f"{host}:{port}" if port else host
        return fnmatch.fnmatchcase(hostport, pattern)
    if pattern.startswith("*."):
        return fnmatch.fnmatchcase(host, pattern)
    return host == pattern or host.endswith("." + pattern)


def matches_any(url: str, patterns: Sequence[str]) -> bool:
    return any(matches_domain(url, p) for p in patterns)


def is_url_allowed(url: str, allowed: Sequence[str] | None) -> bool:
    """Whether a document may load from ``url``: ``None`` allows everything; browser pages always."""
    if allowed is None:
        return True
    parts = split_address(url)
    if parts is not None and parts.scheme.lower() in _BROWSER_SCHEMES:
        return True
    return matches_any(url, allowed)


def check_url_allowed(url: str, allowed: Sequence[str] | None) -> None:
    """Raise ``DomainNotAllowedError`` (a message for the model) when ``url`` is not allowed."""
    if not is_url_allowed(url, allowed):
        raise DomainNotAllowedError(blocked_message(url, allowed or ()))


def refused_local_schemes(allowed: Sequence[str] | None) -> frozenset[str]:
    """The local schemes (``data``, ``blob``, ...) whose documents a fence of ``allowed`` refuses: all
    that are not listed as ``"scheme:"``; none without a fence."""
    if allowed is None:
        return frozenset()
    listed = {p.strip().lower()[:-1] for p in allowed if p.strip().endswith(":") and "/" not in p}
    return frozenset(LOCAL_SCHEMES) - listed


def blocked_message(url: str, allowed: Sequence[str]) -> str:
    """What the model reads when a document from ``url`` was refused."""
    return (
        f"blocked: {origin_of(url)} is outside the allowed domains ({', '.join(allowed)}); "
        "stay on those sites."
    )
