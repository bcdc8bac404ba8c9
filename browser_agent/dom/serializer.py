"""``render``: the exact text the model reads for one snapshot — indexed elements, text between them,
and one line each for what lies above and below the viewport.

Only what helps the model choose is shown: the element's text or accessible name (or, for a control
with neither, the ``icon=`` hint its markup gives), a few attributes (type, placeholder, a label that
differs from the text, a link target only when there is no text) and its states. ``*[12]`` marks an
element that appeared since the previous snapshot. A scroll panel says what it hides and which index
scrolls it; a data table is read row by row (``| Jun 2 | INV-88 | [12]<button>Edit</button> |``), at
most ``TABLE_ROWS`` rows per table; with a modal dialog open, one line says only the dialog is shown.
"""

from __future__ import annotations

from browser_agent.dom.cards import card_labels
from browser_agent.dom.pagination import page_links
from browser_agent.dom.ranks import current_page, ordinal, result_places
from browser_agent.dom.snapshot import Cell, DomSnapshot, ElementNode, PanelScroll, ScrollInfo, TextNode

__all__ = ["CLOSE_ICONS", "TABLE_ROWS", "render", "render_element"]

TABLE_ROWS = 25
DIALOG_LINE = "(a dialog is open over the page: only the dialog is shown)"
# Roles a tag already implies; showing them would only cost tokens.
_IMPLIED_ROLES = {"a": "link", "button": "button", "select": "combobox", "textarea": "textbox"}
# A section header that opens and closes what is under it is a button, whatever its tag: a heading, a
# paragraph or a <summary> with an expanded state reads `<button collapsed>`, as the WAI-ARIA disclosure
# pattern draws it. A small model takes `<h3 role=tab collapsed>` for a title and clicks past it
# (MiniWoB++'s accordion). Native controls, links, and items whose state is part of a menu, a tree, a
# list or a grid keep their own tag and role.
_PLAIN_ROLES = frozenset({"heading", "none", "presentation", "generic"})  # not said once shown as a button
_DISCLOSURE_ROLES = _PLAIN_ROLES | {"", "button", "tab"}
_OWN_TAGS = frozenset({"a", "button", "input", "select", "textarea", "option"})
_PLAIN_TYPES = frozenset({"text", "submit", ""})
_HREF_CAP = 60


def render(snapshot: DomSnapshot) -> str:
    """The snapshot as compact text: one line per element, text run or table row, plus summaries."""
    lines: list[str] = []
    above = _summary(snapshot.scroll, above=True)
    if above:
        lines.append(above)
    if snapshot.dialog:
        lines.append(DIALOG_LINE)
    pages = page_links(snapshot.items)
    shown = current_page(snapshot.items, pages) if pages else None
    body = _Body(
        _tab_strip(snapshot.items),
        card_labels(snapshot.items),
        pages,
        result_places(snapshot.items, pages, snapshot.scroll, snapshot.page_size)
        if shown is not None
        else {},
        shown.element_id if shown is not None else "",
    )
    lines.extend(body.lines(snapshot.items))
    if not snapshot.selector_map:
        lines.append("(no interactive elements in view)")
    below = _summary(snapshot.scroll, above=False)
    if below:
        lines.append(below)
    return "\n".join(lines)


