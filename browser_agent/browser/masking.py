"""Black out secrets in screenshots without giving the page anything to read or to watch.

Each frame of the tab (cross-origin ones and those of other renderer processes included) is first
placed on the top page's screen by its iframe's box, as DevTools computes it. Each frame on screen is
then read in an isolated world (``browser.mask_frames``): its texts and fields come here, what shows a
secret is decided here (``browser.mask_boxes``), and only the choice of nodes goes back, to measure
them. No secret value is ever sent to the page or to any of its scripts, and the page's DOM is not
touched (no marking attribute, no overlay).

The black boxes are drawn on the screenshot's pixels, not on the page: the JPEG is decoded, painted and
encoded again in the top frame's isolated world, which is handed the picture and the rectangles only.
Every frame on screen is read and measured, and with secret values given the picture is redrawn even
when nothing shows, so what the page's process does during a screenshot never tells whether a secret
is on it.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
from collections.abc import Sequence

from playwright.async_api import CDPSession, Frame, Page

from browser_agent.browser.marks import drawn_marks
from browser_agent.browser.mask_boxes import shown_secrets
from browser_agent.browser.mask_frames import Box, FrameRead, call, frames_of, measure, read
from browser_agent.browser.playwright_errors import PlaywrightError
from browser_agent.browser.watchdog import bounded
from browser_agent.dom.snapshot import DomSnapshot
from browser_agent.errors import ActionTimeoutError, BrowserError

__all__ = [
    "detach",
    "masked_screenshot",
    "paint_boxes",
    "screenshot_for_model",
    "secret_boxes",
    "tab_sessions",
]

_PAD = 2.0  # glyphs may overhang their text box by a pixel or two

# Decodes the JPEG, paints the boxes (CSS pixels, scaled to the picture's device pixels) black and
# encodes it again as JPEG quality 70, like the screenshot itself.
_PAINT_JS = """async function (jpeg, boxes) {
  const decode = (text) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
  const bytes = Uint8Array.fromBase64 ? Uint8Array.fromBase64(jpeg) : decode(jpeg);
  const picture = await createImageBitmap(new Blob([bytes], { type: 'image/jpeg' }));
  const canvas = new OffscreenCanvas(picture.width, picture.height);
  const paint = canvas.getContext('2d');
  paint.drawImage(picture, 0, 0);
  const scale = picture.width / (window.innerWidth || picture.width);
  paint.fillStyle = '#000';
  for (const [x, y, w, h] of boxes) paint.fillRect(x * scale, y * scale, w * scale, h * scale);
  const blob = await canvas.convertToBlob({ type: 'image/jpeg', quality: 0.7 });
  const out = new Uint8Array(await blob.arrayBuffer());
  if (out.toBase64) return out.toBase64();
  let text = '';
  for (let i = 0; i < out.length; i += 32768) text += String.fromCharCode(...out.subarray(i, i + 32768));
  return btoa(text);
}"""


async def masked_screenshot(page: Page, mask_values: Sequence[str], timeout_ms: float) -> str:
    """A JPEG of the viewport, base64, with every place that shows a secret blacked out.

    Password fields are always blacked out; fields and text that show one of ``mask_values`` too.

    Raises:
        PlaywrightError: the page could not be read or photographed.
        BrowserError: a secret shows where the picture could not be painted over.
    """
    values = [v for v in mask_values if v]
    sessions = await tab_sessions(page)
    try:
        top, boxes = await secret_boxes(sessions, values)
        data = await page.screenshot(type="jpeg", quality=70, caret="initial", timeout=timeout_ms)
        shot = base64.b64encode(data).decode()
        if not values and not boxes:
            return shot
        return await paint_boxes(top, shot, boxes)
    finally:
        await detach(sessions)


async def tab_sessions(page: Page) -> list[CDPSession]:
    """DevTools sessions reading ``page``: its own first, then one per frame another process draws."""
    sessions = [await page.context.new_cdp_session(page)]
    try:
        return sessions + await _out_of_process_sessions(page)
    except BaseException:
        await detach(sessions)
        raise


async def detach(sessions: Sequence[CDPSession]) -> None:
    for session in sessions:
        with contextlib.suppress(PlaywrightError):
            await session.detach()


async def secret_boxes(
    sessions: Sequence[CDPSession], values: Sequence[str], worlds: dict[str, int] | None = None
) -> tuple[FrameRead, list[Box]]:
    """The top frame as read, and where the tab shows a secret now (password fields always), in the
    top page's viewport; a frame on screen that could not be read is blacked out whole.

    Raises:
        BrowserError: the top frame could not be read.
    """
    frames = await _frames_on_screen(
        [f for found in await asyncio.gather(*map(frames_of, sessions)) for f in found]
    )
    await asyncio.gather(*(read(f, worlds) for f in frames))
    if frames[0].context_id is None:
        raise BrowserError("The page could not be read to mask its secrets")
    await asyncio.gather(*(_measure(f, values, must=f is frames[0]) for f in frames))
    return frames[0], [box for frame in frames for box in _boxes_of(frame)]


async def _out_of_process_sessions(page: Page) -> list[CDPSession]:
    """A DevTools session for each frame drawn by another process, parents before children."""

    async def attach(frame: Frame) -> tuple[int, CDPSession] | None:
        try:
            return _depth(frame), await page.context.new_cdp_session(frame)
        except PlaywrightError:
            return None  # a frame of the page's own process: its session already reads it

    found = await asyncio.gather(*(attach(f) for f in page.frames if f is not page.main_frame))
    return [session for _d, session in sorted((f for f in found if f), key=lambda f: f[0])]


def _depth(frame: Frame) -> int:
    depth, parent = 0, frame.parent_frame
    while parent is not None:
        depth, parent = depth + 1, parent.parent_frame
    return depth


async def _measure(frame: FrameRead, values: Sequence[str], *, must: bool) -> None:
    shown = shown_secrets(frame.texts, frame.fields, values)
    try:
        await measure(frame, shown)
    except (PlaywrightError, BrowserError):
        if must or shown.texts or shown.fields:
            raise
        # it navigated since it was read, with nothing to hide then: what it shows now is unknown
        frame.context_id = None


async def _frames_on_screen(frames: list[FrameRead]) -> list[FrameRead]:
    """The frames that show on the top page's screen (the top one first), each placed there."""
    by_id = {f.frame_id: f for f in frames}
    owners = await asyncio.gather(*(_iframe_box(f, by_id.get(f.parent_id or "")) for f in frames[1:]))
    origins: dict[CDPSession, tuple[float, float]] = {frames[0].session: (0.0, 0.0)}
    shown = [frames[0]]
    for frame, owner in zip(frames[1:], owners, strict=True):
        parent = by_id.get(frame.parent_id or "")
        if owner is None or parent is None or all(p is not parent for p in shown):
            continue  # not rendered, or inside a frame that is not
        _place(frame, parent, owner, origins)
        if frame.clip is not None:  # else scrolled or clipped out of sight
            shown.append(frame)
    return shown


