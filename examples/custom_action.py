"""Your own actions: register a function, and the model can call it like a built-in action.

    python examples/custom_action.py                                          # offline: a scripted model
    BROWSER_AGENT_MODEL=openai:gpt-4o-mini python examples/custom_action.py   # a real model
    (BROWSER_AGENT_BASE_URL=http://127.0.0.1:8088/v1 with BROWSER_AGENT_MODEL=openai:local: a local server)

``read_price`` takes an element index (the model picks it from the page) and reads the live element
through the injected ``ActionContext``. A small page is served by the example on 127.0.0.1.
"""

from __future__ import annotations

import asyncio
import re
import sys
from typing import Any

from langchain_core.messages import BaseMessage

from browser_agent import ActionContext, ActionResult, Agent, BrowserAgentError, BrowserConfig, Controller
from browser_agent.models import chat_model_from_env
from browser_agent.testing import PageServer, ScriptedChatModel

PAGE = """<!doctype html><html><head><title>Tiny shop</title></head><body>
<h1>Tiny shop</h1>
<button type="button" data-price="12.50">Blue mug</button>
<button type="button" data-price="3.20">Tea spoon</button>
</body></html>"""

controller = Controller()


@controller.action("Read the price stored on a product button")
async def read_price(index: int, ctx: ActionContext, currency: str = "EUR") -> ActionResult:
    """Read a product's price.

    Args:
        index: The product button's index.
        currency: The currency to show the price in.
    """
    node, handle = await ctx.element(index)
    price = await handle.get_attribute("data-price")
    return ActionResult(extracted_content=f"{node.name or node.text}: {price} {currency}")


@controller.action("Say which page is open")
def where_am_i(ctx: ActionContext) -> str:  # sync actions run in a worker thread
    return f"on {ctx.page.url}"


def reply(goal: str, *actions: dict[str, Any]) -> dict[str, Any]:
    brain = {"evaluation_previous_goal": "Success", "memory": goal, "next_goal": goal}
    return {"current_state": brain, "action": list(actions)}


def scripted(messages: list[BaseMessage]) -> dict[str, Any]:
    """Call the two actions, then report what read_price returned (from the earlier steps' outcomes)."""
    text = "\n".join(str(m.content) for m in messages[1:])  # the task, the earlier steps, the page
    read = re.search(r"read_price: (.+? EUR)", text)
    if read:
        return reply("report", {"action": "done", "text": read.group(1), "success": True})
    mug = re.search(r"\[(\d+)\]<button>Blue mug", text)
    assert mug, "the blue mug is not on this page"
    read_it = {"action": "read_price", "index": int(mug.group(1))}
    return reply("read the price", {"action": "where_am_i"}, read_it)


async def main() -> int:
    llm = chat_model_from_env() or ScriptedChatModel(policy=scripted)
    with PageServer({"/shop.html": PAGE}) as site:
        agent = Agent(
            f"Open {site.url('/shop.html')} and read the blue mug's price with read_price.",
            llm,
            controller=controller,
            browser=BrowserConfig(allowed_domains=("http://127.0.0.1:*",)),
        )
        history = await agent.run(max_steps=6)
    for step in history.steps:
        for result in step.results:
            print(f"{result.action}: {result.error or result.extracted_content}")
    return 0 if history.is_successful() else 1


if __name__ == "__main__":
    try:
        sys.exit(asyncio.run(main()))
    except BrowserAgentError as exc:  # a setup mistake (no API key, no browser): one line, no traceback
        sys.exit(f"custom_action: {exc}")
