"""Take-over: while the run is paused, the person's clicks, typing and scrolling in the live view are
forwarded to the agent's tab, and what they did is told to the model when the run resumes.

The events come in the tab's viewport CSS pixels (the page scales the frame's coordinates back). What
was typed is never repeated to the model, only how many characters (it may be a password); the browser's
domain fence applies to whatever the person's input makes the tab load.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import BaseModel, Field, ValidationError

from browser_agent.browser.playwright_errors import PlaywrightError
from browser_agent.errors import UserError

__all__ = ["InputEvent", "TakeoverLog", "forward"]

# The keys a person may press in the live view, besides typing text.
KEYS = frozenset(
    [
        "Enter",
        "Tab",
        "Backspace",
        "Delete",
        "Escape",
        "ArrowUp",
        "ArrowDown",
        "ArrowLeft",
        "ArrowRight",
        "Home",
        "End",
        "PageUp",
        "PageDown",
        "Space",
    ]
)

_DESCRIBE_JS = """([x, y]) => {
  const el = document.elementFromPoint(x, y);
  if (!el) return '';
  const text = (el.innerText || el.value || el.getAttribute('aria-label') || '').trim().replace(/\\s+/g, ' ');
  return `<${el.tagName.toLowerCase()}>` + (text ? ` "${text.slice(0, 60)}"` : '');
}"""


class InputEvent(BaseModel):
    """One input from the live view."""

    kind: Literal["click", "wheel", "key", "text"]
    x: float = Field(default=0, ge=0, le=20_000)
    y: float = Field(default=0, ge=0, le=20_000)
    dx: float = Field(default=0, ge=-20_000, le=20_000)
    dy: float = Field(default=0, ge=-20_000, le=20_000)
    key: str = Field(default="", max_length=20)
    text: str = Field(default="", max_length=2_000)

    @classmethod
    def parse(cls, raw: Any) -> InputEvent:
        """Raises: UserError: ``raw`` is not a valid input event, or names a key that is not offered."""
        try:
            event = cls.model_validate(raw)
        except ValidationError as exc:
            raise UserError(f"Not an input event: {exc.errors()[0]['msg']}") from exc
        if event.kind == "key" and event.key not in KEYS:
            raise UserError(f"Key {event.key!r} is not forwarded; offered keys: {', '.join(sorted(KEYS))}.")
        return event


@dataclass(slots=True)
class TakeoverLog:
    """What the person did in one pause, in words for the model."""

    start_url: str = ""
    done: list[str] = field(default_factory=list)

    def add(self, text: str) -> None:
        # consecutive typing is one entry: "typed 12 characters", not twelve lines
        if text.startswith("typed ") and self.done and self.done[-1].startswith("typed "):
            count = int(self.done[-1].split()[1]) + int(text.split()[1])
            self.done[-1] = f"typed {count} characters"
            return
        self.done.append(text)

    def note(self, end_url: str) -> str | None:
        """What to tell the model on resume; None when the person did nothing."""
        if not self.done:
            return None
        moved = (
            f" The page went from {self.start_url} to {end_url}."
            if end_url != self.start_url
            else f" The page is still {end_url}."
        )
        return (
            "While the run was paused, the person watching took over the browser: "
            + "; ".join(self.done)
            + "."
            + moved
            + " The current page state shows what they left; go on from there and do not undo it."
        )


async def forward(page: Any, event: InputEvent, log: TakeoverLog) -> None:
    """Do ``event`` in ``page`` (a Playwright ``Page``) and log it.

    Raises:
        UserError: the tab did not take the input (it closed, or is navigating).
    """
    try:
        if event.kind == "click":
            target = await page.evaluate(_DESCRIBE_JS, [event.x, event.y])
            await page.mouse.click(event.x, event.y)
            log.add(f"clicked {target or 'the page'} at ({event.x:.0f}, {event.y:.0f})")
        elif event.kind == "wheel":
            await page.mouse.move(event.x, event.y)
            await page.mouse.wheel(event.dx, event.dy)
            log.add("scrolled " + ("down" if event.dy > 0 else "up" if event.dy < 0 else "sideways"))
        elif event.kind == "key":
            await page.keyboard.press(" " if event.key == "Space" else event.key)
            log.add(f"pressed {event.key}")
        elif event.text:
            await page.keyboard.type(event.text)
            log.add(f"typed {len(event.text)} characters")
    except PlaywrightError as exc:
        raise UserError("The tab did not take the input (it closed, or is loading); try again.") from exc
