"""Take-over as a person does it, over the UI's WebSocket: what they type is a secret of the run from
then on (never in an element's description, the model's prompts, the timeline, the saved history or the
report), and a page whose script never yields cannot hang their input. Real Chromium, scripted model."""

from __future__ import annotations

import asyncio
import base64
import html
import io
import json
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx
import pytest
import websockets
from langchain_core.messages import BaseMessage
from PIL import Image

from browser_agent import Agent, AgentSettings
from browser_agent.browser import BrowserConfig
from browser_agent.testing import PageServer, ScriptedChatModel
from browser_agent.ui import LiveServer, RunSetup
from browser_agent.ui.takeover import ANSWER_S

pytestmark = pytest.mark.timeout(120)

TYPED = "HumanPW-4711-typed"
PASSWORD = (40, 100)  # the middle of each box, in the viewport's CSS pixels
NICKNAME = (40, 180)
FREEZE = (40, 260)
NICKNAME_BOX = (20, 165, 300, 22)

PAGE = """<!doctype html><html><body style="margin:0;font:16px sans-serif">
<label style="position:absolute;left:20px;top:60px">Password</label>
<input type="password" id="pw" aria-label="Password" style="position:absolute;left:20px;top:85px;width:300px">
<input id="nick" placeholder="Nickname"
  style="position:absolute;left:20px;top:165px;width:300px;height:22px;box-sizing:border-box">
<button id="freeze" style="position:absolute;left:20px;top:245px"
  onclick="document.title = 'frozen'; while (true) {}">Freeze</button>
<p style="position:absolute;left:20px;top:320px">Profile</p>
</body></html>"""


def _told(messages: list[BaseMessage]) -> bool:
    return any("took over the browser" in str(m.content) for m in messages)


def _policy(messages: list[BaseMessage]) -> dict[str, Any]:
    """Wait (a little longer each time, so no loop is seen) until told of the take-over; then finish,
    answering with the nickname field's line of the page as read."""
    state = str(messages[-1].content)
    brain = {"evaluation_previous_goal": "ok", "memory": "waiting", "next_goal": "wait"}
    if _told(messages):
        line = next((ln for ln in state.splitlines() if "Nickname" in ln), "no field")
        return {"current_state": brain, "action": [{"action": "done", "text": line, "success": True}]}
    return {"current_state": brain, "action": [{"action": "wait", "seconds": 0.2 + len(messages) / 1000}]}


@pytest.fixture
def site() -> Any:
    with PageServer({"/profile.html": PAGE}) as pages:
        yield pages


class Viewer:
    """A viewer of the UI: its WebSocket, every text it received, and the controls."""

    def __init__(self, live: LiveServer, socket: Any, client: httpx.AsyncClient) -> None:
        self.live, self.socket, self.client = live, socket, client
        self.texts: list[str] = []
        self._events: list[dict[str, Any]] = []
        self._read = 0

    async def post(self, path: str, body: Any = None) -> Any:
        answer = await self.client.post(f"/api/{path}", json=body)
        self.texts.append(answer.text)
        assert answer.status_code == 200, answer.text
        return answer.json()

    async def events(self, until: Callable[[dict[str, Any]], bool], within_s: float = 30) -> dict[str, Any]:
        """The next event (after the one the last call returned) for which ``until`` holds."""
        async with asyncio.timeout(within_s):
            while True:
                while self._read < len(self._events):
                    self._read += 1
                    if until(self._events[self._read - 1]):
                        return self._events[self._read - 1]
                await self._receive()

    async def _receive(self) -> None:
        payload = await self.socket.recv()
        self.texts.append(payload)
        self._events += json.loads(payload)

    async def masked_frame(self, box: tuple[int, int, int, int], within_s: float = 15) -> None:
        """Wait until the newest frame shows ``box`` (x, y, width, height) blacked out."""
        async with asyncio.timeout(within_s):
            while True:
                frames = [e for e in self._events if e.get("type") == "frame"]
                if frames and _dark_share(frames[-1]["jpeg"], box, frames[-1]["width"]) > 0.9:
                    return
                await self._receive()

    async def send(self, **event: Any) -> None:
        await self.socket.send(json.dumps(event))

    async def pause(self) -> None:
        await self.post("pause")
        await self.events(lambda e: e == {"type": "state", "state": "paused"})


@asynccontextmanager
async def viewing(live: LiveServer) -> AsyncIterator[Viewer]:
    base = f"http://127.0.0.1:{live.port}"
    headers = {"X-Browser-Agent-Token": live.token}
    async with (
        httpx.AsyncClient(base_url=base, params={"token": live.token}, headers=headers) as client,
        websockets.connect(f"ws://127.0.0.1:{live.port}/ws?token={live.token}", origin=base) as socket,  # type: ignore[arg-type]
    ):
        yield Viewer(live, socket, client)


def _dark_share(jpeg_b64: str, box: tuple[int, int, int, int], width: float) -> float:
    picture = Image.open(io.BytesIO(base64.b64decode(jpeg_b64))).convert("L")
    scale = picture.width / width
    x, y, w, h = (round(v * scale) for v in box)
    counts = picture.crop((x + 4, y + 4, x + w - 4, y + h - 4)).histogram()
    return sum(counts[:40]) / sum(counts)


