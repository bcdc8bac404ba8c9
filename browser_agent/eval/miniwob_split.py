"""The broad MiniWoB++ suite: the tasks that can be done from the page's DOM, by kind, split once and for
good into a development half and a held-out half.

The rule (docs/eval.md): a change is chosen on the development half, with development seeds (0-9); the
held-out half is run only to report, with reporting seeds (100 and up), never to choose between two
versions. The split is by task, not by seed: a seed of a tuned task is no fair test of other tasks. The
twenty tasks the agent was tuned on before the split (``easy``, ``easy-2``) are all in the development
half.

Left out: the tasks that need pixels or drawing (shapes, colours, angles, drags, sliders, the colour
wheel, highlighting), the ``-nodelay`` copies of other tasks, and the near-copies that would weigh one
kind of page twice.
"""

from __future__ import annotations

from typing import Literal

__all__ = [
    "DEVELOPMENT",
    "DEVELOPMENT_SEEDS",
    "HELD_OUT",
    "KINDS",
    "REPORTING_SEEDS_FROM",
    "Half",
    "half_of",
    "kind_of",
]

Half = Literal["development", "held-out"]

# Each kind's tasks: (development half, held-out half). Each task is named once.
_SPLIT: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    # buttons, links, dialogs and checkboxes: the element is named on the page
    "click": (
        (
            "click-button",
            "click-link",
            "click-dialog",
            "click-dialog-2",
            "click-test",
            "click-test-2",
            "click-widget",
            "click-option",
            "click-button-sequence",
            "click-checkboxes",
        ),
        (
            "click-test-transfer",
            "click-checkboxes-large",
            "click-checkboxes-soft",
            "click-checkboxes-transfer",
            "sign-agreement",
        ),
    ),
    # typing into fields and filling forms, dates and times included
    "text": (
        (
            "enter-text",
            "enter-text-2",
            "enter-text-dynamic",
            "enter-password",
            "focus-text",
            "focus-text-2",
            "login-user",
            "login-user-popup",
        ),
        (
            "enter-date",
            "enter-time",
            "form-sequence",
            "form-sequence-2",
            "form-sequence-3",
            "multi-layouts",
            "unicode-test",
        ),
    ),
    # in-page tabs, collapsibles, menus, trees, lists, suggestions, pickers
    "widgets": (
        ("choose-list", "click-tab", "click-collapsible", "click-menu", "navigate-tree", "use-autocomplete"),
        (
            "click-tab-2",
            "click-tab-2-hard",
            "click-collapsible-2",
            "click-menu-2",
            "click-scroll-list",
            "choose-date-easy",
            "use-spinner",
        ),
    ),
    # reading the page and reasoning about it before acting
    "reading": (
        ("read-table", "find-word", "simple-arithmetic", "scroll-text", "search-engine", "email-inbox"),
        (
            "read-table-2",
            "find-greatest",
            "simple-algebra",
            "odd-or-even",
            "phone-book",
            "social-media",
            "email-inbox-forward-nl",
        ),
    ),
}

KINDS: dict[str, tuple[str, ...]] = {kind: dev + held for kind, (dev, held) in _SPLIT.items()}
"""Every task of the broad suite, by the kind of page it is; a kind is the family results are summed by."""

DEVELOPMENT: tuple[str, ...] = tuple(task for dev, _ in _SPLIT.values() for task in dev)
"""The development half: changes are chosen here; the twenty tuned on before the split are in it."""

HELD_OUT: tuple[str, ...] = tuple(task for _, held in _SPLIT.values() for task in held)
"""The held-out half: run only to report, with reporting seeds. Never chosen on."""

DEVELOPMENT_SEEDS = range(0, 10)
"""The seeds a change is chosen with."""
REPORTING_SEEDS_FROM = 100
"""Figures are reported with seeds from here up, on both halves."""


def kind_of(task: str) -> str | None:
    """The kind (``click``, ``text``, ``widgets``, ``reading``) of a task of the suite; None for others."""
    return next((kind for kind, tasks in KINDS.items() if task in tasks), None)


def half_of(task: str) -> Half | None:
    """The half a task of the suite belongs to; None for a task outside the suite."""
    if task in HELD_OUT:
        return "held-out"
    return "development" if kind_of(task) is not None else None
