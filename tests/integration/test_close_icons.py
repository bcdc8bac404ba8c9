"""A control drawn as a close icon reads ``×``, the mark a person sees and names ("click the x"); text
pushed off the screen by a far negative indent names the control instead of showing as its text. The
change was chosen on MiniWoB++'s jQuery UI dialog; this page is a bookshop's header, modal and toast."""

from __future__ import annotations

from browser_agent.browser import BrowserSession
from browser_agent.dom import render
from tests.support.actions import run1
from tests.support.server import LocalServer

PAGE = "dom/close_icons.html"


async def _view(session: BrowserSession, server: LocalServer) -> list[str]:
    await session.navigate(server.url(PAGE))
    state = await session.state()
    assert state.snapshot is not None
    return render(state.snapshot).splitlines()


def _shown(lines: list[str]) -> list[str]:
    return [line.split("]", 1)[1] for line in lines if line.startswith(("[", "*["))]


async def test_close_icons_read_as_an_x(session: BrowserSession, server: LocalServer) -> None:
    shown = _shown(await _view(session, server))
    # The modal's button hides "Close" under its icon; the toast's is an <svg> in a "dismiss" button.
    assert "<button icon=times>×</button>" in shown, shown
    assert "<button icon=toast-dismiss>×</button>" in shown, shown


async def test_hidden_text_names_a_control_and_named_icons_keep_their_name(
    session: BrowserSession, server: LocalServer
) -> None:
    shown = _shown(await _view(session, server))
    # The logo's indented-away text is its name, beside the icon its class gives.
    assert "<a icon=site-logo>Acme Books</a>" in shown, shown
    # An icon button with an aria-label reads as before: the label is what it says.
    assert "<button>Clear search</button>" in shown, shown
    assert "<button>Subscribe</button>" in shown, shown


async def test_the_x_is_clicked_like_any_button(session: BrowserSession, server: LocalServer) -> None:
    lines = await _view(session, server)
    line = next(line for line in lines if line.endswith("<button icon=times>×</button>"))
    index = int(line[line.index("[") + 1 : line.index("]")])
    clicked = await run1(session, {"action": "click_element", "index": index})
    assert clicked.error is None, clicked.error
    assert await session.page.locator("#modal").count() == 0
