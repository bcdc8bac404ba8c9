"""A scripted policy that completes the demo task by reading the state message, as a model would.

Used to record ``recorded_run.json`` with ``browser-agent demo --record`` (no API key needed), and by
the tests that check recording and replay end to end.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from langchain_core.messages import BaseMessage

from browser_agent.agent.conversation import page_of_state
from browser_agent.testing import find_index

__all__ = ["CUSTOMER", "TASK", "DemoPolicy", "find_index", "price_policy", "price_task"]

CUSTOMER = {"name": "Ada Lovelace", "email": "ada@example.com", "quantity": "2", "shipping": "Express"}
TASK = (
    "In the demo shop, buy 2 'Blue ceramic mug' with Express shipping for Ada Lovelace "
    "(ada@example.com), then report the order confirmation."
)
_PRICE_TASK = re.compile(r"Find the price of the (.+?) in the demo shop")


def _brain(goal: str, memory: str = "") -> dict[str, str]:
    return {"evaluation_previous_goal": "Success", "memory": memory or goal, "next_goal": goal}


class DemoPolicy:
    """``policy(messages) -> tool arguments`` for ``ScriptedChatModel``."""

    def __init__(self, site_url: str, customer: dict[str, str] | None = None) -> None:
        self.site_url = site_url
        self.customer = customer or CUSTOMER

    def __call__(self, messages: Sequence[BaseMessage]) -> dict[str, Any]:
        state = str(messages[-1].content)
        url = re.search(r"Current URL: (\S+)", state)
        path = "/" + url.group(1).split("/", 3)[-1] if url and url.group(1).startswith("http") else ""
        page = page_of_state(state)
        actions = self._actions(path, page)
        return {
            "current_state": _brain(f"on {path or 'a blank page'}: {actions[0]['action']}"),
            "action": actions,
        }

    def _actions(self, path: str, page: str) -> list[dict[str, Any]]:
        c = self.customer
        if not path:
            return [{"action": "go_to_url", "url": self.site_url}]
        if path.startswith("/product/"):
            if "Added 2 to your cart" in page:
                return [{"action": "click_element", "index": find_index(page, "a", "Cart")}]
            return [
                {
                    "action": "input_text",
                    "index": find_index(page, "input", "Quantity"),
                    "text": c["quantity"],
                },
                {"action": "click_element", "index": find_index(page, "button", "Add to cart")},
            ]
        if path.startswith("/cart"):
            return [{"action": "click_element", "index": find_index(page, "a", "Checkout")}]
        if path.startswith("/checkout"):
            return [
                {"action": "input_text", "index": find_index(page, "input", "Full name"), "text": c["name"]},
                {"action": "input_text", "index": find_index(page, "input", "Email"), "text": c["email"]},
                {
                    "action": "select_dropdown_option",
                    "index": find_index(page, "select"),
                    "text": c["shipping"],
                },
                {"action": "click_element", "index": find_index(page, "button", "Place order")},
            ]
        if path.startswith("/done"):
            return [{"action": "done", "text": _confirmation(page), "success": True}]
        try:
            return [{"action": "click_element", "index": find_index(page, "a", "Blue ceramic mug")}]
        except LookupError:  # below the fold: scroll, as a model would
            return [{"action": "scroll", "direction": "down", "pages": 1.0}]


def _confirmation(page: str) -> str:
    """The shop's confirmation as the page shows it; where the page view cut the line short ("…"),
    its whole clauses only, so that the answer is words the page really says."""
    found = re.search(r"Order #\d+ confirmed[^\n]*", page)
    if found is None:
        return "order placed"
    text = found.group(0)
    return text.rsplit(", ", 1)[0] + "." if text.endswith("…") and ", " in text else text


def price_task(product_name: str) -> str:
    """A short task for ``price_policy``: open one product and report its price."""
    return f"Find the price of the {product_name} in the demo shop."


def price_policy(messages: Sequence[BaseMessage]) -> dict[str, Any]:
    """``policy(messages)`` for a ``price_task``: open the product from the catalog, then report its price.

    Stateless (the product comes from the task message, the step from the page), so one model can
    serve many agents at once.
    """
    texts = [m.content for m in messages if isinstance(m.content, str)]
    name = next(found.group(1) for text in texts if (found := _PRICE_TASK.search(text)))
    page = texts[-1].split("Page (interactive elements and text):", 1)[-1]
    price = re.search(r"Price: ([\d.]+ EUR)", page)
    if price:
        action: dict[str, Any] = {"action": "done", "text": f"{name}: {price.group(1)}", "success": True}
    else:
        try:
            action = {"action": "click_element", "index": find_index(page, "a", name)}
        except LookupError:  # below the fold: scroll, as a model would
            action = {"action": "scroll", "direction": "down", "pages": 1.0}
    return {"current_state": _brain(f"{name}: {action['action']}"), "action": [action]}
