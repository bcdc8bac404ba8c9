"""``render``: the exact text the model reads for one snapshot — indexed elements, text between them,
and one line each for what lies above and below the viewport.

Only what helps the model choose is shown: the element's text or accessible name, a few attributes
(type, placeholder, a label that differs from the text, a link target only when there is no text) and
its states. ``*[12]`` marks an element that appeared since the previous snapshot.
"""

from __future__ import annotations

from browser_agent.dom.models import DomSnapshot, ElementNode, ScrollInfo, TextNode

__all__ = ["render"]

# Roles a tag already implies; showing them would only cost tokens.
_IMPLIED_ROLES = {"a": "link", "button": "button", "select": "combobox", "textarea": "textbox"}
_PLAIN_TYPES = frozenset({"text", "submit", ""})
_HREF_CAP = 60


def render(snapshot: DomSnapshot) -> str:
    """The snapshot as compact text: one line per element or text run, plus above/below summaries."""
    lines: list[str] = []
    above = _summary(snapshot.scroll, above=True)
    if above:
        lines.append(above)
    before = ""
    for item in snapshot.items:
        if isinstance(item, TextNode):
            lines.append(item.text)
            before = item.text
        else:
            lines.append(render_element(item, before=before))
            before = ""
    if not snapshot.selector_map:
        lines.append("(no interactive elements in view)")
    below = _summary(snapshot.scroll, above=False)
    if below:
        lines.append(below)
    return "\n".join(lines)


def render_element(node: ElementNode, *, before: str = "") -> str:
    """One element as ``[index]<tag attrs>content</tag>``, prefixed with ``*`` when it is new.

    ``before`` is the text line just above it: a label already read there is not repeated.
    """
    mark = "*" if node.is_new else ""
    attrs = " ".join(_attributes(node, before))
    opening = f"<{node.tag} {attrs}>" if attrs else f"<{node.tag}>"
    content = _content(node)
    if node.options:
        more = f"|…{node.options_more} more" if node.options_more else ""
        content = "|".join(node.options) + more
    if not content and node.tag in ("input", "img"):
        return f"{mark}[{node.index}]{opening[:-1]}/>"
    return f"{mark}[{node.index}]{opening}{content}</{node.tag}>"


def _content(node: ElementNode) -> str:
    if node.tag == "input":
        return ""  # its label and value are shown as attributes and states
    return node.text or node.name


def _quote(value: str) -> str:
    return f'"{value}"' if (" " in value or not value) else value


def _attributes(node: ElementNode, before: str) -> list[str]:
    attrs = node.attributes
    shown: list[str] = []
    role = node.role
    if role and _IMPLIED_ROLES.get(node.tag) != role:
        shown.append(f"role={role}")
    kind = attrs.get("type", "").lower()
    if node.tag == "input" and kind not in _PLAIN_TYPES:
        shown.append(f"type={kind}")
    placeholder = attrs.get("placeholder", "")
    if _label_adds(node, placeholder) and not (before and before.endswith(node.name)):
        shown.append(f"label={_quote(node.name)}")
    if placeholder:
        shown.append(f"placeholder={_quote(placeholder)}")
    if not node.name and not node.text and attrs.get("name"):
        shown.append(f"name={_quote(attrs['name'])}")
    href = attrs.get("href", "")
    if href and not _content(node):
        shown.append(f"href={_quote(href[:_HREF_CAP])}")
    shown.extend(node.states)
    return shown


def _label_adds(node: ElementNode, placeholder: str) -> bool:
    """Whether the accessible name tells the model something the content and placeholder do not."""
    if not node.name or node.name == placeholder:
        return False
    if node.tag == "input" or (node.tag == "textarea" and not node.text):
        return True
    return bool(node.text) and node.name not in node.text


def _summary(scroll: ScrollInfo, *, above: bool) -> str:
    pages = scroll.pages_above if above else scroll.pages_below
    count = scroll.elements_above if above else scroll.elements_below
    if pages < 0.05 and not count:
        return ""
    where = "above" if above else "below"
    more = f", {count} more interactive elements" if count else ""
    return f"... {pages:.1f} pages {where}{more}"
