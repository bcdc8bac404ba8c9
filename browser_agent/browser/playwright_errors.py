"""The one place where Playwright's exceptions become browser_agent's typed errors."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from playwright._impl._errors import TargetClosedError
from playwright.async_api import Error as PlaywrightError
from playwright.async_api import TimeoutError as PlaywrightTimeoutError

from browser_agent.errors import (
    ActionError,
    ActionTimeoutError,
    ElementNotFoundError,
    NavigationError,
    TabClosedError,
    first_line,
)
from browser_agent.user_files import UserFileError

__all__ = [
    "PlaywrightError",
    "PlaywrightTimeoutError",
    "TargetClosedError",
    "map_action_errors",
    "map_navigation_errors",
    "map_storage_state_errors",
]

# Playwright has no exception class for these; its messages are the only signal it gives.
_DETACHED_MARKERS = ("not attached to the DOM", "Element is not attached", "detached", "Execution context")


# Playwright's call log names what took a click instead: "<div id="popup">…</div> intercepts pointer
# events", or "<p>…</p> from <div id="popup">…</div> subtree intercepts pointer events".
_INTERCEPTED = re.compile(
    r"(?:from )?<([a-zA-Z][\w-]{0,30})([^<>]{0,300})>(?:…?</[\w-]+>)?(?: subtree)? intercepts pointer events"
)
_ATTRIBUTE = re.compile(r'\b(id|class)="([^"]{0,200})"')
_SHOWN_CHARS = 40


def covering(message: str) -> str | None:
    """The element Playwright saw over the target, as ``<div id=popup>``, or None. Only its tag, id and
    classes, each cut to safe characters: the page chose them, and this text goes to the model."""
    found = _INTERCEPTED.search(message)
    if found is None:
        return None
    tag = found.group(1).lower()
    said = []
    for key, value in _ATTRIBUTE.findall(found.group(2)):
        words = [re.sub(r"[^\w-]", "", word)[:_SHOWN_CHARS] for word in value.split()[:2]]
        words = [word for word in words if word]
        if words:
            said.append(f"{key}={' '.join(words)}" if len(words) == 1 else f'{key}="{" ".join(words)}"')
    return f"<{' '.join([tag, *said])}>"


# What Playwright's call log says an element was not, while it waited: the last one said is the state
# it was left in. Only these fixed words are taken from the log (it also holds the text being typed).
_NOT_READY = {
    "element is not enabled": "is disabled: the page turned it off (something may need an answer first, "
    "such as a pop-up, or another field before it)",
    "element is not visible": "is not visible (hidden, or no longer shown)",
    "element is not editable": "is read-only",
    "element is not stable": "keeps moving (an animation)",
}


def not_ready(message: str) -> str | None:
    """Why the element never became ready, from Playwright's call log, in words; None when it says not."""
    said = [(message.rfind(marker), words) for marker, words in _NOT_READY.items() if marker in message]
    return max(said)[1] if said else None


@contextmanager
def map_navigation_errors(url: str) -> Iterator[None]:
    """Translate errors of a navigation to ``url``."""
    try:
        yield
    except PlaywrightTimeoutError as exc:
        raise NavigationError(f"Loading {url} timed out; try again or use another URL.") from exc
    except TargetClosedError as exc:
        raise TabClosedError(f"The tab closed while loading {url}; switch to another tab.") from exc
    except PlaywrightError as exc:
        message = first_line(exc)
        raise NavigationError(f"Could not load {url}: {message}") from exc


@contextmanager
def map_action_errors(what: str) -> Iterator[None]:
    """Translate errors of an action on the page; ``what`` names it for the model."""
    try:
        yield
    except PlaywrightTimeoutError as exc:
        cover = covering(str(exc))
        if cover is not None:
            raise ActionTimeoutError(
                f"{what} timed out: another element, {cover}, is over it and takes the clicks (a pop-up "
                "or an overlay); close or answer it first, then try again."
            ) from exc
        why = not_ready(str(exc))
        if why is not None:
            raise ActionTimeoutError(f"{what} timed out: the element {why}.") from exc
        raise ActionTimeoutError(
            f"{what} timed out: the element did not become ready (hidden, disabled or covered)."
        ) from exc
    except TargetClosedError as exc:
        raise TabClosedError(f"The tab was closed or crashed during {what}; switch to another tab.") from exc
    except PlaywrightError as exc:
        message = first_line(exc)
        if any(m in message for m in _DETACHED_MARKERS):
            raise ElementNotFoundError(
                f"{what} failed: the element is no longer on the page; look at the new state."
            ) from exc
        raise ActionError(f"{what} failed: {message}") from exc


# How Playwright says it refused a storage state: its validator names the field ("storageState.cookies[0]
# .sameSite: expected ..."), the browser's refusal comes after a header line.
_STORAGE_FIELD = "storageState."
_STORAGE_HEADER = "Error setting storage state:"


@contextmanager
def map_storage_state_errors(path: Path | None) -> Iterator[None]:
    """Translate the browser's refusal of the saved login at ``path`` (a context being made with it).

    ``read_storage_state`` checks what Playwright checks; this catches what it does not know of yet.
    Only Playwright's words about the field are kept: never the call log, where values could appear.
    """
    try:
        yield
    except PlaywrightError as exc:
        text = str(exc)
        if path is None or (_STORAGE_FIELD not in text and _STORAGE_HEADER not in text):
            raise
        lines = text.split(_STORAGE_HEADER, 1)[-1].strip().splitlines() or [""]
        said = lines[0].strip().removeprefix(_STORAGE_FIELD)[:200]
        raise UserFileError(
            f"saved login {path}: the browser refused it ({said}); save it again with "
            "`browser-agent run --save-login FILE`."
        ) from exc
