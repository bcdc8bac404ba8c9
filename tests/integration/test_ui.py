"""The web UI end to end: its page in the test's Chromium, driven by Playwright, watching an agent
(scripted model) that works on a local page in a Chromium of its own."""

from __future__ import annotations

import asyncio
import base64
import io
import json
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
from PIL import Image
from playwright.async_api import Browser, Page

from browser_agent import Agent, AgentHistory, AgentSettings
from browser_agent.batch import TaskSpec, run_many
from browser_agent.browser import BrowserConfig
from browser_agent.testing import PageServer, ScriptedChatModel
from browser_agent.ui import LiveServer, RunSetup
from tests.support.ui_site import FIELD_BOX, FORM_PAGE, HUMAN_BOX, SECRET, ask_policy, takeover_policy

pytestmark = pytest.mark.timeout(120)


@pytest.fixture
def site() -> Any:
    with PageServer({"/form.html": FORM_PAGE}) as pages:
        yield pages


def _setup(tmp_path: Path, model: ScriptedChatModel, **kwargs: Any) -> RunSetup:
    return RunSetup(
        model=lambda: model,
        runs_dir=tmp_path / "runs",
        browser=BrowserConfig(downloads_dir=tmp_path / "downloads", settle_max_ms=1_000),
        **kwargs,
    )


@pytest.fixture
async def ui_page(browser: Browser) -> AsyncIterator[Page]:
    # bypass_csp: Playwright polls its waits with eval, which the page's CSP forbids
    context = await browser.new_context(viewport={"width": 1400, "height": 900}, bypass_csp=True)
    page = await context.new_page()
    yield page
    await context.close()


class Wire:
    """Every text the UI page received: WebSocket messages and HTTP response bodies."""

    def __init__(self, page: Page) -> None:
        self.texts: list[str] = []
        self.frames = 0
        page.on("websocket", lambda ws: ws.on("framereceived", self._received))
        page.on("response", lambda r: asyncio.ensure_future(self._body(r)))

    def _received(self, payload: str | bytes) -> None:
        self.texts.append(payload if isinstance(payload, str) else payload.decode("latin-1"))

    async def _body(self, response: Any) -> None:
        try:
            self.texts.append((await response.body()).decode("utf-8", "replace"))
        except Exception:  # a response the page navigated away from
            return


async def _state_is(page: Page, state: str) -> None:
    await page.wait_for_function(
        f"window.browserAgentUi && window.browserAgentUi.state === '{state}'", timeout=30_000
    )


async def _click_in_view(page: Page, x: float, y: float) -> None:
    """Click the live view where the agent's tab has (x, y)."""
    box = await page.locator("#frame").bounding_box()
    width = await page.evaluate("window.browserAgentUi.frame.width")
    assert box is not None
    scale = box["width"] / width
    await page.mouse.click(box["x"] + x * scale, box["y"] + y * scale)


def _dark_share(jpeg_b64: str, box: tuple[int, int, int, int], width: float) -> float:
    picture = Image.open(io.BytesIO(base64.b64decode(jpeg_b64))).convert("L")
    scale = picture.width / width
    x, y, w, h = (round(v * scale) for v in box)
    counts = picture.crop((x + 4, y + 4, x + w - 4, y + h - 4)).histogram()
    return sum(counts[:40]) / sum(counts)


