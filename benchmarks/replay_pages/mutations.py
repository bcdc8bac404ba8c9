"""The kinds of change a recorded page goes through before replay, each a pure function on a copy."""

from __future__ import annotations

import random
from collections.abc import Callable

from benchmarks.replay_pages.tree import ITEM, KEY, Gen, Node, find_by_attr, h, is_generated_marker, path_to

# kind -> (mutate(body, key, rng) -> body, whether the change is page-wide, whether the target survives)
Mutation = Callable[[Node, str, random.Random], Node]


def _parent_and_item(body: Node, key: str) -> tuple[Node, Node, Node]:
    """The target, its item (card/row/field) and the item's parent."""
    chain = path_to(body, key)
    target = chain[-1]
    item_at = max((i for i, node in enumerate(chain) if ITEM in node.attrs), default=len(chain) - 1)
    return target, chain[item_at], chain[item_at - 1]


def _parent_of(body: Node, key: str) -> Node:
    return path_to(body, key)[-2]


def banner(body: Node, key: str, rng: random.Random) -> Node:
    """A promo banner at the top and a "New" badge just before the target (before its label when the
    target sits inside one, since text inside a label would rename the target itself)."""
    body = body.copy()
    body.children.insert(
        0,
        h(
            "div",
            {"class": "promo"},
            "Free shipping this week only! ",
            h("button", {"class": "promo-close"}, "Dismiss"),
        ),
    )
    chain = path_to(body, key)
    inside_label = len(chain) > 2 and chain[-2].tag == "label"
    parent, child = (chain[-3], chain[-2]) if inside_label else (chain[-2], chain[-1])
    parent.children.insert(parent.children.index(child), h("span", {"class": "badge"}, "New"))
    return body


def wrapper(body: Node, key: str, rng: random.Random) -> Node:
    body = body.copy()
    parent = _parent_of(body, key)
    where = next(
        i for i, kid in enumerate(parent.children) if isinstance(kid, Node) and kid.attrs.get(KEY) == key
    )
    target = parent.children[where]
    assert isinstance(target, Node)
    parent.children[where] = h("div", {"class": Gen(rng.randrange(10**6)).css()}, target)
    return body


def reorder(body: Node, key: str, rng: random.Random) -> Node:
    body = body.copy()
    _, _, container = _parent_and_item(body, key)
    slots = [i for i, kid in enumerate(container.children) if isinstance(kid, Node) and ITEM in kid.attrs]
    items = [container.children[i] for i in slots]
    shuffled = items[:]
    while len(items) > 1 and shuffled == items:
        rng.shuffle(shuffled)
    for slot, kid in zip(slots, shuffled, strict=True):
        container.children[slot] = kid
    return body


def regenerate(body: Node, key: str, rng: random.Random) -> Node:
    """New build: every generated-looking class and id gets a new value (label ``for`` follows its id)."""
    body = body.copy()
    gen = Gen(rng.randrange(10**6))
    renamed: dict[str, str] = {}
    for node in body.nodes():
        if is_generated_marker(node.attrs.get("id", "")):
            renamed[node.attrs["id"]] = node.attrs["id"] = gen.rid()
        if "class" in node.attrs:
            node.attrs["class"] = " ".join(
                gen.css() if is_generated_marker(c) else c for c in node.attrs["class"].split()
            )
    for node in body.nodes():
        if node.attrs.get("for") in renamed:
            node.attrs["for"] = renamed[node.attrs["for"]]
    return body


def text_elsewhere(body: Node, key: str, rng: random.Random) -> Node:
    body = body.copy()
    for node in body.nodes():
        if "data-bench-text" in node.attrs:
            node.children = [
                f"{kid} (updated {rng.randrange(2, 60)} minutes ago)" if isinstance(kid, str) else kid
                for kid in node.children
            ]
    return body


def moved(body: Node, key: str, rng: random.Random) -> Node:
    body = body.copy()
    _, item, container = _parent_and_item(body, key)
    container.children.remove(item)
    find_by_attr(body, "data-bench-zone", "move").add(item)
    return body


def duplicate(body: Node, key: str, rng: random.Random) -> Node:
    """A copy of the target (same tag, text, classes; no id, no key) in the footer, labelled like it."""
    body = body.copy()
    target, item, _ = _parent_and_item(body, key)
    copy = target.copy()
    copy.attrs.pop(KEY, None)
    copy.attrs.pop("id", None)
    labels = [n for n in item.nodes() if n.tag == "label"]
    if target.tag in ("input", "select") and labels:
        text = " ".join(kid for kid in labels[0].children if isinstance(kid, str))
        copy = (
            h("label", {}, text, copy)
            if target.attrs.get("type") not in ("checkbox", "radio")
            else h("label", {}, copy, text)
        )
    find_by_attr(body, "data-bench-zone", "dup").add(h("div", {"class": "also"}, copy))
    return body


def removed(body: Node, key: str, rng: random.Random) -> Node:
    body = body.copy()
    parent = _parent_of(body, key)
    parent.children = [
        kid for kid in parent.children if not (isinstance(kid, Node) and kid.attrs.get(KEY) == key)
    ]
    return body


KINDS: dict[str, Mutation] = {
    "banner": banner,
    "wrapper": wrapper,
    "reorder": reorder,
    "regen": regenerate,
    "text": text_elsewhere,
    "moved": moved,
    "duplicate": duplicate,
    "removed": removed,
}
