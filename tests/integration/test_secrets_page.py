"""Secrets and the page, each against real Chromium and a page that works against the agent.

A masked screenshot gives the page nothing: no secret value reaches any of its scripts (which spy on
the string and array methods a search would use) and its DOM is not touched; yet the picture is black
where a secret shows, in an open shadow root and in frames of other origins and processes too. A
scoped secret is filled only into frames and addresses of its sites. Text for the extraction model is
never filled.
"""

from __future__ import annotations

import base64
import html
import io
import json
from urllib.parse import quote, quote_plus, urlsplit

from PIL import Image, ImageStat
from playwright.async_api import Frame, Page, Request

from browser_agent import Agent, AgentSettings, BrowserSession
from browser_agent.browser.marks import OVERLAY_ID
from browser_agent.browser.mask_boxes import shown_secrets
from browser_agent.browser.mask_frames import frames_of, measure, read
from browser_agent.browser.masking import masked_screenshot
from browser_agent.testing import ScriptedChatModel
from tests.support.actions import run1
from tests.support.fence_sites import DisallowedSite
from tests.support.pages import index_of
from tests.support.server import LocalServer

SHOWN = "shown-Secret-71"  # the page shows it (as if the agent had typed it there)
ELSEWHERE = "elsewhere-Secret-93"  # a secret of another site, never on this page
BLACK, BRIGHT = 40.0, 100.0  # mean grey level (0-255) of a blacked-out box, and of an ordinary one

# The boxes (viewport CSS pixels) of what the hostile page shows: the secret in the light DOM, in an
# open shadow root and in a field, and an unrelated yellow block.
_BOXES_JS = """() => {
  const box = (e) => { const r = e.getBoundingClientRect(); return [r.x, r.y, r.width, r.height]; };
  return JSON.stringify({
    code: box(document.getElementById('code')),
    shadow: box(document.getElementById('host').shadowRoot.querySelector('b')),
    field: box(document.getElementById('field')),
    plain: box(document.getElementById('plain')),
  });
}"""


def forms(value: str) -> set[str]:
    return {value, quote(value), quote_plus(value), html.escape(value), json.dumps(value)[1:-1]}


def hostile_url(server: LocalServer, origin: str | None = None) -> str:
    return (origin or server.origin) + f"/safety/hostile.html?shown={quote_plus(SHOWN)}"


async def spied(page: Page | Frame) -> tuple[list[str], list[str]]:
    """What the hostile page caught through its spies, and the DOM changes it saw."""
    caught = json.loads(await page.evaluate("JSON.stringify(window.__caught)"))
    mutations = json.loads(await page.evaluate("JSON.stringify(window.__mutations)"))
    return caught, mutations


async def boxes(frame: Page | Frame, origin: tuple[float, float] = (0.0, 0.0)) -> dict[str, list[float]]:
    found: dict[str, list[float]] = json.loads(await frame.evaluate(_BOXES_JS))
    return {name: [b[0] + origin[0], b[1] + origin[1], b[2], b[3]] for name, b in found.items()}


def grey(picture: Image.Image, box: list[float]) -> float:
    """The mean grey level of the middle of ``box`` (half its width and height)."""
    x, y, w, h = box
    middle = (int(x + w / 4), int(y + h / 4), int(x + 3 * w / 4), int(y + 3 * h / 4))
    assert middle[2] > middle[0] and middle[3] > middle[1] and middle[3] <= picture.height, box
    return float(ImageStat.Stat(picture.crop(middle)).mean[0])


def picture(jpeg_b64: str) -> Image.Image:
    return Image.open(io.BytesIO(base64.b64decode(jpeg_b64))).convert("L")


def assert_masked(shot: Image.Image, where: dict[str, list[float]], names: tuple[str, ...]) -> None:
    for name in names:
        assert grey(shot, where[name]) < BLACK, f"{name} is not blacked out"
    assert grey(shot, where["plain"]) > BRIGHT, "an unrelated block was blacked out"