async def test_a_run_from_the_form_is_watched_paused_taken_over_resumed_and_stopped(
    ui_page: Page, site: PageServer, tmp_path: Path
) -> None:
    model = ScriptedChatModel(policy=takeover_policy(), latency_s=0.3)
    setup = _setup(tmp_path, model, secrets={"pw": SECRET})
    async with LiveServer(setup=setup, fps=8) as live:
        page = ui_page
        wire = Wire(page)
        await page.goto(live.url)
        assert await page.input_value("#f-step-timeout") == "120", "the server's step timeout, shown"
        await page.fill("#f-task", "Set the nickname, then wait for the person")
        await page.fill("#f-url", site.url("/form.html"))
        await page.check("#f-secrets input[value=pw]")
        await page.click("#start")
        await page.wait_for_function("window.browserAgentUi.frames > 0", timeout=30_000)
        await page.wait_for_selector("#timeline li[data-step='2'][data-done]", timeout=30_000)
        steps = await page.eval_on_selector_all(
            "#timeline li[data-step]", "items => items.map(i => +i.dataset.step)"
        )
        assert steps == sorted(steps) and steps[:3] == [0, 1, 2]
        assert "input_text" in await page.inner_text("#timeline li[data-step='1']")

        await page.click("#pause")
        await _state_is(page, "paused")
        agent = live.state.control.agent
        assert agent is not None and agent.session is not None
        # the secret typed into the field is blacked out of the frames
        frame = await page.evaluate("window.browserAgentUi.frame")
        assert _dark_share(frame["jpeg"], FIELD_BOX, frame["width"]) > 0.9
        assert await agent.session.page.input_value("input") == SECRET

        calls = len(model.calls)
        await _click_in_view(page, HUMAN_BOX[0] + HUMAN_BOX[2] / 2, HUMAN_BOX[1] + HUMAN_BOX[3] / 2)
        async with asyncio.timeout(10):
            while await agent.session.page.inner_text("#human") != "clicked by a person":
                await asyncio.sleep(0.05)
        assert len(model.calls) == calls  # paused: the model was not asked meanwhile

        await page.click("#resume")
        await page.wait_for_selector("#timeline li.note", timeout=10_000)
        await page.wait_for_selector("#result:not([hidden])", timeout=30_000)
        told = "\n".join(str(m.content) for m in model.calls[calls].messages)
        assert "took over the browser: clicked <button>" in told
        assert "The person clicked it" in await page.inner_text("#result")

        await page.wait_for_selector("#runs tr a", timeout=10_000)
        async with page.context.expect_page() as opened:
            await page.click("#runs tr a:text('report')")
        report = await opened.value
        await report.wait_for_load_state()
        assert "Set the nickname" in await report.content()

        html = await page.content()
        assert SECRET not in html
        assert wire.texts and not [t for t in wire.texts if SECRET in t]
        assert (tmp_path / "runs").glob("*.json")


async def test_stop_ends_the_run_and_it_is_saved(ui_page: Page, site: PageServer, tmp_path: Path) -> None:
    model = ScriptedChatModel(policy=takeover_policy(type_secret=False), latency_s=0.2)
    async with LiveServer(setup=_setup(tmp_path, model)) as live:
        await ui_page.goto(live.url)
        await ui_page.fill("#f-task", "Wait")
        await ui_page.fill("#f-url", site.url("/form.html"))
        await ui_page.click("#start")
        await ui_page.wait_for_selector("#timeline li[data-step='1'][data-done]", timeout=30_000)
        await ui_page.click("#stop")
        await _state_is(ui_page, "ended")
        assert "stopped" in await ui_page.inner_text("#result")
        await ui_page.wait_for_selector("#runs tr", timeout=10_000)
        saved = list((tmp_path / "runs").glob("*.json"))
        assert len(saved) == 1 and saved[0].with_suffix(".html").is_file()
        calls = len(model.calls)

        await ui_page.click("#runs tr button:text('replay')")
        await ui_page.wait_for_selector("#timeline li:text('Replaying')", timeout=10_000)
        await _state_is(ui_page, "ended")
        replayed = await ui_page.inner_text("#timeline")
        assert "go_to_url" in replayed and "wait(" in replayed, replayed
        assert len(model.calls) == calls, "a replay does not call the model"


