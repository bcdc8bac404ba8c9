"""The ``browser-agent`` command: one subcommand per module, each exposing ``add_parser(subparsers)``."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from browser_agent.cli import batch, demo, inspect, mcp, replay, run
from browser_agent.errors import BrowserAgentError
from browser_agent.extras import version

__all__ = ["main"]

_SUBCOMMANDS = (run, batch, replay, inspect, demo, mcp)


def build_parser() -> argparse.ArgumentParser:
    """The top-level parser with every subcommand registered."""
    parser = argparse.ArgumentParser(prog="browser-agent", description="Let an LLM drive a real Chromium.")
    parser.add_argument("--version", action="version", version=f"browser-agent {version()}")
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for module in _SUBCOMMANDS:
        module.add_parser(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Parse ``argv`` (default: the process arguments), run the chosen subcommand, return its exit code."""
    args = build_parser().parse_args(argv)
    try:
        code: int = args.func(args)
    except BrowserAgentError as exc:  # ours, with a message that says what to do: no traceback
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
        print(f"browser-agent {args.command}: {type(exc).__name__}: {first}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    return code
