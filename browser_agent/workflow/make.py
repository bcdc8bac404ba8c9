"""History → workflow: keep the actions that worked, and find the run's inputs.

Which parameters are inputs, and of what kind, each action's spec says (``ActionSpec.inputs``). Inputs
come from what the agent typed or selected (named for the field: ``email``, ``query``, else its
label, placeholder or name), the addresses it opened (``url``), what it searched the web for
(``query``), and the elements it chose by what they say: a link or button whose words the task quoted
(``buy 2 'Blue ceramic mug'``), or that the agent had typed before (a search, then its result), becomes
an input too, so that another value picks another element. Secrets (``<secret>name</secret>``) are
never inputs: they stay placeholders and are listed by name.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from browser_agent.action_specs import Input, spec_of
from browser_agent.action_specs.elements import CLICK_ELEMENT
from browser_agent.export.steps import shown_name
from browser_agent.record import ActionCall, AgentHistory, AgentStep, RecordedResult
from browser_agent.reid import Fingerprint
from browser_agent.reid.labels import label_shown, norm
from browser_agent.workflow.model import InputSource, Workflow, WorkflowInput, WorkflowStep
from browser_agent.workflow.naming import (
    choice_control,
    element_input_name,
    field_input_name,
    field_label,
    identifier,
)

__all__ = ["make_workflow"]

_QUOTED = re.compile(r"'([^'\n]{2,100})'|\"([^\"\n]{2,100})\"|‘([^’\n]{2,100})’|“([^”\n]{2,100})”")
_SECRET = re.compile(r"<secret>([^<]+)</secret>")
_DONE = "done"
_OPTION_CAP = 40


@dataclass(frozen=True, slots=True)
class _Use:
    """Where a recorded value goes: the name it would get, how it is used, and in words."""

    name: str
    source: InputSource
    description: str


@dataclass
class _Found:
    """The inputs found so far, and the phrases of the task that may name an element."""

    phrases: list[str]
    inputs: list[WorkflowInput] = field(default_factory=list)

    def add(self, use: _Use, value: str) -> str:
        """The input for ``value`` used so: one already found for the same value and name, or a new one."""
        for item in self.inputs:
            if item.default == value and item.source == use.source and _base(item.name) == use.name:
                return item.name
        taken = {item.name for item in self.inputs}
        name, number = use.name, 2
        while name in taken:
            name, number = f"{use.name}_{number}"[:40], number + 1
        self.inputs.append(
            WorkflowInput(name=name, default=value, source=use.source, description=use.description)
        )
        return name

    def naming(self, target: Fingerprint) -> tuple[str, str | None] | None:
        """The words of ``target`` that are an input's value (typed earlier) or a phrase of the task:
        ``(value, input already holding it)``; None when it says none of them."""
        for item in self.inputs:
            if item.source in ("typed", "query") and _names(item.default, target):
                return item.default, item.name
        for phrase in self.phrases:
            if _names(phrase, target):
                return phrase, None
        return None


def make_workflow(history: AgentHistory) -> Workflow:
    """The workflow of a recorded run: its working actions with their elements, and its inputs."""
    found = _Found(phrases=[next(g for g in m.groups() if g) for m in _QUOTED.finditer(history.task)])
    steps: list[WorkflowStep] = []
    secrets: set[str] = set()
    opener: Fingerprint | None = None  # the control clicked just before, which may have opened a list
    for recorded, action, target, result in _kept_actions(history):
        if action.name == _DONE:
            continue  # what the run reported is kept as recorded_result; a replay has nothing to do
        secrets.update(_secret_names(action.params))
        step = _step(recorded, action, target, found)
        said = (result.extracted_content or "") if result is not None else ""
        if result is not None and result.new_tab is not None:
            step = step.model_copy(update={"opened_tab": True})
        if step.target_input is None and not step.inputs and target is not None:
            step = _choice_step(step, target, opener, said, found)
        steps.append(step)
        opener = target if action.name == CLICK_ELEMENT.name and step.target_input is None else None
    return Workflow(
        task=_template(history.task, found.inputs),
        inputs=found.inputs,
        steps=steps,
        secrets=sorted(secrets),
        allowed_domains=history.allowed_domains,
        recorded_result=history.final_result(),
    )


def _kept_actions(
    history: AgentHistory,
) -> Iterator[tuple[AgentStep, ActionCall, Fingerprint | None, RecordedResult | None]]:
    """Every action that did something when recorded (as replay chooses them), with its element and
    its result."""
    for step in history.steps:
        for position, action in enumerate(step.actions):
            result = step.results[position] if position < len(step.results) else None
            if result is not None and (result.skipped or result.error):
                continue
            target = step.interacted[position] if position < len(step.interacted) else None
            yield step, action, target, result


def _choice_step(
    step: WorkflowStep, target: Fingerprint, opener: Fingerprint | None, said: str, found: _Found
) -> WorkflowStep:
    """A click that chose one of several options (a radio, a checkbox, an ARIA option, or a plain item
    of the list a button had just opened) as an input, named for the control it belongs to."""
    if step.action != CLICK_ELEMENT.name or not target.name or len(target.name) > _OPTION_CAP:
        return step
    control = choice_control(target, opener)
    if control is None:
        return step
    value = shown_name(target.name, said) or target.name
    seen = ", ".join(label for label in (*reversed(target.before[:3]), *target.after[:3]) if len(label) <= 30)
    what = f"the option chosen in {control!r}" + (f" (seen beside it: {seen})" if seen else "")
    name = found.add(_Use(identifier(control, "choice"), "element", what), value)
    return step.model_copy(update={"target_input": name})


def _step(recorded: AgentStep, action: ActionCall, target: Fingerprint | None, found: _Found) -> WorkflowStep:
    bound: dict[str, str] = {}
    for param, value in action.params.items():
        use = _use(action, param, value, target)
        if use is not None:
            bound[param] = found.add(use, value)
    target_input = None
    named = found.naming(target) if target is not None and not bound else None
    if target is not None and named is not None:
        value, already = named
        what = f"the {target.describe()} acted on, chosen by what it says"
        target_input = already or found.add(_Use(element_input_name(target), "element", what), value)
    return WorkflowStep(
        action=action.name,
        params=dict(action.params),
        inputs=bound,
        target=target,
        target_input=target_input,
        url=recorded.url,
        title=recorded.title,
    )


def _use(action: ActionCall, param: str, value: Any, target: Fingerprint | None) -> _Use | None:
    """How a parameter's recorded value is an input (as the action's spec says), or None when it is not
    one."""
    if not isinstance(value, str) or not value.strip() or _SECRET.search(value):
        return None
    spec = spec_of(action.name)
    rule = spec.inputs.get(param) if spec is not None else _undeclared(action, param)
    if rule is None:
        return None
    if rule.kind == "url":
        return _Use(rule.name or "url", "url", rule.description or f"the address {action.name} opened")
    if rule.kind == "query":
        return _Use(rule.name or "query", "query", rule.description or f"what {action.name} searched for")
    on_field = target is not None or "index" in action.params
    name = rule.name or (field_input_name(target, value) if on_field else identifier(param))
    label = field_label(target)
    where = f"<{target.tag}> {label!r}" if target is not None and label else "a field"
    verb = "selected in" if rule.kind == "selected" else "typed into"
    return _Use(name, rule.kind, rule.description or f"{verb} {where}")


def _undeclared(action: ActionCall, param: str) -> Input | None:
    """The input rule of an action that declared none (a custom action registered without ``inputs=``):
    an address it opened, or the text it put into the element it acted on."""
    if param == "url":
        return Input("url")
    if param == "text" and "index" in action.params:
        return Input("selected" if "select" in action.name else "typed")
    return None


def _names(value: str, target: Fingerprint) -> bool:
    """Whether ``value`` (three characters or more, a letter among them) is among the words of ``target``."""
    words = norm(value)
    return len(words) >= 3 and any(c.isalpha() for c in words) and label_shown(words, [target.name])


def _secret_names(params: dict[str, Any]) -> set[str]:
    return {name for value in params.values() if isinstance(value, str) for name in _SECRET.findall(value)}


def _template(task: str, inputs: list[WorkflowInput]) -> str:
    """The task with each input's recorded value, where it stands as whole words, written ``{name}``."""
    by_value = {item.default.lower(): item.name for item in reversed(inputs) if item.default.strip()}
    if not by_value:
        return task
    values = sorted(by_value, key=len, reverse=True)
    pattern = re.compile(r"(?<!\w)(" + "|".join(re.escape(v) for v in values) + r")(?!\w)", re.IGNORECASE)
    return pattern.sub(lambda m: "{" + by_value[m.group(1).lower()] + "}", task)


def _base(name: str) -> str:
    """An input's name without the number that told it from an earlier one (``email_2`` -> ``email``)."""
    return re.sub(r"_\d+$", "", name)
