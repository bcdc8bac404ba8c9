"""Secrets in no artifact: a whole run types secrets into a password field and a plain field, the page
echoes them in its text, its title and a GET URL; every file, log line, console line and prompt the run
produced is then scanned for every secret in every encoding."""

from __future__ import annotations

import html
import io
import json
import logging
import re
from pathlib import Path
from typing import Any
from urllib.parse import quote, quote_plus

from langchain_core.messages import BaseMessage
from rich.console import Console

from browser_agent import (
    Agent,
    AgentHistory,
    AgentHooks,
    AgentSettings,
    BrowserSession,
    Controller,
    ReplayOptions,
    replay,
)
from browser_agent.agent.messages import page_of_state
from browser_agent.agent.reporter import ConsoleReporter
from browser_agent.browser.masking import _ATTRIBUTE, _MARK_JS
from browser_agent.llm import message_text
from browser_agent.testing import ScriptedChatModel, find_index
from tests.support.server import LocalServer

SECRETS = {"user": "ada-lovelace-77", "pw": 'pa$$ wörd&<x>"q'}


def encodings(value: str) -> set[str]:
    forms = {
        value,
        quote(value, safe=""),
        quote(value),
        quote_plus(value),
        html.escape(value),
        html.escape(value, quote=False),
        json.dumps(value)[1:-1],
        json.dumps(value, ensure_ascii=False)[1:-1],
        html.escape(quote_plus(value)),
        quote_plus(value, encoding="cp1252"),  # a form on a page without a declared charset
        quote(value, safe="", encoding="cp1252"),
    }
    return forms | {f.lower() for f in forms if "%" in f}


def assert_clean(where: str, text: str) -> None:
    for name, value in SECRETS.items():
        for form in encodings(value):
            assert form not in text, f"{where} holds secret {name!r} as {form!r}"


def _state(messages: list[BaseMessage]) -> str:
    return next(message_text(m) for m in reversed(messages) if "Current URL:" in message_text(m))


def login_policy(start: str) -> Any:
    def policy(messages: list[BaseMessage]) -> dict[str, Any]:
        state = _state(messages)
        page = page_of_state(state)
        brain = {
            "evaluation_previous_goal": "Unknown",
            "memory": "pw is <secret>pw</secret>",
            "next_goal": "go",
        }
        if "login_get" in state.split("Current URL:", 1)[1].split("\n", 1)[0]:
            actions = [
                {
                    "action": "input_text",
                    "index": find_index(page, "input", "Username"),
                    "text": "<secret>user</secret>",
                },
                {
                    "action": "input_text",
                    "index": find_index(page, "input", "Password"),
                    "text": "<secret>pw</secret>",
                },
                {
                    "action": "input_text",
                    "index": find_index(page, "input", "Notes"),
                    "text": "<secret>pw</secret>!",
                },
                {"action": "click_element", "index": find_index(page, "button", "Sign in")},
            ]
            return {"current_state": brain, "action": actions}
        if "welcome" in state:
            echo = re.search(r"Your password is .*", page)
            text = f"Signed in. Typed <secret>pw</secret>; page said: {echo.group(0) if echo else '?'}"
            return {"current_state": brain, "action": [{"action": "done", "text": text, "success": True}]}
        return {"current_state": brain, "action": [{"action": "go_to_url", "url": start}]}

    return policy


