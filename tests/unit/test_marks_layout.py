"""The set-of-marks layout measures a spot only against the tags and boxes that share a grid cell with it:
it must choose exactly what measuring against every one chooses."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from browser_agent.browser.marks import TAG_HEIGHT, Mark, _candidates, layout_marks
from browser_agent.dom.snapshot import ElementNode, Rect

VIEW = (1280.0, 800.0)


def _overlap(a: Rect, b: Rect) -> float:
    w = min(a.x + a.width, b.x + b.width) - max(a.x, b.x)
    h = min(a.y + a.height, b.y + b.height) - max(a.y, b.y)
    return w * h if w > 0 and h > 0 else 0.0


def _every_one_cost(spot: Rect, own: int, boxes: list[Rect], tags: list[Rect]) -> float:
    """The cost as the layout defines it, over every tag placed so far and every other box."""
    if spot.x < 0 or spot.y < 0 or spot.x + spot.width > VIEW[0] or spot.y + spot.height > VIEW[1]:
        return float("inf")
    cost = sum(_overlap(spot, t) for t in tags) * 1_000
    cost += sum(_overlap(spot, b) for i, b in enumerate(boxes) if i != own) * 10
    return cost + _overlap(spot, boxes[own])


def _check(marks: list[Mark]) -> None:
    boxes = [m.box for m in marks]
    for own, mark in enumerate(marks):
        spots = _candidates(mark.box, mark.tag.width, TAG_HEIGHT)
        costs = [_every_one_cost(s, own, boxes, [m.tag for m in marks[:own]]) for s in spots]
        best = min(range(len(spots)), key=lambda i: (costs[i], i))
        fallback = Rect(mark.box.x, mark.box.y, mark.tag.width, TAG_HEIGHT)
        assert mark.tag == (spots[best] if costs[best] != float("inf") else fallback), (own, costs)


def _node(index: int, rect: Rect) -> ElementNode:
    return ElementNode(index, f"e{index}", "button", None, "", "", {}, (), rect)


coordinate = st.floats(-200, 1400, allow_nan=False)
rects = st.builds(Rect, coordinate, coordinate, st.floats(0, 900), st.floats(0, 300))
small = st.builds(Rect, st.floats(0, 1270), st.floats(0, 790), st.floats(8, 90), st.floats(8, 40))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.one_of(rects, small, small), max_size=60))
def test_each_tag_is_the_cheapest_spot_counting_every_tag_and_box(boxes: list[Rect]) -> None:
    marks = layout_marks([_node(i, r) for i, r in enumerate(boxes, 1)], VIEW)
    _check(marks)


def test_a_crowded_grid_is_laid_out_as_counting_every_tag_and_box() -> None:
    boxes = [Rect(5 + (i % 8) * 160, 500 + (i // 8) * 22, 150, 18) for i in range(160)]
    marks = layout_marks([_node(i, r) for i, r in enumerate(boxes, 1)], VIEW)
    assert len(marks) == 112  # the 14 rows that show at least a pixel high; those below get none
    _check(marks)
