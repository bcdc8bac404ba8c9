"""The walk's records match their declarations in ``browser_agent.dom.wire``: every key the real walk
sends on rich pages is declared for its record kind, and every declared key is sent somewhere."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

import pytest

from browser_agent.browser import BrowserSession
from browser_agent.dom import extractor, wire
from tests.support.server import LocalServer

PAGES = [
    "dom/text.html",
    "dom/aria.html",
    "dom/custom.html",
    "dom/shadow.html",
    "dom/frames.html",
    "dom/panels.html",
    "dom/table.html",
    "dom/native.html",
    "dom/icons.html",
    "dom/wrapped_select.html",
]
KINDS: dict[str, Any] = {"text": wire.WireText, "frame": wire.WireFrameMark, "element": wire.WireElement}


def _declared(record: Any) -> tuple[frozenset[str], frozenset[str]]:
    return record.__required_keys__, record.__optional_keys__


async def _walks(session: BrowserSession, server: LocalServer, monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    seen: list[Any] = []
    run = extractor._run

    async def recording(frame: Any, args: dict[str, Any]) -> dict[str, Any] | None:
        data = await run(frame, args)
        if data is not None:
            seen.append(data)
        return data

    monkeypatch.setattr(extractor, "_run", recording)
    for page in PAGES:
        await session.navigate(server.url(page))
        await session.state()
        await extractor.extract_snapshot(session.page, redact=str)  # texts sent uncut, with their cut length
    return seen


async def test_every_key_on_the_wire_is_declared_and_every_declared_key_is_sent(
    session: BrowserSession, server: LocalServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    walks = await _walks(session, server, monkeypatch)
    assert len(walks) > 2 * len(PAGES)  # cut and uncut, and the frames' own walks too
    sent: dict[str, set[str]] = defaultdict(set)
    for data in walks:
        required, optional = _declared(wire.WireResult)
        assert required <= data.keys() <= required | optional, data.keys() ^ required
        for item in data["items"]:
            required, optional = _declared(KINDS[item["kind"]])
            assert required <= item.keys() <= required | optional, (item["kind"], item.keys() ^ required)
            sent[item["kind"]] |= item.keys()
            if "panel" in item:
                assert set(item["panel"]) == set(wire.WirePanel.__required_keys__)
            if "rect" in item:
                assert set(item["rect"]) == set(wire.WireRect.__required_keys__)
        for hole in data["frame_holes"].values():
            assert set(hole) == set(wire.WireFrameHole.__required_keys__)
            assert set(hole["clip"]) == set(wire.WireRect.__required_keys__)
        assert set(data["page_scroll"]) == set(wire.WirePageScroll.__required_keys__)
    for kind, record in KINDS.items():
        required, optional = _declared(record)
        never = (required | optional) - sent[kind]
        assert not never, (kind, never)
