"""Replay a recorded run without the model: re-locate, act, abstain; hand ambiguous steps to an llm."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import BaseMessage
from rich.console import Console

from browser_agent import (
    Agent,
    AgentHistory,
    BrowserSession,
    Controller,
    ReplayOptions,
    ReplayReport,
    replay,
)
from browser_agent.agent.conversation import page_of_state
from browser_agent.cli import main as cli_main
from browser_agent.cli import main_async
from browser_agent.demo.walkthrough import replay_demo
from browser_agent.testing import ScriptedChatModel, find_index


def _brain(goal: str) -> dict[str, str]:
    return {"evaluation_previous_goal": "Success", "memory": goal, "next_goal": goal}


def _page(messages: list[BaseMessage]) -> str:
    text = next(str(m.content) for m in reversed(messages) if "Current URL:" in str(m.content))
    return page_of_state(text)


async def _record(session: BrowserSession, url: str, tmp_path: Path) -> Path:
    """Record: open the page, search for 'Q1', archive the Q1 report."""

    def policy(messages: list[BaseMessage]) -> dict[str, Any]:
        page = _page(messages)
        if "archived Q1 report" in page:
            return {
                "current_state": _brain("report"),
                "action": [{"action": "done", "text": "archived", "success": True}],
            }
        if "Archive" in page:
            return {
                "current_state": _brain("archive Q1"),
                "action": [
                    {"action": "input_text", "index": find_index(page, "input", "Search"), "text": "Q1"},
                    {"action": "click_element", "index": find_index(page, "button", "Archive Q1")},
                ],
            }
        return {"current_state": _brain("open"), "action": [{"action": "go_to_url", "url": url}]}

    history = await Agent("Archive the Q1 report", ScriptedChatModel(policy=policy), browser=session).run(5)
    assert history.is_done()
    return history.save(tmp_path / "run.json")


async def _replay_on(
    session: BrowserSession, server, tmp_path: Path, variant: str, **options: Any
) -> ReplayReport:
    """Record on the base page, then replay on ``variant`` (the recorded URL substituted)."""
    base = server.url("replay/reports.html?v=base")
    path = await _record(session, base, tmp_path)
    controller = Controller()
    subs = {base: server.url(f"replay/reports.html?v={variant}")} | options.pop("substitutions", {})
    opts = ReplayOptions(substitutions=subs, **({"retries": 1, "retry_wait_s": 0.05} | options))
    return await replay(AgentHistory.load(path, controller), session, controller, opts)


async def test_replay_relocates_after_the_layout_shifted(
    session: BrowserSession, server, tmp_path: Path
) -> None:
    report = await _replay_on(session, server, tmp_path, "shift")
    assert report.ok, report.stopped
    assert [a.status for a in report.actions] == ["done", "relocated", "relocated", "done"]
    assert await session.page.text_content("#log") == "archived Q1 report (row 2)"
    assert await session.page.input_value("#q") == "Q1"


async def test_near_duplicate_added_elsewhere_keeps_the_original(
    session: BrowserSession, server, tmp_path: Path
) -> None:
    report = await _replay_on(session, server, tmp_path, "dup")
    assert report.ok
    assert await session.page.text_content("#log") == "archived Q1 report (row 0)"


async def test_substituted_value_is_typed(session: BrowserSession, server, tmp_path: Path) -> None:
    report = await _replay_on(session, server, tmp_path, "base", substitutions={"Q1": "Q3 numbers"})
    assert report.ok
    assert await session.page.input_value("#q") == "Q3 numbers"


async def test_ambiguous_match_stops_without_clicking(
    session: BrowserSession, server, tmp_path: Path
) -> None:
    report = await _replay_on(session, server, tmp_path, "twin")
    assert report.stopped is not None and "ambiguous" in report.stopped
    assert report.actions[-1].status == "failed"
    assert await session.page.text_content("#log") == "nothing archived", "no guessed click"


async def test_ambiguous_step_is_handed_to_the_llm(session: BrowserSession, server, tmp_path: Path) -> None:
    def rescuer(messages: list[BaseMessage]) -> dict[str, Any]:
        text = str(messages[-1].content)
        assert "ambiguous" in text and "Recorded action" in text
        index = find_index(text.split("Page:", 1)[1], "button", "Archive Q1")
        return {
            "current_state": _brain("pick the first"),
            "action": [{"action": "click_element", "index": index}],
        }

    llm = ScriptedChatModel(policy=rescuer)
    report = await _replay_on(session, server, tmp_path, "twin", llm=llm, retries=0)
    assert report.ok, report.stopped
    assert [a.status for a in report.actions][2] == "handed_to_llm"
    assert len(llm.calls) == 1
    assert await session.page.text_content("#log") == "archived Q1 report (row 2)"


async def test_removed_target_is_skipped_or_stops(session: BrowserSession, server, tmp_path: Path) -> None:
    report = await _replay_on(session, server, tmp_path, "gone", on_failure="skip")
    assert [a.status for a in report.actions][2] == "skipped", report.actions[2].message
    assert await session.page.text_content("#log") == "nothing archived"


async def test_demo_replays_the_recorded_purchase(tmp_path: Path) -> None:
    out = io.StringIO()
    report = await replay_demo(seed=11, console=Console(file=out, width=200))
    assert report.ok, report.stopped
    assert sum(a.status == "relocated" for a in report.actions) >= 8
    assert "Order #" in (report.final_result() or "")
    printed = out.getvalue()  # the recorded answer is not passed off as this run's result
    assert "Recorded answer (what the run said when it was made): Order #" in printed, printed
    assert "The shop says now: Order #" in printed and "counted afresh" in printed, printed


@pytest.mark.usefixtures("driver")
async def test_cli_replay_runs_a_saved_history(server, tmp_path: Path) -> None:
    from browser_agent.demo.walkthrough import RECORDED_RUN

    assert await main_async(["demo", "--seed", "5", "--history", str(RECORDED_RUN)]) == 0


@pytest.mark.parametrize(
    ("content", "says"),
    [
        ("{not json", "is not JSON"),
        ("\xff\xfe garbage", "is not UTF-8 text (byte 0)"),
        ('{"version": 99, "task": "x", "steps": []}', "upgrade browser_agent"),
        ('{"version": "x", "steps": []}', "not a file of ours"),
        ('{"name": "other-tool", "items": [1, 2]}', "is not a browser_agent history"),
        ('{"version": 2, "steps": [{"no": "step"}]}', "is not a valid history"),
        ("[" * 50_000 + "]" * 50_000, "nests 50000 levels deep"),
        (
            '{"version": 2, "steps": [{"step": 1, "model_output": '
            + '{"a":' * 3000
            + "1"
            + "}" * 3000
            + "}]}",
            "nests 3003 levels deep",
        ),
    ],
)
def test_cli_reports_a_bad_history_file_in_one_line_with_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str, says: str
) -> None:
    bad = tmp_path / "bad.json"
    bad.write_bytes(content.encode("latin-1") if content.startswith("\xff") else content.encode())
    assert cli_main(["replay", str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"browser-agent replay: history {bad}") and says in err
    assert err.count("\n") == 1 and "Traceback" not in err


def _in_card(page: str, product: str, label: str) -> int:
    """The index of the ``label`` button that follows ``product`` in the rendered page."""
    lines = page.splitlines()
    start = next(i for i, line in enumerate(lines) if product in line)
    return next(find_index(line, "button", label) for line in lines[start:] if label in line)


async def _replay_twins(session: BrowserSession, server, tmp_path: Path, variant: str) -> ReplayReport:
    """Record on cards.html: heart Oak Desk, then add Red Cap to the cart; replay on ``variant``.

    Each card's two buttons are twins of every other card's; only the card around them tells them apart.
    """
    base = server.url("replay/cards.html?v=base")

    def policy(messages: list[BaseMessage]) -> dict[str, Any]:
        page = _page(messages)
        if "added Red Cap" in page:
            action: dict[str, Any] = {"action": "done", "text": "done", "success": True}
        elif "wished Oak Desk" in page:
            action = {"action": "click_element", "index": _in_card(page, "Red Cap", "Add to cart")}
        elif "nothing yet" in page:
            action = {"action": "click_element", "index": _in_card(page, "Oak Desk", "Wishlist")}
        else:
            action = {"action": "go_to_url", "url": base}
        return {"current_state": _brain("shop"), "action": [action]}

    task = "Heart the Oak Desk, add the Red Cap"
    history = await Agent(task, ScriptedChatModel(policy=policy), browser=session).run(6)
    assert history.is_done()
    assert await session.page.text_content("#log") == "wished Oak Desk; added Red Cap"
    controller = Controller()
    path = history.save(tmp_path / "cards.json")
    subs = {base: server.url(f"replay/cards.html?v={variant}")}
    opts = ReplayOptions(substitutions=subs, retries=0, on_failure="skip")
    return await replay(AgentHistory.load(path, controller), session, controller, opts)


async def test_twin_buttons_are_found_in_their_own_card_after_it_moved(
    session: BrowserSession, server, tmp_path: Path
) -> None:
    report = await _replay_twins(session, server, tmp_path, "moved")
    assert [a.status for a in report.actions] == ["done", "relocated", "relocated", "done"], report.actions
    assert await session.page.text_content("#log") == "wished Oak Desk; added Red Cap"


async def test_twin_button_gone_from_its_card_is_not_replaced_by_a_neighbour(
    session: BrowserSession, server, tmp_path: Path
) -> None:
    report = await _replay_twins(session, server, tmp_path, "gone")
    assert [a.status for a in report.actions] == ["done", "skipped", "relocated", "done"], report.actions
    assert await session.page.text_content("#log") == "added Red Cap"
