"""Set-of-marks: the index tags drawn for the model match the indices in its text and cover nothing.

The tags' boxes are read back from the drawing step (the overlay the page holds while the screenshot is
taken), not from pixels.
"""

from __future__ import annotations

import re
from typing import Any

from browser_agent import Agent, AgentSettings, BrowserSession
from browser_agent.browser.marks import OVERLAY_ID, drawn_marks, layout_marks
from browser_agent.dom import render
from browser_agent.dom.snapshot import Rect
from browser_agent.testing import ScriptedChatModel

# Keeps a copy of every tag of every marks overlay the page is given, as the page laid it out.
_WATCH_JS = """(id) => {
  window.__marks = [];
  new MutationObserver((records) => {
    for (const r of records) for (const n of r.addedNodes) {
      if (n.id !== id) continue;
      window.__marks.push([...n.querySelectorAll('[data-mark-tag]')].map((t) => {
        const b = t.getBoundingClientRect();
        return {label: t.textContent, x: b.x, y: b.y, w: b.width, h: b.height};
      }));
    }
  }).observe(document.documentElement, {childList: true});
}"""


def _overlap(a: Rect, b: Rect) -> float:
    w = min(a.x + a.width, b.x + b.width) - max(a.x, b.x)
    h = min(a.y + a.height, b.y + b.height) - max(a.y, b.y)
    return w * h if w > 0 and h > 0 else 0.0


def _rect(tag: dict[str, Any]) -> Rect:
    return Rect(tag["x"], tag["y"], tag["w"], tag["h"])


async def test_tags_match_the_text_indices_and_cover_no_other_element(
    session: BrowserSession, server
) -> None:
    await session.navigate(server.url("report/products.html"))
    state = await session.state()
    assert state.snapshot is not None
    page = session.page
    async with drawn_marks(page, state.snapshot) as marks:
        drawn = await page.evaluate(
            "(id) => [...document.getElementById(id).querySelectorAll('[data-mark-tag]')].map((t) => {"
            " const b = t.getBoundingClientRect(); return {label: t.textContent, x: b.x, y: b.y, w: b.width,"
            " h: b.height}; })",
            OVERLAY_ID,
        )
    assert await page.evaluate("(id) => document.getElementById(id)", OVERLAY_ID) is None, "overlay removed"

    text_indices = {int(i) for i in re.findall(r"\[(\d+)\]<", render(state.snapshot))}
    assert sorted(int(t["label"]) for t in drawn) == sorted(text_indices)
    assert [(m.index, m.tag) for m in marks] == [
        (int(t["label"]), Rect(t["x"], t["y"], t["w"], t["h"])) for t in drawn
    ], "the page draws exactly the computed layout"
    tags = [_rect(t) for t in drawn]
    for i, a in enumerate(tags):
        for b in tags[i + 1 :]:
            assert _overlap(a, b) == 0, f"tags overlap: {a} {b}"
    boxes = {n.index: n.rect for n in state.snapshot.selector_map.values()}
    for tag in drawn:
        own = int(tag["label"])
        covered = [i for i, box in boxes.items() if i != own and _overlap(_rect(tag), box) > 0]
        assert not covered, f"tag {own} covers elements {covered}"
    inputs = [n for n in state.snapshot.selector_map.values() if n.tag == "input"]
    assert len(inputs) == 12
    for node in inputs:  # inside its own field, a tag keeps to the right: the placeholder stays readable
        tag = next(_rect(t) for t in drawn if int(t["label"]) == node.index)
        if _overlap(tag, node.rect):
            assert tag.x >= node.rect.x + node.rect.width / 2, (node.index, tag, node.rect)


def test_layout_keeps_tags_apart_on_a_crowded_page() -> None:
    from browser_agent.dom.snapshot import ElementNode

    nodes = [
        ElementNode(
            i, str(i), "button", None, "", "", {}, (), Rect(10 + (i % 20) * 30, 10 + (i // 20) * 16, 28, 14)
        )
        for i in range(1, 201)
    ]
    marks = layout_marks(nodes, (1280, 800))
    assert [m.index for m in marks] == list(range(1, 201))
    assert all(m.tag.x >= 0 and m.tag.x + m.tag.width <= 1280 and m.tag.y >= 0 for m in marks)
    overlapping = sum(1 for i, a in enumerate(marks) for b in marks[i + 1 :] if _overlap(a.tag, b.tag) > 0)
    assert overlapping < len(marks) // 10, overlapping


async def test_vision_sends_the_marked_screenshot(session: BrowserSession, server) -> None:
    await session.navigate(server.url("report/products.html"))
    await session.page.evaluate(_WATCH_JS, OVERLAY_ID)
    reply = {
        "current_state": {"evaluation_previous_goal": "", "memory": "", "next_goal": "end"},
        "action": [{"action": "done", "text": "seen", "success": True}],
    }
    llm = ScriptedChatModel(replies=[reply])
    agent = Agent("Look", llm, browser=session, settings=AgentSettings(use_vision=True))
    await agent.run(max_steps=1)

    sent = llm.calls[0].messages[-1].content
    assert isinstance(sent, list) and any(p.get("type") == "image_url" for p in sent if isinstance(p, dict))
    overlays = await session.page.evaluate("window.__marks")
    assert len(overlays) == 1, "one marks overlay was drawn for the step's screenshot"
    text = next(p["text"] for p in sent if isinstance(p, dict) and p.get("type") == "text")
    assert sorted(int(t["label"]) for t in overlays[0]) == sorted(
        int(i) for i in re.findall(r"\[(\d+)\]<", text)
    )
