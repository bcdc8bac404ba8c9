"""Catch this process reaching for a host off the machine: a name looked up (a DNS query) or a socket
connected to an address that is not loopback. The suite serves every page on 127.0.0.1; anything else is
a leak (a fence proxy that dialled a saved page's far scripts once made a CI load time out).

Python's audit events see the sockets of this process only (the test's servers, proxies and clients), not
Chromium's, which its launch flags keep local (``block_external_network``).
"""

from __future__ import annotations

import ipaddress
import socket
import sys
import threading
from typing import Any

__all__ = ["OffMachine"]


_THIS_HOST = socket.gethostname().lower()  # its own name resolves on the machine (/etc/hosts)


def _local(host: object) -> bool:
    if isinstance(host, bytes):
        host = host.decode("ascii", "replace")
    if host is None or not isinstance(host, str):
        return True  # a Unix socket's path, or a lookup of no name
    name = host.strip("[]").lower()
    if name in ("", "localhost", _THIS_HOST) or name.endswith(".localhost"):
        return True
    try:
        address = ipaddress.ip_address(name.split("%")[0])
    except ValueError:
        return False  # a name: its lookup is a query to a resolver
    return address.is_loopback or address.is_unspecified


class OffMachine:
    """Records, from installation on, each lookup or connection aimed off the machine."""

    def __init__(self) -> None:
        self._seen: list[str] = []
        self._lock = threading.Lock()

    def install(self) -> None:
        sys.addaudithook(self._hook)  # hooks cannot be removed: install once per process

    def take(self) -> list[str]:
        """What was recorded since the last call."""
        with self._lock:
            seen, self._seen = self._seen, []
        return seen

    def _hook(self, event: str, args: tuple[Any, ...]) -> None:
        if event == "socket.getaddrinfo":
            host = args[0]
        elif event == "socket.connect":
            address = args[1]
            host = address[0] if isinstance(address, tuple) else None
        else:
            return
        if not _local(host):
            with self._lock:
                self._seen.append(f"{event} {host!r}")
