"""Workflows on a shop nobody tuned them to (tests/support/second_shop.py): card links named with their
price and badge, custom dropdowns, a radio group, a checkout that opens a tab, a look-alike item. The
recorded purchase, made a workflow, buys what other inputs say (by the shop's own record), never the
look-alike; and a refused connection is a failed step, not an opened page."""

from __future__ import annotations

import socket

import pytest
from playwright.async_api import Browser

from browser_agent import BrowserConfig, BrowserSession, ReplayOptions, Workflow, make_workflow, run_workflow
from browser_agent.agent import Agent, AgentSettings
from browser_agent.testing import ScriptedChatModel
from tests.support.second_shop import SecondShop, ShopOrder
from tests.support.second_shop_policy import SHOP_TASK, ShopPolicy

FENCE = ("http://127.0.0.1:*",)


async def _recorded(browser: Browser, layout: str) -> Workflow:
    with SecondShop(layout) as shop:
        async with BrowserSession(BrowserConfig(allowed_domains=FENCE), browser=browser) as session:
            llm = ScriptedChatModel(policy=ShopPolicy(shop.url))
            settings = AgentSettings(tool_calling_method="function_calling")
            history = await Agent(SHOP_TASK, llm, browser=session, settings=settings).run(max_steps=20)
        assert [o.product for o in shop.orders] == ["Blue Ceramic Mug"]
    return make_workflow(history)


async def _run(
    browser: Browser, workflow: Workflow, layout: str, **values: str
) -> tuple[list[ShopOrder], str]:
    with SecondShop(layout) as shop:
        async with BrowserSession(BrowserConfig(allowed_domains=FENCE), browser=browser) as session:
            inputs = values | {"url": shop.url}
            report = await run_workflow(workflow, session, inputs, options=ReplayOptions(retries=1))
        return list(shop.orders), report.stopped or ""


@pytest.mark.timeout(240)
async def test_every_choice_is_an_input_and_another_product_is_found_whatever_its_price(
    browser: Browser,
) -> None:
    workflow = await _recorded(browser, "canonical")
    assert {i.name: i.default for i in workflow.inputs if i.name != "url"} == {
        "item": "Blue Ceramic Mug",
        "quantity": "2",
        "full_name": "Ada Lovelace",
        "email": "ada@example.com",
        "country": "Norway",
        "shipping": "Express",
    }
    values = {"item": "Copper Kettle", "quantity": "4", "country": "Japan", "shipping": "Overnight"}
    orders, stopped = await _run(browser, workflow, "promotion", **values, full_name="Grace Hopper")
    assert stopped == ""
    [order] = orders
    assert (order.product, order.quantity, order.name, order.country, order.shipping) == (
        "Copper Kettle",
        4,
        "Grace Hopper",
        "Japan",
        "Overnight",
    )


@pytest.mark.timeout(240)
async def test_the_look_alike_beside_the_item_is_never_bought_for_it(browser: Browser) -> None:
    workflow = await _recorded(browser, "decoy-next")
    orders, _ = await _run(browser, workflow, "decoy-first", item="Blue Ceramic Mug", quantity="3")
    assert [(o.product, o.quantity) for o in orders] == [("Blue Ceramic Mug", 3)]
    orders, stopped = await _run(browser, workflow, "decoy-first", item="Blue Ceramic")
    assert orders == [] and "step 2" in stopped  # the words of two items: it stops, buys neither


async def test_a_refused_connection_under_the_fence_is_a_failed_step(browser: Browser) -> None:
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    workflow = Workflow.model_validate(
        {
            "inputs": [{"name": "url", "default": f"http://127.0.0.1:{port}/", "source": "url"}],
            "steps": [{"action": "go_to_url", "params": {"url": "x"}, "inputs": {"url": "url"}}],
            "allowed_domains": list(FENCE),
        }
    )
    async with BrowserSession(BrowserConfig(allowed_domains=FENCE), browser=browser) as session:
        report = await run_workflow(workflow, session)
    assert not report.ok
    assert report.stopped is not None and "refused the connection" in report.stopped, report.stopped
    assert not report.actions[0].message.startswith("Opened")
