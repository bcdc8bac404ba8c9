"""A tiny HTML tree for the replay benchmark: build pages in Python, mutate them, render them."""

from __future__ import annotations

import html
import random
import string
from collections.abc import Iterator
from dataclasses import dataclass, field

KEY = "data-bench-key"
ITEM = "data-bench-item"
VOID = frozenset({"input", "img", "br", "hr", "meta"})


@dataclass
class Node:
    """One element: tag, attributes, children (nodes or text)."""

    tag: str
    attrs: dict[str, str] = field(default_factory=dict)
    children: list[Node | str] = field(default_factory=list)

    def add(self, *kids: Node | str) -> Node:
        self.children.extend(kids)
        return self

    def nodes(self) -> Iterator[Node]:
        yield self
        for kid in self.children:
            if isinstance(kid, Node):
                yield from kid.nodes()

    def render(self) -> str:
        attrs = "".join(f' {k}="{html.escape(v, quote=True)}"' for k, v in self.attrs.items())
        if self.tag in VOID:
            return f"<{self.tag}{attrs}>"
        inner = "".join(k.render() if isinstance(k, Node) else html.escape(k) for k in self.children)
        return f"<{self.tag}{attrs}>{inner}</{self.tag}>"

    def copy(self) -> Node:
        return Node(
            self.tag, dict(self.attrs), [k.copy() if isinstance(k, Node) else k for k in self.children]
        )


def h(tag: str, attrs: dict[str, str] | None = None, *kids: Node | str) -> Node:
    return Node(tag, dict(attrs or {}), list(kids))


def path_to(root: Node, key: str) -> list[Node]:
    """The chain of nodes from ``root`` down to the node with this bench key (inclusive)."""
    if root.attrs.get(KEY) == key:
        return [root]
    for kid in root.children:
        if isinstance(kid, Node) and (found := path_to(kid, key)):
            return [root, *found]
    return []


def find_by_attr(root: Node, attr: str, value: str) -> Node:
    for node in root.nodes():
        if node.attrs.get(attr) == value:
            return node
    raise KeyError(f"no node with {attr}={value!r}")


class Gen:
    """Deterministic generated-looking names, like a CSS-in-JS build or React ids would produce."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.counter = 0

    def css(self) -> str:
        kind = self.rng.randrange(3)
        if kind == 0:
            return "css-" + "".join(self.rng.choices(string.ascii_lowercase + string.digits, k=6))
        if kind == 1:
            return "sc-" + "".join(self.rng.choices(string.ascii_letters, k=6))
        return (
            "_"
            + "".join(self.rng.choices("abcdef", k=2))
            + "".join(self.rng.choices("0123456789", k=2))
            + "x9"
        )

    def rid(self) -> str:
        self.counter += self.rng.randrange(1, 9)
        return f":r{self.counter}:" if self.rng.random() < 0.5 else f"el-{self.rng.randrange(1000, 99999)}"


def is_generated_marker(value: str) -> bool:
    """Whether a class/id in our pages came from ``Gen`` (so the regen mutation replaces it)."""
    return value.startswith(("css-", "sc-", ":r", "el-")) or (value.startswith("_") and value.endswith("x9"))
