"""A ``done`` that claims success while a button the task names was never pressed is held back once.

A small model checked the box its task named ("Select AU and click Submit"), then called ``done`` with
``success`` true, the Submit button untouched: the form was never sent and the task not done. Such a
``done`` is refused the first time, naming the button; a second ``done`` ends the run as the model says
(a task may name a button it does not need pressed). Told so and offered ``done`` again, the model called
it again at once; so a ``json_schema`` grammar leaves ``done`` out of the next step, and a ``done`` after
that ends the run. Only the model's own ``done`` with ``success`` true is checked, on the page the model
saw; a button counts as pressed once any element with its name was clicked in the run, or Enter was
pressed (which sends a form as the button does).

The same holds for an element whose whole name the task quotes ("Find and click on the file named
"Dolores"" in a file tree), not a field: the model opened the folder, saw the file, and called ``done``
without clicking it. A quoted name the model typed does not count: "enter "Keneth" and press Search"
quotes a text to enter, and a result link named Keneth is not what the task asks to click. And for such
a name the page holds only in a closed part (``agent/task_hidden.py``): the model opened the wrong
folder, or closed the menu again, and called ``done`` with the file or item never shown; the refusal
names the element that opens the part.

The same holds for an element (not a field) named as the verb of one of the task's steps: "Find the
email by Hilary and forward that email to Auroora" and a ``<span>Forward</span>`` on the opened mail;
the model opened the mail and called ``done``.

The same holds for a form the run opened or filled in and never sent (``agent/unsent_form.py``): the
model clicked Forward and called ``done`` with the recipient's field empty; the refusal names the field,
the control that sends it and, where plain, what to type first (the text the task quotes, or whom the task
forwards to for a "to:" field: told to "fill in what the task gives", the model clicked send over the
empty "to:" and ran out of steps, email-inbox).

The same holds for a button the model itself planned to press: its goal read "Type 'Latv' into field 0,
then press Submit.", it typed, wrote "the Submit button was clicked" in its memory and called ``done``
with Submit untouched (4 of 8 use-autocomplete losses, seeds 0-19, whose tasks never name Submit). A
button whose name follows press, click, hit, tap or push in a goal of the run counts as a button the task
names; the refusal quotes the model's own plan.

The same holds for a text the task gives to type ("reply to them with the text "Gravida."") that the run
never typed, chose nor clicked (``controller/actions/untyped_text.py``): the model opened the mail and
called ``done``.

The same holds for a task that asks to click the Nth result of a paged list when no result of it was
clicked in the run (``agent/result_unclicked.py``): the refusal names the result, or its page's link.

The same holds for a task that asks a question and a ``done`` whose text answers nothing ("The task is
done."): held back once, asking for the answer (``agent/answer_check.py``).

A ``done`` that gives up (``success`` false) right after an action failed or was held back is refused
once too, before the run's last step: the error had said what to do next. Told "type 'Risus augue odio
turpis.' into element 2 first", the 1.5B model called ``done`` with success false at once (email-inbox
seed 4); in 9 of 20 such ``done`` calls of the development runs the step before had failed.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial

from browser_agent.agent.answer_check import asks_question, holds_answer
from browser_agent.agent.result_unclicked import advice, unclicked_result
from browser_agent.agent.task_hidden import HiddenName, quoted_names
from browser_agent.agent.unsent_form import FormWatch
from browser_agent.controller import ActionResult
from browser_agent.controller.actions.advice import advise as advised
from browser_agent.controller.actions.refusals import is_button, named_as, said, shows_value
from browser_agent.controller.actions.step_verb import commanded
from browser_agent.controller.actions.untyped_text import recipient_for, untyped
from browser_agent.dom.snapshot import DomSnapshot, ElementNode, TextNode
from browser_agent.llm.schemas import NO_ELEMENT
from browser_agent.record import ActionCall

__all__ = ["DoneGuard"]

# What a task quotes a text to type or choose into, not an element to click: "Enter "Kasey" in the box".
_FIELDS = frozenset({"input", "textarea", "select"})
_FIELD_ROLES = frozenset({"textbox", "searchbox", "combobox", "spinbutton", "listbox"})
_LONGEST_NAME = 30  # a longer "name" is a sentence, not what a task calls a button by


def _name(node: ElementNode) -> str:
    return _spaced(node.name or node.text or node.attributes.get("value", ""))


@dataclass
class DoneGuard:
    """What the run pressed so far, and the ``done`` calls already held back (once per button name)."""

    pressed: set[str] = field(default_factory=set)
    clicked: set[str] = field(default_factory=set)  # the element ids the run clicked
    entered: bool = False  # Enter was pressed in the run
    typed: set[str] = field(default_factory=set)  # the texts the model typed, in lower case
    chosen: set[str] = field(default_factory=set)  # the options the model chose, in lower case
    goals: list[str] = field(default_factory=list)  # the model's goals of the run, spaced, lower case
    forms: FormWatch = field(default_factory=FormWatch)  # the forms the run filled in or brought up
    _held: set[str] = field(default_factory=set)
    _asked_for_answer: bool = False  # a done without an answer was held back once
    _asked_for_result: bool = False  # a done before the result the task asks to click was held back once
    _asked_to_type: bool = False  # a done before the text the task gives to type was held back once
    _just_held: bool = False  # the last step's done was held back
    _after_error: bool = False  # an action of the last step failed or was held back
    _asked_to_go_on: bool = False  # a done giving up right after a failed action was held back once

    def left_out(self) -> tuple[tuple[str, int], ...]:
        """``("done", NO_ELEMENT)`` for the step right after a ``done`` was held back (the grammar leaves
        it out: the model takes another action first); nothing otherwise."""
        return (("done", NO_ELEMENT),) if self._just_held else ()

    def note(self, results: Sequence[ActionResult]) -> None:
        """Remember the elements the run clicked, and an Enter."""
        self._just_held = False
        self._after_error = any(r.error is not None and not r.is_done for r in results)
        self.forms.note(results)
        for result in results:
            if result.error is not None:
                continue
            if result.action == "click_element" and result.element is not None:
                self.pressed.add(_name(result.element))
                self.clicked.add(result.element.element_id)
            elif result.action == "send_keys" and "enter" in (result.extracted_content or "").lower():
                self.entered = True

    def note_typed(self, calls: Sequence[ActionCall]) -> None:
        """Remember the texts the model typed: a quoted name it typed was a text to enter ("enter
        "Keneth" and press Search"), not an element to click, even where a link of that name turns up."""
        for call in calls:
            text = call.params.get("text")
            if call.name == "input_text" and isinstance(text, str):
                self.typed.add(_spaced(text))
            elif call.name == "select_dropdown_option" and isinstance(text, str):
                self.chosen.add(_spaced(text))

    def note_goal(self, goal: str) -> None:
        """Remember a goal the model set itself: a button it planned to press counts as named."""
        self.goals.append(_spaced(goal))

    def planned(self, snapshot: DomSnapshot | None) -> tuple[str, str, ElementNode | None] | None:
        """The first button of ``snapshot`` that a goal of the run planned to press ("then press Submit")
        and the run never pressed (not held back before): its name as compared, as shown, and the button;
        or such a name that reads only as text, its button covered (a suggestion list open over Submit),
        with no button. None when there is none."""
        if snapshot is None or self.entered or not self.goals:
            return None
        for node in sorted(snapshot.selector_map.values(), key=lambda n: n.index):
            name = _name(node)
            if is_button(node) and self._planned_press(name):
                return name, name, node
        for item in snapshot.items:
            if isinstance(item, TextNode) and self._planned_press(name := _spaced(item.text)):
                return name, item.text, None
        return None

    def _planned_press(self, name: str) -> bool:
        """Whether a goal of the run plans to press ``name``, a name not pressed nor held back for."""
        if not 2 <= len(name) <= _LONGEST_NAME or name in self.pressed or name in self._held:
            return False
        said_to = (
            rf"\b(?:press|click|hit|tap|push)(?:es|s|ing)?(?: on)?(?: the)? [\"']?{re.escape(name)}(?!\w)"
        )
        return any(re.search(said_to, goal) for goal in self.goals)

    def unpressed(self, task: str, snapshot: DomSnapshot | None) -> ElementNode | None:
        """The first button of ``snapshot`` that ``task`` names, or other element that is not a field and
        whose whole name ``task`` quotes, that the run never pressed (not held back before); None when
        there is none."""
        if snapshot is None or self.entered:
            return None
        words = _spaced(task)
        quoted = {_spaced(name) for name in quoted_names(task)}
        for node in sorted(snapshot.selector_map.values(), key=lambda n: n.index):
            name = _name(node)
            if not 2 <= len(name) <= _LONGEST_NAME or name in self.pressed or name in self._held:
                continue
            if is_button(node) and re.search(rf"(?<!\w){re.escape(name)}(?!\w)", words):
                return node
            if node.tag in _FIELDS or node.role in _FIELD_ROLES:
                continue
            if (name in quoted and name not in self.typed) or commanded(name, words):
                return node
        return None

    def _unsent_error(
        self,
        task: str,
        filled: ElementNode,
        sender: ElementNode,
        snapshot: DomSnapshot | None,
        redact: Callable[[str], str],
    ) -> str:
        """The refusal of a ``done`` while the form of ``filled`` (a field the run brought up) was never sent
        by ``sender``: what to type into it first, unless it is filled in already."""
        send = f"click element {sender.index} ({_control(sender, redact)}) to send it"
        field = said(filled, redact, snapshot)
        text = None if self._asked_to_type else untyped(task, self.typed | self.chosen | self.pressed)
        if text is None and not shows_value(filled):  # the "to:" of a forwarded mail
            text = recipient_for(named_as(filled, str, snapshot), task)
        if text is not None:  # told "fill in what the task gives", the model clicked send at once
            self._asked_to_type = True
            fill = f"type {_quoted(text, redact)}, which the task gives, into element {filled.index}"
        elif shows_value(filled):  # told to fill it in, the model typed the same text again
            return (
                f"not done yet: {field} is filled in, and its form was not sent in this run: {send} (a later "
                "done ends the run as it is)."
            )
        else:
            fill = "fill in what the task gives"
        return (
            f"not done yet: the form of {field} was not sent in this run: {fill}, then {send} (a later done "
            "ends the run as it is)."
        )

    def check(
        self,
        task: str,
        snapshot: DomSnapshot | None,
        results: list[ActionResult],
        redact: Callable[[str], str],
        hidden: Sequence[HiddenName] = (),
        owner: object | None = None,
        last_step: bool = False,
    ) -> list[ActionResult]:
        """``results`` with a successful ``done`` among them turned into a refusal, the first time a button
        ``task`` names stands unpressed on ``snapshot``, the first time a name ``task`` quotes is still
        ``hidden`` on it (never clicked nor typed), or the first time its text answers nothing of the
        question ``task`` asks. The element a refusal says to click is advised for ``owner`` (the browser
        session), so that no click guard holds that click back (``controller/actions/advice.py``).

        A ``done`` with ``success`` false is refused once in a run, before its ``last_step``, when an action
        of the step before failed or was held back: the error said what to do next."""
        advise = partial(_advise, owner, snapshot)

        self.forms.look(snapshot)
        after_error = self._after_error
        self.note(results)
        last = results[-1] if results else None
        if last is None or not last.is_done or last.action != "done":
            return results
        if last.success is not True:
            return (
                self._go_on(results) if after_error and not last_step and last.success is False else results
            )
        button = self.unpressed(task, snapshot)
        if button is not None:
            self._held.add(_name(button))
            advise(button)
            error = (
                f"not done yet: the task names {said(button, redact)}, which was not pressed in this run: "
                f"click element {button.index} first if the task needs it "
                "(a later done ends the run as it is)."
            )
        elif not self._asked_for_result and (result := unclicked_result(task, snapshot, self.clicked)):
            self._asked_for_result = True
            if (target := result.result or result.page_link) is not None:
                advise(target)
            error = (
                f"not done yet: no result was clicked in this run, and {advice(result)} if the task "
                "needs it (a later done ends the run as it is)."
            )
        elif (planned := self.planned(snapshot)) is not None:
            name, shown, node = planned
            self._held.add(name)
            if node is not None:
                advise(node)
            error = (
                f"not done yet: your plan was to press {said(node, redact)}, and it was not pressed in "
                f"this run: click element {node.index} first if the task needs it (a later done ends the "
                "run as it is)."
                if node is not None
                else f"not done yet: your plan was to press {_quoted(shown, redact)}, and it was not pressed "
                "in this run; something covers it now (see the page): choose or close that first, then press "
                "it if the task needs it (a later done ends the run as it is)."
            )
        elif (closed := self._still_hidden(hidden)) is not None:
            self._held.add(_spaced(closed.name))
            advise(closed.opener)
            error = (
                f'not done yet: "{closed.name}", which the task quotes, is still hidden on this page: '
                f"element {closed.opener.index} opens the part holding it. Open it and click "
                f'"{closed.name}" first if the task needs it (a later done ends the run as it is).'
            )
        elif (unsent := self.forms.unsent(snapshot, self._held)) is not None:
            filled, sender = unsent
            self._held.add(sender.element_id)
            advise(sender)
            error = self._unsent_error(task, filled, sender, snapshot, redact)
        elif not self._asked_to_type and (text := untyped(task, self.typed | self.chosen | self.pressed)):
            self._asked_to_type = True
            error = (
                f"not done yet: the task gives {_quoted(text, redact)} to type, and it was not typed in this "
                "run: type it into the field it goes in first if the task needs it (a later done ends the "
                "run as it is)."
            )
        elif self._answerless(task, said_text := last.extracted_content or ""):
            self._asked_for_answer = True
            error = (
                f"not done yet: the task asks a question and {_quoted(said_text, redact)} "
                "does not answer it: find the answer (extract_content reads the whole page; go_back first if "
                "you left the page that has it), then call done with the answer as its text (a later done "
                "ends the run as it is)."
            )
        else:
            return results
        self._just_held = True
        return [*results[:-1], ActionResult(action="done", error=error, held=True)]

    def _go_on(self, results: list[ActionResult]) -> list[ActionResult]:
        """``results``, their ``done`` giving up after a failed action refused the first time in the run."""
        if self._asked_to_go_on:
            return results
        self._asked_to_go_on = self._just_held = True
        error = (
            "not done yet: the last step's error says what to do next; do that first (a later done ends the "
            "run as it is)."
        )
        return [*results[:-1], ActionResult(action="done", error=error, held=True)]

    def _still_hidden(self, hidden: Sequence[HiddenName]) -> HiddenName | None:
        """The first of ``hidden`` the run never clicked nor typed, and not held back for before."""
        for closed in hidden:
            name = _spaced(closed.name)
            if name not in self.pressed and name not in self.typed and name not in self._held:
                return closed
        return None

    def _answerless(self, task: str, text: str) -> bool:
        """Whether ``text`` is the first done of the run that answers nothing of a question ``task``."""
        return not self._asked_for_answer and asks_question(task) and not holds_answer(task, text)


def _advise(owner: object | None, snapshot: DomSnapshot | None, node: ElementNode) -> None:
    """Record for ``owner`` that a refusal on ``snapshot`` told the model to click ``node``."""
    if owner is not None and snapshot is not None:
        advised(owner, snapshot, node)


def _control(node: ElementNode, redact: Callable[[str], str]) -> str:
    """What a refusal calls a control: its name, redacted, else its icon."""
    name = " ".join(redact(node.name or node.text or node.attributes.get("value", "")).split())
    return f"'{name[:_LONGEST_NAME]}'" if name else f"icon {redact(node.icon)}"


def _spaced(text: str) -> str:
    """``text`` in lower case, its runs of white space made one space: how names are compared here."""
    return " ".join(text.split()).lower()


def _quoted(text: str, redact: Callable[[str], str], longest: int = 80) -> str:
    """``text`` redacted and quoted on one line, cut to ``longest`` characters."""
    line = " ".join(redact(text).split())
    return '"' + (line if len(line) <= longest else line[: longest - 1] + "…") + '"'
