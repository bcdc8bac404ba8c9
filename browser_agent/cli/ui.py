"""``browser-agent ui --model PROVIDER:NAME``: a local web UI to start runs and watch them live.

The model, the browser, the fence and the secrets' values are set here, on the server side; the page
starts runs with a task, a start URL, allowed domains (inside the fence), max steps, vision, and
secrets by name. It listens on 127.0.0.1 only and prints its address with a random token.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path
from typing import Any

from browser_agent.cli.options import (
    add_browser_options,
    add_fence_options,
    add_model_options,
    add_secret_options,
    allowed_domains,
    browser_config,
    command,
    model_options,
)
from browser_agent.cli.secret_files import load_secrets
from browser_agent.errors import UserError

__all__ = ["add_parser"]

DEFAULT_RUNS_DIR = Path("browser_agent_runs")


def add_parser(subparsers: Any) -> None:
    parser = command(subparsers, "ui", help="serve a local web UI to start runs and watch them live")
    add_model_options(parser, required=True, step_timeout=True)
    add_browser_options(parser)
    add_fence_options(parser)
    add_secret_options(parser)
    ui = parser.add_argument_group("the UI")
    ui.add_argument("--port", type=int, default=0, metavar="N", help="port on 127.0.0.1 (0: a free one)")
    ui.add_argument(
        "--runs-dir",
        type=Path,
        default=DEFAULT_RUNS_DIR,
        metavar="DIR",
        help="where runs are saved (history and report) and past runs are listed from",
    )
    ui.add_argument("--fps", type=float, default=4, help="live view frames a second, at most")
    ui.add_argument(
        "--answer-timeout",
        type=float,
        default=120.0,
        metavar="S",
        help="how long ask_human waits for an answer",
    )
    parser.set_defaults(func=_main)


def _main(args: argparse.Namespace) -> int:
    from browser_agent.extras import require

    require("starlette", "ui", "browser-agent ui")
    require("uvicorn", "ui", "browser-agent ui")
    if not 0 <= args.port < 65536:
        raise UserError(f"--port {args.port}: give a port between 0 and 65535.")
    models = model_options(args)
    models.load()  # a dead server, a missing package or key is said before the UI starts
    from browser_agent.agent import AgentSettings
    from browser_agent.interrupts import run_interruptible
    from browser_agent.ui import LiveServer, RunSetup

    setup = RunSetup(
        model=models.factory(),
        runs_dir=args.runs_dir,
        browser=browser_config(args),
        secrets=load_secrets(args.secrets, args.secret),
        allowed_domains=allowed_domains(args),
        settings=AgentSettings(**models.settings()),
    )

    async def serve() -> None:
        async with LiveServer(
            port=args.port, setup=setup, fps=args.fps, answer_timeout_s=args.answer_timeout
        ) as live:
            print(f"browser-agent ui: open {live.url}", file=sys.stderr, flush=True)
            print("(the token in the address is the only key; Ctrl-C stops the server)", file=sys.stderr)
            await asyncio.Event().wait()

    try:
        run_interruptible(serve())
    except KeyboardInterrupt:
        print("stopped", file=sys.stderr)
    return 0
