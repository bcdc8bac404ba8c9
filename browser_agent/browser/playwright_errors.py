"""The one place where Playwright's exceptions become browser_agent's typed errors."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from playwright._impl._errors import TargetClosedError
from playwright.async_api import Error as PlaywrightError
from playwright.async_api import TimeoutError as PlaywrightTimeoutError

from browser_agent.errors import (
    ActionError,
    ActionTimeoutError,
    ElementNotFoundError,
    NavigationError,
    TabClosedError,
)

__all__ = [
    "PlaywrightError",
    "PlaywrightTimeoutError",
    "TargetClosedError",
    "map_action_errors",
    "map_navigation_errors",
]

# Playwright has no exception class for these; its messages are the only signal it gives.
_DETACHED_MARKERS = ("not attached to the DOM", "Element is not attached", "detached", "Execution context")


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


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
        message = _first_line(exc)
        raise NavigationError(f"Could not load {url}: {message}") from exc


@contextmanager
def map_action_errors(what: str) -> Iterator[None]:
    """Translate errors of an action on the page; ``what`` names it for the model."""
    try:
        yield
    except PlaywrightTimeoutError as exc:
        raise ActionTimeoutError(
            f"{what} timed out: the element did not become ready (hidden, disabled or covered)."
        ) from exc
    except TargetClosedError as exc:
        raise TabClosedError(f"The tab was closed or crashed during {what}; switch to another tab.") from exc
    except PlaywrightError as exc:
        message = _first_line(exc)
        if any(m in message for m in _DETACHED_MARKERS):
            raise ElementNotFoundError(
                f"{what} failed: the element is no longer on the page; look at the new state."
            ) from exc
        raise ActionError(f"{what} failed: {message}") from exc
