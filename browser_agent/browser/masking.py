"""Black out secrets in screenshots without giving the page anything to read or to watch.

Where secrets show is found in this process (``browser.mask_boxes``) from the browser's own DevTools
snapshot of each document: no secret value is sent to the page or to any of its scripts, and the page's
DOM is not touched (no marking attribute, no overlay). Frames in another renderer process (a cross-site
iframe) get a snapshot of their own and are placed by their iframe's box.

The black boxes are drawn on the screenshot's pixels, not on the page: the JPEG is decoded, painted and
encoded again in an isolated world (the page's scripts cannot reach its objects or prototypes), which
is handed the picture and rectangles only. Whenever secret values are given, that redraw happens even
when nothing was found, so what the page's process does during a screenshot never tells whether a
secret is on it.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from playwright.async_api import CDPSession, Frame, Page

from browser_agent.browser.mask_boxes import Box, DocumentBoxes, shown_secrets
from browser_agent.browser.playwright_errors import PlaywrightError
from browser_agent.errors import BrowserError

__all__ = ["masked_screenshot"]

_WORLD = "browser_agent_masking"
_PAD = 2.0  # glyphs may overhang their text box by a pixel or two
_SNAPSHOT = {"computedStyles": [], "includeDOMRects": False}

# Runs in an isolated world: decodes the JPEG, paints the boxes (CSS pixels, scaled to the picture's
# device pixels) black and encodes it again as JPEG quality 70, like the screenshot itself.
_DRAW_JS = """async function (jpeg, boxes) {
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


@dataclass(slots=True)
class _Target:
    """A renderer target whose documents are snapshotted together: the page, or an out-of-process frame."""

    session: CDPSession
    frame: Frame
    documents: list[DocumentBoxes] = field(default_factory=list)
    unread: bool = False  # its snapshot failed (it was navigating): the whole frame is blacked out
    offset: tuple[float, float] = (0.0, 0.0)
    clip: Box | None = None


async def masked_screenshot(page: Page, mask_values: Sequence[str], timeout_ms: float) -> str:
    """A JPEG of the viewport, base64, with every place that shows a secret blacked out.

    Password fields are always blacked out; fields and text that show one of ``mask_values`` too.

    Raises:
        PlaywrightError: the page could not be read or photographed.
        BrowserError: a secret shows where the picture could not be painted over.
    """
    values = [v for v in mask_values if v]
    main = _Target(await page.context.new_cdp_session(page), page.main_frame)
    targets = [main]
    try:
        targets += await _out_of_process_frames(page)
        await asyncio.gather(*(_read(t, values, must=t is main) for t in targets))
        boxes = await _boxes_on_screen(targets)
        data = await page.screenshot(type="jpeg", quality=70, caret="initial", timeout=timeout_ms)
        shot = base64.b64encode(data).decode()
        if not values and not boxes:
            return shot
        return await _painted(main, shot, boxes)
    finally:
        for target in targets:
            with contextlib.suppress(PlaywrightError):
                await target.session.detach()


async def _out_of_process_frames(page: Page) -> list[_Target]:
    """A target for each frame rendered by another process, parents before children."""

    async def attach(frame: Frame) -> _Target | None:
        try:
            return _Target(await page.context.new_cdp_session(frame), frame)
        except PlaywrightError:
            return None  # a frame of the page's own process: it is in the page's snapshot

    found = await asyncio.gather(*(attach(f) for f in page.frames if f is not page.main_frame))
    return sorted((t for t in found if t is not None), key=lambda t: _depth(t.frame))


def _depth(frame: Frame) -> int:
    depth, parent = 0, frame.parent_frame
    while parent is not None:
        depth, parent = depth + 1, parent.parent_frame
    return depth


async def _read(target: _Target, values: Sequence[str], *, must: bool) -> None:
    try:
        snapshot = await target.session.send("DOMSnapshot.captureSnapshot", _SNAPSHOT)
    except PlaywrightError:
        if must:
            raise
        target.unread = True
        return
    target.documents = shown_secrets(snapshot, values)


async def _boxes_on_screen(targets: list[_Target]) -> list[Box]:
    """Every box to black out, in the top page's viewport coordinates."""
    by_frame = {t.frame: t for t in targets}
    boxes: list[Box] = []
    for target in targets:
        if target is not targets[0] and not await _place(target, by_frame):
            continue
        if target.unread and target.clip is not None:
            boxes.append(target.clip)
        boxes += await _target_boxes(target)
    return boxes


async def _place(target: _Target, by_frame: dict[Frame, _Target]) -> bool:
    """Put an out-of-process frame where its iframe is; False when it is not shown.

    Raises:
        BrowserError: a secret shows in the frame, but its iframe cannot be found.
    """
    parent_frame = target.frame.parent_frame
    while parent_frame is not None and parent_frame not in by_frame:
        parent_frame = parent_frame.parent_frame
    parent = by_frame.get(parent_frame) if parent_frame is not None else None
    try:
        if parent is None:
            raise BrowserError("the frame's parent is gone")
        tree = await target.session.send("Page.getFrameTree")
        owner = await parent.session.send("DOM.getFrameOwner", {"frameId": tree["frameTree"]["frame"]["id"]})
        content = await _content_box(parent.session, owner["backendNodeId"])
    except (PlaywrightError, BrowserError) as exc:
        if target.unread or any(d.boxes for d in target.documents):
            raise BrowserError("A secret shows in a frame whose place on screen is unknown") from exc
        return False  # detached meanwhile, or not rendered: nothing of it is on screen
    box = _moved(content, parent.offset)
    target.offset, target.clip = (box[0], box[1]), _clipped(box, parent.clip)
    return target.clip is not None


async def _target_boxes(target: _Target) -> list[Box]:
    """The boxes of a target's documents, moved into the top page's viewport and clipped to their frames."""
    if not target.documents:
        return []
    boxes: list[Box] = []
    root = target.documents[0]
    placed: list[tuple[DocumentBoxes, tuple[float, float], Box | None]] = [
        (root, (target.offset[0] - root.scroll[0], target.offset[1] - root.scroll[1]), target.clip)
    ]
    while placed:
        doc, offset, clip = placed.pop()
        for box in doc.boxes:
            shown = _clipped(_padded(_moved(box, offset)), clip)
            if shown is not None:
                boxes.append(shown)
        for owner, child_index in doc.frames:
            child = target.documents[child_index]
            try:
                content = _moved(await _content_box(target.session, owner), target.offset)
            except PlaywrightError:
                continue  # the iframe is not rendered: its document is not on screen
            inner = _clipped(content, clip)
            if inner is not None:
                origin = (content[0] - child.scroll[0], content[1] - child.scroll[1])
                placed.append((child, origin, inner))
    return boxes


async def _content_box(session: CDPSession, backend_node_id: int) -> Box:
    """The content box of an element, in its target's viewport coordinates."""
    model = await session.send("DOM.getBoxModel", {"backendNodeId": backend_node_id})
    quad: list[float] = model["model"]["content"]
    xs, ys = quad[0::2], quad[1::2]
    return (min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))