async def test_ask_human_shows_the_question_and_returns_the_answer(
    ui_page: Page, site: PageServer, tmp_path: Path
) -> None:
    model = ScriptedChatModel(policy=ask_policy())
    async with LiveServer(setup=_setup(tmp_path, model)) as live:
        await ui_page.goto(live.url)
        await ui_page.fill("#f-task", "Ask which colour")
        await ui_page.fill("#f-url", site.url("/form.html"))
        await ui_page.click("#start")
        await ui_page.wait_for_selector("#question:not([hidden])", timeout=30_000)
        assert "Which colour" in await ui_page.inner_text("#question-text")
        assert "ask_human" in model.calls[0].tool_names or "ask_human" in str(model.calls[0].tools)
        await ui_page.fill("#answer", "teal")
        await ui_page.click("#answer-form button")
        await ui_page.wait_for_selector("#result:not([hidden])", timeout=30_000)
        assert "Colour: teal" in await ui_page.inner_text("#result")


async def test_requests_without_the_token_or_from_another_origin_are_refused(tmp_path: Path) -> None:
    async with LiveServer(runs_dir=tmp_path) as live:
        base = f"http://127.0.0.1:{live.port}"
        async with httpx.AsyncClient() as client:
            assert (await client.get(live.url)).status_code == 200
            assert (await client.get(f"{base}/api/status?token={live.token}")).status_code == 200
            for path in ("/", "/api/status", "/static/app.js", "/api/runs", "/runs/x.json/history"):
                assert (await client.get(base + path)).status_code == 403, path
                assert (await client.get(f"{base}{path}?token=wrong")).status_code == 403, path
            refused = await client.post(
                f"{base}/api/pause?token={live.token}", headers={"Origin": "http://evil.example"}
            )
            assert refused.status_code == 403
            rebound = await client.get(
                f"{base}/api/status?token={live.token}", headers={"Host": "evil.example"}
            )
            assert rebound.status_code == 403
        ws = f"ws://127.0.0.1:{live.port}/ws"
        for url, origin in ((ws, base), (f"{ws}?token={live.token}", "http://evil.example")):
            with pytest.raises(websockets.exceptions.InvalidStatus):
                async with websockets.connect(url, origin=origin):  # type: ignore[arg-type]
                    pass
        async with websockets.connect(f"{ws}?token={live.token}", origin=base) as socket:  # type: ignore[arg-type]
            assert [e["type"] for e in json.loads(await socket.recv())] == ["state"]


async def test_the_page_loads_clean_under_its_own_policy(browser: Browser, tmp_path: Path) -> None:
    """No console error or warning (a favicon refused, a frame rule in a <meta>), no request refused, no
    broken-image icon before the first frame; the policy and the frame rule come as headers."""
    async with LiveServer(runs_dir=tmp_path) as live:
        context = await browser.new_context()  # the page's own policy in force
        page = await context.new_page()
        said: list[str] = []
        page.on("console", lambda m: said.append(f"{m.type}: {m.text}") if m.type != "log" else None)
        refused: list[str] = []
        page.on("response", lambda r: refused.append(f"{r.status} {r.url}") if r.status >= 400 else None)
        answer = await page.goto(live.url)
        await page.wait_for_load_state("networkidle")
        await context.close()
        assert answer is not None
        headers = answer.headers
        assert "frame-ancestors 'none'" in headers["content-security-policy"], headers
        assert "script-src 'self'" in headers["content-security-policy"], headers
    assert said == [] and refused == [], (said, refused)
    index = (Path(__file__).resolve().parents[2] / "browser_agent/ui/static/index.html").read_text()
    assert 'id="frame"' in index and "hidden>" in index.split('id="frame"')[1].split("\n")[0]
    assert "http-equiv" not in index and 'rel="icon"' in index


