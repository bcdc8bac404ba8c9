"""The ``browser-agent`` command: one subcommand per module, each exposing ``add_parser(subparsers)``.

Building the parser imports nothing heavy (see ``cli/options.py``): ``--version`` and every ``--help``
answer at once; a command imports the agent, the providers and Playwright when it runs.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any

from browser_agent import artifacts
from browser_agent.cli import batch, demo, export, inspect, mcp, replay, run, ui, workflow
from browser_agent.cli import eval as eval_command
from browser_agent.cli.options import HelpFormatter
from browser_agent.errors import BrowserAgentError, first_line

__all__ = ["build_parser", "main", "main_async"]

_SUBCOMMANDS = (run, batch, eval_command, replay, workflow, export, inspect, demo, mcp, ui)


class _Version(argparse.Action):
    """``--version``: reads the installed version only when asked (the metadata scan costs time)."""

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, **kwargs)

    def __call__(self, parser: argparse.ArgumentParser, *args: Any, **kwargs: Any) -> None:
        from browser_agent.extras import version

        print(f"browser-agent {version()}")
        parser.exit()


def build_parser() -> argparse.ArgumentParser:
    """The top-level parser with every subcommand registered."""
    parser = argparse.ArgumentParser(
        prog="browser-agent",
        description="Let an LLM drive a real Chromium.",
        epilog="`browser-agent COMMAND --help` lists a command's flags.",
        formatter_class=HelpFormatter,
        allow_abbrev=False,
    )
    parser.add_argument("--version", action=_Version, help="print the version and exit")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module in _SUBCOMMANDS:
        module.add_parser(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Parse ``argv`` (default: the process arguments), run the chosen subcommand, return its exit code.

    Without a command the help is printed and the exit code is 2: nothing was run, so a script that
    forgot the command fails instead of passing silently (argparse's code for a usage mistake).
    """
    parser = build_parser()
    args, unknown = parser.parse_known_args(argv)
    if unknown:  # said with the usage of the command that was typed, not the top level's
        _innermost(parser, sys.argv[1:] if argv is None else argv).error(
            f"unrecognized arguments: {' '.join(unknown)}"
        )
    if args.command is None:
        parser.print_help()
        return 2
    with artifacts.redacted_stdio():  # whatever a command prints passes the gate: page and model text too
        return _run_command(args)


def _run_command(args: argparse.Namespace) -> int:
    try:
        code: int = args.func(args)
    except BrowserAgentError as exc:  # ours, with a message that says what to do: no traceback
        # One format for every command: the message says what happened and what to do, never a class name.
        print(f"browser-agent {args.command}: {first_line(exc)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt as exc:  # Ctrl-C, SIGTERM or SIGHUP (interrupts.Interrupted)
        from browser_agent.interrupts import exit_code

        print(f"interrupted ({exc})" if str(exc) else "interrupted", file=sys.stderr)
        return exit_code(exc)
    return code


def _innermost(parser: argparse.ArgumentParser, argv: Sequence[str]) -> argparse.ArgumentParser:
    """The parser of the deepest command named in ``argv`` (``eval miniwob``, ``run``, or the top)."""
    for word in argv:
        commands = next((a for a in parser._actions if isinstance(a, argparse._SubParsersAction)), None)
        if commands is None:
            break
        chosen = commands.choices.get(word)
        if chosen is not None:
            parser = chosen
    return parser


async def main_async(argv: Sequence[str]) -> int:
    """``main`` for async code (a notebook, an async app, a test): the command runs in a worker thread and
    its browser work on the running event loop, where it shares the loop's Playwright driver instead of
    starting one of its own. Ctrl-C is the caller's loop's to handle.
    """
    from browser_agent.interrupts import in_a_thread_on_this_loop

    return await in_a_thread_on_this_loop(main, argv)
