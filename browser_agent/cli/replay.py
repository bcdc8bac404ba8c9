"""``browser-agent replay run.json``: run a saved history again without the model."""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Any

from browser_agent.browser import BrowserConfig, BrowserSession
from browser_agent.cli.models import load_chat_model
from browser_agent.cli.options import add_secret_options, load_secrets
from browser_agent.controller import Controller
from browser_agent.errors import UserError
from browser_agent.interrupts import run_interruptible
from browser_agent.output.replay_console import ReplayReporter
from browser_agent.playback import ReplayOptions, ReplayReport, replay
from browser_agent.playback.runner import replay_fence
from browser_agent.record import AgentHistory

__all__ = ["add_parser"]


def add_parser(subparsers: Any) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "replay", help="replay a saved run without the model"
    )
    parser.add_argument("history", type=Path, help="a history saved by AgentHistory.save or --save")
    parser.add_argument("--on-failure", choices=("stop", "skip"), default="stop")
    parser.add_argument("--retries", type=int, default=3, help="attempts to find a late element")
    parser.add_argument(
        "--sub",
        action="append",
        default=[],
        metavar="OLD=NEW",
        help="replace text in the recorded arguments, also inside them, e.g. a host in a URL (repeatable)",
    )
    parser.add_argument(
        "--llm", metavar="PROVIDER:NAME", help="a model for the steps that cannot be re-located"
    )
    parser.add_argument("--headed", action="store_true", help="show the browser window")
    parser.add_argument(
        "--allowed-domain",
        action="append",
        default=[],
        metavar="PATTERN",
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
    controller = Controller()
    history = AgentHistory.load(args.history, controller)
    options = ReplayOptions(
        retries=args.retries,
        on_failure=args.on_failure,
        substitutions=_substitutions(args.sub),
        llm=load_chat_model(args.llm) if args.llm else None,
        sensitive_data=load_secrets(args.secrets, args.secret),
        allowed_domains=tuple(args.allowed_domain) or None,
    )
    config = BrowserConfig(headless=not args.headed, allowed_domains=replay_fence(history, options))
    reporter = ReplayReporter()
    start = time.perf_counter()
    async with BrowserSession(config) as session:
        report = await replay(history, session, controller, options, reporter.replayed)
    reporter.summary(report, time.perf_counter() - start)
    return report


def _main(args: argparse.Namespace) -> int:
    return 0 if run_interruptible(_run(args)).ok else 1
