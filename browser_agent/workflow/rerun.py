"""Run a workflow with values by name: its steps become a run history with those values in place, and
the replay (``browser_agent.playback``) re-locates each element, acts, or abstains.

An element chosen by what it says (``target_input``) is looked for under its new words: its fingerprint
keeps what describes the kind of element (tag, role, classes, the chain of its ancestors, its frame)
and loses what described the recorded one (its words, the attributes that named it, its neighbours and
card). Re-identification then accepts it only when it is the one element of that kind that says the new
words, and abstains otherwise: another value never makes the replay click a look-alike.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import replace

from browser_agent import artifacts
from browser_agent.browser import BrowserSession
from browser_agent.browser.addresses import address_fault
from browser_agent.browser.domains import check_url_allowed
from browser_agent.controller import ActionResult, Controller
from browser_agent.dom.snapshot import DomSnapshot
from browser_agent.errors import DomainNotAllowedError, UserError
from browser_agent.playback import ReplayOptions, ReplayReport, replay, replay_fence
from browser_agent.playback.replayer import Chooser, Listener
from browser_agent.record import ActionCall, AgentHistory, AgentStep, StepOutput
from browser_agent.reid import Fingerprint
from browser_agent.reid.labels import norm
from browser_agent.workflow.choose import ItemChoice
from browser_agent.workflow.model import Workflow, WorkflowStep

__all__ = ["retarget", "run_workflow", "workflow_history"]


async def run_workflow(
    workflow: Workflow,
    session: BrowserSession,
    inputs: Mapping[str, str] | None = None,
    *,
    options: ReplayOptions | None = None,
    controller: Controller | None = None,
    on_action: Listener | None = None,
) -> ReplayReport:
    """Run ``workflow`` on ``session`` with ``inputs`` (by name; the recorded value for those not given).

    ``options`` are the replay's: ``on_failure`` (``stop`` or ``skip``), ``llm`` (a model that takes
    over a step whose element cannot be found), ``sensitive_data`` (the workflow's ``secrets``),
    ``allowed_domains`` (default: the fence the run was recorded under).

    Raises:
        UserError: an input name the workflow does not have (the known ones are listed), a secret the
            steps type that ``sensitive_data`` lacks, an address input that is not a valid address or
            is outside the fence, or a fence the rule refuses (``playback.replay_fence``).
    """
    opts = options or ReplayOptions()
    values = workflow.values(dict(inputs or {}))
    _check_secrets(workflow, opts)
    history = workflow_history(workflow, values)
    _check_addresses(workflow, values, replay_fence(history, opts))
    choices = _choices(workflow, values)
    if choices:
        opts = replace(opts, choose=_chooser(choices, opts.choose))
    return await replay(history, session, controller or Controller(), opts, on_action)


def _choices(workflow: Workflow, values: Mapping[str, str]) -> dict[Fingerprint, ItemChoice]:
    """The steps whose element another value names and whose recorded name held more than the value
    (a card's price, a badge): the page tells, when the step runs, which element says the new value."""
    choices: dict[Fingerprint, ItemChoice] = {}
    for step in workflow.steps:
        chooser, target = step.target_input, step.target
        if chooser is None or target is None or values[chooser] == workflow.input(chooser).default:
            continue
        old = workflow.input(chooser).default
        if norm(old) != target.name:
            choices[retarget(target, old, values[chooser])] = ItemChoice(target.name, old, values[chooser])
    return choices


def _chooser(choices: dict[Fingerprint, ItemChoice], then: Chooser | None) -> Chooser:
    def choose(target: Fingerprint, snapshot: DomSnapshot) -> Fingerprint:
        choice = choices.get(target)
        if choice is not None:
            return choice.pick(target, snapshot)
        return then(target, snapshot) if then is not None else target

    return choose


def workflow_history(workflow: Workflow, values: Mapping[str, str]) -> AgentHistory:
    """The run history a replay of ``workflow`` with ``values`` follows: one step per workflow step."""
    steps = [
        _history_step(number, step, workflow, values) for number, step in enumerate(workflow.steps, start=1)
    ]
    return AgentHistory(
        task=workflow.task_with(dict(values)), steps=steps, allowed_domains=workflow.allowed_domains
    )


def _history_step(
    number: int, step: WorkflowStep, workflow: Workflow, values: Mapping[str, str]
) -> AgentStep:
    params = dict(step.params) | {param: values[name] for param, name in step.inputs.items()}
    target, chooser = step.target, step.target_input
    if target is not None and chooser is not None and values[chooser] != workflow.input(chooser).default:
        target = retarget(target, workflow.input(chooser).default, values[chooser])
    return AgentStep(
        step=number,
        url=step.url,
        title=step.title,
        model_output=StepOutput(action=[ActionCall(name=step.action, params=params)]),
        results=[ActionResult(action=step.action)],
        interacted=[target],
    )


def retarget(target: Fingerprint, old: str, new: str) -> Fingerprint:
    """``target`` as the element saying ``new`` where the recorded one said ``old``.

    What described the recorded element rather than its kind goes: attributes sharing a word with
    ``old`` (``href=/product/blue-mug``), its neighbours, anchors and card labels (another item has
    other neighbours), its twins, its place among its siblings.
    """
    before, after = norm(old), norm(new)
    words = set(re.findall(r"[a-z0-9]+", before))
    return replace(
        target,
        name=_swap(target.name, before, after),
        text=_swap(target.text, before, after),
        attributes=tuple(
            (k, v) for k, v in target.attributes if not words & set(re.findall(r"[a-z0-9]+", v.lower()))
        ),
        before=(),
        after=(),
        anchors=(),
        twins=0,
        group=(),
        group_depth=0,
        twin_cards=(),
    )


def _swap(label: str, old: str, new: str) -> str:
    """``label`` with ``old`` (whole words) replaced by ``new``."""
    if not old:
        return label
    return re.sub(rf"(?<!\w){re.escape(old)}(?!\w)", lambda _: new, label)


def _check_secrets(workflow: Workflow, options: ReplayOptions) -> None:
    if not workflow.secrets:
        return
    given = artifacts.remember(options.sensitive_data)
    missing = [name for name in workflow.secrets if name not in set(given)]
    if missing:
        raise UserError(
            f"This workflow types the secrets {missing}; give their values (sensitive_data=..., or "
            "`--secret NAME=ENVVAR` / `--secrets FILE` on the command line)."
        )


def _check_addresses(workflow: Workflow, values: Mapping[str, str], fence: tuple[str, ...] | None) -> None:
    """An address input that is malformed, or outside the fence, would stop the replay at its first
    step: say so before."""
    for item in workflow.inputs:
        if item.source != "url":
            continue
        fault = address_fault(values[item.name])
        if fault is not None:
            raise UserError(f"The input {item.name}={values[item.name]!r} is not a valid address: {fault}.")
        if fence is None:
            continue
        try:
            check_url_allowed(values[item.name], fence)
        except DomainNotAllowedError as exc:
            raise UserError(
                f"The input {item.name}={values[item.name]!r} is outside the sites this workflow keeps to "
                f"({list(fence)}): {exc} Pass allowed_domains (--allowed-domain) to widen them."
            ) from exc
