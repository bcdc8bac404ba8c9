"""A click on an element other than the one the step's goal names is held back once, naming both.

The 1.5B model wrote "Click on Tab #1." and clicked index 2, Tab #3; "Click on Felita from the submenu."
and clicked Genni below it; "Click on the link 'at'." and clicked the first link of the paragraph. The
goal it wrote is what it read off the page, and the index it chose disagrees with it. So a click whose
element the step's ``next_goal`` does not name, while the goal names exactly one other element of the
page the model saw, is refused the first time: the model is told which element its goal names, and its
index. A second click on the same element goes through (the goal may have meant it otherwise).

The goal agrees with the click when it holds the element's text (or name) in any case: quoted, or as
the same words in a row. It names another element only in its first clause ("Select another option
and click Submit" plans two actions, and a click on an option is the first), and only when it writes
that one's text as the page does: quoted, or, for a text with a capital letter or a digit, the same
words in a row in the same case ("Tab #1", "Felita", "ONE"). "the 9th search result" names no Search
button, and "at" or "go" are words of any sentence. A click on an element with no name (an icon) or a
list (its options are its words), or whose goal names no other element, is not checked. An element
the goal names does not count against a click deeper inside what holds it: "Select Marietta from the
submenu." and a click on Meridel, in the submenu that Marietta opened.

A goal that lists several elements of the clicked one's kind ("Select REK, cctQi2, ES, 3zeW" over a
column of checkboxes) and not it holds the click back too: the model had clicked 0, 1, 2, 3, 4 down the
column, two of them not on its own list. A click of another kind (Submit after the checkboxes) or a list
whose names hold one another ("Save changes" and "Save") is not checked. Such a click is left out of
the step, not failed: the step's other clicks, on the elements the list names, still run.

A click on an element that a refusal of this run told the model to click (``advice.py``) is not checked.

With ``json_schema``, a click sent alone and held back is not offered again on the unchanged page (the
loop rule leaves out what did not change it); once the page changes, it is.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from weakref import WeakKeyDictionary

from browser_agent.controller.actions.advice import advise, was_advised
from browser_agent.dom.snapshot import DomSnapshot, ElementNode
from browser_agent.errors import ActionError, HeldBackError

__all__ = ["OffTheList", "check_goal_names_it"]

_LONGEST = 60  # a longer text is a paragraph, not what a goal calls an element by
_SHOWN = 40
_LISTED = 8  # a goal naming more elements than this reads the page out, it does not plan clicks
_WORD = re.compile(r"\w+")
_QUOTED = re.compile(r"'([^']{1,80})'|\"([^\"]{1,80})\"|“([^”]{1,80})”|‘([^’]{1,80})’")
_EDGES = " .,:;!?"
# Where a goal's first clause ends: "Select i2bF and click Submit" plans two actions, and the click of
# the first clause is not the Submit of the second.
_FIRST_CLAUSE = re.compile(r"\s(?:and|then)\s|;|\.\s", re.IGNORECASE)

# Per session, the elements (page address, element id) a click on which was held back once.
_HELD: WeakKeyDictionary[object, set[tuple[str, str]]] = WeakKeyDictionary()


def _name(node: ElementNode) -> str:
    """What a goal calls the element by, or "" when it has no short name (or is a list)."""
    if node.options or node.tag == "select":
        return ""
    name = " ".join((node.text or node.name or node.attributes.get("value", "")).split())
    return name if len(name) <= _LONGEST else ""


def _in_row(words: Sequence[str], within: Sequence[str]) -> bool:
    n = len(words)
    return any(tuple(within[i : i + n]) == tuple(words) for i in range(len(within) - n + 1))


@dataclass(frozen=True)
class _Goal:
    """The step's goal, read once: its quoted parts, and its words as written and in lower case."""

    quoted: frozenset[str]
    words: tuple[str, ...]
    lower: tuple[str, ...]

    first: _Goal | None = None  # the goal's first clause, read the same way

    @classmethod
    def read(cls, goal: str, whole: bool = True) -> _Goal:
        quoted = {" ".join(part.split()).strip(_EDGES).lower() for m in _QUOTED.findall(goal) for part in m}
        first = cls.read(_FIRST_CLAUSE.split(goal, maxsplit=1)[0], whole=False) if whole else None
        words, lower = tuple(_WORD.findall(goal)), tuple(_WORD.findall(goal.lower()))
        return cls(frozenset(quoted - {""}), words, lower, first)

    def agrees(self, name: str) -> bool:
        """Whether the goal holds ``name`` in any case: quoted, or its words in a row."""
        if name.strip(_EDGES).lower() in self.quoted:
            return True
        words = _WORD.findall(name.lower())
        return bool(words) and _in_row(words, self.lower)

    def names(self, name: str) -> bool:
        """Whether the goal writes ``name`` as the page does: quoted, or with a capital or a digit, in a row
        in the same case."""
        if name.strip(_EDGES).lower() in self.quoted:
            return True
        if not any(c.isupper() or c.isdigit() for c in name):
            return False
        words = _WORD.findall(name)
        return bool(words) and _in_row(words, self.words)


