"""Capture a page as a ``DomSnapshot``: run the walk (``extract.js`` and its parts) once per frame and
stitch the frames together.

The top frame is walked first; its result says where each visible iframe is. Each child frame is then
walked with that offset and clip, so its rectangles are in the top page's viewport coordinates and its
elements appear in the numbering where the iframe is. Indices are assigned here, in document order.
The walk's script is sent to a document once and kept there; later captures call it by name. Given a
redactor, the walk returns its texts uncut and they are redacted, then cut, here (``dom.text_limits``).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import time
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any
from urllib.parse import urlsplit

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Frame, Page

from browser_agent.dom.ranks import carried_page_size
from browser_agent.dom.snapshot import Cell, DomSnapshot, ElementNode, PanelScroll, Rect, ScrollInfo, TextNode
from browser_agent.dom.text_limits import ATTRIBUTE_CAP, NAME_CAP, OPTION_CAP, VALUE_TAIL, Recut
from browser_agent.dom.wire import (
    WireElement,
    WireFrameHole,
    WireItem,
    WirePageScroll,
    WirePanel,
    WireResult,
)

__all__ = ["WHOLE_PAGE", "ExtractOptions", "extract_snapshot"]


@dataclass(frozen=True, slots=True)
class ExtractOptions:
    """Knobs of one capture.

    Attributes:
        margin_px: Elements this far above or below the viewport are still indexed.
        text_cap: Longest run of text kept between two elements, in characters.
        text_total: Characters of text kept per frame, so one huge page cannot flood the prompt.
    """

    margin_px: int = 0
    text_cap: int = 160
    text_total: int = 1500


# The whole page rather than the viewport, with all of its text: what re-identification reads, since
# neighbouring labels are what tell look-alikes apart.
WHOLE_PAGE = ExtractOptions(margin_px=1_000_000, text_total=50_000)


_PARTS = ("extract_element.js", "extract_widgets.js", "extract_layout.js")
_PARTS_MARK = "  // ---- parts ----\n"


@cache
def _script() -> str:
    """``extract.js`` with its parts inserted at the mark: one function of the capture options."""
    folder = resources.files("browser_agent.dom")
    main = folder.joinpath("extract.js").read_text(encoding="utf-8")
    parts = "".join(folder.joinpath(name).read_text(encoding="utf-8") for name in _PARTS)
    if main.count(_PARTS_MARK) != 1:
        raise AssertionError("extract.js must hold the parts mark exactly once")
    return main.replace(_PARTS_MARK, parts)


@cache
def _calls() -> tuple[str, str]:
    """The two ways to run the walk in a frame. The walk is sent once per document and kept there, under
    a name that changes with its text: later captures send a one-line call instead of 30 kB of script.

    Returns:
        The call (None when the document does not hold the walk yet) and the install-and-call.
    """
    script = _script()
    name = "__browserAgentWalk" + hashlib.sha1(script.encode()).hexdigest()[:10]
    call = f"(o) => {{ const walk = window.{name}; return walk ? walk(o) : null; }}"
    install = (
        f"(o) => {{ const walk = ({script}); "
        f"Object.defineProperty(window, '{name}', {{ value: walk, configurable: true }}); return walk(o); }}"
    )
    return call, install


@dataclass(slots=True)
class _FrameResult:
    frame: Frame
    data: WireResult
    path: tuple[str, ...]
    children: dict[str, _FrameResult] = field(default_factory=dict)
    notes: dict[str, str] = field(default_factory=dict)  # hole id -> one line shown instead of the frame


async def extract_snapshot(
    page: Page,
    previous: DomSnapshot | None = None,
    *,
    options: ExtractOptions | None = None,
    blocked_frames: Mapping[str, str] | None = None,
    refused_schemes: Collection[str] = (),
    redact: Callable[[str], str] | None = None,
) -> DomSnapshot:
    """Capture the indexed elements and visible text of every frame of ``page``.

    Args:
        page: The tab to read.
        previous: The last snapshot of this tab; elements not in it are marked ``is_new``.
        options: Viewport margin and text caps; the defaults suit a 1920×1080 window.
        blocked_frames: ``{URL: refused URL}`` of frames the domain fence kept empty; each is shown
            as one line, never walked.
        refused_schemes: Frames whose document has one of these schemes (``data``, ``blob``, ...) are
            shown as one line, never walked.
        redact: Replaces secret values in a text. Every text of the page goes through it whole, before
            it is cut to length: a value cut in two would no longer be recognised.
    """
    opts = options or ExtractOptions()
    started = time.perf_counter()
    viewport = page.viewport_size or await page.evaluate("() => ({width: innerWidth, height: innerHeight})")
    base = {
        "viewportWidth": viewport["width"],
        "viewportHeight": viewport["height"],
        "margin": opts.margin_px,
        "textCap": opts.text_cap,
        "textTotal": opts.text_total,
        "nameCap": NAME_CAP,
        "optionCap": OPTION_CAP,
        "valueTail": VALUE_TAIL,
        "attributeCap": ATTRIBUTE_CAP,
        "uncut": redact is not None,
    }
    top = _FrameResult(page.main_frame, await _run_top(page, base) or _empty(), ())
    await _walk_children(page, top, base, _Refusals(blocked_frames or {}, frozenset(refused_schemes)))
    token = top.data.get("document_token", "")
    builder = _Builder(previous, token, Recut(redact) if redact is not None else None)
    builder.add_frame(top)
    title = top.data.get("title", "")
    return DomSnapshot(
        url=page.url,
        title=redact(title) if redact is not None else title,
        items=tuple(builder.items),
        selector_map=builder.selector_map,
        scroll=_scroll(top.data, viewport["height"]),
        capture_ms=round((time.perf_counter() - started) * 1000, 1),
        frames=builder.frames,
        document_token=token,
        dialog=bool(top.data.get("modal")),
        page_size=carried_page_size(previous, page.url),
    )


def _empty() -> WireResult:
    """What a frame that could not be walked holds: nothing."""
    nowhere = WirePageScroll(scroll_y=0.0, viewport_height=0.0, page_height=0.0, main_top=-1.0)
    return WireResult(
        document_token="",
        title="",
        items=[],
        frame_holes={},
        elements_above=0,
        elements_below=0,
        modal=False,
        page_scroll=nowhere,
    )


def _scroll(data: WireResult, viewport_height: float) -> ScrollInfo:
    """Where the top frame is scrolled and what lies outside its view."""
    page = data["page_scroll"]
    return ScrollInfo(
        scroll_y=float(page["scroll_y"]),
        viewport_height=float(page["viewport_height"] or viewport_height),
        page_height=float(page["page_height"]),
        elements_above=int(data["elements_above"]),
        elements_below=int(data["elements_below"]),
        main_top=_main_top(page["main_top"]),
    )


async def _run(frame: Frame, args: dict[str, Any]) -> WireResult | None:
    """Run the walk in one frame; a frame that navigated or died meanwhile yields nothing."""
    call, install = _calls()
    try:
        raw = await frame.evaluate(call, args)
        if raw is None:
            raw = await frame.evaluate(install, args)
    except PlaywrightError:
        return None
    data: WireResult | None = json.loads(raw) if isinstance(raw, str) else None
    return data


async def _run_top(page: Page, args: dict[str, Any]) -> WireResult | None:
    """Walk the top frame, once more after the next DOMContentLoaded when a navigation got in the way."""
    data = await _run(page.main_frame, args)
    if data is None and not page.is_closed():
        with contextlib.suppress(PlaywrightError):
            await page.wait_for_load_state("domcontentloaded", timeout=2_000)
        data = await _run(page.main_frame, args)
    return data


async def _holder_id(frame: Frame) -> str | None:
    """The registry id, in the parent frame, of the <iframe> element that holds ``frame``."""
    try:
        holder = await frame.frame_element()
        value = await holder.evaluate("(el) => window.__browserAgent ? window.__browserAgent.idOf(el) : null")
    except PlaywrightError:
        return None
    return value if isinstance(value, str) else None


def _origin(url: str) -> str:
    try:
        parts = urlsplit(url)
    except ValueError:  # a refused redirect to an address Python cannot read: shown as it was
        return url
    return f"{parts.scheme}://{parts.netloc}" if parts.netloc else url


def _frame_label(frame: Frame) -> str:
    if frame.name:
        return frame.name
    parts = urlsplit(frame.url)
    return f"{parts.scheme}://{parts.netloc}{parts.path}" if parts.netloc else frame.url


async def _match_holes(holes: Mapping[str, WireFrameHole], children: list[Frame]) -> list[tuple[Frame, str]]:
    """Pair child frames with the visible <iframe> elements that hold them.

    A frame whose URL or name (Playwright's name is the iframe's ``name`` or ``id``) names exactly one
    hole is paired at once. A named frame that names no hole is in none of them (an ad slot out of view).
    The rest are asked for their holder element, which costs two round trips per frame.
    """
    pairs: list[tuple[Frame, str]] = []
    unsure: list[Frame] = []
    for frame in children:
        name = frame.name
        hits = [hid for hid, h in holes.items() if h["src"] == frame.url or (name and h["name"] == name)]
        if len(hits) == 1:
            pairs.append((frame, hits[0]))
        elif hits or not name:
            unsure.append(frame)
    if len(pairs) < len(holes) and unsure:
        ids = await asyncio.gather(*(_holder_id(f) for f in unsure))
        pairs += [(f, hid) for f, hid in zip(unsure, ids, strict=True) if hid is not None and hid in holes]
    return pairs


@dataclass(frozen=True, slots=True)
class _Refusals:
    """Frames not to walk: those the fence kept empty, and documents of refused schemes."""

    blocked: Mapping[str, str]
    schemes: frozenset[str]

    def note(self, url: str) -> str | None:
        """The line shown instead of a frame whose document is (or was asked to be) ``url``."""
        refused = self.blocked.get(url)
        if refused is not None:
            return f"(a frame here was blocked: {_origin(refused)} is outside the allowed domains)"
        scheme = urlsplit(url).scheme.lower()
        if scheme in self.schemes:
            return f"(a frame here was blocked: {scheme}: documents are outside the allowed domains)"
        return None


async def _walk_children(page: Page, parent: _FrameResult, base: dict[str, Any], refusals: _Refusals) -> None:
    """Walk the visible child frames of ``parent`` concurrently, then theirs, depth by depth."""
    holes = dict(parent.data["frame_holes"])
    for hole_id, hole in list(holes.items()):
        note = refusals.note(hole.get("src") or "")
        if note is not None:
            parent.notes[hole_id] = note
            del holes[hole_id]
    if not holes:
        return
    children = [
        f for f in parent.frame.child_frames if not f.is_detached() and not f.url.startswith("chrome-error:")
    ]
    jobs = await _match_holes(holes, children)

    async def one(frame: Frame, hole_id: str) -> None:
        hole = holes[hole_id]
        if hole["clip"]["width"] < 1 or hole["clip"]["height"] < 1:
            return
        note = refusals.note(frame.url)  # the frame may have moved itself to a refused document
        if note is not None:
            parent.notes[hole_id] = note
            return
        args = {**base, "offsetX": hole["x"], "offsetY": hole["y"], "clip": hole["clip"]}
        data = await _run(frame, args)
        if data is None:
            return
        child = _FrameResult(frame, data, (*parent.path, _frame_label(frame)))
        parent.children[hole_id] = child
        await _walk_children(page, child, base, refusals)

    await asyncio.gather(*(one(f, hid) for f, hid in jobs))


class _Builder:
    """Turns the per-frame JSON into numbered nodes, splicing each child frame where its iframe is."""

    def __init__(self, previous: DomSnapshot | None, token: str, recut: Recut | None = None) -> None:
        same_document = previous is not None and previous.document_token == token and bool(token)
        self._seen = previous.element_ids if previous is not None and same_document else None
        self.items: list[ElementNode | TextNode] = []
        self.selector_map: dict[int, ElementNode] = {}
        self.frames: dict[int, Any] = {}
        self._recut = recut

    def add_frame(self, result: _FrameResult) -> None:
        frame_id = len(self.frames)
        self.frames[frame_id] = result.frame
        raws: list[WireItem] = result.data["items"]
        for raw in raws:
            item = self._recut.item(raw) if self._recut is not None else raw
            if item["kind"] == "text":
                self.items.append(
                    TextNode(
                        text=item["text"],
                        frame_id=frame_id,
                        chain=tuple(item["chain"]),
                        cell=_cell(item.get("cell")),
                    )
                )
            elif item["kind"] == "frame":
                child = result.children.get(item["hole_id"])
                note = result.notes.get(item["hole_id"])
                if child is not None:
                    self.add_frame(child)
                elif note is not None:
                    self.items.append(TextNode(text=note, frame_id=frame_id))
            else:
                self._add_element(item, frame_id, result.path)

    def _add_element(self, item: WireElement, frame_id: int, path: tuple[str, ...]) -> None:
        index = len(self.selector_map)  # from 0, as tabs are: models count from 0
        element_id = str(item["element_id"])
        rect = item["rect"]
        node = ElementNode(
            index=index,
            element_id=element_id,
            tag=str(item["tag"]),
            role=item["role"] or None,
            name=str(item["name"] or ""),
            text=str(item["text"] or ""),
            attributes={str(k): str(v) for k, v in item["attributes"].items()},
            states=tuple(item["states"]),
            rect=Rect(float(rect["x"]), float(rect["y"]), float(rect["width"]), float(rect["height"])),
            frame_id=frame_id,
            frame_path=path,
            options=tuple(item.get("options") or ()),
            options_more=int(item.get("options_more") or 0),
            ancestors=tuple(item["ancestors"]),
            sibling_index=int(item["sibling_index"]),
            in_shadow=bool(item["in_shadow"]),
            is_new=self._seen is not None and element_id not in self._seen,
            weak=bool(item["weak"]),
            chain=tuple(item["chain"]),
            icon=str(item.get("icon") or ""),
            select_id=str(item.get("select_id") or ""),
            panel=_panel(item.get("panel")),
            cell=_cell(item.get("cell")),
        )
        self.selector_map[index] = node
        self.items.append(node)


def _cell(raw: list[int] | None) -> Cell | None:
    return Cell(int(raw[0]), int(raw[1]), int(raw[2])) if raw else None


def _panel(raw: WirePanel | None) -> PanelScroll | None:
    if not raw:
        return None
    return PanelScroll(**raw)


def _main_top(value: object) -> float | None:
    """The main content's top from the walk: None when the page has none (-1) or sent no number."""
    return float(value) if isinstance(value, int | float) and value >= 0 else None
