"""Finding elements in a fresh capture, for tests that act on indices."""

from __future__ import annotations

from browser_agent.browser import BrowserSession


async def index_of(session: BrowserSession, text: str) -> int:
    """The index of the first element whose name, text or attributes contain ``text`` (fresh state)."""
    state = await session.state()
    assert state.snapshot is not None
    for node in state.snapshot.selector_map.values():
        if text in " ".join([node.name, node.text, *node.attributes.values()]):
            return node.index
    found = [(n.index, n.tag, n.name) for n in state.snapshot.selector_map.values()]
    raise AssertionError(f"no element shows {text!r}; elements: {found}")