class _Body:
    """Items to lines: loose items one per line, the items of one table row joined into one line."""

    def __init__(
        self,
        strip: frozenset[str] = frozenset(),
        cards: dict[str, str] | None = None,
        pages: frozenset[str] = frozenset(),
        places: dict[str, int] | None = None,
        shown_page: str = "",
    ) -> None:
        self._strip = strip  # element ids of tabs that sit in a row of tabs
        self._cards = cards or {}  # element id -> the label of its card, for a control with look-alikes
        self._pages = pages  # element ids of the page-number links of a paged list
        self._places = places or {}  # element id -> its place in the whole paged list
        self._shown_page = shown_page  # element id of the link of the page shown
        self._out: list[str] = []
        self._table: tuple[int, int] | None = None  # (frame, table) of the rows being read
        self._row: tuple[int, int, int] | None = None  # (frame, table, row) of the row being built
        self._cells: dict[int, list[str]] = {}
        self._rows = 0  # rows of the current table shown so far
        self._left_out = 0  # and left out past TABLE_ROWS

    def lines(self, items: tuple[ElementNode | TextNode, ...]) -> list[str]:
        before = ""
        labelled = ""  # the label just shown on a field: its own text, read next, is not repeated
        for item in items:
            if item.cell is not None:
                self._add_to_row(item, item.cell)
                continue
            self._end_table()
            if isinstance(item, TextNode):
                if item.text != labelled:
                    self._out.append(item.text)
                before, labelled = item.text, ""
            else:
                self._out.append(self._element(item, before))
                labelled = item.name if _label_shown(item, before) else ""
                before = ""
        self._end_table()
        return self._out

    def _element(self, node: ElementNode, before: str) -> str:
        strip, page = node.element_id in self._strip, node.element_id in self._pages
        card = "" if page else self._cards.get(node.element_id, "")  # two pagers: "1" beside "1"
        line = render_element(
            node,
            before=before,
            in_strip=strip,
            card=card,
            page_link=page,
            page_shown=node.element_id == self._shown_page,
        )
        place = self._places.get(node.element_id)
        return f"{line} ({ordinal(place)} result)" if place else line

    def _add_to_row(self, item: ElementNode | TextNode, cell: Cell) -> None:
        row = (item.frame_id, cell.table, cell.row)
        if row != self._row:
            if self._table != row[:2]:
                self._end_table()
                self._table = row[:2]
            self._end_row()
            self._row = row
            if self._rows >= TABLE_ROWS:
                self._left_out += 1
        if self._rows >= TABLE_ROWS:
            return
        parts = self._cells.setdefault(cell.column, [])
        if isinstance(item, TextNode):
            parts.append(item.text)
        else:
            parts.append(self._element(item, parts[-1] if parts else ""))

    def _end_row(self) -> None:
        if self._cells:
            width = max(self._cells) + 1
            self._out.append("| " + " | ".join(" ".join(self._cells.get(c, [])) for c in range(width)) + " |")
            self._rows += 1
        self._cells = {}
        self._row = None

    def _end_table(self) -> None:
        self._end_row()
        if self._left_out:
            self._out.append(f"(… {self._left_out} more rows of this table; scroll to read them)")
        self._table, self._rows, self._left_out = None, 0, 0


def render_element(
    node: ElementNode,
    *,
    before: str = "",
    in_strip: bool = False,
    card: str = "",
    page_link: bool = False,
    page_shown: bool = False,
) -> str:
    """One element as ``[index]<tag attrs>content</tag>``, prefixed with ``*`` when it is new.

    ``before`` is the text line just above it: a label already read there is not repeated. ``in_strip``
    says it is a tab in a row of tabs: it reads ``selected`` or nothing, never ``collapsed``. ``card``
    is the label of the card of a control that reads like others (``for="Leena Commodo…"``);
    ``page_link`` says it is a page number under a paged list: it reads ``page 3``, not ``3``;
    ``page_shown``, that it is the page shown: it reads ``current`` (a class said so, not ``aria-current``).
    """
    mark = "*" if node.is_new else ""
    tag = node.tag if in_strip else _shown_tag(node)
    attrs = " ".join(_attributes(node, before, tag, in_strip))
    if page_shown and "current" not in node.states:
        attrs = f"{attrs} current" if attrs else "current"
    if card:
        attrs = f'{attrs} for="{card}"' if attrs else f'for="{card}"'
    opening = f"<{tag} {attrs}>" if attrs else f"<{tag}>"
    content = f"page {_content(node)}" if page_link else _content(node)
    if node.options:
        more = f"|…{node.options_more} more" if node.options_more else ""
        content = "|".join(node.options) + more
    if node.panel is not None:
        hint = _panel_hint(node.panel, node.index)
        content = f"{content}: {hint}" if content and hint else content or hint
    if not content and tag in ("input", "img"):
        return f"{mark}[{node.index}]{opening[:-1]}/>"
    return f"{mark}[{node.index}]{opening}{content}</{tag}>"


def _shown_tag(node: ElementNode) -> str:
    """The element's tag, or ``button`` for a section header that opens and closes (see above)."""
    if node.tag in _OWN_TAGS or (node.role or "") not in _DISCLOSURE_ROLES:
        return node.tag
    if any(state.startswith("expanded=") for state in node.states):
        return "button"
    return node.tag


def _content(node: ElementNode) -> str:
    if node.tag == "input":
        return ""  # its label and value are shown as attributes and states
    return node.text or _glyph(node) or node.name


# Icon names of a close button. Its mark is an ×, and users say "click the x": a name such as
# "Close" hidden under the icon (jQuery UI's dialog) never read as the "x" asked for, nor did
# `label=Close` beside the ×; the icon's own name beside it did (MiniWoB++ click-dialog-2).
CLOSE_ICONS = frozenset({"close", "closethick", "cross", "times", "xmark", "dismiss"})


def _glyph(node: ElementNode) -> str:
    """The mark a person sees on a control that shows only an icon, where it is one mark: × to close."""
    if node.text or not node.icon:
        return ""
    return "×" if CLOSE_ICONS.intersection(node.icon.split("-")) else ""


