"""A scripted policy that buys in the second shop (``tests/support/second_shop.py``) by reading the state
message, as a model would: the card link, the custom dropdowns, the tab the checkout opens, the radios."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from langchain_core.messages import BaseMessage
from playwright.async_api import Browser

from browser_agent.agent.conversation import page_of_state
from browser_agent.record import AgentHistory
from browser_agent.testing import find_index

__all__ = ["BUYER", "LOOKUP_TASK", "SHOP_TASK", "ShopPolicy", "lookup_policy"]

BUYER = {
    "product": "Blue Ceramic Mug",
    "quantity": "2",
    "name": "Ada Lovelace",
    "email": "ada@example.com",
    "country": "Norway",
    "shipping": "Express",
}
SHOP_TASK = (
    "In Harbor Goods, buy 2 'Blue Ceramic Mug' shipped Express to Norway for Ada Lovelace "
    "(ada@example.com), then report the order."
)
LOOKUP_TASK = "In Harbor Goods, find the price of the 'Glass Carafe'."
_LINE = re.compile(r"\[(\d+)\]<(\w+)[^>]*>([^<\n]*)")


def _exact(page: str, tag: str, words: str) -> int:
    """The element whose text is ``words``, or starts with them followed by a price or badge (never by
    more words of another item's name: "Mug" is not "Mug Set")."""
    pattern = re.compile(rf"^{re.escape(words)}(?:$|\s+[^A-Za-z\s]|\s+(?:New|Sale|Bestseller)\b)", re.I)
    for found in _LINE.finditer(page):
        if found.group(2) == tag and pattern.match(found.group(3).strip()):
            return int(found.group(1))
    raise LookupError(f"no <{tag}> saying {words!r}")


def _brain(goal: str) -> dict[str, str]:
    return {"evaluation_previous_goal": "Success", "memory": goal, "next_goal": goal}


class ShopPolicy:
    """``policy(messages) -> tool arguments`` for ``ScriptedChatModel``."""

    def __init__(self, site_url: str) -> None:
        self.site_url = site_url

    def __call__(self, messages: Sequence[BaseMessage]) -> dict[str, Any]:
        state = str(messages[-1].content)
        url = re.search(r"Current URL: (\S+)", state)
        path = "/" + url.group(1).split("/", 3)[-1] if url and url.group(1).startswith("http") else ""
        actions = self._actions(path, page_of_state(state))
        return {"current_state": _brain(f"on {path}: {actions[0]['action']}"), "action": actions}

    def _actions(self, path: str, page: str) -> list[dict[str, Any]]:
        b = BUYER
        if not path:
            return [{"action": "go_to_url", "url": self.site_url}]
        if path.startswith("/item/"):
            if "Added 2 to your cart" in page:
                return [_click(find_index(page, "a", "Bag"))]
            if "Quantity: 2" in page:
                return [_click(find_index(page, "button", "Add to cart"))]
            try:
                return [_click(_exact(page, "div", b["quantity"]))]
            except LookupError:
                return [_click(find_index(page, "button", "Quantity"))]
        if path.startswith("/cart"):
            return [_click(find_index(page, "a", "Proceed to checkout"))]
        if path.startswith("/checkout"):
            return self._checkout(page)
        if path.startswith("/done"):
            said = re.search(r"Order \d+ placed[^\n]*", page)
            return [{"action": "done", "text": said.group(0) if said else "ordered", "success": True}]
        return [_click(_exact(page, "a", b["product"]))]

    def _checkout(self, page: str) -> list[dict[str, Any]]:
        b = BUYER
        if f"Country: {b['country']}" in page:
            return [
                _click(find_index(page, "input", b["shipping"])),
                _click(find_index(page, "button", "Place order")),
            ]
        try:
            return [_click(_exact(page, "div", b["country"]))]
        except LookupError:
            pass
        return [
            {"action": "input_text", "index": find_index(page, "input", "Full name"), "text": b["name"]},
            {"action": "input_text", "index": find_index(page, "input", "Email"), "text": b["email"]},
            _click(find_index(page, "button", "Country")),
        ]


def _click(index: int) -> dict[str, Any]:
    return {"action": "click_element", "index": index}


def lookup_policy(site_url: str) -> Any:
    """A policy for ``LOOKUP_TASK``: open the card, report the price in its own words."""

    def policy(messages: Sequence[BaseMessage]) -> dict[str, Any]:
        state = str(messages[-1].content)
        page = page_of_state(state)
        price = re.search(r"Price: (\$[\d.]+)", page)
        if "Current URL: about:blank" in state:
            action: dict[str, Any] = {"action": "go_to_url", "url": site_url}
        elif price:
            action = {"action": "done", "text": f"The Glass Carafe costs {price.group(1)}.", "success": True}
        else:
            action = _click(_exact(page, "a", "Glass Carafe"))
        return {"current_state": _brain(action["action"]), "action": [action]}

    return policy


async def record_purchase(browser: Browser, layout: str) -> AgentHistory:
    """The purchase recorded on a fresh second shop of ``layout`` by the scripted model (one mug bought)."""
    from browser_agent import BrowserConfig, BrowserSession
    from browser_agent.agent import Agent, AgentSettings
    from browser_agent.testing import ScriptedChatModel
    from tests.support.second_shop import SecondShop

    with SecondShop(layout) as shop:
        config = BrowserConfig(allowed_domains=("http://127.0.0.1:*",))
        async with BrowserSession(config, browser=browser) as session:
            llm = ScriptedChatModel(policy=ShopPolicy(shop.url))
            settings = AgentSettings(tool_calling_method="function_calling")
            history = await Agent(SHOP_TASK, llm, browser=session, settings=settings).run(max_steps=20)
        assert [o.product for o in shop.orders] == ["Blue Ceramic Mug"]
    return history
