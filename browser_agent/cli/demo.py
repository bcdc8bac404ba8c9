"""``browser-agent demo``: the offline shop demo (replay), a run recorded by its scripted policy, the live
agent with ``--model``, or the shop alone, kept up for other commands (``--serve``)."""

from __future__ import annotations

import argparse
import functools
import sys
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from browser_agent.cli.options import add_browser_options, add_model_options, command, model_options
from browser_agent.errors import UserError

__all__ = ["add_parser"]

DEMO_PORT = 8765  # browser_agent.demo.site.DEMO_PORT, spelt here so that --help imports nothing more


def add_parser(subparsers: Any) -> None:
    parser = command(
        subparsers,
        "demo",
        help="replay a recorded shop run on a local demo site (no network, no API key)",
        epilog="`demo --serve` keeps the shop up for the guides' commands (docs/workflows.md):\n"
        f"  browser-agent demo --record run.json --shop http://127.0.0.1:{DEMO_PORT}/\n"
        "  then `workflow make`, `workflow run`, `export` on run.json.",
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
        "--record", type=Path, metavar="FILE", help="record a new run with the scripted policy, save it here"
    )
    parser.add_argument("--seed", type=int, help="fix the shop's random layout")
    parser.add_argument(
        "--shop",
        metavar="URL",
        help="use the shop `demo --serve` serves at URL instead of starting one (replay, --record, --model)",
    )
    parser.add_argument(
        "--serve",
        action="store_true",
        help="only serve the shop on 127.0.0.1 until Ctrl-C or SIGTERM, for --shop, `workflow run` and "
        "exported scripts",
    )
    parser.add_argument(
        "--port", type=int, default=DEMO_PORT, metavar="N", help="--serve: the port (0: any free one)"
    )
    add_browser_options(parser, remote=False)
    parser.set_defaults(func=_main)


def _main(args: argparse.Namespace) -> int:
    if args.serve:
        return _serve(args)
    from browser_agent.demo.walkthrough import RECORDED_RUN, record_demo, replay_demo, run_live_demo
    from browser_agent.interrupts import run_interruptible

    if args.port != DEMO_PORT:
        raise UserError(f"--port {args.port} goes with --serve (a shop of its own takes any free port).")
    shop = _shop(args)
    headless = not args.headed
    if args.record:
        history = run_interruptible(record_demo(args.record, headless=headless, shop=shop))
        print(f"Recorded {len(history.steps)} steps to {args.record}")
        return 0 if history.is_done() else 1
    if args.model:
        llm = model_options(args).load()
        history = run_interruptible(run_live_demo(llm, headless=headless, shop=shop))
        return 0 if history.is_successful() else 1
    history_path = args.history or RECORDED_RUN
    report = run_interruptible(replay_demo(history_path, headless=headless, seed=args.seed, shop=shop))
    return 0 if report.ok else 1


def _shop(args: argparse.Namespace) -> str | None:
    """``--shop`` checked: a root address on this machine where the demo shop answers."""
    if args.shop is None:
        return None
    if args.seed is not None:
        raise UserError("--seed lays out a shop this command starts: give it to `demo --serve` instead.")
    try:
        parts = urlsplit(args.shop)
        scheme, host, port = parts.scheme, parts.hostname, parts.port
    except ValueError:  # a port that is not a number
        scheme, host, port = "", None, None
    if scheme != "http" or host not in ("127.0.0.1", "localhost") or port is None:
        raise UserError(
            f"--shop {args.shop!r}: give the address `demo --serve` prints, http://127.0.0.1:PORT/."
        )
    from browser_agent.demo.site import check_shop

    url = f"http://127.0.0.1:{port}/"  # where the shop listens, and what the runs' fence lets through
    check_shop(url)
    return url


def _serve(args: argparse.Namespace) -> int:
    from browser_agent.demo.site import serve_demo
    from browser_agent.interrupts import run_interruptible

    others = [flag for flag, given in _modes(args).items() if given]
    if others:
        raise UserError(f"--serve only serves the shop: run {', '.join(others)} in another command.")
    if not 0 <= args.port < 65536:
        raise UserError(f"--port {args.port}: give a port between 0 and 65535.")
    try:
        run_interruptible(serve_demo(functools.partial(print, flush=True), args.port, seed=args.seed))
    except OSError as exc:
        raise UserError(
            f"cannot serve on 127.0.0.1:{args.port} ({exc.strerror or exc}): is a shop served there "
            "already? Stop it, or pass --port N (0: any free one)."
        ) from exc
    except KeyboardInterrupt:
        print("Demo shop stopped", file=sys.stderr)
    return 0


def _modes(args: argparse.Namespace) -> dict[str, bool]:
    return {
        "--record": args.record is not None,
        "--model": args.model is not None,
        "--history": args.history is not None,
        "--shop": args.shop is not None,
        "--headed": bool(args.headed),
    }