def _quote(value: str) -> str:
    return f'"{value}"' if (" " in value or not value) else value


def _attributes(node: ElementNode, before: str, tag: str, in_strip: bool) -> list[str]:
    attrs = node.attributes
    shown: list[str] = []
    role = node.role
    if role and _IMPLIED_ROLES.get(tag) != role and not (tag != node.tag and role in _PLAIN_ROLES):
        shown.append(f"role={role}")
    kind = attrs.get("type", "").lower()
    if node.tag == "input" and kind not in _PLAIN_TYPES:
        shown.append(f"type={kind}")
    placeholder = attrs.get("placeholder", "")
    if _label_shown(node, before):
        shown.append(f"label={_quote(node.name)}")
    if placeholder:
        shown.append(f"placeholder={_quote(placeholder)}")
    if not node.name and not node.text and attrs.get("name"):
        shown.append(f"name={_quote(attrs['name'])}")
    if node.icon and not node.text:
        shown.append(f"icon={node.icon}")
    href = attrs.get("href", "")
    if href and not _content(node):
        shown.append(f"href={_quote(href[:_HREF_CAP])}")
    if node.panel is not None:
        shown.append("scrollable")
    states = [s for s in node.states if not (in_strip and s.startswith("expanded="))]
    shown.extend(filter(None, (_STATE_WORDS.get(state, state) for state in states)))
    return shown


def _tab_strip(items: tuple[ElementNode | TextNode, ...]) -> frozenset[str]:
    """The tabs that sit side by side with another tab: a row of tabs, not a stack of section headers.

    jQuery UI marks both its tabs and its accordion's headers with ``role=tab`` and ``aria-expanded``.
    Only where the tabs stand in a row is ``expanded`` the same fact as ``selected``; said there as
    ``collapsed``, it made the model take the one open tab for the one asked for (MiniWoB++'s click-tab).
    """
    tabs = [item for item in items if isinstance(item, ElementNode) and item.role == "tab"]
    return frozenset(tab.element_id for tab in tabs if any(_side_by_side(tab, other) for other in tabs))


def _side_by_side(one: ElementNode, other: ElementNode) -> bool:
    if one is other or one.frame_id != other.frame_id:
        return False
    a, b = one.rect, other.rect
    same_row = abs(a.center[1] - b.center[1]) < min(a.height, b.height) / 2
    return same_row and (a.x + a.width <= b.x + 1 or b.x + b.width <= a.x + 1)


# ARIA states in a word or none: a tab reads `selected`, a closed section `collapsed`; what is off by
# default (not selected, not pressed, not checked) goes unsaid, as for a native checkbox.
_STATE_WORDS = {
    "selected=true": "selected",
    "selected=false": "",
    "expanded=true": "expanded",
    "expanded=false": "collapsed",
    "checked=true": "checked",
    "checked=false": "",
    "checked=mixed": "mixed",
    "pressed=true": "pressed",
    "pressed=false": "",
    "pressed=mixed": "mixed",
}


def _label_shown(node: ElementNode, before: str) -> bool:
    """Whether the element is shown with ``label=``: its name adds something and was not just read."""
    placeholder = node.attributes.get("placeholder", "")
    return _label_adds(node, placeholder) and not (before and before.endswith(node.name))


def _label_adds(node: ElementNode, placeholder: str) -> bool:
    """Whether the accessible name tells the model something the content and placeholder do not."""
    if not node.name or node.name == placeholder:
        return False
    if node.tag in ("input", "select") or (node.tag == "textarea" and not node.text):
        return True
    return bool(node.text) and node.name not in node.text


def _panel_hint(panel: PanelScroll, index: int) -> str:
    """What a scroll panel hides, side by side, and how to bring it into view."""
    sides = (
        (panel.elements_above, panel.screens_above, "above"),
        (panel.elements_below, panel.screens_below, "below"),
        (panel.elements_left, panel.screens_left, "to the left"),
        (panel.elements_right, panel.screens_right, "to the right"),
    )
    said = [
        f"{count} more {'item' if count == 1 else 'items'} {where}" if count else f"more {where}"
        for count, screens, where in sides
        if count or screens >= 0.05
    ]
    return f"{', '.join(said)} (scroll it with index {index})" if said else ""


def _summary(scroll: ScrollInfo, *, above: bool) -> str:
    pages = scroll.pages_above if above else scroll.pages_below
    count = scroll.elements_above if above else scroll.elements_below
    if pages < 0.05 and not count:
        return ""
    where = "above" if above else "below"
    more = f", {count} more interactive elements" if count else ""
    main = None if above else scroll.main_pages_below
    starts = f"; the main content starts {main:.1f} pages below" if main is not None else ""
    return f"... {pages:.1f} pages {where}{more}{starts}"
