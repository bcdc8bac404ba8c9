"""The suite's own guard (tests/support/off_machine.py) tells loopback from everything else."""

from __future__ import annotations

import socket

from tests.support.off_machine import OffMachine


def test_lookups_and_connections_off_the_machine_are_recorded_and_loopback_is_not() -> None:
    guard = OffMachine()  # fed by hand: installing a second hook would stay for the whole worker
    for host in ("127.0.0.1", "localhost", "::1", "[::1]", "127.0.0.2", "0.0.0.0", "ui.localhost", None):
        guard._hook("socket.getaddrinfo", (host, 80, 0, 0, 0, 0))
    guard._hook("socket.connect", (socket.socket, "/tmp/a-unix-socket"))
    guard._hook("socket.connect", (socket.socket, ("127.0.0.1", 8080)))
    guard._hook("open", ("/etc/hosts", "r", 0))
    assert guard.take() == []

    guard._hook("socket.getaddrinfo", ("pictures.invalid", 443, 0, 0, 0, 0))
    guard._hook("socket.getaddrinfo", (b"cdn.example", 80, 0, 0, 0, 0))
    guard._hook("socket.connect", (socket.socket, ("10.0.0.7", 80)))
    guard._hook("socket.connect", (socket.socket, ("2001:db8::1", 443, 0, 0)))
    assert [line.split()[1] for line in guard.take()] == [
        "'pictures.invalid'",
        "b'cdn.example'",
        "'10.0.0.7'",
        "'2001:db8::1'",
    ]
    assert guard.take() == []


def test_the_machine_s_own_name_is_local() -> None:
    guard = OffMachine()
    guard._hook("socket.getaddrinfo", (socket.gethostname(), 80, 0, 0, 0, 0))
    assert guard.take() == []
