"""``browser-agent mcp``: serve the controller's actions and the page view to MCP clients."""

from __future__ import annotations

import argparse
import importlib
import json
import os
import sys
from pathlib import Path
from typing import Any

from browser_agent.browser import BrowserConfig
from browser_agent.controller import Controller
from browser_agent.errors import UserError
from browser_agent.interrupts import run_interruptible

__all__ = ["add_parser", "load_controller", "load_secrets"]


def add_parser(subparsers: Any) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "mcp", help="serve the browser actions and the page view as MCP tools (stdio or HTTP)"
    )
    parser.add_argument("--transport", choices=("stdio", "http"), default="stdio")
    parser.add_argument("--host", default="127.0.0.1", help="HTTP: the address to listen on")
    parser.add_argument("--port", type=int, default=8931, help="HTTP: the port (0: any free port)")
    parser.add_argument("--headed", action="store_true", help="show the browser window")
    parser.add_argument(
        "--block-external-network", action="store_true", help="only 127.0.0.1 and localhost are reachable"
    )
    parser.add_argument("--cdp-url", metavar="URL", help="open the contexts in a Chromium started elsewhere")
    parser.add_argument(
        "--allowed-domain", action="append", metavar="D", help="only these domains may be opened (repeatable)"
    )
    parser.add_argument("--actions", metavar="MODULE:NAME", help="a Controller with your own actions")
    parser.add_argument(
        "--secrets", type=Path, metavar="FILE", help='JSON {"name": "value"} for <secret>name</secret>'
    )
    parser.add_argument(
        "--allowed-file",
        action="append",
        type=Path,
        metavar="PATH",
        help="a file or folder upload_file may use",
    )
    parser.add_argument(
        "--step-timeout", type=float, default=60.0, metavar="S", help="the longest one call may take"
    )
    parser.add_argument("--max-sessions", type=int, default=8, help="HTTP: clients served at once")
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
    controller = getattr(module, attribute, None)
    if not isinstance(controller, Controller):
        found = type(controller).__name__ if controller is not None else "nothing"
        raise UserError(
            f"--actions: {spec} is {found}, not a Controller; point it at your Controller() instance"
        )
    return controller


def load_secrets(path: Path) -> dict[str, str | dict[str, str]]:
    """The secrets in ``path``: ``{"name": "value"}``, or ``{"https://*.site": {"name": "value"}}`` for a
    value scoped to a site.

    Raises:
        UserError: the file is missing, not JSON, or not such an object.
    """
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise UserError(f"--secrets: cannot read {path} ({exc.strerror})") from exc
    except json.JSONDecodeError as exc:
        raise UserError(
            f'--secrets: {path} is not JSON (line {exc.lineno}); write {{"name": "value"}}'
        ) from exc
    if not isinstance(data, dict) or not all(_secret_entry(v) for v in data.values()):
        raise UserError(
            f'--secrets: {path} must hold one object: {{"name": "value", ...}} or '
            '{"https://*.site.example": {"name": "value"}}'
        )
    return data


def _secret_entry(value: object) -> bool:
    if isinstance(value, str):
        return True
    return isinstance(value, dict) and all(
        isinstance(k, str) and isinstance(v, str) for k, v in value.items()
    )


def _main(args: argparse.Namespace) -> int:
    from browser_agent.mcp import McpBrowserServer, McpServerConfig  # the optional extra, checked here

    browser = BrowserConfig(
        headless=not args.headed,
        cdp_url=args.cdp_url,
        block_external_network=args.block_external_network,
        allowed_domains=tuple(args.allowed_domain) if args.allowed_domain else None,
    )
    config = McpServerConfig(
        browser=browser,
        secrets=load_secrets(args.secrets) if args.secrets else {},
        allowed_files=tuple(args.allowed_file or ()),
        step_timeout_s=args.step_timeout,
        max_sessions=args.max_sessions,
    )
    server = McpBrowserServer(load_controller(args.actions) if args.actions else Controller(), config)
    if args.transport == "http":
        run_interruptible(server.serve_http(args.host, args.port))
    else:
        run_interruptible(server.serve_stdio())
    return 0
