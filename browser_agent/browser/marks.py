"""Set-of-marks: each element's index drawn on the page, for the screenshot the model (or a person) sees.

``layout_marks`` is pure: it places one small tag per element so that tags never overlap each other
and, where any free spot exists, cover no element box (a dense form keeps its placeholders readable):
outside the element first, inside its own box only as a last resort. ``drawn_marks`` draws exactly
that layout in a fixed overlay on the top page and removes it afterwards.

A spot's cost is its overlap with the tags placed so far and the other boxes. Both are filed by the
cells of a grid they touch (``_Filed``), so that a spot is measured against the few that share a cell
with it rather than against every one: a twentieth of the time at 400 marks, a third at a real page's
30 to 60 (``benchmarks/marks_bench.py``).
"""

from __future__ import annotations

import contextlib
from collections import defaultdict
from collections.abc import AsyncIterator, Iterable, Iterator
from dataclasses import dataclass, field

from playwright.async_api import Page

from browser_agent.browser.playwright_errors import PlaywrightError
from browser_agent.dom.snapshot import DomSnapshot, ElementNode, Rect

__all__ = ["OVERLAY_ID", "Mark", "drawn_marks", "layout_marks"]

OVERLAY_ID = "__browser_agent_marks"
TAG_HEIGHT = 14.0
_CHAR_WIDTH = 7.0
_PADDING = 6.0
_COLORS = ("#e6194b", "#3c78d8", "#2e9e44", "#d35400", "#8e44ad", "#008080", "#b8860b", "#c2185b")
_MAX_MARKS = 400
_CELL = 64.0  # the side of a grid cell, in CSS pixels: a few tags wide, one tag and a half high

_DRAW_JS = """([id, marks]) => {
  document.getElementById(id)?.remove();
  const layer = document.createElement('div');
  layer.id = id;
  layer.style.cssText = 'position:fixed;inset:0;pointer-events:none;z-index:2147483647;contain:strict';
  const put = (r, css) => {
    const el = document.createElement('div');
    el.style.cssText = `position:fixed;left:${r[0]}px;top:${r[1]}px;width:${r[2]}px;height:${r[3]}px;` +
      'box-sizing:border-box;margin:0;' + css;
    layer.appendChild(el);
    return el;
  };
  for (const m of marks) {
    put(m.box, `border:2px solid ${m.color}`).dataset.markBox = m.index;
    const tag = put(m.tag, `background:${m.color};color:#fff;font:bold 11px/14px monospace;` +
      'text-align:center;white-space:nowrap;overflow:hidden');
    tag.textContent = String(m.index);
    tag.dataset.markTag = m.index;
  }
  document.documentElement.appendChild(layer);
}"""
_REMOVE_JS = "(id) => document.getElementById(id)?.remove()"


@dataclass(frozen=True, slots=True)
class Mark:
    """One element's outline (``box``) and index tag (``tag``), in viewport CSS pixels."""

    index: int
    box: Rect
    tag: Rect
    color: str


def _overlap(a: Rect, b: Rect) -> float:
    w = min(a.x + a.width, b.x + b.width) - max(a.x, b.x)
    h = min(a.y + a.height, b.y + b.height) - max(a.y, b.y)
    return w * h if w > 0 and h > 0 else 0.0


def _clip(rect: Rect, width: float, height: float) -> Rect | None:
    x0, y0 = max(0.0, rect.x), max(0.0, rect.y)
    x1, y1 = min(width, rect.x + rect.width), min(height, rect.y + rect.height)
    return Rect(x0, y0, x1 - x0, y1 - y0) if x1 - x0 >= 1 and y1 - y0 >= 1 else None


def _candidates(box: Rect, w: float, h: float) -> list[Rect]:
    """Where a tag may go, best first: outside the element's corners and sides, then inside it."""
    right, bottom = box.x + box.width, box.y + box.height
    return [
        Rect(box.x, box.y - h, w, h),  # above, left-aligned
        Rect(right - w, box.y - h, w, h),  # above, right-aligned
        Rect(box.x - w, box.y, w, h),  # left side, top
        Rect(right, box.y, w, h),  # right side, top
        Rect(box.x, bottom, w, h),  # below, left-aligned
        Rect(right - w, bottom, w, h),  # below, right-aligned
        Rect(box.x - w, bottom - h, w, h),  # left side, bottom
        Rect(right, bottom - h, w, h),  # right side, bottom
        Rect(right - w, box.y, w, h),  # inside, top right
        Rect(box.x, box.y, w, h),  # inside, top left
    ]


