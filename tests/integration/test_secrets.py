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
from browser_agent.agent.conversation import page_of_state
from browser_agent.dom import extract_snapshot, render
from browser_agent.llm import message_text
from browser_agent.output.reporter import ConsoleReporter
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


# -- a page that echoes secrets the ways an attacker page would ----------------------------------------

ECHOED = {"pw": 'Zq~7 "w\'x" (Kp!)', "code": "Kp9-xw7.Zq"}  # code is name-shaped: <secret>Kp9-xw7.Zq</secret>


def all_forms(value: str) -> set[str]:
    """The value whole in every form a browser, a page or a formatter writes it in, and every run of four
    or more of its characters, as is or lower-cased (what a cut or normalised copy would keep)."""
    forms = (
        encodings(value)
        | {
            quote_plus(value, safe="*").replace("~", "%7E"),  # a form GET
            quote(value, safe="!'()*"),  # encodeURIComponent
            repr(value)[1:-1],
        }
    )
    forms |= {re.sub("%[0-9A-F]{2}", lambda m: m.group().lower(), f) for f in forms}
    runs = {value[i:j] for i in range(len(value)) for j in range(i + 4, len(value) + 1)}
    return forms | runs | {run.lower() for run in runs}  # fingerprints keep labels lower-cased


def echo_policy(start: str) -> Any:
    clicked: list[bool] = []

    def policy(messages: list[BaseMessage]) -> dict[str, Any]:
        state = _state(messages)
        page = page_of_state(state)
        url = state.split("Current URL:", 1)[1].split("\n", 1)[0]
        brain = {"evaluation_previous_goal": "Unknown", "memory": "sending the code", "next_goal": "go"}
        if "echo_form" in url and 'value="' not in page:
            actions = [
                {
                    "action": "input_text",
                    "index": find_index(page, "input", "Code"),
                    "text": "<secret>code</secret>",
                },
                {
                    "action": "input_text",
                    "index": find_index(page, "input", "Secret"),
                    "text": "<secret>pw</secret>",
                },
                {
                    "action": "input_text",
                    "index": find_index(page, "input", "Notes"),
                    "text": "n" * 50 + " <secret>pw</secret> end",  # the value straddles the 60-character cut
                },
            ]
            return {"current_state": brain, "action": actions}
        if "echo_form" in url:
            return {
                "current_state": brain,
                "action": [{"action": "click_element", "index": find_index(page, "button", "Send")}],
            }
        if "echo.html" in url and not clicked:  # its fingerprint keeps the button's text, lower-cased
            clicked.append(True)
            return {
                "current_state": brain,
                "action": [{"action": "click_element", "index": find_index(page, "button", "Again")}],
            }
        if "echo.html" in url:
            return {"current_state": brain, "action": [{"action": "done", "text": "Sent.", "success": True}]}
        return {"current_state": brain, "action": [{"action": "go_to_url", "url": start}]}

    return policy


async def test_a_page_echoing_secrets_cut_encoded_or_in_a_placeholder_leaks_them_nowhere(
    session: BrowserSession, server: LocalServer, tmp_path: Path
) -> None:
    log_file = tmp_path / "run.log"
    handler = logging.FileHandler(log_file)
    handler.setLevel(logging.DEBUG)
    logger = logging.getLogger("browser_agent")
    logger.addHandler(handler)
    logger.setLevel(logging.DEBUG)
    llm = ScriptedChatModel(policy=echo_policy(server.url("safety/echo_form.html")))
    settings = AgentSettings(
        save_conversation_path=tmp_path / "conversation", save_history_path=tmp_path / "h.json"
    )
    agent = Agent(
        "Send <secret>code</secret>", llm, browser=session, settings=settings, sensitive_data=ECHOED
    )
    try:
        history = await agent.run(max_steps=7)
    finally:
        logger.removeHandler(handler)
        handler.close()

    # The page really showed the values every way: the URL of a form GET (%7E), cut lines, a link target,
    # encodeURIComponent, a placeholder around the code, a dialog.
    assert history.is_successful()
    pw, code = ECHOED["pw"], ECHOED["code"]
    assert "%7E" in session.page.url and pw in await session.page.title()
    shown = await session.page.locator("body").inner_text()
    assert pw in shown and quote(pw, safe="!'()*") in shown and f"<secret>{code}</secret>" in shown
    prompts = ["\n".join(message_text(m) for m in call.messages) for call in llm.calls]
    filled, echoed = prompts[2], prompts[3]  # the form with its values typed, then the page it sent to
    assert 'value="nnnnnnnnnn' in filled and "Typed '<secret>pw</secret>' into element" in filled
    assert "Your code is <secret><secret>code</secret></secret>" in echoed
    assert "Encoded: <secret>pw</secret>" in echoed and "a alert dialog said 'Saved: www" in echoed
    assert "again as <secret>pw</secret>" in (tmp_path / "h.json").read_text()  # a lower-cased label

    artifacts = {
        "history file": (tmp_path / "h.json").read_text(),
        "log file": log_file.read_text(),
    }
    artifacts |= {f"conversation {p.name}": p.read_text() for p in (tmp_path / "conversation").iterdir()}
    artifacts |= {f"prompt {n}": text for n, text in enumerate(prompts)}
    for where, text in artifacts.items():
        for name, value in ECHOED.items():
            for form in all_forms(value):
                assert form not in text, f"{where} holds secret {name!r} as {form!r}"


async def test_a_capture_with_a_redactor_reads_a_page_as_one_without(
    session: BrowserSession, server: LocalServer
) -> None:
    """Uncut, then cut after the redactor, the texts are the same as when the walk cuts them; which texts
    merge and where the text budget ends are the same too."""
    shown = []
    for page in (
        "dom/long.html",
        "dom/long_values.html",
        "dom/text.html",
        "dom/native.html",
        "dom/aria.html",
        "agent/links.html",
    ):
        await session.navigate(server.url(page))
        cut_here = await extract_snapshot(session.page)
        cut_after = await extract_snapshot(session.page, redact=lambda text: text)
        assert render(cut_after) == render(cut_here), page
        assert cut_after.items == cut_here.items, page
        shown.append(render(cut_here))
    assert any("…" in text for text in shown)  # some texts were long enough to be cut
