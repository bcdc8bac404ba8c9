"""Runs that heal, in real Chromium on the demo shop renamed since the purchase was recorded: the plain
run stops where an element is gone, ``--heal`` hands that step to the model (a scripted one) and goes
on, the healed workflow (or history) is written beside the original and runs again without a model,
and ``workflow show --diff`` says what changed."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import BaseMessage
from playwright.async_api import Browser

from browser_agent import BrowserConfig, BrowserSession, ReplayOptions, Workflow, make_workflow, run_workflow
from browser_agent.cli import main_async
from browser_agent.cli.options import ModelOptions
from browser_agent.demo.site import DemoSite, Order
from browser_agent.demo.walkthrough import RECORDED_RUN
from browser_agent.playback import ReplayReport
from browser_agent.playback.rescue import LOOKS
from browser_agent.record import AgentHistory
from browser_agent.testing import ScriptedChatModel
from browser_agent.workflow.heal import healed_workflow
from tests.support.healer import healer

FENCE = ("http://127.0.0.1:*",)
BASKET = {"Add to cart": "Add to basket"}
NEW = {
    "product": "Oak cutting board",
    "quantity": "3",
    "full_name": "Grace Hopper",
    "email": "grace@example.org",
}


async def _run(
    workflow: Workflow, browser: Browser, site: DemoSite, inputs: dict[str, str], llm: Any = None
) -> ReplayReport:
    async with BrowserSession(BrowserConfig(allowed_domains=FENCE), browser=browser) as session:
        options = ReplayOptions(retries=0, llm=llm)
        return await run_workflow(workflow, session, {"url": site.url} | inputs, options=options)


async def test_a_renamed_button_stops_the_plain_run_heal_completes_it_and_the_healed_workflow_runs_alone(
    browser: Browser,
) -> None:
    workflow = make_workflow(AgentHistory.load(RECORDED_RUN))
    with DemoSite(seed=3, renames=BASKET) as site:
        plain = await _run(workflow, browser, site, NEW)
        assert plain.stopped is not None and "step 4" in plain.stopped and site.orders == []
        llm = healer(BASKET)
        healing = await _run(workflow, browser, site, NEW, llm)
        assert healing.ok, healing.stopped
        assert [o.product for o in site.orders] == ["Oak cutting board"] and len(llm.calls) == 1
        asked = str(llm.calls[0].messages[-1].content)
        assert "What the step is for: the run's task: " in asked and "Grace Hopper" in asked

    healed = healed_workflow(
        workflow, workflow.values({"url": site.url} | NEW), healing, "shop.workflow.json"
    )
    assert healed is not None and healed.healed is not None
    [change] = healed.healed.changes
    assert (change.step, change.element_before, change.element_after) == (
        4,
        "<button> 'add to cart'",
        "<button> 'add to basket'",
    )
    assert healed.inputs == workflow.inputs, "the values of the healed run did not become the recorded ones"
    with DemoSite(seed=41, renames=BASKET) as site:  # another layout of the renamed shop, and other values
        again = await _run(healed, browser, site, {"product": "Salt mill", "quantity": "1"})
    assert again.ok, again.stopped
    assert "handed_to_llm" not in [a.status for a in again.actions]
    assert site.orders == [
        Order(site.orders[0].number, "Salt mill", 1, "Ada Lovelace", "ada@example.com", "Express")
    ]


@pytest.mark.parametrize(
    "answer",
    [
        {"action": "click_element", "index": 9999},
        {"action": "go_to_url", "url": "http://evil.example/steal"},  # out of the fence: refused
        {"action": "scroll", "direction": "down"},  # looks, and looks, and never acts
    ],
    ids=["no-such-element", "outside-the-fence", "only-scrolls"],
)
async def test_a_step_the_model_cannot_do_or_is_refused_is_not_kept(
    browser: Browser, answer: dict[str, Any]
) -> None:
    def hostile(messages: list[BaseMessage]) -> dict[str, Any]:
        brain = {"evaluation_previous_goal": "Unknown", "memory": "-", "next_goal": "go"}
        return {"current_state": brain, "action": [answer]}

    workflow = make_workflow(AgentHistory.load(RECORDED_RUN))
    llm = ScriptedChatModel(policy=hostile)
    with DemoSite(seed=4, renames=BASKET) as site:
        report = await _run(workflow, browser, site, {}, llm)
    assert not report.ok and site.orders == []
    assert report.actions[-1].status == "failed"
    assert len(llm.calls) == (LOOKS if answer["action"] == "scroll" else 1)
    assert healed_workflow(workflow, workflow.values({"url": site.url}), report, "x.workflow.json") is None


@pytest.fixture
def scripted_model(monkeypatch: pytest.MonkeyPatch) -> None:
    """``--model`` loads the healer of the renamed shop (a scripted model stands in for a real one)."""
    monkeypatch.setattr(ModelOptions, "load", lambda self: healer(BASKET))


@pytest.mark.usefixtures("driver", "scripted_model")
@pytest.mark.timeout(240)
async def test_cli_heals_a_workflow_writes_it_beside_and_shows_the_diff(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    made = tmp_path / "shop.workflow.json"
    assert await main_async(["workflow", "make", str(RECORDED_RUN), "-o", str(made)]) == 0
    original = made.read_bytes()
    capsys.readouterr()
    with DemoSite(seed=8, renames=BASKET) as site:
        run = ["workflow", "run", str(made), "--input", f"url={site.url}", "--allowed-domain", FENCE[0]]
        assert await main_async(run) == 1, "the plain run stops at the renamed button"
        assert await main_async([*run, "--heal"]) == 2
        assert "--heal hands a step to a model: name one with --model" in capsys.readouterr().err
        assert await main_async([*run, "--heal", "--model", "openai:m", "--on-failure", "skip"]) == 2
        assert await main_async([*run, "--heal", "--model", "openai:m"]) == 0
        out = capsys.readouterr().out
        healed = tmp_path / "shop.workflow.healed.json"
        assert f"Healed 1 step(s); wrote {healed}." in out
        assert made.read_bytes() == original, "the original is never overwritten"
        assert await main_async(["workflow", "run", str(healed), "--input", f"url={site.url}"]) == 0
        assert len(site.orders) == 2, "the healed workflow ran without a model"

    capsys.readouterr()
    assert await main_async(["workflow", "show", str(healed)]) == 0
    assert "Healed from shop.workflow.json: steps 4 changed (--diff shows how)" in capsys.readouterr().out
    assert await main_async(["workflow", "show", str(healed), "--diff"]) == 0
    shown = capsys.readouterr().out.splitlines()
    assert shown == [
        f"{made} → {healed}: 1 step changed",
        "step 4: click_element → click_element",
        "  element: <button> 'add to cart' → <button> 'add to basket'",
        "  why: could not re-locate the element for click_element: "
        + shown[3].split("click_element: ", 1)[1],
    ]
    assert await main_async(["workflow", "show", "--diff", str(made), str(healed)]) == 0
    assert capsys.readouterr().out.splitlines() == shown
    assert await main_async(["workflow", "show", str(made), "--diff"]) == 2
    assert "was not healed from another workflow: give the one to compare" in capsys.readouterr().err


@pytest.mark.usefixtures("driver", "scripted_model")
@pytest.mark.timeout(240)
async def test_cli_replay_heal_writes_the_healed_history_and_what_changed_beside_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    recorded = shutil.copy(RECORDED_RUN, tmp_path / "run.json")
    old = AgentHistory.load(recorded).steps[0].actions[0].params["url"].rstrip("/")
    with DemoSite(seed=9, renames=BASKET) as site:
        sub = ["--sub", f"{old}={site.url.rstrip('/')}", "--allowed-domain", FENCE[0]]
        assert await main_async(["replay", str(recorded), *sub, "--retries", "0"]) == 1
        assert await main_async(["replay", str(recorded), *sub, "--heal", "--model", "openai:m"]) == 0
        healed = tmp_path / "run.healed.json"
        assert f"wrote {healed}" in capsys.readouterr().out
        assert await main_async(["replay", str(healed), *sub]) == 0
        assert [o.product for o in site.orders] == ["Blue ceramic mug", "Blue ceramic mug"]
    changes = (tmp_path / "run.healed.changes.json").read_text()
    assert '"healed_from": "run.json"' in changes and "add to basket" in changes
    step = AgentHistory.load(healed).steps[2]
    assert step.interacted[1] is not None and step.interacted[1].describe() == "<button> 'add to basket'"
