"""The check of --base-url before a command loads the providers and starts a browser: only a clear "no
one is there" stops it."""

from __future__ import annotations

import pickle
import socket

import pytest

from browser_agent.cli import server_check as reach
from browser_agent.cli.server_check import check_reachable
from browser_agent.errors import ModelError, ProviderUnreachableError


def _free_port() -> int:
    with socket.create_server(("127.0.0.1", 0)) as listener:
        return int(listener.getsockname()[1])  # closed on return: nothing listens there now


def test_a_refused_connection_is_one_line_naming_the_url(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy"):
        monkeypatch.delenv(name, raising=False)
    url = f"http://127.0.0.1:{_free_port()}/v1"
    with pytest.raises(ProviderUnreachableError) as raised:
        check_reachable(url)
    assert str(raised.value) == f"cannot reach {url}: connection refused — is the server running?"
    assert isinstance(raised.value, ModelError) and raised.value.url == url
    copy = pickle.loads(pickle.dumps(raised.value))
    assert str(copy) == str(raised.value) and copy.reason == "connection refused"


def test_a_listening_server_passes() -> None:
    with socket.create_server(("127.0.0.1", 0)) as listener:
        check_reachable(f"http://127.0.0.1:{listener.getsockname()[1]}/v1")


@pytest.mark.parametrize(("errno", "stops"), [(socket.EAI_NONAME, True), (socket.EAI_AGAIN, False)])
def test_an_unknown_host_stops_a_temporary_lookup_failure_does_not(
    errno: int, stops: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    def lookup_fails(*args: object, **kwargs: object) -> socket.socket:
        raise socket.gaierror(errno, "lookup failed")

    monkeypatch.setattr(reach.socket, "create_connection", lookup_fails)
    monkeypatch.setattr(reach, "_proxied", lambda host: False)
    if stops:
        with pytest.raises(ProviderUnreachableError, match="the host name does not resolve"):
            check_reachable("https://models.example.invalid/v1")
    else:
        check_reachable("https://models.example.invalid/v1")


def test_through_a_proxy_or_not_http_nothing_is_concluded(monkeypatch: pytest.MonkeyPatch) -> None:
    url = f"http://127.0.0.1:{_free_port()}/v1"
    monkeypatch.setenv("HTTP_PROXY", "http://proxy.example:3128")
    monkeypatch.delenv("NO_PROXY", raising=False)
    monkeypatch.delenv("no_proxy", raising=False)
    check_reachable(url)  # the client would go through the proxy: the direct road says nothing
    check_reachable("unix:///tmp/socket")