class OffTheList(ActionError):
    """A click beside the list of elements the goal names: left out of the step, whose other actions
    still run (nothing happened to the page)."""


def check_goal_names_it(
    index: int,
    node: ElementNode,
    snapshot: DomSnapshot,
    goal: str,
    owner: object,
    quote: Callable[[str, int], str],
) -> None:
    """Fail, the first time only, when ``goal`` names another element of ``snapshot`` and not ``node``;
    ``owner`` (the browser session) keeps which clicks were held back.

    Raises:
        ActionError: which element the goal names, and that a second click goes through.
        OffTheList: the goal lists several elements of the clicked one's kind and not it.
    """
    mine = _name(node)
    key = (snapshot.url, node.element_id)
    held = _HELD.setdefault(owner, set())
    if not goal or not mine or key in held or was_advised(owner, snapshot, node):
        return
    read = _Goal.read(goal)
    if read.agrees(mine):
        return
    first = read.first or read
    named = [
        (i, name)
        for i, other in snapshot.selector_map.items()
        if (name := _name(other)) and first.names(name)
    ]
    named = [(i, name) for i, name in named if i != index and name != mine]
    named = [(i, name) for i, name in named if not _inside(node, snapshot.selector_map[i])]
    if len(named) == 1:
        other, name = named[0]
        held.add(key)
        advise(owner, snapshot, snapshot.selector_map[other])
        raise HeldBackError(
            f"element {index} is {quote(mine, _SHOWN)}, but your goal names {quote(name, _SHOWN)}, "
            f"which is element {other}: not clicked. Click element {other}, or element {index} again if you "
            "meant it."
        )
    if _a_list_of_its_kind(node, named, snapshot):
        held.add(key)
        listed = ", ".join(f"{quote(name, _SHOWN)} ({i})" for i, name in named[:_LISTED])
        raise OffTheList(
            f"element {index} ({quote(mine, _SHOWN)}) not clicked: your goal does not name it, it names "
            f"{listed}. Click element {index} again if you meant it."
        )


def _inside(node: ElementNode, named: ElementNode) -> bool:
    """Whether ``node`` sits deeper in what holds ``named`` than ``named`` does: an item of the submenu
    the named item opened ("Select Marietta from the submenu." and a click on Meridel under it), a file
    in the named folder. Tabs in one strip sit side by side, at the same depth: not inside. A plain
    button opens nothing to be inside of: a radio two boxes down a form is beside its Submit, not in it
    (the model wrote "Click the Submit button." and clicked an option of the form)."""
    if len(named.chain) < 2 or named.frame_id != node.frame_id or _plain_button(named):
        return False
    holder = named.chain[-2]
    if holder not in node.chain:
        return False
    return len(node.chain) - node.chain.index(holder) > 2


def _plain_button(node: ElementNode) -> bool:
    """A button that says it opens nothing (no pop-up, no expanded state)."""
    kind = node.attributes.get("type", "").lower()
    button = (
        node.tag == "button"
        or node.role == "button"
        or (node.tag == "input" and kind in ("submit", "button"))
    )
    opens = "aria-haspopup" in node.attributes or any(state.startswith("expanded=") for state in node.states)
    return button and not opens


def _kind(node: ElementNode) -> tuple[str, str, str]:
    return node.tag, node.attributes.get("type", "").lower(), node.attributes.get("role", "").lower()


def _a_list_of_its_kind(node: ElementNode, named: list[tuple[int, str]], snapshot: DomSnapshot) -> bool:
    """Whether the goal lists several elements of the clicked one's kind ("Select REK, ES and 3zeW" among
    checkboxes), none of whose names holds another's: a click on a neighbour of theirs is the index run
    of a small model ("click 0, 1, 2, 3"), not a plan. A Submit after a list of checkboxes is another kind,
    and "Save changes" beside "Save" leaves which one was meant open."""
    if len(named) < 2 or len(named) > _LISTED:
        return False
    nodes = snapshot.selector_map
    if any(_kind(nodes[i]) != _kind(node) for i, _ in named):
        return False
    words = [_WORD.findall(name.lower()) for _, name in named]
    return not any(a is not b and _in_row(a, b) for a in words for b in words)
