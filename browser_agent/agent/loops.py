"""Loop detection: the same actions sent again on a page they did not change.

Small models repeat themselves: the same plan, step after step, on a page that does not move. Each
repeat is told to the model in plain words, with what it tried and when; the third repeat ends the
step as failed (it counts toward ``max_failures``) instead of running the actions once more.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from browser_agent.controller import ActionResult
from browser_agent.dom.snapshot import DomSnapshot, ElementNode
from browser_agent.llm.schemas import NO_ELEMENT
from browser_agent.record import ActionCall, describe_call

__all__ = ["MAX_REPEATS", "NO_ELEMENT", "LoopWatch", "loop_error", "page_key", "repeat_warning"]

MAX_REPEATS = 3
# The actions on no element that a second call cannot make do more on a page the first left as it was.
# Not a scroll (the other way may move), keys, a URL, a tab, or a user's own action (saving one item
# after another on the same list page): their parameters change what they do. A text to find is one:
# one that was found moved the page (or was in view already), one that was not leaves it as it was, and
# a small model then looked for the same sentence, or its next variant, until the run failed.
_SPENT_WITHOUT_ELEMENT = frozenset({"extract_content", "wait", "go_back", "scroll_to_text"})
_DIGITS = re.compile(r"\d+")


def page_key(url: str, snapshot: DomSnapshot | None) -> str:
    """What makes two observations "the same page": the URL, where it is scrolled, its text and elements
    and their state (checked, expanded, a field's value): a click, toggle or scroll that changed what
    the page shows is no repeat. The numbers in the page's plain text are left out: a clock, a countdown
    or "3 minutes ago" changes them every second by itself, and would make every page a new one. The
    price: a number in plain text raised by the same click step after step (a counter beside a "+"
    button) reads as a repeat; a field's value, a checkbox's state or any other change still counts."""
    items: list[Any] = []
    if snapshot is not None:
        for item in snapshot.items:
            if isinstance(item, ElementNode):
                items.append((item.tag, item.name, item.text, item.states, item.attributes.get("value", "")))
            else:
                items.append(_DIGITS.sub("#", item.text))
    scrolled = None if snapshot is None else round(snapshot.scroll.scroll_y)
    return hashlib.sha1(json.dumps([url, scrolled, items]).encode(), usedforsecurity=False).hexdigest()


@dataclass
class LoopWatch:
    """Remembers which actions were sent on which page, step by step."""

    _seen: dict[tuple[str, str], list[int]] = field(default_factory=dict)
    _alone: dict[str, set[tuple[str, int]]] = field(default_factory=dict)

    def check(self, step: int, page: str, actions: list[ActionCall]) -> list[int]:
        """Record ``actions`` sent at ``step`` on ``page``; return the earlier steps that sent the same."""
        key = (page, json.dumps([a.flat() for a in actions], sort_keys=True, default=str))
        earlier = self._seen.setdefault(key, [])
        before = list(earlier)
        earlier.append(step)
        if len(actions) == 1:
            index = actions[0].element_index()
            if index is None and actions[0].name in _SPENT_WITHOUT_ELEMENT:
                index = NO_ELEMENT
            if index is not None:
                self._alone.setdefault(page, set()).add((actions[0].name, index))
        return before

    def release_held(
        self, step: int, page: str, actions: list[ActionCall], results: Sequence[ActionResult]
    ) -> None:
        """Forget ``actions`` sent at ``step`` on ``page`` when their first result is a hold that asks for
        the same action later (``HeldForNowError``: another text into the same field, this click once
        the form is filled): nothing ran. Spent, a held ``input_text`` into field 0 was left out of the
        next grammar, and the 1.5B model, told which word to type there, clicked the field and pressed
        the word as a key, step after step (find-word). A hold that points at another element (the
        menu item the goal names, Cancel for a question that would leave the page) keeps its click
        spent: offered again, the model clicked the held element again (login-user-popup 1,
        search-engine 0 and 5)."""
        if not actions or not results or not results[0].offered_again:
            return
        key = (page, json.dumps([a.flat() for a in actions], sort_keys=True, default=str))
        if step in self._seen.get(key, []):
            self._seen[key].remove(step)
        if len(actions) == 1:
            index = actions[0].element_index()
            self._alone.get(page, set()).discard((actions[0].name, NO_ELEMENT if index is None else index))

    def spent(self, page: str) -> tuple[tuple[str, int], ...]:
        """The actions sent alone in a step on ``page`` (``(name, index)``; ``NO_ELEMENT`` for a wait, an
        extraction or ``go_back``): seeing this same page again, they did not change it, or changed it
        and back."""
        return tuple(sorted(self._alone.get(page, ())))


def repeat_warning(earlier: list[int], actions: list[ActionCall]) -> str:
    """What the model reads after a repeat (``earlier``: the steps that sent the same actions)."""
    tried = "; ".join(describe_call(a) for a in actions)
    steps = ", ".join(str(s) for s in earlier)
    return (
        f"You sent exactly these actions on this same page before (step {steps}) and the page did not "
        f"change: {tried}. Do not send them again: choose other elements or another action on the page."
    )


def loop_error(earlier: list[int], actions: list[ActionCall]) -> str:
    """The error of a step that was not run because it repeated itself ``MAX_REPEATS`` times."""
    tried = "; ".join(describe_call(a) for a in actions)
    return (
        f"Loop: these actions were already sent {len(earlier)} times on this same page without changing "
        f"it (steps {', '.join(map(str, earlier))}), so they were not run again: {tried}."
    )