async def test_a_run_from_code_streams_frames_only_while_someone_watches(
    site: PageServer, tmp_path: Path
) -> None:
    model = ScriptedChatModel(policy=takeover_policy(type_secret=False), latency_s=0.2)
    async with LiveServer(fps=4) as live:
        agent = Agent(
            "Wait for the person",
            model,
            browser=BrowserConfig(downloads_dir=tmp_path / "downloads"),
            controller=live.controller(),
            hooks=live.hooks(),
            settings=AgentSettings(initial_actions=[{"action": "go_to_url", "url": site.url("/form.html")}]),
        )
        assert "ask_human" in agent.controller.registry
        run = asyncio.create_task(agent.run(max_steps=60))
        async with asyncio.timeout(30):
            while not any(e["type"] == "step_end" and e["step"] >= 1 for e in live.state.hub.backlog):
                await asyncio.sleep(0.05)
        assert live.state.live.frames_sent == 0, "nobody watches: no frame is made"

        base = f"http://127.0.0.1:{live.port}"
        async with websockets.connect(
            f"ws://127.0.0.1:{live.port}/ws?token={live.token}", origin=base
        ) as socket:  # type: ignore[arg-type]
            frames: list[dict[str, Any]] = []
            started = time.monotonic()
            async with asyncio.timeout(20):
                while time.monotonic() - started < 3:
                    frames += [e for e in json.loads(await socket.recv()) if e["type"] == "frame"]
            await socket.send(json.dumps({"kind": "click", "x": 10, "y": 10}))  # running: refused
            errors: list[dict[str, Any]] = []
            async with asyncio.timeout(10):
                while not errors:
                    errors = [e for e in json.loads(await socket.recv()) if e["type"] == "error"]
            assert "Pause the run" in errors[0]["message"]
        picture = Image.open(io.BytesIO(base64.b64decode(frames[-1]["jpeg"])))
        assert picture.format == "JPEG" and frames[-1]["width"] == 1280
        # the page repaints every 50 ms: the rate limit holds the stream to about 4 a second
        assert 3 <= len(frames) <= 16, len(frames)
        await asyncio.sleep(0.5)
        sent = live.state.live.frames_sent
        await asyncio.sleep(1.0)
        assert live.state.live.frames_sent == sent, "the last viewer left: the screencast stopped"
        agent.stop()
        history = await run
    assert history.end_reason == "stopped"


async def test_a_running_batch_is_shown_task_by_task(ui_page: Page, site: PageServer, tmp_path: Path) -> None:
    def policy(messages: list[Any]) -> dict[str, Any]:
        ask = str(messages[1].content)
        ok = "fail" not in ask
        return {
            "current_state": {"evaluation_previous_goal": "-", "memory": "-", "next_goal": "finish"},
            "action": [{"action": "done", "text": "finished" if ok else "could not", "success": ok}],
        }

    specs = [
        TaskSpec(task="first", id="one", start_url=site.url("/form.html")),
        TaskSpec(task="please fail", id="two"),
        TaskSpec(task="third", id="three"),
    ]
    async with LiveServer() as live:
        await ui_page.goto(live.url)
        await ui_page.wait_for_function(
            "window.browserAgentUi.socket && window.browserAgentUi.socket.readyState === 1"
        )
        histories = await run_many(
            specs,
            llm=ScriptedChatModel(policy=policy, latency_s=0.3),
            concurrency=2,
            browser=BrowserConfig(downloads_dir=tmp_path / "downloads"),
            executor=live.batch_board(),
        )
        assert len(histories) == 3
        await ui_page.wait_for_selector("#batch-counts:text('finished')", timeout=10_000)
        rows = await ui_page.eval_on_selector_all(
            "#batch-rows tr", "rows => rows.map(r => [r.dataset.index, r.dataset.state, r.innerText])"
        )
    assert [(index, state) for index, state, _ in sorted(rows)] == [
        ("0", "succeeded"),
        ("1", "failed"),
        ("2", "succeeded"),
    ]
    assert "could not" in sorted(rows)[1][2]
    assert "2 succeeded, 1 failed, 0 running" in await ui_page.inner_text("#batch-counts")


