"""The fence against requests a per-tab guard never sees: hops the browser resolves its own way, first
navigations, other renderer processes, speculative loads, workers, beacons, WebRTC, documents a page
makes itself, and replays. The disallowed server's own log is the evidence: it must receive nothing."""

from __future__ import annotations

import asyncio
import socket
import threading
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from urllib.parse import quote

import pytest
from playwright.async_api import Browser

from browser_agent import AgentHistory, BrowserConfig, BrowserSession, Controller, ReplayOptions, replay
from browser_agent.cli import main_async
from browser_agent.dom.serializer import render
from browser_agent.errors import DomainNotAllowedError
from browser_agent.record import AgentStep
from tests.support.fence_sites import MARKER, AllowedSite, DisallowedSite
from tests.support.pages import index_of


@pytest.fixture
async def fenced(browser: Browser, good: AllowedSite, bad: DisallowedSite) -> AsyncIterator[BrowserSession]:
    bad.requests.clear()
    config = BrowserConfig(allowed_domains=(good.origin,), settle_max_ms=2_000)
    async with BrowserSession(config, browser=browser) as session:
        yield session


async def _quiet(bad: DisallowedSite, seconds: float = 0.6) -> None:
    """Give anything that slipped past the fence time to arrive, then check that nothing did."""
    await asyncio.sleep(seconds)
    assert bad.requests == []


def _hop(good: AllowedSite, location: str) -> str:
    return good.url("/redirect?to=" + quote(location, safe=""))


@pytest.mark.parametrize("location", ["/\\{host}/slash", "http:\\\\{host}/two-slashes", "\t//{host}/tabbed"])
async def test_a_redirect_the_browser_resolves_its_own_way_is_refused(
    fenced: BrowserSession, good: AllowedSite, bad: DisallowedSite, location: str
) -> None:
    await fenced.navigate(good.url("/"))
    target = location.format(host=f"127.0.0.1:{bad.port}")
    with pytest.raises(DomainNotAllowedError, match="outside the allowed domains"):
        await fenced.navigate(_hop(good, target))
    await _quiet(bad)
    assert fenced.page.url == good.url("/")


async def test_a_redirect_on_the_first_navigation_of_a_session_and_of_a_new_tab_is_refused(
    fenced: BrowserSession, good: AllowedSite, bad: DisallowedSite
) -> None:
    with pytest.raises(DomainNotAllowedError):
        await fenced.navigate(_hop(good, f"{bad.origin}/first"))
    [result] = await Controller().run(
        [{"action": "open_tab", "url": _hop(good, f"{bad.origin}/tab")}], fenced
    )
    assert result.error is not None and "outside the allowed domains" in result.error
    await _quiet(bad)


async def test_a_frame_of_another_allowed_site_cannot_move_itself_off_the_list(
    browser: Browser, good: AllowedSite, second: AllowedSite, bad: DisallowedSite
) -> None:
    bad.requests.clear()
    config = BrowserConfig(allowed_domains=(good.origin, second.origin), settle_max_ms=2_000)
    async with BrowserSession(config, browser=browser) as session:
        await session.navigate(good.url("/frame-other"))
        assert any(f.url.startswith(second.origin) for f in session.page.frames)  # the frame did load
        await _quiet(bad, 1.0)
        state = await session.state()
    assert state.snapshot is not None and MARKER not in render(state.snapshot)
    assert any("outside the allowed domains" in e for e in state.events), state.events


async def test_speculative_loads_never_reach_a_site_off_the_list(
    fenced: BrowserSession, good: AllowedSite, bad: DisallowedSite
) -> None:
    await fenced.navigate(good.url("/speculation"))
    await asyncio.sleep(1.0)  # prefetch and prerender start on their own after the load
    index = await index_of(fenced, "Prerendered page")
    [result] = await Controller().run([{"action": "click_element", "index": index}], fenced)
    await _quiet(bad)
    assert fenced.page.url == good.url("/speculation")
    assert MARKER not in await fenced.page.content()
    assert result.error is None or "outside the allowed domains" in result.error


async def test_workers_sockets_and_beacons_are_fenced_with_the_sub_resources(
    browser: Browser, good: AllowedSite, bad: DisallowedSite
) -> None:
    bad.requests.clear()
    config = BrowserConfig(allowed_domains=(good.origin,), fence_subresources=True, settle_max_ms=2_000)
    async with BrowserSession(config, browser=browser) as session:
        await session.navigate(good.url("/workers"))
        await asyncio.sleep(0.5)  # the workers start after the page
        await session.navigate(good.url("/beacon"))
        await session.navigate(good.url("/second"))  # leaving the beacon page fires its pagehide beacon
        await _quiet(bad, 1.0)
        events = session.drain_events()
    assert any(f"to {bad.origin} (outside the allowed domains)" in e for e in events), events


async def test_the_same_requests_do_reach_the_other_site_without_the_fence(
    session: BrowserSession, good: AllowedSite, bad: DisallowedSite
) -> None:
    """The control: the probes above do send what the fence refuses."""
    bad.requests.clear()
    await session.navigate(good.url("/workers"))
    await asyncio.sleep(0.5)
    await session.navigate(good.url("/beacon"))
    await session.navigate(good.url("/second"))
    for _ in range(40):
        if {"/worker-socket", "/shared-socket", "/beacon"} <= {r.split()[1] for r in bad.requests}:
            break
        await asyncio.sleep(0.05)
    paths = {r.split()[1] for r in bad.requests}
    # (the workers' fetches never leave this Chromium unfenced: its local-network rules stop a blob:
    # worker's request to a loopback address; their sockets are not stopped)
    assert {"/shared-socket", "/worker-socket", "/beacon"} <= paths, bad.requests


