"""Where the page hides what the task names: "Find the file named "Dolores"" on a tree whose folders are
closed.

A small model looks for a name it cannot see among the elements it can, clicks one of those, and calls
``done`` as though it had found it. The page holds the name all along, in a closed part: a collapsed tree
folder, an accordion section, a tab panel, a ``<details>``, a menu. So for each name the task quotes
(``"Dolores"``, ``'Return label'``) that the page holds only hidden, the state says which indexed element
opens the part it is in: one that declares it controls that part (``aria-controls``, a link to its
``#id``), else the header drawn just before it (a ``<summary>``, an accordion header, a folder's name). A
name also shown somewhere, or whose part has no such element, is not mentioned; a page that prints the
task itself (MiniWoB++ does) is not taken to show the name. The main frame is searched, not the frames
inside it. The page is given the quoted names, never the task (a page's scripts can watch what is run
in it); the blocks holding the names' shown copies come back and are compared with the task here.
Nothing of the page's text goes outside the page fence: the line holds the task's own words and an
index. (Naming the opener by its label as well, ``element 1 ("Truman")``, lost a development episode of
navigate-tree that the index alone won, and won none.)
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from functools import cache
from importlib import resources

from playwright.async_api import Page

from browser_agent.dom.snapshot import DomSnapshot, ElementNode

__all__ = ["HiddenName", "hidden_openers", "quoted_names"]

logger = logging.getLogger(__name__)

MAX_NAMES = 4
_QUOTED = re.compile(r"\"([^\"]{2,80})\"|“([^”]{2,80})”|(?<!\w)'([^']{2,80})'(?!\w)")


def quoted_names(task: str) -> tuple[str, ...]:
    """The names ``task`` quotes, in order, each once (at most ``MAX_NAMES``)."""
    names: list[str] = []
    for match in _QUOTED.finditer(task):
        name = " ".join(next(part for part in match.groups() if part).split())
        if name and name.lower() not in (n.lower() for n in names):
            names.append(name)
    return tuple(names[:MAX_NAMES])


@cache
def _script() -> str:
    return resources.files("browser_agent.dom").joinpath("find_hidden.js").read_text(encoding="utf-8")


@dataclass(frozen=True)
class HiddenName:
    """A name the task quotes (as the task spells it), held only in a closed part, and the element of the
    page view that opens the part; ``line`` is what the state says of it."""

    name: str
    opener: ElementNode

    @property
    def line(self) -> str:
        where = f"element {self.opener.index} opens the part holding it"
        return f'"{self.name}" is on this page but hidden: {where}.'


async def hidden_openers(page: Page, task: str, snapshot: DomSnapshot | None) -> tuple[HiddenName, ...]:
    """Each name ``task`` quotes that ``page`` holds only in a closed part which an element of ``snapshot``
    opens; none when there is no such name."""
    names = quoted_names(task)
    if not names or snapshot is None or not snapshot.selector_map:
        return ()
    by_id = {node.element_id: index for index, node in snapshot.selector_map.items()}
    spelled = {" ".join(name.lower().split()): name for name in names}
    found = await page.main_frame.evaluate(_script(), {"needles": list(spelled), "ids": list(by_id)})
    written = " ".join(task.lower().split())
    hidden = []
    for item in found:
        index = by_id.get(str(item["opener"]))
        name = spelled.get(str(item["needle"]))
        # shown anywhere but in the page's own copy of the task: the model can see it
        shown = any(not block or block not in written for block in map(str, item["shown_in"]))
        if index is not None and name is not None and not shown:
            hidden.append(HiddenName(name, snapshot.selector_map[index]))
    return tuple(hidden)
