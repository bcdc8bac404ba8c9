"""``browser-agent demo``: the offline shop demo (replay), or the live agent with ``--model``."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from browser_agent.cli.options import add_browser_options, add_model_options, command, model_options

__all__ = ["add_parser"]


def add_parser(subparsers: Any) -> None:
    parser = command(
        subparsers, "demo", help="replay a recorded shop run on a local demo site (no network, no API key)"
    )
    add_model_options(
        parser,
        required=False,
        method=False,
        planner=False,
        purpose="run the live agent with this model instead of the replay",
    )
    parser.add_argument(
        "--history",
        type=Path,
        metavar="FILE",
        help="the recorded run to replay (default: the one shipped with the package)",
    )
    parser.add_argument(
        "--record", type=Path, metavar="PATH", help="record a new run with the scripted policy"
    )
    parser.add_argument("--seed", type=int, help="fix the shop's random layout")
    add_browser_options(parser, remote=False)
    parser.set_defaults(func=_main)


def _main(args: argparse.Namespace) -> int:
    from browser_agent.demo.runner import RECORDED_RUN, record_demo, replay_demo, run_live_demo
    from browser_agent.interrupts import run_interruptible

    headless = not args.headed
    if args.record:
        history = run_interruptible(record_demo(args.record, headless=headless))
        print(f"Recorded {len(history.steps)} steps to {args.record}")
        return 0 if history.is_done() else 1
    if args.model:
        llm = model_options(args).load()
        history = run_interruptible(run_live_demo(llm, headless=headless))
        return 0 if history.is_successful() else 1
    report = run_interruptible(replay_demo(args.history or RECORDED_RUN, headless=headless, seed=args.seed))
    return 0 if report.ok else 1