@pytest.fixture
def stun() -> Iterator[tuple[int, list[bytes]]]:
    """A UDP port on loopback that records every datagram (a STUN server's place)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sock.bind(("127.0.0.1", 0))
    sock.settimeout(0.1)
    received: list[bytes] = []

    def listen() -> None:
        while True:
            try:
                received.append(sock.recvfrom(2048)[0])
            except TimeoutError:
                continue
            except OSError:
                return

    threading.Thread(target=listen, daemon=True).start()
    yield sock.getsockname()[1], received
    sock.close()


_PEER = """async (port) => {
  const frame = document.createElement('iframe');
  document.body.appendChild(frame);
  const Peer = window.RTCPeerConnection || frame.contentWindow.RTCPeerConnection;
  if (!Peer) return 'no peer connections';
  const pc = new Peer({iceServers: [{urls: 'stun:127.0.0.1:' + port}]});
  pc.createDataChannel('x');
  await pc.setLocalDescription(await pc.createOffer());
  await new Promise((done) => setTimeout(done, 1000));
  return 'made';
}"""


@pytest.mark.parametrize("fence", [False, True])
async def test_webrtc_cannot_send_past_the_fence(
    browser: Browser, good: AllowedSite, stun: tuple[int, list[bytes]], fence: bool
) -> None:
    port, received = stun
    config = (
        BrowserConfig(allowed_domains=(good.origin,), fence_subresources=True) if fence else BrowserConfig()
    )
    async with BrowserSession(config, browser=browser) as session:
        await session.navigate(good.url("/"))
        outcome = await session.page.evaluate(_PEER, port)
    if fence:
        assert (outcome, received) == ("no peer connections", [])
    else:  # the control: this machine does send the STUN packets the fence stops
        assert outcome == "made" and received


async def test_documents_a_page_makes_itself_are_refused_unless_their_scheme_is_listed(
    fenced: BrowserSession, good: AllowedSite
) -> None:
    await fenced.navigate(good.url("/local-docs"))
    state = await fenced.state()
    assert state.snapshot is not None
    text = render(state.snapshot)
    assert "DATA-FRAME-TEXT" not in text and "data: documents are outside the allowed domains" in text
    index = await index_of(fenced, "Open the blob page")
    await Controller().run([{"action": "click_element", "index": index}], fenced)
    state = await fenced.state()
    assert state.snapshot is not None and "BLOB-PAGE-TEXT" not in render(state.snapshot)
    assert state.url == good.url("/local-docs")
    assert any("blob: document is outside the allowed domains" in e for e in state.events), state.events


async def test_listed_local_schemes_are_shown(browser: Browser, good: AllowedSite) -> None:
    config = BrowserConfig(allowed_domains=(good.origin, "data:"))
    async with BrowserSession(config, browser=browser) as session:
        await session.navigate(good.url("/local-docs"))
        state = await session.state()
    assert state.snapshot is not None and "DATA-FRAME-TEXT" in render(state.snapshot)


def _edited_history(good: AllowedSite, bad: DisallowedSite) -> AgentHistory:
    """A run made under a fence, edited to go elsewhere."""
    steps = [
        AgentStep(
            step=1, model_output={"action": [{"action": "go_to_url", "url": good.url("/")}]}, results=[{}]
        ),
        AgentStep(
            step=2, model_output={"action": [{"action": "go_to_url", "url": f"{bad.origin}/x"}]}, results=[{}]
        ),
    ]
    return AgentHistory(task="t", steps=steps, allowed_domains=(good.origin,))


async def test_replay_applies_the_fence_the_run_was_recorded_under(
    browser: Browser, good: AllowedSite, bad: DisallowedSite, tmp_path: Path
) -> None:
    bad.requests.clear()
    path = _edited_history(good, bad).save(tmp_path / "run.json")
    history = AgentHistory.load(path, Controller())
    assert history.allowed_domains == (good.origin,)
    async with BrowserSession(BrowserConfig(), browser=browser) as session:
        report = await replay(history, session, Controller(), ReplayOptions(on_failure="skip"))
    await _quiet(bad)
    assert [a.status for a in report.actions] == ["done", "failed"] or report.actions[-1].status == "skipped"
    assert "outside the allowed domains" in report.actions[-1].message


async def test_replay_takes_a_fence_the_user_gives(
    browser: Browser, good: AllowedSite, bad: DisallowedSite
) -> None:
    bad.requests.clear()
    history = _edited_history(good, bad).model_copy(update={"allowed_domains": None})
    session = BrowserSession(BrowserConfig(), browser=browser)  # not started: replay starts it, fenced
    try:
        report = await replay(history, session, Controller(), ReplayOptions(allowed_domains=(good.origin,)))
        assert session.fence is not None and session.fence.proxied
    finally:
        await session.close()
    await _quiet(bad)
    assert report.stopped is not None and "outside the allowed domains" in report.stopped


async def _replay_cli(path: Path, *args: str) -> int:
    """``browser-agent replay`` run in this loop, on the worker's driver."""
    return await main_async(["replay", str(path), "--on-failure", "skip", *args])


@pytest.mark.usefixtures("driver")
async def test_browser_agent_replay_keeps_to_the_recorded_fence_unless_told_otherwise(
    good: AllowedSite, bad: DisallowedSite, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _edited_history(good, bad).save(tmp_path / "run.json")
    bad.requests.clear()
    fenced = await _replay_cli(path)
    await _quiet(bad, 0.2)
    said = "".join(capsys.readouterr())
    assert fenced == 1, said
    assert "outside the allowed domains" in said
    opened = await _replay_cli(path, "--allowed-domain", "*")
    assert opened == 0, capsys.readouterr()
    assert bad.requests == ["GET /x"]
