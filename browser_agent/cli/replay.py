"""``browser-agent replay run.json``: run a saved history again without the model."""

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
    from browser_agent.playback import ReplayReport
    from browser_agent.record import AgentHistory

__all__ = ["add_parser"]


def add_parser(subparsers: Any) -> None:
    parser = command(subparsers, "replay", help="replay a saved run without the model")
    parser.add_argument("history", type=Path, help="a history saved by AgentHistory.save or --save")
    parser.add_argument(
        "--on-failure",
        choices=("stop", "skip"),
        default="stop",
        help="what a step that cannot be replayed does to the rest",
    )
    parser.add_argument(
        "--retries", type=int, default=3, metavar="N", help="attempts to find an element that comes late"
    )
    parser.add_argument(
        "--sub",
        action="append",
        default=[],
        metavar="OLD=NEW",
        help="replace text in the recorded arguments, also inside them, e.g. a host in a URL (repeatable)",
    )
    parser.add_argument(
        "--heal",
        action="store_true",
        help="keep what --model did for a step whose element cannot be found surely: the healed history "
        "is written beside this one (HISTORY.healed.json, what changed in HISTORY.healed.changes.json)",
    )
    add_model_options(
        parser,
        required=False,
        method=False,
        planner=False,
        also=("--llm",),
        purpose="a model that finds the element of a step whose recorded one is gone (default: none)",
    )
    add_login_options(add_browser_options(parser))
    add_fence_options(
        parser,
        help="keep the replay on these sites (repeatable; default: the fence the run was recorded under; "
        "'*' for every site)",
    )
    add_secret_options(parser)
    parser.set_defaults(func=_main)


def _substitutions(pairs: list[str]) -> dict[str, str]:
    subs = {}
    for pair in pairs:
        old, sep, new = pair.partition("=")
        if not sep or not old:
            raise UserError(f"--sub {pair!r} must look like OLD=NEW")
        subs[old] = new
    return subs


async def _run(args: argparse.Namespace) -> ReplayReport:
    from browser_agent.browser import BrowserSession
    from browser_agent.controller import Controller
    from browser_agent.output import ReplayReporter
    from browser_agent.playback import ReplayOptions, replay
    from browser_agent.record import AgentHistory

    controller = Controller()
    history = AgentHistory.load(args.history, controller)
    check_login(args)
    models = model_options(args)
    if args.heal and not models.spec:
        raise UserError("--heal hands a step to a model: name one with --model PROVIDER:NAME.")
    options = ReplayOptions(
        retries=args.retries,
        on_failure=args.on_failure,
        substitutions=_substitutions(args.sub),
        llm=models.load() if models.spec else None,
        sensitive_data=load_secrets(args.secrets, args.secret),
        allowed_domains=allowed_domains(args),
    )
    config = browser_config(args)  # the replay fences it before it starts (playback.replay_fence)
    reporter = ReplayReporter()
    start = time.perf_counter()
    async with BrowserSession(config) as session:
        report = await replay(history, session, controller, options, reporter.replayed)
    reporter.summary(report, time.perf_counter() - start)
    if args.heal:
        _save_healed(args.history, history, report)
    return report


def _save_healed(path: Path, history: AgentHistory, report: ReplayReport) -> None:
    from browser_agent.playback.heal import healed_history, healed_path, save_healed_history

    healed = healed_history(history, report, path.name)
    if healed is None:
        print("No step needed healing: nothing written.")
        return
    written = save_healed_history(*healed, healed_path(path))
    print(f"Healed {len(healed[1].changes)} step(s); wrote {written}.")


def _main(args: argparse.Namespace) -> int:
    from browser_agent.interrupts import run_interruptible

    return 0 if run_interruptible(_run(args)).ok else 1