async def test_a_masked_screenshot_gives_a_hostile_page_nothing_and_is_black_where_a_secret_shows(
    session: BrowserSession, server: LocalServer
) -> None:
    await session.navigate(hostile_url(server))
    page = session.page
    await session.state()  # the capture reads the page's own text; only the screenshot is watched
    await page.evaluate("window.__caught = []; window.__mutations = []")

    shot = picture(await masked_screenshot(page, [SHOWN, ELSEWHERE], 15_000))

    caught, mutations = await spied(page)  # (Playwright's own evaluate calls leave a few arrays there)
    assert not [c for c in caught if any(f in c for v in (SHOWN, ELSEWHERE) for f in forms(v))]
    assert mutations == []
    where = await boxes(page)
    assert_masked(shot, where, ("code", "shadow", "field"))
    plain = picture(base64.b64encode(await page.screenshot(type="jpeg")).decode())
    assert grey(plain, where["code"]) > BRIGHT and grey(plain, where["shadow"]) > BRIGHT  # text shows there


async def test_vision_and_recorded_screenshots_are_masked_and_the_page_learns_no_secret(
    session: BrowserSession, server: LocalServer
) -> None:
    await session.navigate(hostile_url(server))
    reply = {
        "current_state": {"evaluation_previous_goal": "", "memory": "", "next_goal": "end"},
        "action": [{"action": "done", "text": "seen", "success": True}],
    }
    llm = ScriptedChatModel(replies=[reply])
    agent = Agent(
        "Look at the account",
        llm,
        browser=session,
        settings=AgentSettings(use_vision=True, record_screenshots=True),
        sensitive_data={"code": SHOWN, "https://elsewhere.example": {"other": ELSEWHERE}},
    )
    history = await agent.run(max_steps=1)

    caught, mutations = await spied(session.page)
    assert not [c for c in caught if any(f in c for f in forms(ELSEWHERE))]
    assert mutations and all(OVERLAY_ID in m and m.startswith("childList") for m in mutations), mutations
    where = await boxes(session.page)
    recorded = history.steps[0].screenshot
    assert recorded is not None
    assert_masked(picture(recorded.jpeg_b64), where, ("code", "shadow", "field"))
    sent = llm.calls[0].messages[-1].content
    assert isinstance(sent, list)
    url = next(p["image_url"]["url"] for p in sent if isinstance(p, dict) and p.get("type") == "image_url")
    assert_masked(picture(url.split(",", 1)[1]), where, ("code", "shadow", "field"))


async def test_text_in_frames_of_other_origins_and_processes_is_masked(
    session: BrowserSession, server: LocalServer, other_server: LocalServer
) -> None:
    same_site = hostile_url(other_server)  # another origin, rendered by the page's own process
    other_site = hostile_url(other_server, f"http://localhost:{other_server.port}")  # its own process
    await session.navigate(
        server.url(f"safety/framed.html?frame={quote(same_site)}&frame={quote(other_site)}")
    )
    page = session.page
    frames = [f for f in page.frames if urlsplit(f.url).path.endswith("hostile.html")]
    assert len(frames) == 2
    for frame in frames:
        await frame.wait_for_function("document.readyState === 'complete'")
    origins = json.loads(
        await page.evaluate(
            "JSON.stringify([...document.querySelectorAll('iframe')].map((f) => { "
            "const r = f.getBoundingClientRect(); return [f.src, r.x + f.clientLeft, r.y + f.clientTop]; }))"
        )
    )
    shot = picture(await masked_screenshot(page, [SHOWN], 15_000))

    for frame in frames:
        _src, x, y = next(o for o in origins if o[0] == frame.url)
        assert_masked(shot, await boxes(frame, (x, y)), ("code", "shadow"))


_SHOWN_PAGE = """<!doctype html><body style="margin: 0; font: 20px monospace">
<p id="split">pass<b>wo</b>rd-9 here</p>
<p id="spaced">with   pass
   word-8 spaced</p>
<p id="hidden" style="display: none">password-9</p>
<p id="other">nothing to hide</p>
<input id="pw" type="password" value="whatever">
<input id="hint" placeholder="password-9">
<select id="pick"><option>a</option><option selected>password-9</option></select>
<textarea id="notes">the password-9 is here</textarea>
</body>"""


