"""``browser-agent batch tasks.jsonl --model PROVIDER:NAME --out results.jsonl``: many tasks at once.

One JSON line per task is appended to ``--out`` as soon as it ends; running the same command again skips
the tasks already there, so an interrupted batch (Ctrl-C) resumes where it stopped.
"""

from __future__ import annotations

import argparse
import functools
import json
import sys
from pathlib import Path
from typing import Any, TextIO

from rich.console import Console

from browser_agent.agent import DEFAULT_MAX_STEPS
from browser_agent.batch import BatchOptions, RayExecutor, TaskOutcome, TaskSpec, read_specs
from browser_agent.batch.executors import Executor, LocalExecutor
from browser_agent.batch.options import BatchSetup, BrowserSource, LlmSource
from browser_agent.batch.run import run_batch
from browser_agent.browser import BrowserConfig
from browser_agent.cli.models import load_chat_model
from browser_agent.interrupts import run_interruptible
from browser_agent.output.batch_progress import BatchProgress

__all__ = ["add_parser", "finished_ids"]


def add_parser(subparsers: Any) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "batch", help="run many tasks from a JSON Lines file, several agents at once"
    )
    parser.add_argument(
        "tasks", type=Path, help="one task per line: a JSON string, or an object (id, task, ...)"
    )
    parser.add_argument("--model", required=True, metavar="PROVIDER:NAME", help="e.g. openai:gpt-4o")
    parser.add_argument("--out", type=Path, required=True, help="results, one JSON line per task")
    parser.add_argument("--concurrency", type=int, default=4, help="agents at once (default 4)")
    where = parser.add_argument_group("where the browsers are (default: one local Chromium)")
    where.add_argument(
        "--ws-endpoint", action="append", default=[], metavar="URL", help="a Playwright server"
    )
    where.add_argument("--cdp-url", action="append", default=[], metavar="URL", help="a Chromium's DevTools")
    where.add_argument(
        "--ray", metavar="ADDRESS", help="run agents in Ray actors: `local` or a cluster address"
    )
    where.add_argument(
        "--ray-actors", type=int, default=2, metavar="N", help="Ray actors (browsers), default 2"
    )
    parser.add_argument(
        "--histories", type=Path, help="where each task's history goes (default: next to --out)"
    )
    parser.add_argument(
        "--max-steps",
        type=int,
        default=DEFAULT_MAX_STEPS,
        help="steps per task unless the task says otherwise",
    )
    parser.add_argument("--task-timeout", type=float, metavar="SECONDS", help="stop a task running longer")
    parser.add_argument("--headed", action="store_true", help="show the browser windows")
    parser.set_defaults(func=_main)


def finished_ids(out: Path) -> set[str]:
    """The ids of the tasks already in a results file (unreadable lines, e.g. cut by a kill, are skipped)."""
    if not out.exists():
        return set()
    ids = set()
    for line in out.read_text().splitlines():
        try:
            record = json.loads(line)
        except ValueError:
            continue
        if isinstance(record, dict) and isinstance(record.get("id"), str):
            ids.add(record["id"])
    return ids


def _browsers(args: argparse.Namespace) -> list[BrowserSource]:
    headless = not args.headed
    fleet: list[BrowserSource] = [
        BrowserConfig(ws_endpoint=url, headless=headless) for url in args.ws_endpoint
    ]
    fleet += [BrowserConfig(cdp_url=url, headless=headless) for url in args.cdp_url]
    return fleet or [BrowserConfig(headless=headless)]


def _executor(args: argparse.Namespace) -> tuple[Executor, LlmSource]:
    """Where agents run, and the model in the form that suits it (a factory travels to Ray workers)."""
    model = load_chat_model(args.model)  # a missing provider package is reported before anything starts
    if args.ray is None:
        return LocalExecutor(), model
    address = None if args.ray == "local" else args.ray
    return RayExecutor(address=address, actors=args.ray_actors), functools.partial(
        load_chat_model, args.model
    )


class _Counted:
    """An executor that tells the progress view when each task starts."""

    def __init__(self, inner: Executor, progress: BatchProgress) -> None:
        self._inner, self._progress = inner, progress

    async def start(self, setup: BatchSetup) -> None:
        await self._inner.start(setup)

    async def run(self, spec: TaskSpec, index: int) -> TaskOutcome:
        self._progress.task_started()
        return await self._inner.run(spec, index)

    async def close(self) -> None:
        await self._inner.close()


def _open_results(out: Path) -> TextIO:
    out.parent.mkdir(parents=True, exist_ok=True)
    cut = out.exists() and out.stat().st_size > 0 and not out.read_bytes().endswith(b"\n")
    stream = out.open("a")
    if cut:  # the last line was cut short (a killed run): start a fresh line
        stream.write("\n")
    return stream


async def _run(args: argparse.Namespace, specs: list[TaskSpec], progress: BatchProgress) -> list[TaskOutcome]:
    executor, llm = _executor(args)
    histories = args.histories or args.out.parent / f"{args.out.stem}-histories"
    options = BatchOptions(max_steps=args.max_steps, history_dir=histories, task_timeout_s=args.task_timeout)
    setup = BatchSetup(tuple(_browsers(args)), llm, options, args.concurrency)
    with _open_results(args.out) as results:

        def record(outcome: TaskOutcome) -> None:
            results.write(json.dumps(outcome.summary()) + "\n")
            results.flush()
            progress.task_ended(outcome)

        return await run_batch(specs, setup, _Counted(executor, progress), record)


def _main(args: argparse.Namespace) -> int:
    specs = read_specs(args.tasks)
    done = finished_ids(args.out)
    todo = [spec for spec in specs if spec.task_id not in done]
    console = Console(stderr=True)
    if not todo:
        console.print(f"All {len(specs)} tasks are already in {args.out}; nothing to run.")
        return 0
    progress = BatchProgress(len(todo), console, skipped=len(specs) - len(todo))
    try:
        with progress:
            outcomes = run_interruptible(_run(args, todo, progress))
    except KeyboardInterrupt:
        print(
            f"interrupted: {progress.done + progress.failed} of {len(todo)} tasks finished and are in "
            f"{args.out}; run the same command again to do the rest.",
            file=sys.stderr,
        )
        return 130
    failed = sum(not outcome.success for outcome in outcomes)
    console.print(f"{len(outcomes) - failed} succeeded, {failed} failed; results in {args.out}")
    return 1 if failed else 0
