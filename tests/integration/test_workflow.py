"""Workflows in real Chromium on the demo shop, whose layout changes on every load: the recorded purchase
run with other inputs buys what they say (by the shop's own record), abstains when an input names
nothing on the page, and the CLI makes, shows and runs it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import BaseMessage
from playwright.async_api import Browser

from browser_agent import (
    BrowserConfig,
    BrowserSession,
    ReplayOptions,
    UserError,
    Workflow,
    make_workflow,
    run_workflow,
)
from browser_agent.cli import main_async
from browser_agent.demo.site import DemoSite, Order
from browser_agent.demo.walkthrough import RECORDED_RUN
from browser_agent.record import AgentHistory
from browser_agent.testing import ScriptedChatModel, find_index

FENCE = ("http://127.0.0.1:*",)
NEW = {
    "product": "Oak cutting board",
    "quantity": "3",
    "full_name": "Grace Hopper",
    "email": "grace@example.org",
}


@pytest.fixture(scope="module")
def workflow() -> Workflow:
    return make_workflow(AgentHistory.load(RECORDED_RUN))


async def test_the_recorded_purchase_run_with_other_inputs_buys_what_they_say(
    browser: Browser, workflow: Workflow
) -> None:
    with DemoSite(seed=23) as site:
        async with BrowserSession(BrowserConfig(allowed_domains=FENCE), browser=browser) as session:
            inputs = NEW | {"url": site.url, "shipping": "Pick-up"}
            report = await run_workflow(workflow, session, inputs)
            shown = await session.page.text_content("#order")
    assert report.ok, report.stopped
    [order] = site.orders
    assert order == Order(
        order.number, "Oak cutting board", 3, "Grace Hopper", "grace@example.org", "Pick-up"
    )
    assert shown is not None and "3 × Oak cutting board" in shown and "grace@example.org" in shown


async def test_a_product_the_shop_does_not_have_stops_the_run_instead_of_buying_another(
    browser: Browser, workflow: Workflow
) -> None:
    with DemoSite(seed=5) as site:
        async with BrowserSession(BrowserConfig(allowed_domains=FENCE), browser=browser) as session:
            inputs = NEW | {"url": site.url, "product": "Green teapot"}
            report = await run_workflow(workflow, session, inputs, options=ReplayOptions(retries=0))
    assert not report.ok and site.orders == []
    assert report.stopped is not None and "step 2" in report.stopped and "green teapot" in report.stopped


async def test_a_step_it_cannot_be_sure_of_is_handed_to_the_model_with_what_it_looked_for(
    browser: Browser, workflow: Workflow
) -> None:
    def rescuer(messages: list[BaseMessage]) -> dict[str, Any]:
        text = str(messages[-1].content)
        assert "no element can be <a> 'salt'" in text, text  # the new words are what it was asked for
        index = find_index(text.split("Page:", 1)[1], "a", "Salt mill")
        brain = {"evaluation_previous_goal": "Unknown", "memory": "-", "next_goal": "open the salt mill"}
        return {"current_state": brain, "action": [{"action": "click_element", "index": index}]}

    llm = ScriptedChatModel(policy=rescuer)
    with DemoSite(seed=31) as site:
        async with BrowserSession(BrowserConfig(allowed_domains=FENCE), browser=browser) as session:
            inputs = NEW | {"url": site.url, "product": "Salt"}
            report = await run_workflow(workflow, session, inputs, options=ReplayOptions(llm=llm, retries=0))
    assert report.ok, report.stopped
    assert [a.status for a in report.actions][1] == "handed_to_llm" and len(llm.calls) == 1
    assert [(o.product, o.quantity) for o in site.orders] == [("Salt mill", 3)]


async def test_a_secret_the_workflow_types_must_be_given_before_anything_starts(tmp_path: Path) -> None:
    workflow = make_workflow(AgentHistory.load(RECORDED_RUN))
    data = workflow.model_dump(mode="json")
    data["steps"][6]["params"]["text"], data["steps"][6]["inputs"] = "<secret>full_name</secret>", {}
    data["inputs"] = [item for item in data["inputs"] if item["name"] != "full_name"]
    data["secrets"] = ["full_name"]
    session = BrowserSession(BrowserConfig())
    with pytest.raises(UserError, match=r"types the secrets \['full_name'\]; give their values"):
        await run_workflow(Workflow.model_validate(data), session)
    assert not session.started


@pytest.mark.usefixtures("driver")
@pytest.mark.timeout(180)
async def test_cli_makes_shows_and_runs_a_workflow_with_inputs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    made = tmp_path / "shop.workflow.json"
    assert await main_async(["workflow", "make", str(RECORDED_RUN), "-o", str(made)]) == 0
    assert "10 steps; inputs: url, product, quantity, full_name, email, shipping" in capsys.readouterr().out
    assert await main_async(["workflow", "show", str(made)]) == 0
    shown = capsys.readouterr().out
    assert "Blue ceramic mug" in shown and "input_text text={email}" in shown and "{product}" in shown

    with DemoSite(seed=77) as site:
        given = [f"--input={name}={value}" for name, value in (NEW | {"url": site.url}).items()]
        assert await main_async(["workflow", "run", str(made), *given, "--allowed-domain", FENCE[0]]) == 0
        [order] = site.orders
        assert (order.product, order.quantity, order.email) == ("Oak cutting board", 3, "grace@example.org")
        out = capsys.readouterr().out
        assert "relocated" in out and "Replay summary" in out

        assert await main_async(["workflow", "run", str(made), "--input", "colour=red"]) == 2
        err = capsys.readouterr().err.strip()
        assert err == (
            "browser-agent workflow: This workflow has no input 'colour'; its inputs are: url, "
            "product, quantity, full_name, email, shipping."
        )
        assert await main_async(["workflow", "run", str(made), "--on-failure", "llm"]) == 2
        assert "--on-failure llm hands a step to a model: name one with --model" in capsys.readouterr().err
        assert await main_async(["workflow", "show", str(RECORDED_RUN)]) == 2
        assert "is a run history, not a workflow; make one of it first" in capsys.readouterr().err
    assert len(site.orders) == 1, "the runs refused did not start"
