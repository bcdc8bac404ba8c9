"""``browser-agent batch tasks.jsonl --model PROVIDER:NAME --out results.jsonl``: many tasks at once.

One JSON line per task is appended to ``--out`` as soon as it ends; running the same command again skips
the tasks already there, so an interrupted batch (Ctrl-C) resumes where it stopped.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from browser_agent import artifacts
from browser_agent.cli.options import (
    add_browser_options,
    add_fence_options,
    add_login_options,
    add_model_options,
    add_secret_options,
    allowed_domains,
    browser_configs,
    check_login,
    command,
    model_options,
)
from browser_agent.cli.secret_files import load_secrets
from browser_agent.defaults import DEFAULT_MAX_STEPS
from browser_agent.errors import UserError
from browser_agent.user_files import UserFileError, read_json_lines

if TYPE_CHECKING:
    from browser_agent.batch import TaskOutcome, TaskSpec
    from browser_agent.batch.executors import Executor
    from browser_agent.batch.options import LlmSource
    from browser_agent.output.progress import RunProgress

__all__ = ["add_parser", "check_run_numbers", "finished_ids"]


def add_parser(subparsers: Any) -> None:
    parser = command(
        subparsers, "batch", help="run many tasks from a JSON Lines file, several agents at once"
    )
    parser.add_argument(
        "tasks", type=Path, help="one task per line: a JSON string, or an object (id, task, ...)"
    )
    add_model_options(parser, required=True, step_timeout=True)
    parser.add_argument(
        "--out", type=Path, required=True, metavar="FILE", help="results, one JSON line per task"
    )
    parser.add_argument("--concurrency", type=int, default=4, metavar="N", help="agents at once")
    where = add_browser_options(parser, fleet=True)
    where.add_argument(
        "--ray", metavar="ADDRESS", help="run agents in Ray actors: `local` or a cluster address"
    )
    where.add_argument("--ray-actors", type=int, default=2, metavar="N", help="Ray actors (browsers)")
    add_login_options(where)
    add_fence_options(
        parser,
        help="keep every page on these sites unless the task names its own allowed_domains (repeatable; "
        "default: every site)",
    )
    add_secret_options(parser)
    parser.add_argument(
        "--histories",
        type=Path,
        metavar="DIR",
        help="where each task's history goes (default: OUT-histories/ next to --out)",
    )
    parser.add_argument(
        "--max-steps",
        type=int,
        default=DEFAULT_MAX_STEPS,
        metavar="N",
        help="steps per task unless the task says otherwise",
    )
    parser.add_argument("--task-timeout", type=float, metavar="S", help="stop a task running longer")
    parser.set_defaults(func=_main)


def finished_ids(out: Path) -> set[str]:
    """The ids of the tasks already in a results file (a line cut short by a kill is skipped).

    Raises:
        UserFileError: the file cannot be read, or holds lines that are not results of a batch.
    """
    if not out.exists():
        return set()
    ids = set()
    for number, record in read_json_lines(out, what="results file", skip_cut=True):
        if not isinstance(record, dict) or not isinstance(record.get("id"), str):
            raise UserFileError(
                f"results file {out}, line {number}: not a task's result (no 'id'); give the --out file "
                "of an earlier batch to resume it, or a new one."
            )
        ids.add(record["id"])
    return ids


def check_run_numbers(args: argparse.Namespace) -> None:
    """``--concurrency`` and ``--max-steps`` of at least 1, a positive ``--task-timeout`` (batch, eval).

    Raises:
        UserError: the first that is not, named with its value.
    """
    for flag in ("concurrency", "max_steps"):
        if getattr(args, flag) < 1:
            raise UserError(f"--{flag.replace('_', '-')} {getattr(args, flag)}: give at least 1.")
    if args.task_timeout is not None and args.task_timeout <= 0:
        raise UserError(f"--task-timeout {args.task_timeout:g}: give a number of seconds above 0.")


def _executor(args: argparse.Namespace) -> tuple[Executor, LlmSource]:
    """Where agents run, and the model in the form that suits it (a factory travels to Ray workers)."""
    from browser_agent.batch import RayExecutor
    from browser_agent.batch.executors import LocalExecutor

    models = model_options(args)
    model = models.load()  # a missing provider package or key is reported before anything starts
    if args.ray is None:
        return LocalExecutor(), model
    for flag, spec in (("--planner-model", models.planner), ("--extraction-model", models.extraction)):
        if spec is not None:
            raise UserError(f"{flag} does not travel to Ray workers; run without --ray or without it.")
    address = None if args.ray == "local" else args.ray
    return RayExecutor(address=address, actors=args.ray_actors), models.factory()


def _with_secrets(specs: list[TaskSpec], args: argparse.Namespace) -> list[TaskSpec]:
    """Every task gets the secrets of ``--secrets``/``--secret``; a task's own of the same name win."""
    from pydantic import SecretStr

    found = load_secrets(args.secrets, args.secret)
    if not found:
        return specs
    if any(not isinstance(value, str) for value in found.values()):
        raise UserError(
            'batch takes secrets for every site ({"name": "value"}); give site-scoped ones per task.'
        )
    shared = {name: SecretStr(str(value)) for name, value in found.items()}
    return [
        spec.model_copy(update={"sensitive_data": shared | (spec.sensitive_data or {})}) for spec in specs
    ]