async def _phase_is(page: Page, step: int, words: str) -> None:
    await page.wait_for_selector(f"#timeline li[data-step='{step}'] .phase:text('{words}')", timeout=30_000)


async def _seconds_until(page: Page, state: str) -> float:
    started = time.monotonic()
    await _state_is(page, state)
    return time.monotonic() - started


async def test_pause_and_stop_land_at_once_while_a_slow_model_thinks(
    ui_page: Page, site: PageServer, tmp_path: Path
) -> None:
    """The model takes 30 s; Pause cancels its call at once (said in the step's card) and the step asks
    again on resume; Stop cancels it too and ends the run, saved, the live view showing the page after
    the last action; the list of runs counts the steps as the report does."""
    model = ScriptedChatModel(policy=takeover_policy(type_secret=False), latency_s=30)
    async with LiveServer(setup=_setup(tmp_path, model)) as live:
        page = ui_page
        await page.goto(live.url)
        await page.fill("#f-task", "Wait")
        await page.fill("#f-url", site.url("/form.html"))
        await page.click("#start")
        await _phase_is(page, 1, "waiting for the model")
        await page.click("#pause")
        assert await _seconds_until(page, "paused") < 1.5
        card = page.locator("#timeline li[data-step='1']")
        assert "the model call under way was cancelled" in await card.inner_text()
        assert live.state.control.agent is not None
        assert [s.step for s in live.state.control.agent.history.steps] == [0]

        await page.click("#resume")
        await _phase_is(page, 1, "waiting for the model")  # the same step asks again
        await page.click("#stop")
        assert await _seconds_until(page, "ended") < 1.5
        assert "stopped" in await page.inner_text("#result")
        assert "the model call under way was cancelled" in await card.inner_text()
        frame = await page.evaluate("window.browserAgentUi.frame")
        assert frame["final"] is True and frame["jpeg"], "the last frame: the page after the last action"
        assert await page.evaluate("window.browserAgentUi.marks") is None

        await page.wait_for_selector("#runs tr", timeout=10_000)
        [saved] = (tmp_path / "runs").glob("*.json")
        history = AgentHistory.load(saved)
        assert history.end_reason == "stopped" and [s.step for s in history.steps] == [0, 1]
        assert history.final_screenshot is not None and frame["jpeg"] == history.final_screenshot.jpeg_b64
        assert "steps: 1 (+ step 0), stopped" in await page.inner_text("#runs tr")
        report = saved.with_suffix(".html").read_text()
        assert "<td class=dim>Steps</td><td>1 (+ step 0)</td>" in report and "After the last action" in report


async def test_a_retry_shows_once_in_its_step(ui_page: Page, site: PageServer, tmp_path: Path) -> None:
    class RateLimitError(Exception):
        status_code = 429

    answers = iter([RateLimitError("slow down")])

    def policy(messages: list[Any]) -> Any:
        busy = next(answers, None)
        if busy is not None:
            return busy
        brain = {"evaluation_previous_goal": "-", "memory": "-", "next_goal": "finish"}
        return {"current_state": brain, "action": [{"action": "done", "text": "finished", "success": True}]}

    settings = AgentSettings(retry_initial_wait_s=0.3, retry_max_wait_s=0.3)
    setup = _setup(tmp_path, ScriptedChatModel(policy=policy), settings=settings)
    async with LiveServer(setup=setup) as live:
        await ui_page.goto(live.url)
        await ui_page.fill("#f-task", "Finish")
        await ui_page.click("#start")
        await ui_page.wait_for_selector("#result:not([hidden])", timeout=30_000)
        await ui_page.wait_for_timeout(300)  # the last events drawn
        timeline = await ui_page.inner_text("#timeline")
        card = await ui_page.inner_text("#timeline li[data-step='1']")
    assert timeline.count("slow down") == 1, timeline
    assert "retried:" in card and "slow down" in card, "in the card of the step it happened in"
