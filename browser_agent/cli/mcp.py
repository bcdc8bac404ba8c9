"""``browser-agent mcp``: serve the controller's actions and the page view to MCP clients."""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from browser_agent.cli.options import (
    add_browser_options,
    add_fence_options,
    add_network_options,
    add_secret_options,
    allowed_domains,
    browser_config,
    command,
)
from browser_agent.cli.secret_files import load_secrets
from browser_agent.errors import UserError

if TYPE_CHECKING:
    from browser_agent.controller import Controller

__all__ = ["add_parser", "load_controller"]


def add_parser(subparsers: Any) -> None:
    parser = command(
        subparsers, "mcp", help="serve the browser actions and the page view as MCP tools (stdio or HTTP)"
    )
    parser.add_argument(
        "--transport", choices=("stdio", "http"), default="stdio", help="how clients talk to the server"
    )
    parser.add_argument("--host", default="127.0.0.1", help="HTTP: the address to listen on")
    parser.add_argument("--port", type=int, default=8931, help="HTTP: the port (0: any free port)")
    parser.add_argument(
        "--max-sessions", type=int, default=8, metavar="N", help="HTTP: clients served at once"
    )
    parser.add_argument("--actions", metavar="MODULE:NAME", help="a Controller with your own actions")
    parser.add_argument(
        "--allowed-file",
        action="append",
        type=Path,
        default=[],
        metavar="PATH",
        help="a file or folder upload_file may use (repeatable)",
    )
    parser.add_argument(
        "--step-timeout", type=float, default=60, metavar="S", help="the longest one call may take"
    )
    browser = add_browser_options(parser)
    add_network_options(browser, local_by_default=False)
    # the flag's name before it was shared with inspect; still taken, no longer shown
    browser.add_argument(
        "--block-external-network", dest="local_only", action="store_true", help=argparse.SUPPRESS
    )
    add_fence_options(parser, help="only these sites may be opened (repeatable; default: every site)")
    add_secret_options(parser)
    parser.set_defaults(func=_main)


def load_controller(spec: str) -> Controller:
    """``package.module:name`` → that module's ``Controller`` (the current directory is importable).

    Raises:
        UserError: the spec is malformed, the module cannot be imported, or the name is not a Controller.
    """
    module_name, _, attribute = spec.partition(":")
    if not module_name or not attribute:
        raise UserError(f"--actions {spec!r} must look like module:name, e.g. my_actions:controller")
    if os.getcwd() not in sys.path:  # like `python -m`: modules beside you are found
        sys.path.insert(0, os.getcwd())
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise UserError(
            f"--actions: cannot import {module_name!r} ({exc}); check the name and sys.path"
        ) from exc
    from browser_agent.controller import Controller

    controller = getattr(module, attribute, None)
    if not isinstance(controller, Controller):
        found = type(controller).__name__ if controller is not None else "nothing"
        raise UserError(
            f"--actions: {spec} is {found}, not a Controller; point it at your Controller() instance"
        )
    return controller


def _main(args: argparse.Namespace) -> int:
    from browser_agent.controller import Controller
    from browser_agent.interrupts import run_interruptible
    from browser_agent.mcp import McpBrowserServer, McpServerConfig  # the optional extra, checked here

    browser = browser_config(
        args, block_external_network=args.local_only, allowed_domains=allowed_domains(args)
    )
    config = McpServerConfig(
        browser=browser,
        secrets=load_secrets(args.secrets, args.secret),
        allowed_files=tuple(args.allowed_file),
        step_timeout_s=args.step_timeout,
        max_sessions=args.max_sessions,
    )
    server = McpBrowserServer(load_controller(args.actions) if args.actions else Controller(), config)
    if args.transport == "http":
        run_interruptible(server.serve_http(args.host, args.port))
    else:
        run_interruptible(server.serve_stdio())
    return 0