def _boxes_of(frame: FrameRead) -> list[Box]:
    """What to black out of ``frame``, in the top page's viewport: all of it when it could not be read."""
    if frame.context_id is None:
        return [frame.clip] if frame.clip is not None else []
    boxes = []
    for x, y, width, height in frame.boxes:
        x, y = x + frame.offset[0], y + frame.offset[1]
        visible = _clipped((x - _PAD, y - _PAD, width + 2 * _PAD, height + 2 * _PAD), frame.clip)
        if visible is not None:
            boxes.append(visible)
    return boxes


async def _iframe_box(frame: FrameRead, parent: FrameRead | None) -> Box | None:
    """The content box of ``frame``'s iframe, in the viewport of the process that draws the iframe;
    None when the iframe is gone or not rendered (then nothing of the frame is on screen)."""
    if parent is None:
        return None
    try:
        owner = await parent.session.send("DOM.getFrameOwner", {"frameId": frame.frame_id})
        model = await parent.session.send("DOM.getBoxModel", {"backendNodeId": owner["backendNodeId"]})
    except PlaywrightError:
        return None
    quad: list[float] = model["model"]["content"]
    xs, ys = quad[0::2], quad[1::2]
    return (min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))


def _place(
    frame: FrameRead, parent: FrameRead, owner: Box, origins: dict[CDPSession, tuple[float, float]]
) -> None:
    """Set where ``frame`` shows on the top page, from its iframe's box in its parent's process."""
    base = origins.get(parent.session, (0.0, 0.0))
    content = (owner[0] + base[0], owner[1] + base[1], owner[2], owner[3])
    frame.offset, frame.clip = (content[0], content[1]), _clipped(content, parent.clip)
    if frame.session is not parent.session:
        origins[frame.session] = frame.offset  # the root of another process: its boxes start here


def _clipped(box: Box, clip: Box | None) -> Box | None:
    if clip is None:
        return box
    left, top = max(box[0], clip[0]), max(box[1], clip[1])
    right = min(box[0] + box[2], clip[0] + clip[2])
    bottom = min(box[1] + box[3], clip[1] + clip[3])
    return (left, top, right - left, bottom - top) if right > left and bottom > top else None


async def paint_boxes(top: FrameRead, shot: str, boxes: Sequence[Box]) -> str:
    """``shot`` with ``boxes`` painted black, in the top frame's isolated world.

    Raises:
        BrowserError: the picture could not be painted and some box needed it.
    """
    painted = None
    if top.context_id is not None:
        with contextlib.suppress(PlaywrightError, BrowserError):
            painted = await call(top.session, top.context_id, _PAINT_JS, shot, [list(b) for b in boxes])
    if isinstance(painted, str) and painted:
        return painted
    if boxes:
        raise BrowserError("The screenshot could not be painted over where a secret shows")
    return shot  # nothing to hide: the redraw was only there to look the same either way


async def screenshot_for_model(
    page: Page, mask_values: Sequence[str], marks: DomSnapshot | None, timeout_s: float
) -> str | None:
    """The picture a model or a report gets: masked, with ``marks``' indices drawn when given, within
    ``timeout_s``. ``None`` when it cannot be had in time, or not masked: never one that shows a secret."""

    async def take() -> str:
        async with drawn_marks(page, marks):
            return await masked_screenshot(page, mask_values, timeout_s * 1000)

    try:
        return await bounded(take(), timeout_s + 1, "A screenshot")
    except (ActionTimeoutError, BrowserError, PlaywrightError):
        return None