def _moved(box: Box, offset: tuple[float, float]) -> Box:
    return (box[0] + offset[0], box[1] + offset[1], box[2], box[3])


def _padded(box: Box) -> Box:
    return (box[0] - _PAD, box[1] - _PAD, box[2] + 2 * _PAD, box[3] + 2 * _PAD)


def _clipped(box: Box, clip: Box | None) -> Box | None:
    if clip is None:
        return box
    left, top = max(box[0], clip[0]), max(box[1], clip[1])
    right = min(box[0] + box[2], clip[0] + clip[2])
    bottom = min(box[1] + box[3], clip[1] + clip[3])
    return (left, top, right - left, bottom - top) if right > left and bottom > top else None


async def _painted(main: _Target, shot: str, boxes: list[Box]) -> str:
    """``shot`` with ``boxes`` painted black, drawn in an isolated world of the page's main frame.

    Raises:
        BrowserError: the picture could not be painted and some box needed it.
    """
    try:
        frame_id = main.documents[0].frame_id if main.documents else ""
        world = await main.session.send(
            "Page.createIsolatedWorld", {"frameId": frame_id, "worldName": _WORLD}
        )
        reply: dict[str, Any] = await main.session.send(
            "Runtime.callFunctionOn",
            {
                "functionDeclaration": _DRAW_JS,
                "executionContextId": world["executionContextId"],
                "arguments": [{"value": shot}, {"value": [list(b) for b in boxes]}],
                "awaitPromise": True,
                "returnByValue": True,
            },
        )
    except PlaywrightError as exc:
        reply = {"exceptionDetails": str(exc)}
    painted = reply.get("result", {}).get("value")
    if "exceptionDetails" not in reply and isinstance(painted, str) and painted:
        return painted
    if boxes:
        raise BrowserError("The screenshot could not be painted over where a secret shows")
    return shot  # nothing to hide: the redraw was only there to look the same either way
