"""``browser-agent export run.json --to playwright -o test_x.py``: a recorded run, or a workflow made of
one, as a plain Playwright script (``--pytest``: a pytest test that checks what the run ended on)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from browser_agent.cli.options import command
from browser_agent.errors import UserError

if TYPE_CHECKING:
    from browser_agent.export import ExportedScript

__all__ = ["add_parser"]


def add_parser(subparsers: Any) -> None:
    parser = command(
        subparsers,
        "export",
        help="write a saved run or a workflow as a plain Playwright script",
        epilog="Secrets are read from environment variables (BA_SECRET_NAME) and never written into "
        "the script; each typed value becomes an input (BA_NAME, else the value recorded).",
    )
    parser.add_argument(
        "history",
        type=Path,
        help="a history saved by AgentHistory.save or --save, or a workflow (*.workflow.json): its "
        "inputs keep their names",
    )
    parser.add_argument(
        "--to", choices=("playwright",), default="playwright", help="what to write: a Playwright script"
    )
    parser.add_argument(
        "-o", "--output", type=Path, metavar="FILE", help="the script to write (default: print it)"
    )
    parser.add_argument(
        "--pytest",
        action="store_true",
        help="write a pytest test that checks the page and the text the run ended on",
    )
    parser.add_argument(
        "--heal",
        action="store_true",
        help="write the form whose failed locators hand their step to a model (BROWSER_AGENT_MODEL) and "
        "go on; it needs browser-agent where it runs (the plain form needs only Playwright)",
    )
    parser.add_argument("--force", action="store_true", help="overwrite FILE when it exists")
    parser.set_defaults(func=_main)


def _main(args: argparse.Namespace) -> int:
    from browser_agent.artifacts import redacted, write_text
    from browser_agent.export import verify_script

    script = _script(args.history, pytest=args.pytest, heal=args.heal)
    for warning in script.warnings:
        print(f"browser-agent export: warning: {warning}", file=sys.stderr)
    # What is written is what was checked: the script as redacted, checked again.
    source = redacted(script.source)
    verify_script(source, script.names)
    if args.output is None:
        sys.stdout.write(source)
        return 0
    if args.output.exists() and not args.force:
        raise UserError(f"{args.output} exists; pass --force to overwrite it, or choose another -o FILE.")
    try:
        write_text(args.output, source)
    except OSError as exc:
        raise UserError(f"{args.output} could not be written: {exc}") from exc
    print(f"wrote {args.output} ({len(source.splitlines())} lines)", file=sys.stderr)
    return 0


def _script(path: Path, *, pytest: bool, heal: bool) -> ExportedScript:
    """The script of a workflow or of a saved history; a history's loads no engine (no Playwright)."""
    from browser_agent.export import export_history
    from browser_agent.record import AgentHistory
    from browser_agent.workflow.file_format import is_workflow_file

    if is_workflow_file(path):
        from browser_agent.workflow import Workflow, export_workflow  # a workflow's model loads the replay

        return export_workflow(Workflow.load(path), pytest=pytest, origin=path.name, heal=heal)
    return export_history(AgentHistory.load(path), pytest=pytest, origin=path.name, heal=heal)
