"""``browser-agent run "TASK" --model PROVIDER:NAME``: run the agent live, with progress as it goes.

Exit codes: 0 the task succeeded; 1 it ended without success (done with success=false, max steps,
max failures); 2 a mistake the user can fix, such as a provider that cannot be used (said in one line);
130 interrupted (Ctrl-C; 143 SIGTERM, 129 SIGHUP).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from browser_agent.cli.options import (
    add_browser_options,
    add_fence_options,
    add_login_options,
    add_model_options,
    add_secret_options,
    allowed_domains,
    browser_config,
    check_login,
    command,
    model_options,
)
from browser_agent.cli.output_schema import import_model
from browser_agent.cli.secret_files import load_secrets
from browser_agent.defaults import DEFAULT_MAX_STEPS
from browser_agent.errors import AgentRunError, ProviderUnreachableError, UserError, first_line

if TYPE_CHECKING:
    from langchain_core.language_models import BaseChatModel

    from browser_agent.agent import Agent
    from browser_agent.output import ConsoleReporter
    from browser_agent.record import AgentHistory

__all__ = ["add_parser"]


def add_parser(subparsers: Any) -> None:
    parser = command(subparsers, "run", help="run the agent on a task with a model")
    parser.add_argument("task", help="what to do, in plain words (a web address in it is opened first)")
    model = add_model_options(parser, required=True, step_timeout=True)
    model.add_argument("--vision", action="store_true", help="send screenshots with the element marks drawn")
    model.add_argument(
        "--provider-attempts",
        type=int,
        default=4,
        metavar="N",
        help="calls per request when the provider is busy (rate limit, 5xx, timeout)",
    )
    browser = add_browser_options(parser)
    browser.add_argument("--start-url", metavar="URL", help="open this page before the first step")
    add_login_options(browser, save=True)
    add_fence_options(parser)
    add_secret_options(parser)
    run = parser.add_argument_group("run and output")
    run.add_argument(
        "--max-steps", type=int, default=DEFAULT_MAX_STEPS, metavar="N", help="steps before the run gives up"
    )
    run.add_argument(
        "--max-failures", type=int, default=3, metavar="N", help="consecutive failed steps that end the run"
    )
    run.add_argument("--output-schema", metavar="MODULE:MODEL", help="done answers with this pydantic model")
    run.add_argument(
        "--save",
        type=Path,
        metavar="FILE",
        help="save the history here (replay it with `browser-agent replay`)",
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
    from browser_agent.extras import require

    for flag in ("max_steps", "max_failures", "provider_attempts"):
        if getattr(args, flag) < 1:
            raise UserError(f"--{flag.replace('_', '-')} {getattr(args, flag)}: give at least 1.")
    if args.gif:
        require("PIL.Image", "gif", "--gif")  # before any token is spent
    _check_start_url(args.start_url)
    check_login(args)
    # First the model: a dead server, a missing package or key is said before the agent and browser load
    llm = model_options(args).load()
    from browser_agent.interrupts import run_interruptible
    from browser_agent.output.reporter import ConsoleReporter, Mode

    mode: Mode = "json" if args.json else "quiet" if args.quiet else "text"
    reporter = ConsoleReporter(mode=mode)
    agent = _agent(args, reporter, llm)
    try:
        history = run_interruptible(_run(agent, args))
    except AgentRunError as exc:
        _keep(args, exc.history or agent.history)
        return _failed(exc, agent.history)
    _keep(args, history)
    if args.output_schema and history.is_done() and not args.json:
        output = history.structured_output()
        print(json.dumps(output.model_dump(mode="json") if output else None, ensure_ascii=False))
    return 0 if history.is_successful() else 1


def _check_start_url(url: str | None) -> None:
    """Raises: UserError: ``--start-url`` is not a valid address (said before the model loads)."""
    if not url:
        return
    from browser_agent.browser.addresses import address_fault

    fault = address_fault(url)
    if fault is not None:
        raise UserError(f"--start-url {url!r} is not a valid address: {fault}.")


async def _run(agent: Agent, args: argparse.Namespace) -> AgentHistory:
    """The run; with ``--save-login``, on a session kept open past its end to save the login then."""
    if args.save_login is None:
        return await agent.run(max_steps=args.max_steps)
    session = agent.session
    assert session is not None, "_agent gives the agent its own session when a login is to be saved"
    try:
        return await agent.run(max_steps=args.max_steps)  # the agent starts it, under the whole fence
    finally:
        try:
            if session.started:
                saved = await session.save_storage_state(args.save_login)
                print(f"login: {saved}", file=sys.stderr)
        finally:
            await session.close()


def _agent(args: argparse.Namespace, reporter: ConsoleReporter, llm: BaseChatModel) -> Agent:
    from browser_agent.agent import Agent, AgentSettings
    from browser_agent.browser import BrowserSession

    models = model_options(args)
    settings = AgentSettings(
        **models.settings(),
        use_vision=args.vision,
        record_screenshots=bool(args.report or args.gif),
        initial_actions=[{"action": "go_to_url", "url": args.start_url}] if args.start_url else [],
        allowed_domains=allowed_domains(args),
        save_history_path=args.save,
        max_failures=args.max_failures,
        retry_attempts=args.provider_attempts,
    )
    config = browser_config(args)
    return Agent(
        args.task,
        llm,
        browser=BrowserSession(config) if args.save_login else config,
        settings=settings,
        sensitive_data=load_secrets(args.secrets, args.secret),
        hooks=reporter.hooks(),
        output_model=import_model(args.output_schema) if args.output_schema else None,
    )


def _keep(args: argparse.Namespace, history: AgentHistory) -> None:
    """Write what was asked for, also after a failed run (that is when a report helps most)."""
    if args.save:
        history.save(args.save)
    if args.report or args.gif:
        from browser_agent.output import save_gif, save_report
    if args.report:
        save_report(history, args.report)
        print(f"report: {args.report}", file=sys.stderr)
    if args.gif and any(s.screenshot for s in history.steps):
        save_gif(history, args.gif)
        print(f"gif: {args.gif}", file=sys.stderr)


def _failed(exc: AgentRunError, history: AgentHistory) -> int:
    """Exit 2 with one line when the provider cannot be used: its server is not there, or no step's
    model call ever succeeded (step 0, the task's own address opened without the model, not counted)."""
    if isinstance(exc.__cause__, ProviderUnreachableError):
        print(f"browser-agent run: {exc.__cause__}", file=sys.stderr)
        return 2
    asked = [s for s in history.steps if s.step > 0]
    if asked and all(s.model_output is None and s.error for s in asked):
        reason = first_line(asked[-1].error)
        print(f"browser-agent run: the model could not be used: {reason}", file=sys.stderr)
        return 2
    print(f"browser-agent run: {exc}", file=sys.stderr)
    return 1
