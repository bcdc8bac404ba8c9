"""``browser-agent eval``: run judged suites with a model, report a run, compare two runs.

    browser-agent eval miniwob --families easy --seeds 0,1 --model openai:local --base-url URL \\
        --out runs.jsonl --report runs.html
    browser-agent eval suite tasks.jsonl --site ./site --model ... --out runs.jsonl
    browser-agent eval report runs.jsonl --out runs.html
    browser-agent eval compare before.jsonl after.jsonl

One JSON line per episode is appended to ``--out`` as soon as it ends; the same command run again skips
the episodes already there. Exit codes: 0 every episode ran (whatever their success); 2 a mistake the
user can fix (said in one line); 130 interrupted (Ctrl-C; 143 SIGTERM, 129 SIGHUP).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from browser_agent.cli.options import (
    add_browser_options,
    add_fence_options,
    add_model_options,
    add_network_options,
    allowed_domains,
    browser_configs,
    command,
    model_options,
)
from browser_agent.defaults import DEFAULT_MAX_STEPS
from browser_agent.errors import UserError

if TYPE_CHECKING:
    from browser_agent.eval import Episode, EvalOptions

__all__ = ["add_parser"]


def add_parser(subparsers: Any) -> None:
    parser = command(
        subparsers, "eval", help="run judged suites of tasks with a model; report and compare runs"
    )
    kinds = parser.add_subparsers(dest="suite", metavar="SUITE", required=True)
    miniwob = command(kinds, "miniwob", help="MiniWoB++ tasks, judged by each page's own reward")
    miniwob.add_argument(
        "--tasks", default="", metavar="A,B", help="task names, e.g. click-button,enter-text"
    )
    miniwob.add_argument(
        "--families",
        default="",
        metavar="A,B",
        help="named lists of tasks: development, held-out (the broad suite's halves), click, text, "
        "widgets, reading (its kinds), easy, easy-2 (see docs/eval.md)",
    )
    miniwob.add_argument("--seeds", default="0", metavar="0,1,...", help="the seeds of each task's episodes")
    _add_run_options(miniwob)
    miniwob.set_defaults(func=_miniwob)
    suite = command(kinds, "suite", help="your own tasks from a JSON Lines file, judged by their checks")
    suite.add_argument("file", type=Path, help="one task a line, with its checks (see docs/eval.md)")
    suite.add_argument("--site", type=Path, metavar="DIR", help="serve this folder on 127.0.0.1 as {site}")
    suite.add_argument("--repeat", type=int, default=1, metavar="N", help="episodes of each task")
    _add_run_options(suite)
    add_fence_options(suite, help="keep pages on these sites unless a task names its own allowed_domains")
    suite.set_defaults(func=_suite)
    report = command(kinds, "report", help="write the HTML report of a results file")
    report.add_argument("results", type=Path, help="a results file of `browser-agent eval`")
    report.add_argument("--out", type=Path, required=True, metavar="FILE", help="the HTML file to write")
    report.set_defaults(func=_report)
    compare = command(kinds, "compare", help="compare two results files: which differences are beyond noise")
    compare.add_argument("a", type=Path, help="the baseline's results")
    compare.add_argument("b", type=Path, help="the change's results")
    compare.add_argument("--alpha", type=float, default=0.05, help="the p-value below which a change counts")
    compare.set_defaults(func=_compare)


def _add_run_options(parser: argparse.ArgumentParser) -> None:
    models = add_model_options(parser, required=True, step_timeout=True)
    models.add_argument(
        "--temperature",
        type=float,
        default=0.0,
        metavar="T",
        help="the model's sampling temperature; 0 so that a run and its rerun can be compared",
    )
    browser = add_browser_options(parser, fleet=True)
    add_network_options(browser, local_by_default=False)
    run = parser.add_argument_group("run and output")
    run.add_argument("--out", type=Path, required=True, metavar="FILE", help="results, one JSON line each")
    run.add_argument("--report", type=Path, metavar="FILE", help="then write the HTML report of --out")
    run.add_argument("--histories", type=Path, metavar="DIR", help="save each episode's history here")
    run.add_argument("--concurrency", type=int, default=1, metavar="M", help="episodes at once")
    run.add_argument(
        "--max-steps", type=int, default=DEFAULT_MAX_STEPS, metavar="N", help="steps per episode"
    )
    run.add_argument(
        "--max-failures", type=int, default=3, metavar="N", help="failed steps in a row that end it"
    )
    run.add_argument(
        "--task-timeout",
        type=float,
        metavar="S",
        help="stop an episode running longer (the name batch uses for the same limit)",
    )
    run.add_argument(
        "--port",
        type=int,
        default=0,
        metavar="N",
        help="serve the pages on this port of 127.0.0.1 (default: a free one). The URLs the model reads "
        "hold the port: give both arms of an A/B the same one",
    )
    # The flag's name before it was shared with batch; still taken, no longer shown.
    run.add_argument("--episode-timeout", dest="task_timeout", type=float, help=argparse.SUPPRESS)


def _numbers(text: str, flag: str) -> list[int]:
    try:
        values = [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise UserError(f"{flag} {text!r}: give whole numbers separated by commas, e.g. 0,1,2.") from None
    if not values:
        raise UserError(f"{flag}: give at least one number.")
    return values


def _names(text: str) -> list[str]:
    return [part.strip() for part in text.split(",") if part.strip()]


def _options(args: argparse.Namespace) -> EvalOptions:
    from browser_agent.agent import AgentSettings
    from browser_agent.cli.batch import check_run_numbers
    from browser_agent.eval import EvalOptions

    check_run_numbers(args)
    if args.max_failures < 1:
        raise UserError(f"--max-failures {args.max_failures}: give at least 1.")
    models = model_options(args)
    settings = AgentSettings(**models.settings(max_failures=args.max_failures))
    return EvalOptions(
        settings=settings,
        max_steps=args.max_steps,
        task_timeout_s=args.task_timeout,
        history_dir=args.histories,
        model_name=models.spec,
    )


def _fence(args: argparse.Namespace) -> tuple[str, ...] | None:
    """The fence of ``--allowed-domain`` (suites); a MiniWoB++ episode fences itself to its pages."""
    return allowed_domains(args) if hasattr(args, "allowed_domain") else None


def _miniwob(args: argparse.Namespace) -> int:
    from browser_agent.eval import MiniwobEpisode, StaticSite, miniwob_folder, miniwob_tasks
    from browser_agent.eval.miniwob import check_seeds, family_of

    seeds = _numbers(args.seeds, "--seeds")
    folder = miniwob_folder()
    tasks = miniwob_tasks(folder, _names(args.tasks), _names(args.families))
    check_seeds(tasks, seeds)
    with StaticSite(folder, port=args.port) as site:
        episodes = [MiniwobEpisode(t, s, site.origin, family=family_of(t)) for t in tasks for s in seeds]
        return _evaluate(args, episodes)


def _suite(args: argparse.Namespace) -> int:
    from browser_agent.eval import StaticSite, SuiteEpisode, read_suite

    if args.repeat < 1:
        raise UserError(f"--repeat {args.repeat}: give at least 1.")
    if args.site is None:
        tasks = read_suite(args.file)
        return _evaluate(args, [SuiteEpisode(t, r) for t in tasks for r in range(args.repeat)])
    with StaticSite(args.site, port=args.port) as site:
        tasks = read_suite(args.file, site=site.origin)
        return _evaluate(args, [SuiteEpisode(t, r) for t in tasks for r in range(args.repeat)])


def _evaluate(args: argparse.Namespace, episodes: Sequence[Episode]) -> int:
    from browser_agent.eval import pending, read_records
    from browser_agent.output.console import make_console

    todo = pending(episodes, args.out)
    console = make_console(stderr=True)
    if not todo:
        console.print(f"All {len(episodes)} episodes are already in {args.out}; nothing to run.")
    elif (interrupted := _run(args, todo, len(episodes) - len(todo), console)) is not None:
        return interrupted
    wanted = {(e.name, e.seed) for e in episodes}
    records = [r for r in read_records(args.out) if r.key in wanted]
    _print_summary(records, console)
    if args.report:
        _write_report(records, args.report, args.out)
    return 0


def _run(args: argparse.Namespace, todo: list[Episode], skipped: int, console: Any) -> int | None:
    """Run the episodes not yet in ``--out`` with the progress shown; the exit code when interrupted."""
    from browser_agent.eval import run_episodes
    from browser_agent.interrupts import exit_code, run_interruptible
    from browser_agent.output.progress import EVAL, RunProgress

    options = _options(args)
    llm = model_options(args).load()  # a dead server, a missing package or key: said before any episode
    browsers = browser_configs(args, allowed_domains=_fence(args), block_external_network=args.local_only)
    progress = RunProgress(len(todo), console, EVAL, concurrency=args.concurrency, skipped=skipped)
    try:
        with progress:
            run_interruptible(
                run_episodes(
                    todo,
                    llm,
                    args.out,
                    options,
                    concurrency=args.concurrency,
                    browser=browsers,
                    on_record=progress.episode_ended,
                )
            )
    except KeyboardInterrupt as exc:
        print(
            f"interrupted: {progress.finished} of {len(todo)} episodes finished and are in {args.out}; "
            "run the same command again to do the rest.",
            file=sys.stderr,
        )
        return exit_code(exc)
    return None


def _print_summary(records: list[Any], console: Any) -> None:
    from browser_agent.output.eval_summary import summary_lines

    for line in summary_lines(records):
        console.print(line, highlight=False)


def _write_report(records: list[Any], path: Path, source: Path) -> None:
    from browser_agent.output.eval_report import write_report

    write_report(records, path, title=f"Evaluation: {source.name}")
    print(f"report: {path}", file=sys.stderr)


def _report(args: argparse.Namespace) -> int:
    from browser_agent.eval import read_records

    records = read_records(args.results)
    if not records:
        raise UserError(f"{args.results} holds no episode; run `browser-agent eval miniwob|suite` first.")
    _write_report(records, args.out, args.results)
    return 0


def _compare(args: argparse.Namespace) -> int:
    from browser_agent.eval import read_records
    from browser_agent.eval.compare import compare
    from browser_agent.eval.divergence import partings
    from browser_agent.output.eval_comparison import format_comparison, format_partings

    if not 0 < args.alpha < 1:
        raise UserError(f"--alpha {args.alpha}: give a p-value between 0 and 1, e.g. 0.05.")
    a, b = read_records(args.a), read_records(args.b)
    for path, records in ((args.a, a), (args.b, b)):
        if not records:
            raise UserError(f"{path} holds no episode; give two results files of `browser-agent eval`.")
    comparison = compare(a, b, alpha=args.alpha)
    if not comparison.total.a.n:
        raise UserError(
            f"{args.a} and {args.b} have no episode in common (the same task and seed); compare runs of the "
            "same episodes."
        )
    print(format_comparison(comparison, str(args.a), str(args.b)))
    parted = format_partings(partings(comparison.discordant, a_folder=args.a.parent, b_folder=args.b.parent))
    if parted:
        print(parted)
    return 0
