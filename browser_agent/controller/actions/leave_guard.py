"""A "yes" to a question that would leave the page is held back once, unless the task asks to leave.

While a small model filled a login form, the page opened a pop-up of its own: "Your session is about to
expire. Exit to home page? [OK] [Cancel]". The model clicked OK (the form's own button is also "OK"),
the page went home and the run was lost. A click on the affirmative answer (OK, Yes, Exit, Leave,
Discard, ...) to a question beside it that speaks of leaving (exit, leave, quit, log out, discard, the
home page, ...) fails the first time, naming the answer that stays, when the task itself says nothing of
leaving. The same click again goes through.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Callable
from typing import Any
from weakref import WeakKeyDictionary

from playwright.async_api import ElementHandle, Page

from browser_agent.browser.playwright_errors import PlaywrightError
from browser_agent.controller.context import ActionContext
from browser_agent.dom.snapshot import DomSnapshot, ElementNode
from browser_agent.errors import ActionError, HeldBackError

__all__ = ["check_leaving", "leaving_question", "leaving_sentence"]

# Words of a question (or a task) about leaving the page, or throwing away what it holds.
_LEAVING = re.compile(
    r"\b(?:exit(?:s|ing)?|leav(?:e|es|ing)|quit(?:s|ting)?|log\s?(?:out|off)|sign\s?(?:out|off)"
    r"|discard(?:s|ed|ing)?|abandon(?:s|ed|ing)?|home\s?page|start(?:ing)? over|lose (?:your|all|the))\b",
    re.IGNORECASE,
)
# Answers that go ahead with what the question asks, and answers that stay.
_GO_AHEAD = frozenset({
    "ok", "okay", "yes", "exit", "leave", "quit", "log out", "logout", "sign out", "discard", "confirm",
    "leave page", "yes, leave", "yes, exit",
})  # fmt: skip
_STAY = frozenset({
    "cancel", "no", "stay", "stay here", "keep", "keep editing", "go back", "not now", "stay on page",
    "no, stay", "stay signed in", "stay logged in",
})  # fmt: skip
_MAX_ANSWERS = 4  # more buttons than this around it: a toolbar or a form, not a question's answers
_MAX_TEXT = 400
_QUOTED_CAP = 120  # characters of a question quoted back

# From an enabled button, the nearest ancestor (four levels at most, holding no field) whose text asks a
# question: that text, and the other buttons in it with their names and in-page ids (dom/extract.js); null
# when there is none.
_CLIMB_JS = """(el, most, longest) => {
  const reg = window.__browserAgent;
  const name = (b) => (b.innerText || b.value || b.getAttribute('aria-label') || '').trim();
  const answers = 'button, [role=button], input[type=button], input[type=submit], input[type=reset]';
  const fields = 'textarea, select, input:not([type=button]):not([type=submit]):not([type=reset])'
    + ':not([type=hidden])';
  if (el.disabled) return null;
  let box = el.parentElement;
  for (let depth = 0; box && box !== document.body && depth < 4; depth++, box = box.parentElement) {
    const others = [...box.querySelectorAll(answers)].filter((b) => b !== el && !b.contains(el));
    const text = (box.innerText || '').trim();
    // a box with fields in it is a form (or holds one), not a question and its answers
    if (others.length > most || text.length > longest || box.querySelector(fields)) return null;
    if (!text.includes('?')) continue;
    const listed = others.map((b) => ({ name: name(b), id: reg ? reg.ids.get(b) || '' : '' }));
    return { text, name: name(el), others: listed };
  }
  return null;
}"""
_QUESTION_JS = f"(el, [most, longest]) => ({_CLIMB_JS})(el, most, longest)"
# The questions that the page's enabled, visible buttons answer.
_PAGE_QUESTIONS_JS = f"""([most, longest]) => {{
  const climb = {_CLIMB_JS};
  const found = [];
  for (const el of document.querySelectorAll('button, [role=button], input[type=button]')) {{
    if (el.disabled || !el.checkVisibility({{ visibilityProperty: true }})) continue;
    const asked = climb(el, most, longest);
    if (asked) found.push(asked);
  }}
  return found;
}}"""

# Per session, the buttons (page address, element id) a click on which was held back once.
_HELD: WeakKeyDictionary[object, set[tuple[str, str]]] = WeakKeyDictionary()


def _quoted(text: str, redact: Callable[[str], str]) -> str:
    """Page text for the model: redacted before it is cut, so no part of a secret is quoted."""
    return repr(redact(text)[:_QUOTED_CAP])


def _answer(name: str) -> str:
    return " ".join(name.lower().strip(" .!").split())


def _answers_yes(node: ElementNode) -> bool:
    """Whether ``node`` is named as a "yes" (OK, Yes, Exit, Sign out, ...): the only clicks the guard
    looks further at, so that other clicks cost no round trip to the page."""
    return _answer(node.text or node.name) in _GO_AHEAD


def leaving_sentence(text: str) -> str | None:
    """The sentence of ``text`` that asks about leaving ("Exit to home page?"), if one does."""
    return next(
        (part.strip() for part in re.split(r"(?<=[?.!])\s+", text) if "?" in part and _LEAVING.search(part)),
        None,
    )


async def leaving_question(page: Page, redact: Callable[[str], str]) -> str | None:
    """``asked 'Exit to home page?': 'Cancel' answers it and stays`` when a button on ``page`` answers yes
    to a question about leaving beside another that stays; ``None`` otherwise, or when the page cannot
    be asked. For a failure that must send the model to the question first."""
    found = await _leaving_answers(page)
    return _said_asked(*found, redact) if found else None


async def _leaving_answers(page: Page) -> tuple[str, str] | None:
    """The question about leaving that a button on ``page`` answers yes to, and the name of the button
    beside it that stays; ``None`` when there is none, or the page cannot be asked."""
    found: list[dict[str, Any]] = []
    with contextlib.suppress(PlaywrightError):
        found = await page.main_frame.evaluate(_PAGE_QUESTIONS_JS, [_MAX_ANSWERS, _MAX_TEXT])
    for asked in found:
        question = leaving_sentence(asked["text"]) if _answer(asked["name"]) in _GO_AHEAD else None
        stay = next((o["name"] for o in asked["others"] if _answer(o["name"]) in _STAY), None)
        if question and stay:
            return question, stay
    return None


def _said_asked(question: str, stay: str, redact: Callable[[str], str]) -> str:
    return f"asked {_quoted(question, redact)}: {_quoted(stay, redact)} answers it and stays"


async def _hold_yes(
    index: int,
    node: ElementNode,
    handle: ElementHandle,
    snapshot: DomSnapshot,
    task: str,
    owner: object,
    redact: Callable[[str], str],
) -> None:
    """Fail, the first time only, when ``node`` (element ``index``, in the page as ``handle``) answers
    yes to a question beside it about leaving the page and ``task`` says nothing of leaving; ``owner``
    (the browser session) keeps which clicks were held back, ``redact`` hides secrets in what it quotes.

    Raises:
        ActionError: the question, and the element that answers it without leaving.
    """
    key = (snapshot.url, node.element_id)
    held = _HELD.setdefault(owner, set())
    if key in held or not _answers_yes(node) or _LEAVING.search(task):
        return
    found = None
    with contextlib.suppress(PlaywrightError):  # the element went away: the click says so itself
        found = await handle.evaluate(_QUESTION_JS, [_MAX_ANSWERS, _MAX_TEXT])
    if not found or (question := leaving_sentence(found["text"])) is None:
        return
    by_id = {n.element_id: n for n in snapshot.selector_map.values()}
    stay = next(
        (by_id[o["id"]] for o in found["others"] if _answer(o["name"]) in _STAY and o["id"] in by_id), None
    )
    if stay is None:
        return
    held.add(key)
    asked, staying = _quoted(question, redact), _quoted(stay.text or stay.name, redact)
    raise HeldBackError(
        f"Not clicked: element {index} answers yes to {asked}, which would leave this page and what the "
        f"task has done on it; the task does not ask to leave. Element {stay.index} ({staying}) closes the "
        f"question and stays: click it, then go on with the task (or element {index} again if you mean to "
        "leave)."
    )


def _stay_button(snapshot: DomSnapshot, stay: str) -> ElementNode | None:
    """The one enabled button of ``snapshot`` named ``stay`` (the answer that stays); None when there is
    none, or several."""
    found = [
        node
        for node in snapshot.selector_map.values()
        if _answer(node.text or node.name) == _answer(stay) and "disabled" not in node.states
    ]
    return found[0] if len(found) == 1 else None


async def check_leaving(index: int, node: ElementNode, label: str, ctx: ActionContext) -> None:
    """The checks of a click the model chose on ``node`` (element ``index``, named ``label``): a control
    that a question about leaving turned off fails at once, sending the model to the question; a "yes"
    to such a question is held back once.

    Raises:
        ActionError: the question, and the answer that stays.
    """
    if "disabled" in node.states and (found := await _leaving_answers(ctx.session.page)):
        asked = _said_asked(*found, ctx.redact)
        stay = _stay_button(await ctx.current_snapshot(), found[1])
        if stay is None:
            raise ActionError(
                f"element {index} ({label}) is turned off: the page {asked} (its controls are marked * on "
                "the page); then go on with the task."
            )
        # told "(its controls are marked * on the page)", the 1.5B model clicked the turned-off button
        # twice more, then the question's OK (login-user-popup seed 55)
        raise ActionError(
            f"element {index} ({label}) is turned off: the page {asked}: click element {stay.index}, then go "
            "on with the task."
        )
    if _answers_yes(node):
        _, handle = await ctx.element(index)
        snapshot = await ctx.current_snapshot()
        await _hold_yes(index, node, handle, snapshot, ctx.task, ctx.session, ctx.redact)