async def _run(
    args: argparse.Namespace,
    specs: list[TaskSpec],
    models: tuple[Executor, LlmSource],
    progress: RunProgress,
) -> list[TaskOutcome]:
    from browser_agent.agent import AgentSettings
    from browser_agent.batch import BatchOptions
    from browser_agent.batch.many import run_batch
    from browser_agent.batch.options import BatchSetup

    executor, llm = models
    flags = model_options(args)
    settings = AgentSettings(**flags.settings(allowed_domains=allowed_domains(args)))
    histories = args.histories or args.out.parent / f"{args.out.stem}-histories"
    options = BatchOptions(
        settings=settings, max_steps=args.max_steps, history_dir=histories, task_timeout_s=args.task_timeout
    )
    setup = BatchSetup(tuple(browser_configs(args)), llm, options, args.concurrency)

    def record(outcome: TaskOutcome) -> None:
        artifacts.append_line(args.out, json.dumps(outcome.summary()))
        progress.task_ended(outcome)

    return await run_batch(specs, setup, executor, record)


def _main(args: argparse.Namespace) -> int:
    from browser_agent.batch import read_specs
    from browser_agent.interrupts import exit_code, run_interruptible
    from browser_agent.output.console import make_console
    from browser_agent.output.progress import BATCH, RunProgress

    check_run_numbers(args)
    specs = _with_secrets(read_specs(args.tasks), args)
    check_login(args)
    done = finished_ids(args.out)
    todo = [spec for spec in specs if spec.task_id not in done]
    console = make_console(stderr=True)
    if not todo:
        console.print(f"All {len(specs)} tasks are already in {args.out}; nothing to run.")
        return 0
    models = _executor(args)  # a dead server, a missing package or key: said before the progress view
    progress = RunProgress(
        len(todo), console, BATCH, concurrency=args.concurrency, skipped=len(specs) - len(todo)
    )
    try:
        with progress:
            outcomes = run_interruptible(_run(args, todo, models, progress))
    except KeyboardInterrupt as exc:
        print(
            f"interrupted: {progress.finished} of {len(todo)} tasks finished and are in "
            f"{args.out}; run the same command again to do the rest.",
            file=sys.stderr,
        )
        return exit_code(exc)
    failed = sum(not outcome.success for outcome in outcomes)
    console.print(f"{len(outcomes) - failed} succeeded, {failed} failed; results in {args.out}")
    return 1 if failed else 0