def _forms(value: str) -> list[str]:
    """``value`` as the writers could write it: raw, JSON, HTML, percent-encoded; and its start."""
    return [
        value,
        json.dumps(value)[1:-1],
        html.escape(value),
        quote(value),
        quote(value, safe=""),
        "HumanPW",
    ]


async def test_what_a_person_types_is_a_secret_of_the_run_from_then_on(
    site: PageServer, tmp_path: Path
) -> None:
    model = ScriptedChatModel(policy=_policy, latency_s=0.2)
    runs = tmp_path / "runs"
    setup = RunSetup(model=lambda: model, runs_dir=runs, browser=BrowserConfig(settle_max_ms=1_000))
    async with LiveServer(setup=setup) as live, viewing(live) as viewer:
        await viewer.post("run", {"task": "Wait for the person", "start_url": site.url("/profile.html")})
        await viewer.events(lambda e: e.get("type") == "step_end" and e.get("step", 0) >= 1)
        await viewer.pause()
        for x, y in (PASSWORD, NICKNAME):  # a password field and a plain one, the same text in each
            await viewer.send(kind="click", x=x, y=y)
            for char in TYPED + "X":
                await viewer.send(kind="text", text=char)
            await viewer.send(kind="key", key="Backspace")
        for x, y in (PASSWORD, NICKNAME):  # the clicks after the typing: the fields hold the text now
            await viewer.send(kind="click", x=x, y=y)
        await viewer.send(kind="key", key="F12")  # refused, after every input before it was taken
        await viewer.events(lambda e: e.get("type") == "error" and "F12" in e["message"])
        await viewer.masked_frame(NICKNAME_BOX)  # the live view masks the plain field now
        agent = live.state.control.agent
        assert agent is not None and agent.session is not None
        async with asyncio.timeout(10):
            while await agent.session.page.input_value("#nick") != TYPED:
                await asyncio.sleep(0.05)
        assert await agent.session.page.input_value("#pw") == TYPED
        calls = len(model.calls)
        await viewer.post("resume")
        end = await viewer.events(lambda e: e.get("type") == "run_end")
        await viewer.events(lambda e: e.get("type") == "saved")

    told = "\n".join(str(m.content) for m in model.calls[calls].messages)
    assert told.count('clicked <input type=password> "Password" at (40, 100)') == 2, told
    assert told.count('clicked <input type=text> "Nickname" at (40, 180)') == 2, told
    assert "typed 19 characters; pressed Backspace" in told, told
    assert 'value="<secret>typed_1</secret>"' in told, "the field shows the typed text as its placeholder"
    assert end["success"] is True
    [history] = runs.glob("*.json")
    saved = history.read_text()
    assert "<secret>typed_1</secret>" in saved, "the model's answer quoted the field, as redacted"
    written = {
        "the model's prompts": "\n".join(str(m.content) for call in model.calls for m in call.messages),
        "the timeline and the UI's answers": "\n".join(viewer.texts),
        "the saved history": saved,
        "the report": history.with_suffix(".html").read_text(),
    }
    for where, text in written.items():
        for form in _forms(TYPED):
            assert form not in text, f"{where} holds {form!r}"


async def test_a_page_that_never_answers_cannot_hang_the_persons_input(
    site: PageServer, tmp_path: Path
) -> None:
    model = ScriptedChatModel(policy=_policy, latency_s=0.2)
    async with LiveServer() as live:
        agent = Agent(
            "Wait for the person",
            model,
            browser=BrowserConfig(downloads_dir=tmp_path / "downloads", capture_timeout_ms=2_000),
            hooks=live.hooks(),
            settings=AgentSettings(
                initial_actions=[{"action": "go_to_url", "url": site.url("/profile.html")}]
            ),
        )
        run = asyncio.create_task(agent.run(max_steps=30))
        async with viewing(live) as viewer:
            await viewer.events(lambda e: e.get("type") == "step_end" and e.get("step", 0) >= 1)
            await viewer.pause()
            started = time.monotonic()
            await viewer.send(kind="click", x=FREEZE[0], y=FREEZE[1])  # starts a script that never ends
            error = await viewer.events(lambda e: e.get("type") == "error", within_s=ANSWER_S + 5)
            assert time.monotonic() - started < ANSWER_S + 3
            assert f"did not answer within {ANSWER_S:g} s" in error["message"]
            started = time.monotonic()  # what follows is refused at once while the tab stays busy
            await viewer.send(kind="click", x=NICKNAME[0], y=NICKNAME[1])
            for char in "abcde":
                await viewer.send(kind="text", text=char)
            for _ in range(6):
                error = await viewer.events(lambda e: e.get("type") == "error", within_s=5)
                assert "still does not answer" in error["message"] and "was not sent" in error["message"]
            assert time.monotonic() - started < ANSWER_S, "not ANSWER_S for each"
            assert agent.session is not None and agent.session.page.url.endswith("/profile.html")
            await viewer.post("resume")  # the agent's next reading of the page stops the script
            await viewer.events(lambda e: e.get("type") == "run_end")
        history = await asyncio.wait_for(run, 30)
    assert history.end_reason == "done" and history.is_successful()
    told = "\n".join(str(m.content) for m in model.calls[-1].messages)
    assert 'clicked <button> "Freeze"' in told and "typed" not in told, told
    assert "never yielded and was stopped" in told, told
