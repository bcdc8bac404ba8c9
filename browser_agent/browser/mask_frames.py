"""Read a tab's frames for masking, each in an isolated world the page's scripts cannot reach.

An isolated world shares the DOM with the page but none of its JavaScript objects: a page that patches
``String.prototype.includes`` or defines getters on its elements changes nothing there, and cannot see
what runs in it. Two calls per frame, made for every frame whatever the secrets are:

1. ``read``: the raw text of every text node in document order (open shadow roots included, scripts and
   styles left out) and what each field shows; the nodes are kept in the isolated world.
2. ``measure``: the boxes, in the frame's viewport, of the kept nodes this process chose
   (``browser.mask_boxes``), line by line for text.

No secret value is sent in either call.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, field
from typing import Any

from playwright.async_api import CDPSession

from browser_agent.browser.mask_boxes import FieldText, Shown
from browser_agent.browser.playwright_errors import PlaywrightError
from browser_agent.errors import BrowserError

__all__ = ["WORLD", "Box", "FrameRead", "frames_of", "measure", "read"]

WORLD = "browser_agent_masking"

Box = tuple[float, float, float, float]
"""``(x, y, width, height)`` in CSS pixels."""

_READ_JS = """function () {
  const skip = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE', 'HEAD']);
  const textNodes = [], fieldNodes = [], texts = [], fields = [];
  const stack = document.documentElement ? [document.documentElement] : [];
  while (stack.length) {
    const node = stack.pop();
    if (node.nodeType === Node.TEXT_NODE) { textNodes.push(node); texts.push(node.data); continue; }
    const tag = node.nodeType === Node.ELEMENT_NODE ? node.tagName.toUpperCase() : '';
    if (skip.has(tag)) continue;
    if (tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT') {
      const shows = tag === 'SELECT' ? Array.from(node.selectedOptions, (o) => o.text)
        : [String(node.value), node.getAttribute('placeholder') || ''];
      fieldNodes.push(node);
      fields.push([tag === 'INPUT' && String(node.type).toLowerCase() === 'password', shows]);
      continue;
    }
    const children = node.childNodes;
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
    if (node.shadowRoot) stack.push(node.shadowRoot);  // popped first: shown instead of the children
  }
  globalThis.__browserAgentMasking = [textNodes, fieldNodes];
  return [texts, fields];
}"""

_MEASURE_JS = """function (texts, fields) {
  const [textNodes, fieldNodes] = globalThis.__browserAgentMasking || [[], []];
  delete globalThis.__browserAgentMasking;
  const boxes = [];
  const add = (r) => { if (r.width > 0 && r.height > 0) boxes.push([r.left, r.top, r.width, r.height]); };
  const range = document.createRange();
  for (const i of texts) {
    const node = textNodes[i];
    if (!node || !node.isConnected) continue;
    range.selectNodeContents(node);
    for (const r of range.getClientRects()) add(r);
  }
  for (const i of fields) {
    const node = fieldNodes[i];
    if (node && node.isConnected) add(node.getBoundingClientRect());
  }
  return boxes;
}"""


@dataclass(slots=True)
class FrameRead:
    """One frame, what was read of it, and where it sits on the top page's screen.

    Attributes:
        context_id: Its isolated world; ``None`` when it could not be read (it was navigating).
        boxes: What to black out, in the frame's own viewport.
        offset: Where the frame's viewport starts on the top page's viewport, once placed.
        clip: The part of the top page's viewport the frame shows in (``None``: all of it).
    """

    session: CDPSession
    frame_id: str
    parent_id: str | None
    context_id: int | None = None
    texts: list[str] = field(default_factory=list)
    fields: list[FieldText] = field(default_factory=list)
    boxes: list[Box] = field(default_factory=list)
    offset: tuple[float, float] = (0.0, 0.0)
    clip: Box | None = None


async def frames_of(session: CDPSession) -> list[FrameRead]:
    """The frames ``session``'s renderer draws, parents before children."""
    tree: dict[str, Any] = (await session.send("Page.getFrameTree"))["frameTree"]
    found: list[FrameRead] = []
    pending = [tree]
    while pending:
        node = pending.pop(0)
        frame = node["frame"]
        found.append(FrameRead(session, frame["id"], frame.get("parentId")))
        pending += node.get("childFrames", [])
    return found


async def read(frame: FrameRead, worlds: dict[str, int] | None = None) -> None:
    """Read ``frame``'s texts and fields; a frame that cannot be read keeps ``context_id`` None.

    ``worlds`` (frame id → isolated world) lets a caller that reads the same tab again and again (the
    live view) reuse each frame's world while its document lives, instead of making one per read.
    """
    known = worlds.get(frame.frame_id) if worlds is not None else None
    try:
        if known is not None:
            with contextlib.suppress(PlaywrightError, BrowserError):
                texts, fields = await call(frame.session, known, _READ_JS)
                frame.context_id = known
        if frame.context_id is None:
            world = await frame.session.send(
                "Page.createIsolatedWorld", {"frameId": frame.frame_id, "worldName": WORLD}
            )
            texts, fields = await call(frame.session, world["executionContextId"], _READ_JS)
            frame.context_id = world["executionContextId"]
    except (PlaywrightError, BrowserError, TypeError, ValueError):
        frame.context_id = None
        return  # navigating, or a document without a DOM to read
    if worlds is not None:
        worlds[frame.frame_id] = frame.context_id
    frame.texts = [str(t) for t in texts]
    frame.fields = [FieldText(bool(password), tuple(str(s) for s in shows)) for password, shows in fields]


async def measure(frame: FrameRead, shown: Shown) -> None:
    """The boxes of what ``shown`` names, in ``frame``'s viewport (called even when it names nothing).

    Raises:
        PlaywrightError, BrowserError: the frame navigated or went away since it was read.
    """
    if frame.context_id is None:
        return
    boxes = await call(frame.session, frame.context_id, _MEASURE_JS, list(shown.texts), list(shown.fields))
    frame.boxes = [(float(b[0]), float(b[1]), float(b[2]), float(b[3])) for b in boxes]


async def call(session: CDPSession, context_id: int, function: str, *args: Any) -> Any:
    """``function(*args)`` run in the execution context ``context_id``; its JSON result.

    Raises:
        PlaywrightError: the context is gone.
        BrowserError: the function threw.
    """
    reply: dict[str, Any] = await session.send(
        "Runtime.callFunctionOn",
        {
            "functionDeclaration": function,
            "executionContextId": context_id,
            "arguments": [{"value": a} for a in args],
            "awaitPromise": True,
            "returnByValue": True,
        },
    )
    if "exceptionDetails" in reply:
        raise BrowserError("A masking script failed in the page's isolated world")
    return reply.get("result", {}).get("value")