async def test_no_artifact_of_a_run_holds_a_secret_in_any_encoding(
    session: BrowserSession, server: LocalServer, tmp_path: Path
) -> None:
    log_file = tmp_path / "run.log"
    handler = logging.FileHandler(log_file)
    handler.setLevel(logging.DEBUG)
    logger = logging.getLogger("browser_agent")
    logger.addHandler(handler)
    logger.setLevel(logging.DEBUG)
    console_out = io.StringIO()
    reporter = ConsoleReporter(Console(file=console_out, width=300))
    llm = ScriptedChatModel(policy=login_policy(server.url("safety/login_get.html")))
    planner = ScriptedChatModel(policy=lambda _m: "Plan: sign in with the placeholders, then report.")
    settings = AgentSettings(
        use_vision=True,
        save_conversation_path=tmp_path / "conversation",
        save_history_path=tmp_path / "history.json",
        planner_llm=planner,
        planner_interval=1,
    )
    agent = Agent(
        "Sign in as <secret>user</secret> with <secret>pw</secret> and report what the page says",
        llm,
        browser=session,
        settings=settings,
        sensitive_data=SECRETS,
        hooks=AgentHooks(on_step_end=lambda _a, step: reporter.step(step)),
    )
    try:
        history = await agent.run(max_steps=5)
    finally:
        logger.removeHandler(handler)
        handler.close()
    reporter.run_summary(history)

    # The secrets really were used: the page got them, in its URL, title and text.
    assert history.is_successful()
    assert quote_plus(SECRETS["pw"]) in session.page.url
    assert SECRETS["pw"] in await session.page.title()
    assert "Your password is <secret>pw</secret>" in (history.final_result() or "")
    assert "<secret>pw</secret>" in history.steps[-1].url and "<secret>pw</secret>" in history.steps[-1].title

    artifacts = {
        "history file": (tmp_path / "history.json").read_text(),
        "history in memory": history.model_dump_json(),
        "log file": log_file.read_text(),
        "console": console_out.getvalue(),
    }
    artifacts |= {f"conversation {p.name}": p.read_text() for p in (tmp_path / "conversation").iterdir()}
    for number, call in enumerate(llm.calls + planner.calls):
        artifacts[f"prompt {number}"] = "\n".join(message_text(m) for m in call.messages)
    assert len(artifacts) > 8
    for where, text in artifacts.items():
        assert_clean(where, text)


async def test_screenshots_black_out_fields_and_text_that_show_a_secret(
    session: BrowserSession, server: LocalServer
) -> None:
    pw = SECRETS["pw"]
    await session.navigate(server.url(f"safety/welcome.html?user=ada&pw={quote_plus(pw)}&note=x"))
    marked = await session.page.evaluate(_MARK_JS, [_ATTRIBUTE, [pw]])
    assert marked == 2  # the echoed paragraph and the link showing it
    await session.page.evaluate(
        "attr => document.querySelectorAll('[' + attr + ']').forEach(e => e.removeAttribute(attr))",
        _ATTRIBUTE,
    )
    plain = await session.state(screenshot=True)
    masked = await session.state(screenshot=True, mask_values=[pw])
    assert plain.screenshot_b64 and masked.screenshot_b64 and plain.screenshot_b64 != masked.screenshot_b64
    assert await session.page.locator(f"[{_ATTRIBUTE}]").count() == 0  # the marks are gone again


async def test_replay_fills_secrets_from_its_options_and_never_types_a_placeholder(
    session: BrowserSession, server: LocalServer, tmp_path: Path
) -> None:
    llm = ScriptedChatModel(policy=login_policy(server.url("safety/login_get.html")))
    history = await Agent("Sign in", llm, browser=session, sensitive_data=SECRETS).run(max_steps=4)
    history.save(tmp_path / "run.json")
    controller = Controller()
    saved = AgentHistory.load(tmp_path / "run.json", controller)

    report = await replay(saved, session, controller, ReplayOptions(on_failure="stop"))
    assert not report.ok
    failed = next(a for a in report.actions if a.status == "failed")
    assert "<secret>user</secret> is not a secret of this run" in failed.message
    assert await session.page.locator("input[name=user]").input_value() == ""

    report = await replay(saved, session, controller, ReplayOptions(sensitive_data=SECRETS))
    assert report.ok, report.stopped
    assert SECRETS["pw"] in await session.page.title()
    assert_clean("replay report", repr(report.actions))
