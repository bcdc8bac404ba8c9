"""Scrolling: the page or a panel, or to a text (behaviour: ``controller/actions/scrolling.py``)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from browser_agent.action_specs import checks
from browser_agent.action_specs.spec import ActionSpec, Script

__all__ = ["SCROLL", "SCROLL_TO_TEXT", "SPECS"]

_SCROLL_PX = 720  # one screen of Playwright's default viewport


class ScrollParams(BaseModel):
    model_config = ConfigDict(extra="forbid")

    direction: Literal["down", "up", "right", "left"] = Field(
        "down", description='"down" or "up"; "right" or "left" for carousels and wide panels.'
    )
    pages: float = Field(1.0, description="How far, in screen heights (or widths); 0.5 is half a screen.")
    index: int | None = Field(
        None,
        description="A scrollable panel's index, or an element inside one; leave empty to scroll the page.",
    )


class ScrollToTextParams(BaseModel):
    model_config = ConfigDict(extra="forbid")

    text: str = Field(description="Text shown on the page (a heading, a label, a sentence).")


def _scroll(p: ScrollParams, script: Script) -> list[str]:
    if p.index is not None:
        return script.on_element("scroll_into_view_if_needed()")  # a panel's scroll
    px = round(_SCROLL_PX * abs(p.pages)) * (-1 if p.direction in ("up", "left") else 1)
    dx, dy = (px, 0) if p.direction in ("left", "right") else (0, px)
    return [
        "# Playwright scrolls to each element it acts on; kept for pages that load more as they scroll",
        f"page.mouse.wheel({dx}, {dy})",
    ]


def _scroll_to_text(p: ScrollToTextParams, script: Script) -> list[str]:
    return [f"page.get_by_text({script.literal(p.text)}).first.scroll_into_view_if_needed()"]


SCROLL = ActionSpec(
    "scroll",
    "Scroll the page, or the scrollable element `index`.",
    ScrollParams,
    export=_scroll,
    checks={"direction": checks.direction, "pages": checks.pages, "index": checks.index},
)
SCROLL_TO_TEXT = ActionSpec(
    "scroll_to_text",
    "Scroll to a text on the page.",
    ScrollToTextParams,
    export=_scroll_to_text,
    checks={"text": checks.text},
)
SPECS = (SCROLL, SCROLL_TO_TEXT)
