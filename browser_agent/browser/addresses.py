"""Web addresses from a model, a page, a saved run or a user, read without ever raising.

Python's ``urlsplit`` raises ``ValueError`` on some malformed addresses (``http://[zz/``, an unclosed
IPv6 bracket) and so does ``SplitResult.port`` on a port out of range (``http://a:99999/``). Any page
can make a model ask for such an address; here it becomes ``None`` (``split_address``, ``port_of``) or
a ``NavigationError`` the model reads (``checked_address``), never the end of a run.
"""

from __future__ import annotations

from urllib.parse import SplitResult, urlsplit

from browser_agent.errors import NavigationError

__all__ = ["address_fault", "checked_address", "port_of", "split_address"]

# Addresses of these schemes name a host (the URL Standard's "special" schemes, file aside).
_HOSTED = frozenset({"http", "https", "ws", "wss", "ftp"})
# What a browser drops around an address before reading it.
_C0_AND_SPACE = "".join(chr(c) for c in range(0x21))
_SHOWN = 200


def split_address(url: str) -> SplitResult | None:
    """``urlsplit(url)``, or None when Python cannot read it (``http://[zz/``)."""
    try:
        return urlsplit(url)
    except ValueError:
        return None


def port_of(parts: SplitResult) -> int | None:
    """The explicit port of ``parts``; None when there is none, or it is not a port (``:99999``, ``:x``)."""
    try:
        return parts.port
    except ValueError:
        return None


def address_fault(url: str) -> str | None:
    """Why ``url`` is not an address a tab can be sent to; None when it is one.

    Only what is surely wrong is said: a control character, what Python cannot read, no scheme, and in a
    web address no host, a space in the host or a port that is not one. The browser judges the rest.
    """
    text = url.strip(_C0_AND_SPACE)
    if not text:
        return "it is empty"
    if any(ord(c) < 0x20 or ord(c) == 0x7F for c in text):
        return "it holds a control character"
    try:
        parts = urlsplit(text)
    except ValueError as exc:
        return str(exc)
    if not parts.scheme:
        return "it has no scheme (https://...)"
    if parts.scheme.lower() not in _HOSTED:
        return None
    if not parts.hostname:
        return "it has no host"
    if any(c.isspace() for c in parts.hostname):
        return "its host holds a space"
    try:
        parts.port  # noqa: B018 - reading it is the check
    except ValueError as exc:
        return str(exc)
    return None


def checked_address(url: str) -> str:
    """``url``, when a tab can be sent to it.

    Raises:
        NavigationError: it is not a valid address (the message, for the model, says why).
    """
    fault = address_fault(url)
    if fault is not None:
        shown = repr(url if len(url) <= _SHOWN else url[:_SHOWN] + "...")
        raise NavigationError(
            f"not a valid address: {shown} ({fault}); give a whole address such as https://example.com/page."
        )
    return url
