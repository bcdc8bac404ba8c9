"""The fence's proxy spoken to directly, as a hostile page's browser could: what it forwards is only ever
the one request it judged, to the host it judged."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest

from browser_agent.browser.fence import DomainFence
from tests.support.fence_sites import AllowedSite, DisallowedSite


@pytest.fixture(scope="module")
def sites() -> Iterator[tuple[AllowedSite, DisallowedSite]]:
    with DisallowedSite() as bad, AllowedSite(bad.origin) as good:
        yield good, bad


async def _exchange(proxy: str, raw: bytes) -> bytes:
    host, port = proxy.removeprefix("http://").split(":")
    reader, writer = await asyncio.open_connection(host, int(port))
    writer.write(raw)
    await writer.drain()
    try:
        return await asyncio.wait_for(reader.read(), 5)
    finally:
        writer.close()


def _get(url: str, host: str, *extra: str) -> bytes:
    lines = [
        f"GET {url} HTTP/1.1",
        f"Host: {host}",
        "Sec-Fetch-Mode: navigate",
        "Sec-Fetch-Dest: document",
        *extra,
    ]
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


async def test_a_second_request_on_a_kept_alive_connection_never_passes(
    sites: tuple[AllowedSite, DisallowedSite],
) -> None:
    good, bad = sites
    bad.requests.clear()
    fence = DomainFence((good.origin,))
    proxy = (await fence.proxy_option())["server"]
    try:
        first = _get(good.url("/"), f"127.0.0.1:{good.port}", "Connection: keep-alive")
        second = _get(f"{bad.origin}/smuggled", f"127.0.0.1:{bad.port}")
        reply = await _exchange(proxy, first + second)
    finally:
        await fence.close()
    assert reply.startswith(b"HTTP/1.0 200") or reply.startswith(b"HTTP/1.1 200")
    assert b"Connection: close" in reply and b"Allowed home" in reply
    await asyncio.sleep(0.2)
    assert bad.requests == []


@pytest.mark.parametrize("url", ["{bad}/x", "http://127.0.0.1:{good_port}@127.0.0.1:{bad_port}/x"])
async def test_a_document_is_judged_by_the_host_the_proxy_would_connect_to(
    sites: tuple[AllowedSite, DisallowedSite], url: str
) -> None:
    good, bad = sites
    bad.requests.clear()
    fence = DomainFence((good.origin,))
    proxy = (await fence.proxy_option())["server"]
    target = url.format(bad=bad.origin, good_port=good.port, bad_port=bad.port)
    try:
        reply = await _exchange(proxy, _get(target, f"127.0.0.1:{good.port}"))
    finally:
        await fence.close()
    assert reply.startswith(b"HTTP/1.1 204")  # a navigation that is not committed: the tab stays
    await asyncio.sleep(0.2)
    assert bad.requests == []
    assert [b.url for b in fence.blocked] == [target]


async def test_tunnels_off_the_list_are_refused_when_sub_resources_are_fenced(
    sites: tuple[AllowedSite, DisallowedSite],
) -> None:
    good, bad = sites
    bad.requests.clear()
    fence = DomainFence((good.origin,), subresources=True)
    proxy = (await fence.proxy_option())["server"]
    try:
        refused = await _exchange(proxy, f"CONNECT 127.0.0.1:{bad.port} HTTP/1.1\r\n\r\n".encode())
        opened = await _exchange(
            proxy,
            f"CONNECT 127.0.0.1:{good.port} HTTP/1.1\r\n\r\n".encode()
            + f"GET /second HTTP/1.1\r\nHost: 127.0.0.1:{good.port}\r\nConnection: close\r\n\r\n".encode(),
        )
    finally:
        await fence.close()
    assert refused.startswith(b"HTTP/1.1 403")
    assert opened.startswith(b"HTTP/1.1 200 Connection Established") and b"Second allowed page" in opened
    assert bad.requests == []
    assert fence.drain_events() == [
        f"blocked 1 request(s) of the page to https://127.0.0.1:{bad.port} (outside the allowed domains)"
    ]


async def test_without_the_sub_resource_fence_only_documents_are_refused(
    sites: tuple[AllowedSite, DisallowedSite],
) -> None:
    good, bad = sites
    bad.requests.clear()
    fence = DomainFence((good.origin,))
    proxy = (await fence.proxy_option())["server"]
    image = f"GET {bad.origin}/pixel.gif HTTP/1.1\r\nHost: 127.0.0.1:{bad.port}\r\nSec-Fetch-Dest: image\r\n"
    try:
        reply = await _exchange(proxy, (image + "Sec-Fetch-Mode: no-cors\r\n\r\n").encode())
    finally:
        await fence.close()
    assert reply.startswith(b"HTTP/1.0 200")
    assert bad.requests == ["GET /pixel.gif"]
