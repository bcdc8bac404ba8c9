"""Take-over: while the run is paused, the person's clicks, typing and scrolling in the live view are
forwarded to the agent's tab, and what they did is told to the model when the run resumes.

The events come in the tab's viewport CSS pixels (the page scales the frame's coordinates back). What
was typed is never repeated to the model, only how many characters (it may be a password): each run of
typing is kept here (``TakeoverLog.take_typed``) for the run to make it a secret, redacted from
everything written afterwards, and an element is described by its label, never by the value of a field.
The browser's domain fence applies to whatever the person's input makes the tab load.

Each input is bounded (``ANSWER_S``), as the agent's own calls into a page are: a page whose script never
yields answers nothing, and the person is told so at once instead of their input hanging.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import BaseModel, Field, ValidationError

from browser_agent.browser.playwright_errors import PlaywrightError
from browser_agent.errors import UserError

__all__ = ["ANSWER_S", "InputEvent", "TabNotAnswering", "TakeoverLog", "forward"]

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

ANSWER_S = 3.0  # longest the tab may take over one input (the element look-up, the click, the keys)

# The element under the pointer, in words: a field by its label, placeholder or name, never its value
# (what the person typed into it); anything else by its text.
_DESCRIBE_JS = """([x, y]) => {
  const el = document.elementFromPoint(x, y);
  if (!el) return '';
  const tag = el.tagName.toLowerCase();
  const button = tag === 'input' && ['button', 'submit', 'reset'].includes(el.type);
  const field = !button && (['input', 'textarea', 'select'].includes(tag) || el.isContentEditable);
  const label = el.labels && el.labels.length ? el.labels[0].innerText : '';
  const attr = (name) => el.getAttribute(name) || '';
  const words = field
    ? attr('aria-label') || label || attr('placeholder') || attr('name')
    : el.innerText || (button ? el.value : '') || attr('aria-label');
  const text = words.trim().replace(/\\s+/g, ' ');
  const kind = tag === 'input' && el.type ? ` type=${el.type}` : '';
  return `<${tag}${kind}>` + (text ? ` "${text.slice(0, 60)}"` : '');
}"""


class TabNotAnswering(UserError):
    """The tab did not take an input within ``ANSWER_S``: a script of the page keeps it busy."""


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
    """What the person did in one pause, in words for the model; and what they typed, for the run to
    keep secret (``take_typed``)."""

    start_url: str = ""
    done: list[str] = field(default_factory=list)
    _typing: str = ""  # the run of typing under way
    _typing_url: str = ""  # the page it is typed on
    _typed: list[tuple[str, str]] = field(default_factory=list)  # runs of typing that ended, with their page

    def type(self, text: str, url: str) -> None:
        """The person typed ``text`` on the page at ``url``: it goes on the run of typing under way."""
        if not self._typing:
            self._typing_url = url
        self._typing += text

    def erase(self) -> None:
        """Backspace: the last character typed is gone from the field (and from the run of typing)."""
        self._typing = self._typing[:-1]

    def end_typing(self) -> None:
        """Any other input ends the run of typing under way: its text is one value the person entered."""
        if self._typing:
            self._typed.append((self._typing, self._typing_url))
        self._typing = ""

    def take_typed(self, *, finish: bool = False) -> list[tuple[str, str]]:
        """The runs of typing that ended since the last call, with the page each was typed on (with
        ``finish``, the one under way too)."""
        if finish:
            self.end_typing()
        taken, self._typed = self._typed, []
        return taken

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
    """Do ``event`` in ``page`` (a Playwright ``Page``) within ``ANSWER_S``, and log it.

    What is typed is logged before it is sent, so that it is known as typed even when the page takes it
    only later; so is a click.

    Raises:
        TabNotAnswering: the tab did not answer in time.
        UserError: the tab did not take the input: it closed, or is loading.
    """
    try:
        async with asyncio.timeout(ANSWER_S):
            await _do(page, event, log)
    except TimeoutError as exc:
        raise TabNotAnswering(
            f"The tab did not answer within {ANSWER_S:g} s: a script of the page keeps it busy, and this "
            "input may reach it late or not at all. Resume to let the agent go on (it stops a script "
            "that never yields), or stop the run."
        ) from exc
    except PlaywrightError as exc:
        raise UserError("The tab did not take the input (it closed, or is loading); try again.") from exc


async def _do(page: Any, event: InputEvent, log: TakeoverLog) -> None:
    if event.kind == "text":
        if event.text:
            log.type(event.text, page.url)
            log.add(f"typed {len(event.text)} characters")
            await page.keyboard.type(event.text)
        return
    if event.kind == "key" and event.key == "Backspace":
        log.erase()
    else:
        log.end_typing()
    if event.kind == "click":
        target = await page.evaluate(_DESCRIBE_JS, [event.x, event.y])
        log.add(f"clicked {target or 'the page'} at ({event.x:.0f}, {event.y:.0f})")
        await page.mouse.click(event.x, event.y)
    elif event.kind == "wheel":
        log.add("scrolled " + ("down" if event.dy > 0 else "up" if event.dy < 0 else "sideways"))
        await page.mouse.move(event.x, event.y)
        await page.mouse.wheel(event.dx, event.dy)
    else:
        log.add(f"pressed {event.key}")
        await page.keyboard.press(" " if event.key == "Space" else event.key)
