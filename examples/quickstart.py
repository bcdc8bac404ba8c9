"""Quickstart: an agent opens a page, finds a price, and prints each step as it goes.

    python examples/quickstart.py                                            # offline: a scripted model
    BROWSER_AGENT_MODEL=openai:gpt-4o-mini python examples/quickstart.py     # a real one (OPENAI_API_KEY)
    BROWSER_AGENT_MODEL=openai:local BROWSER_AGENT_BASE_URL=http://127.0.0.1:8088/v1 \\
        python examples/quickstart.py                                        # a local server, no key

The page is served by the example itself on 127.0.0.1. A real model needs its provider's extra
(``pip install 'pw-browser-agent[openai]'``; ``[anthropic]``, ``[ollama]``).
"""

from __future__ import annotations

import asyncio
import re
import sys
from typing import Any

from langchain_core.messages import BaseMessage

from browser_agent import Agent, BrowserAgentError, BrowserConfig, ConsoleReporter
from browser_agent.models import chat_model_from_env
from browser_agent.testing import PageServer, ScriptedChatModel

SHOP = """<!doctype html><html><head><title>Mug shop</title></head><body><h1>Mugs</h1><ul>
<li>Blue mug <b>12.50 EUR</b> <button>Add to cart</button></li>
<li>Red mug <b>9.90 EUR</b> <button>Add to cart</button></li>
</ul></body></html>"""


def scripted(messages: list[BaseMessage]) -> dict[str, Any]:
    """What a model would answer: the price next to "Blue mug" on the page it was shown."""
    page = str(messages[-1].content)
    price = re.search(r"Blue mug (\d+\.\d\d EUR)", page)
    answer = f"The blue mug costs {price.group(1)}." if price else "The page shows no blue mug."
    brain = {"evaluation_previous_goal": "Success", "memory": answer, "next_goal": "report the price"}
    return {"current_state": brain, "action": [{"action": "done", "text": answer, "success": bool(price)}]}


async def main() -> int:
    llm = chat_model_from_env() or ScriptedChatModel(policy=scripted)
    with PageServer({"/": SHOP}) as site:
        agent = Agent(
            f"Open {site.url('/')} and find the price of the blue mug.",
            llm,
            browser=BrowserConfig(allowed_domains=("http://127.0.0.1:*",)),  # the agent stays on this site
            hooks=ConsoleReporter().hooks(),  # print each step as it goes
        )
        history = await agent.run(max_steps=10)
    # The reporter printed the answer; in code it is history.final_result().
    return 0 if history.is_successful() else 1


if __name__ == "__main__":
    try:
        sys.exit(asyncio.run(main()))
    except BrowserAgentError as exc:  # a setup mistake (no API key, no browser): one line, no traceback
        sys.exit(f"quickstart: {exc}")
