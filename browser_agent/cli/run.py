"""``browser-agent run "TASK" --model PROVIDER:NAME``: run the agent live."""

from __future__ import annotations

import argparse
import asyncio
from pathlib import Path
from typing import Any

from browser_agent.agent import Agent, AgentHooks, AgentSettings
from browser_agent.agent.reporter import ConsoleReporter
from browser_agent.browser import BrowserConfig
from browser_agent.cli.models import load_chat_model

__all__ = ["add_parser"]


def add_parser(subparsers: Any) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "run", help="run the agent on a task with a model"
    )
    parser.add_argument("task", help="what to do, in plain words")
    parser.add_argument("--model", required=True, metavar="PROVIDER:NAME", help="e.g. openai:gpt-4o")
    parser.add_argument("--max-steps", type=int, default=30)
    parser.add_argument(
        "--save", type=Path, help="save the history here (replay it with `browser-agent replay`)"
    )
    parser.add_argument("--vision", action="store_true", help="send screenshots to the model")
    parser.add_argument("--headed", action="store_true", help="show the browser window")
    parser.set_defaults(func=_main)


def _main(args: argparse.Namespace) -> int:
    reporter = ConsoleReporter()
    agent = Agent(
        args.task,
        load_chat_model(args.model),
        browser=BrowserConfig(headless=not args.headed),
        settings=AgentSettings(use_vision=args.vision, save_history_path=args.save),
        hooks=AgentHooks(on_step_end=lambda _agent, step: reporter.step(step)),
    )
    history = asyncio.run(agent.run(max_steps=args.max_steps))
    reporter.run_summary(history)
    return 0 if history.is_successful() else 1
