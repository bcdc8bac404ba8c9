"""Is anything listening at ``--base-url``? Asked before the providers load and the browser starts.

A dead local server is the most common first mistake; one TCP connection (no request) answers it in
milliseconds, where the run would otherwise load langchain and launch Chromium first. Only a clear "no"
stops the command: a refused connection, or a host name that does not resolve. A timeout, a temporary
name lookup failure, or a proxy in the environment (the client would go through it, not straight there)
leave the question to the first model call, which classifies its failure the same way
(``browser_agent.llm.retry.unreachable``).
"""

from __future__ import annotations

import socket
from urllib.parse import urlsplit

from browser_agent.errors import ProviderUnreachableError

__all__ = ["check_reachable"]

_TIMEOUT_S = 2.0


def check_reachable(url: str) -> None:
    """Open and close one TCP connection to ``url``'s host and port.

    Raises:
        ProviderUnreachableError: the connection was refused, or the host name does not resolve.
    """
    try:
        parts = urlsplit(url)
    except ValueError:  # a malformed address: the client will say so
        return
    if parts.scheme not in ("http", "https") or not parts.hostname or _proxied(parts.hostname):
        return
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError:  # a malformed port: the client will say so
        return
    try:
        with socket.create_connection((parts.hostname, port), timeout=_TIMEOUT_S):
            return
    except ConnectionRefusedError:
        reason = "connection refused"
    except socket.gaierror as exc:
        if exc.errno == socket.EAI_AGAIN:
            return
        reason = "the host name does not resolve"
    except OSError:  # timed out, unreachable network: maybe slow, not known to be absent
        return
    raise ProviderUnreachableError(url, reason)


def _proxied(host: str) -> bool:
    import urllib.request

    return bool(urllib.request.getproxies()) and not urllib.request.proxy_bypass(host)
