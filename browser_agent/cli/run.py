"""``browser-agent run "TASK" --model PROVIDER:NAME``: run the agent live, with progress as it goes.

Exit codes: 0 the task succeeded; 1 it ended without success (done with success=false, max steps,
max failures); 2 a mistake the user can fix (said in one line); 130 interrupted.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from browser_agent.agent import DEFAULT_MAX_STEPS, Agent, AgentSettings
from browser_agent.browser import BrowserConfig
from browser_agent.cli.models import load_chat_model
from browser_agent.cli.options import add_secret_options, import_model, load_secrets, tool_calling_methods
from browser_agent.errors import AgentRunError, UserError
from browser_agent.extras import require
from browser_agent.interrupts import run_interruptible
from browser_agent.output import save_gif, save_report
from browser_agent.output.reporter import ConsoleReporter, Mode
from browser_agent.record import AgentHistory

__all__ = ["add_parser"]


def add_parser(subparsers: Any) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "run", help="run the agent on a task with a model"
    )
    parser.add_argument("task", help="what to do, in plain words")
    model = parser.add_argument_group("model")
    model.add_argument(
        "--model", required=True, metavar="PROVIDER:NAME", help="e.g. openai:gpt-4o, ollama:qwen3"
    )
    model.add_argument(
        "--base-url", metavar="URL", help="the provider's server (a local OpenAI-compatible one)"
    )
    model.add_argument("--api-key-env", metavar="VAR", help="read the API key from this environment variable")
    model.add_argument("--tool-calling-method", choices=tool_calling_methods(), default="auto")
    model.add_argument(
        "--planner-model", metavar="PROVIDER:NAME", help="a second model that plans every 3 steps"
    )
    model.add_argument("--vision", action="store_true", help="send screenshots with the element marks drawn")
    browser = parser.add_argument_group("browser")
    browser.add_argument("--start-url", metavar="URL", help="open this page before the first step")
    browser.add_argument("--cdp-url", metavar="URL", help="drive a Chromium already running (DevTools URL)")
    browser.add_argument("--ws-endpoint", metavar="URL", help="drive a Playwright server (ws://...)")
    browser.add_argument(
        "--allowed-domain",
        action="append",
        default=[],
        metavar="PATTERN",
        help="keep every page on these sites, e.g. example.com or http://127.0.0.1:* (repeatable)",
    )
    browser.add_argument("--headed", action="store_true", help="show the browser window")
    add_secret_options(parser)
    run = parser.add_argument_group("run and output")
    run.add_argument("--max-steps", type=int, default=DEFAULT_MAX_STEPS)
    run.add_argument("--max-failures", type=int, default=3, help="consecutive failed steps that end the run")
    model.add_argument(
        "--provider-attempts",
        type=int,
        default=4,
        metavar="N",
        help="calls per request when the provider fails",
    )
    run.add_argument("--output-schema", metavar="MODULE:MODEL", help="done answers with this pydantic model")
    run.add_argument(
        "--save", type=Path, help="save the history here (replay it with `browser-agent replay`)"
    )
    run.add_argument("--report", type=Path, metavar="FILE", help="write an HTML report of the run")
    run.add_argument("--gif", type=Path, metavar="FILE", help="write an animated GIF of the run")
    shown = run.add_mutually_exclusive_group()
    shown.add_argument("--quiet", action="store_true", help="print only the result")
    shown.add_argument(
        "--json", action="store_true", help="print one JSON line per step, then a summary line"
    )
    parser.set_defaults(func=_main)


def _main(args: argparse.Namespace) -> int:
    for flag in ("max_steps", "max_failures", "provider_attempts"):
        if getattr(args, flag) < 1:
            raise UserError(f"--{flag.replace('_', '-')} {getattr(args, flag)}: give at least 1.")
    if args.gif:
        require("PIL.Image", "gif", "--gif")  # before any token is spent
    mode: Mode = "json" if args.json else "quiet" if args.quiet else "text"
    reporter = ConsoleReporter(mode=mode)
    agent = _agent(args, reporter)
    try:
        history = run_interruptible(agent.run(max_steps=args.max_steps))
    except AgentRunError as exc:
        _keep(args, exc.history or agent.history)
        return _failed(exc, agent.history)
    _keep(args, history)
    if args.output_schema and history.is_done() and not args.json:
        output = history.structured_output()
        print(json.dumps(output.model_dump(mode="json") if output else None, ensure_ascii=False))
    return 0 if history.is_successful() else 1


def _agent(args: argparse.Namespace, reporter: ConsoleReporter) -> Agent:
    options = {"base_url": args.base_url, "api_key_env": args.api_key_env}
    output_model: type[BaseModel] | None = import_model(args.output_schema) if args.output_schema else None
    settings = AgentSettings(
        use_vision=args.vision,
        record_screenshots=bool(args.report or args.gif),
        tool_calling_method=args.tool_calling_method,
        planner_llm=load_chat_model(args.planner_model, **options) if args.planner_model else None,
        initial_actions=[{"action": "go_to_url", "url": args.start_url}] if args.start_url else [],
        allowed_domains=tuple(args.allowed_domain) or None,
        save_history_path=args.save,
        max_failures=args.max_failures,
        retry_attempts=args.provider_attempts,
    )
    browser = BrowserConfig(headless=not args.headed, cdp_url=args.cdp_url, ws_endpoint=args.ws_endpoint)
    return Agent(
        args.task,
        load_chat_model(args.model, **options),
        browser=browser,
        settings=settings,
        sensitive_data=load_secrets(args.secrets, args.secret),
        hooks=reporter.hooks(),
        output_model=output_model,
    )


def _keep(args: argparse.Namespace, history: AgentHistory) -> None:
    """Write what was asked for, also after a failed run (that is when a report helps most)."""
    if args.save:
        history.save(args.save)
    if args.report:
        save_report(history, args.report)
        print(f"report: {args.report}", file=sys.stderr)
    if args.gif and any(s.screenshot for s in history.steps):
        save_gif(history, args.gif)
        print(f"gif: {args.gif}", file=sys.stderr)


def _failed(exc: AgentRunError, history: AgentHistory) -> int:
    """Exit 2 with one line when no step ever reached the model (a provider that cannot be used)."""
    if history.steps and all(s.model_output is None and s.error for s in history.steps):
        reason = (history.steps[-1].error or "").splitlines()[0]
        print(f"browser-agent run: the model could not be used: {reason}", file=sys.stderr)
        return 2
    print(f"browser-agent run: {exc}", file=sys.stderr)
    return 1
