"""``browser-agent inspect`` run in-process on test pages with an iframe and a shadow root."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from browser_agent.cli import main_async
from tests.support.server import LocalServer


@pytest.mark.usefixtures("driver")
async def test_inspect_prints_elements_and_timing(
    server: LocalServer, other_server: LocalServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    shot = tmp_path / "shot.png"
    url = server.url(f"dom/frames.html?other={other_server.origin}")
    assert await main_async(["inspect", url, "--screenshot", str(shot)]) == 0
    out = capsys.readouterr().out
    assert "[1]<button>Same frame button</button>" in out
    assert "[2]<button>Cross frame button</button>" in out
    assert "4 elements, capture" in out
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.usefixtures("driver")
async def test_inspect_json_on_shadow_page(server: LocalServer, capsys: pytest.CaptureFixture[str]) -> None:
    assert await main_async(["inspect", server.url("dom/shadow.html"), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [e["text"] or e["name"] for e in data["elements"]] == [
        "Light button",
        "Open button",
        "Nested link",
        "Closed input",
    ]
    assert data["elements"][2]["in_shadow"] is True
