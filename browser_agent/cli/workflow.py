"""``browser-agent workflow make | show | run``: a recorded run made a workflow with named inputs, and run
again with other values, without the model.

Exit codes of ``run``: 0 every step was done, 1 a step could not be (the replay stopped, or a step was
skipped or failed), 2 a mistake the user can fix (a bad file, an unknown input), 130 interrupted
(Ctrl-C; 143 SIGTERM, 129 SIGHUP).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from browser_agent.cli.options import (
    add_browser_options,
    add_fence_options,
    add_login_options,
    add_model_options,
    add_secret_options,
    allowed_domains,
    browser_config,
    check_login,
    command,
    model_options,
)
from browser_agent.cli.secret_files import load_secrets
from browser_agent.errors import UserError

if TYPE_CHECKING:
    from rich.console import Console

    from browser_agent.playback import ReplayReport
    from browser_agent.workflow import Workflow, WorkflowStep

__all__ = ["add_parser"]


def add_parser(subparsers: Any) -> None:
    parser = command(
        subparsers,
        "workflow",
        help="make a workflow with named inputs from a saved run, show it, run it with other values",
        epilog="`browser-agent workflow ACTION --help` lists an action's flags; docs/workflows.md explains.",
    )
    actions = parser.add_subparsers(dest="workflow_action", metavar="ACTION", required=True)
    make = command(actions, "make", help="make a workflow from a history saved by `run --save`")
    make.add_argument("history", type=Path, help="the saved run")
    make.add_argument(
        "-o", "--output", type=Path, metavar="FILE", help="where to write it (default: HISTORY.workflow.json)"
    )
    make.set_defaults(func=_make)
    show = command(
        actions, "show", help="list a workflow's inputs, with their recorded values, and its steps"
    )
    show.add_argument("workflow", type=Path, help="a *.workflow.json file")
    show.add_argument(
        "--diff",
        nargs="?",
        const="",
        metavar="OLD",
        help="print what changed from OLD to WORKFLOW, step by step (`--diff OLD NEW`; bare `NEW --diff`: "
        "from the workflow NEW was healed from)",
    )
    show.set_defaults(func=_show)
    _add_run_parser(actions)


def _add_run_parser(actions: Any) -> None:
    run = command(actions, "run", help="run a workflow with other values, without the model")
    run.add_argument("workflow", type=Path, help="a *.workflow.json file")
    run.add_argument(
        "--input",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a value for one of the workflow's inputs (repeatable; the others keep their recorded values)",
    )
    run.add_argument(
        "--on-failure",
        choices=("stop", "skip", "llm"),
        help="what a step whose element cannot be found surely does: stop the run, be skipped, or be "
        "handed to --model (default: llm with --model, else stop)",
    )
    run.add_argument(
        "--retries", type=int, default=3, metavar="N", help="attempts to find an element that comes late"
    )
    run.add_argument(
        "--heal",
        action="store_true",
        help="hand a step whose element cannot be found surely to --model and keep what it did: the "
        "healed workflow is written beside this one (WORKFLOW.healed.json)",
    )
    add_model_options(
        run,
        required=False,
        method=False,
        planner=False,
        purpose="a model that does a step whose element cannot be found surely (default: none)",
    )
    add_login_options(add_browser_options(run))
    add_fence_options(
        run,
        help="keep the run on these sites (repeatable; default: the fence the run was recorded under; "
        "'*' for every site)",
    )
    add_secret_options(run)
    run.set_defaults(func=_run)


# -- make and show -----------------------------------------------------------------------------------


def _make(args: argparse.Namespace) -> int:
    from browser_agent.controller import Controller
    from browser_agent.record import AgentHistory
    from browser_agent.workflow import make_workflow

    workflow = make_workflow(AgentHistory.load(args.history, Controller()))
    if not workflow.steps:
        raise UserError(f"{args.history} has no action that worked: there is nothing to make a workflow of.")
    output = args.output or args.history.with_name(f"{args.history.stem}.workflow.json")
    workflow.save(output)
    names = ", ".join(item.name for item in workflow.inputs) or "none"
    print(f"Wrote {output}: {len(workflow.steps)} steps; inputs: {names}.")
    example = " ".join(f"--input {item.name}=..." for item in workflow.inputs[:2])
    print(f"Run it: browser-agent workflow run {output} {example}".rstrip())
    return 0


def _show(args: argparse.Namespace) -> int:
    from rich.table import Table

    from browser_agent.output.console import make_console
    from browser_agent.workflow import Workflow

    workflow = Workflow.load(args.workflow)
    if args.diff is not None:
        return _diff(args.workflow, workflow, args.diff)
    console = make_console()
    console.print(f"[bold]Workflow[/] {_plain(str(args.workflow))}", highlight=False)
    if workflow.task:
        console.print(f"Task: {_plain(workflow.task)}", highlight=False)
    inputs = Table(title="Inputs", title_justify="left")
    for column in ("name", "recorded value", "how it is used"):
        inputs.add_column(column)
    for item in workflow.inputs:
        inputs.add_row(item.name, _plain(item.default), _plain(item.description or item.source))
    console.print(inputs)
    steps = Table(title="Steps", title_justify="left")
    for column in ("#", "action", "element", "recorded on"):
        steps.add_column(column)
    for number, step in enumerate(workflow.steps, start=1):
        steps.add_row(str(number), _plain(_action(step)), _plain(_element(step)), _plain(step.url))
    console.print(steps)
    _footnotes(workflow, console)
    return 0


def _action(step: WorkflowStep) -> str:
    shown = {
        k: f"{{{step.inputs[k]}}}" if k in step.inputs else v for k, v in step.params.items() if k != "index"
    }
    return step.action + (" " + " ".join(f"{k}={v}" for k, v in shown.items()) if shown else "")


def _element(step: WorkflowStep) -> str:
    if step.target is None:
        return ""
    chosen = f" (the one saying {{{step.target_input}}})" if step.target_input else ""
    return step.target.describe() + chosen


def _footnotes(workflow: Workflow, console: Console) -> None:
    if workflow.secrets:
        names = ", ".join(workflow.secrets)
        console.print(f"Secrets typed (give them with --secret NAME=ENVVAR or --secrets FILE): {names}")
    if workflow.allowed_domains is not None:
        console.print(f"Kept to: {', '.join(workflow.allowed_domains)}")
    if workflow.recorded_result:
        console.print(f"The recorded run reported: {_plain(workflow.recorded_result)}", highlight=False)
    if workflow.healed is not None:
        changed = ", ".join(str(change.step) for change in workflow.healed.changes)
        console.print(
            f"Healed from {_plain(workflow.healed.healed_from)}: steps {changed} changed (--diff shows how)",
            highlight=False,
        )


def _plain(text: str) -> str:
    from rich.markup import escape

    return escape(text)


def _diff(path: Path, workflow: Workflow, old: str) -> int:
    from browser_agent.workflow import Workflow
    from browser_agent.workflow.diff import workflow_diff

    old_path = Path(old)
    if not old:  # `--diff` given bare: the workflow this one was healed from
        if workflow.healed is None:
            raise UserError(
                f"{path} was not healed from another workflow: give the one to compare, --diff OLD."
            )
        old_path = path.parent / workflow.healed.healed_from  # it is written beside it
    lines = workflow_diff(Workflow.load(old_path), workflow)
    print(_shown(f"{old_path} → {path}: " + (f"{_count(lines)} changed" if lines else "no step changed")))
    for line in lines:
        print(_shown(line))
    return 0


def _shown(line: str) -> str:
    """``line`` with what a terminal would obey (escape sequences a page or file put in it) escaped."""
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in line)


def _count(lines: list[str]) -> str:
    steps = sum(1 for line in lines if line.startswith("step "))
    return f"{steps} step" + ("" if steps == 1 else "s")


def _save_healed(path: Path, workflow: Workflow, values: dict[str, str], report: ReplayReport) -> None:
    from browser_agent.playback.heal import healed_path
    from browser_agent.workflow.heal import healed_workflow

    healed = healed_workflow(workflow, workflow.values(values), report, path.name)
    if healed is None:
        print("No step needed healing: nothing written.")
        return
    written = healed.save(healed_path(path))
    assert healed.healed is not None
    print(f"Healed {len(healed.healed.changes)} step(s); wrote {written}.")
    print(f"What changed: browser-agent workflow show {written} --diff")


# -- run ---------------------------------------------------------------------------------------------


def _inputs(pairs: list[str]) -> dict[str, str]:
    values: dict[str, str] = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep or not name:
            raise UserError(f"--input {pair!r} must look like NAME=VALUE.")
        values[name.strip()] = value
    return values


async def _replay(args: argparse.Namespace, workflow: Workflow, values: dict[str, str]) -> ReplayReport:
    from browser_agent.browser import BrowserSession
    from browser_agent.output import ReplayReporter
    from browser_agent.playback import ReplayOptions
    from browser_agent.workflow import run_workflow

    mode = args.on_failure or ("llm" if args.model else "stop")
    if args.heal and not args.model:
        raise UserError("--heal hands a step to a model: name one with --model PROVIDER:NAME.")
    if args.heal and mode != "llm":
        raise UserError(f"--heal hands a step to the model: it does not go with --on-failure {mode}.")
    if mode == "llm" and not args.model:
        raise UserError("--on-failure llm hands a step to a model: name one with --model PROVIDER:NAME.")
    options = ReplayOptions(
        retries=args.retries,
        on_failure="skip" if mode == "skip" else "stop",
        llm=model_options(args).load() if mode == "llm" else None,
        sensitive_data=load_secrets(args.secrets, args.secret),
        allowed_domains=allowed_domains(args),
    )
    reporter = ReplayReporter()
    given = ", ".join(f"{name}={value!r}" for name, value in values.items()) or "the recorded values"
    reporter.console.print(
        f"[bold]Workflow[/] {_plain(str(args.workflow))} with {_plain(given)}", highlight=False
    )
    start = time.perf_counter()
    session = BrowserSession(browser_config(args))  # the replay fences it before it starts
    try:  # the run checks its inputs and secrets before it starts the browser
        report = await run_workflow(workflow, session, values, options=options, on_action=reporter.replayed)
    finally:
        await session.close()
    reporter.summary(report, time.perf_counter() - start)
    if args.heal:
        _save_healed(args.workflow, workflow, values, report)
    return report


def _run(args: argparse.Namespace) -> int:
    from browser_agent.interrupts import run_interruptible
    from browser_agent.workflow import Workflow

    if args.retries < 0:
        raise UserError(f"--retries {args.retries}: give 0 or more.")
    workflow = Workflow.load(args.workflow)
    values = _inputs(args.input)
    workflow.values(values)  # an unknown name is said before a browser starts
    check_login(args)
    return 0 if run_interruptible(_replay(args, workflow, values)).ok else 1
