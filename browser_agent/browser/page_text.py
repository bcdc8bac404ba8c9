"""The page state in words, one way for every reader (the agent's model and MCP clients): where the
browser is, which tabs are open, what happened since the last look, and the page's indexed elements and
text."""

from __future__ import annotations

from dataclasses import dataclass

from browser_agent.browser.state import BrowserState
from browser_agent.dom.serializer import render

__all__ = ["PageText", "page_text"]


@dataclass(frozen=True, slots=True)
class PageText:
    """``header``: URL, title and (with two or more) the tabs; ``events``: what happened, under its own
    heading, empty when nothing did; ``body``: the page itself."""

    header: list[str]
    events: list[str]
    body: str


def page_text(state: BrowserState, *, since: str = "the last step") -> PageText:
    """``state`` in words; ``since`` names the last look in the events' heading."""
    header = [f"Current URL: {state.url}", f"Title: {state.title}"]
    if len(state.tabs) > 1 or any(t.tab_id != state.current_tab_id for t in state.tabs):
        # One tab is the current URL and title again; the list only says something with two or more.
        header.append("Tabs:")
        header += [
            f"  [{t.tab_id}] {t.title or '(untitled)'} - {t.url}"
            + (" (current)" if t.tab_id == state.current_tab_id else "")
            for t in state.tabs
        ]
    events = [f"Since {since}:", *(f"  - {e}" for e in state.events)] if state.events else []
    return PageText(header, events, _body(state))


def _body(state: BrowserState) -> str:
    if state.snapshot is None:
        return "(page not captured)"
    if state.url == "about:blank" and not state.snapshot.items:
        # Nothing at all: small models copied any line shown here ("no interactive elements", "no page
        # is open yet") into their memory on the first step and kept it for the whole run.
        return ""
    return render(state.snapshot)