def _cells(rect: Rect) -> Iterator[tuple[int, int]]:
    """The grid cells ``rect`` touches; two rectangles that overlap share at least one."""
    left, top = int(rect.x // _CELL), int(rect.y // _CELL)
    right, bottom = int((rect.x + rect.width) // _CELL), int((rect.y + rect.height) // _CELL)
    return ((column, row) for column in range(left, right + 1) for row in range(top, bottom + 1))


@dataclass
class _Filed:
    """Rectangles, in the order added, each filed under the grid cells it touches."""

    rects: list[Rect] = field(default_factory=list)
    _by_cell: defaultdict[tuple[int, int], list[int]] = field(default_factory=lambda: defaultdict(list))

    def add(self, rect: Rect) -> None:
        for cell in _cells(rect):
            self._by_cell[cell].append(len(self.rects))
        self.rects.append(rect)

    def near(self, cells: list[tuple[int, int]]) -> list[int]:
        """The positions, in the order added, of the rectangles filed under any of ``cells`` (a spot's):
        every one that overlaps the spot, and a few that do not."""
        return sorted({i for cell in cells for i in self._by_cell.get(cell, ())})


def _cost(spot: Rect, own: int, boxes: _Filed, tags: _Filed, view: tuple[float, float]) -> float:
    """Covering a tag costs most, another element's box less, the element's own box least; off the
    viewport is out. The sums add the same overlaps in the same order as over every rectangle."""
    if spot.x < 0 or spot.y < 0 or spot.x + spot.width > view[0] or spot.y + spot.height > view[1]:
        return float("inf")
    cells = list(_cells(spot))
    cost = sum(_overlap(spot, tags.rects[i]) for i in tags.near(cells)) * 1_000
    cost += sum(_overlap(spot, boxes.rects[i]) for i in boxes.near(cells) if i != own) * 10
    return cost + _overlap(spot, boxes.rects[own])


def layout_marks(nodes: Iterable[ElementNode], viewport: tuple[float, float]) -> list[Mark]:
    """A tag per element in the viewport, placed where it covers the least (see the module doc)."""
    visible = [(n, _clip(n.rect, *viewport)) for n in nodes]
    shown = [(n, box) for n, box in visible if box is not None][:_MAX_MARKS]
    boxes, tags = _Filed(), _Filed()
    for _node, box in shown:
        boxes.add(box)
    marks: list[Mark] = []
    for own, (node, box) in enumerate(shown):
        width = _CHAR_WIDTH * len(str(node.index)) + _PADDING
        spots = _candidates(box, width, TAG_HEIGHT)
        costs = [_cost(s, own, boxes, tags, viewport) for s in spots]
        best = min(range(len(spots)), key=lambda i: (costs[i], i))
        tag = spots[best] if costs[best] != float("inf") else Rect(box.x, box.y, width, TAG_HEIGHT)
        tags.add(tag)
        marks.append(Mark(node.index, box, tag, _COLORS[node.index % len(_COLORS)]))
    return marks


@contextlib.asynccontextmanager
async def drawn_marks(page: Page, snapshot: DomSnapshot | None) -> AsyncIterator[list[Mark]]:
    """Draw the snapshot's marks on ``page`` while inside; nothing is drawn for ``None``."""
    if snapshot is None:
        yield []
        return
    size = page.viewport_size or {"width": 1280, "height": 800}
    marks = layout_marks(snapshot.selector_map.values(), (size["width"], size["height"]))
    payload = [
        {
            "index": m.index,
            "box": [m.box.x, m.box.y, m.box.width, m.box.height],
            "tag": [m.tag.x, m.tag.y, m.tag.width, m.tag.height],
            "color": m.color,
        }
        for m in marks
    ]
    try:
        await page.evaluate(_DRAW_JS, [OVERLAY_ID, payload])
    except PlaywrightError:
        marks = []  # the page is navigating: the picture goes without marks
    try:
        yield marks
    finally:
        if marks:
            with contextlib.suppress(PlaywrightError):
                await page.evaluate(_REMOVE_JS, OVERLAY_ID)