async def test_where_a_secret_shows_is_found_from_the_frame_s_texts_and_fields(
    session: BrowserSession,
) -> None:
    page = session.page
    await page.set_content(_SHOWN_PAGE)
    cdp = await session.context.new_cdp_session(page)
    [frame] = await frames_of(cdp)
    await read(frame)
    shown = shown_secrets(frame.texts, frame.fields, ["password-9", "pass word-8"])
    assert len(shown.texts) == 5 and len(shown.fields) == 4  # split: 3 text nodes, spaced, hidden; 4 fields
    await measure(frame, shown)
    found = [(round(x), round(y)) for x, y, _w, _h in frame.boxes]
    expected = json.loads(
        await page.evaluate(
            """() => JSON.stringify(['split', 'spaced', 'pw', 'hint', 'pick', 'notes'].map((id) => {
                 const r = document.getElementById(id).getBoundingClientRect(); return [id, r.x, r.y]; }))"""
        )
    )
    for name, x, y in expected:  # every place is covered by a box that starts on its line
        assert any(abs(by - y) < 4 and bx >= x - 1 for bx, by in found), (name, found)
    other = await page.evaluate("document.getElementById('other').getBoundingClientRect().y")
    assert not [b for b in found if abs(b[1] - other) < 4]
    assert len(found) == 8  # one line each: the hidden paragraph has no box


def requests_of(session: BrowserSession) -> list[str]:
    """Every request the context sends from now on (URL and body), for the test to search."""
    seen: list[str] = []

    def on_request(request: Request) -> None:
        seen.append(f"{request.url} {request.post_data or ''}")

    session.context.on("request", on_request)
    return seen


async def test_a_scoped_secret_is_typed_only_into_frames_of_its_sites(
    session: BrowserSession, server: LocalServer, other_server: LocalServer
) -> None:
    pw = "framed-pass-4417"
    secrets = {server.origin: {"pw": pw}}
    child = other_server.url("safety/login_get.html")
    await session.navigate(server.url(f"safety/framed.html?frame={quote(child)}"))
    frame = next(f for f in session.page.frames if f.url == child)
    await frame.wait_for_selector("input[name=pw]")
    sent = requests_of(session)

    framed = await run1(
        session,
        {"action": "input_text", "index": await index_of(session, "Password"), "text": "<secret>pw</secret>"},
        sensitive_data=secrets,
    )
    assert framed.error is not None and "may only be used on" in framed.error and "frame" in framed.error
    assert pw not in framed.error and await frame.input_value("input[name=pw]") == ""
    top = await run1(
        session,
        {
            "action": "input_text",
            "index": await index_of(session, "Top field"),
            "text": "<secret>pw</secret>",
        },
        sensitive_data=secrets,
    )
    assert top.error is None and await session.page.input_value("#top") == pw
    assert not [r for r in sent if any(f in r for f in forms(pw))]


async def test_a_scoped_secret_goes_only_into_addresses_of_its_sites(
    session: BrowserSession, server: LocalServer, bad: DisallowedSite
) -> None:
    pw = "address-pass-8812"
    secrets = {server.origin: {"pw": pw}}
    await session.navigate(server.url("safety/calm.html"))
    sent = requests_of(session)
    elsewhere = [
        f"{bad.origin}/?q=<secret>pw</secret>",
        # A browser reads "\" as "/": this goes to the other site, whatever urlsplit says.
        f"{bad.origin}\\@127.0.0.1:{server.port}/?q=<secret>pw</secret>",
    ]
    for url in elsewhere:
        for action in ("go_to_url", "open_tab"):
            refused = await run1(session, {"action": action, "url": url}, sensitive_data=secrets)
            assert refused.error is not None and "may only be sent to" in refused.error, (action, url)
            assert pw not in refused.error
    assert session.page.url == server.url("safety/calm.html") and len(session.context.pages) == 1
    opened = await run1(
        session,
        {"action": "go_to_url", "url": server.url("safety/calm.html?q=<secret>pw</secret>")},
        sensitive_data=secrets,
    )
    assert opened.error is None and session.page.url == server.url(f"safety/calm.html?q={pw}")
    assert not [r for r in bad.requests if any(f in r for f in forms(pw))]
    assert all(r.startswith(server.origin) for r in sent), sent


async def test_extract_content_sends_its_goal_to_the_model_with_placeholders_kept(
    session: BrowserSession, server: LocalServer
) -> None:
    await session.navigate(server.url("safety/calm.html"))
    llm = ScriptedChatModel(replies=["Nothing about it here."])
    result = await run1(
        session,
        {"action": "extract_content", "goal": "where is <secret>pw</secret> shown"},
        extraction_llm=llm,
        sensitive_data={"pw": "goal-pass-5521"},
    )
    assert result.error is None
    asked = "\n".join(str(m.content) for m in llm.calls[0].messages)
    assert "goal-pass-5521" not in asked and "Goal: where is <secret>pw</secret> shown" in asked
