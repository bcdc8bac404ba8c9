"""Structured results: the agent answers with your pydantic model, and extraction follows a schema.

    python examples/structured_extract.py                                        # offline, scripted models
    BROWSER_AGENT_MODEL=openai:gpt-4o-mini python examples/structured_extract.py   # a real model
    (BROWSER_AGENT_BASE_URL=http://127.0.0.1:8088/v1 with BROWSER_AGENT_MODEL=openai:local: a local server)

``Agent(..., output_model=Catalog)`` makes ``done`` take a ``Catalog`` (a reply that does not validate
is sent back to the model) and ``history.structured_output()`` return it. ``extract_content`` with an
``output_schema`` asks the extraction model for JSON that matches it. A small page is served by the
example on 127.0.0.1. Without BROWSER_AGENT_MODEL, scripted models stand in for the real ones, reading
the page as they would.
"""

from __future__ import annotations

import asyncio
import json
import re
import sys
from collections.abc import Callable
from typing import Any

from langchain_core.messages import BaseMessage
from pydantic import BaseModel, Field

from browser_agent import Agent, AgentSettings, BrowserAgentError, BrowserConfig
from browser_agent.models import chat_model_from_env
from browser_agent.testing import PageServer, ScriptedChatModel

PAGE = """<!doctype html><html><head><title>Mugs</title></head><body><h1>Mugs</h1><ul>
<li>Blue mug <b>12.50</b> EUR</li><li>Red mug <b>9.90</b> EUR</li><li>Green mug <b>14.00</b> EUR</li>
</ul></body></html>"""


class Mug(BaseModel):
    name: str
    price_eur: float = Field(description="The price in euros, as a number")


class Catalog(BaseModel):
    mugs: list[Mug]
    cheapest: str = Field(description="The name of the cheapest mug")


def _brain(goal: str) -> dict[str, str]:
    return {"evaluation_previous_goal": "Success", "memory": goal, "next_goal": goal}


def scripted_agent(url: str) -> Callable[[list[BaseMessage]], dict[str, Any]]:
    """Open the page, extract the mugs with a schema, answer with a Catalog built from the extraction."""

    def policy(messages: list[BaseMessage]) -> dict[str, Any]:
        state = str(messages[-1].content)
        last_results = str(messages[-2].content)  # the newest memo: the last step's results
        if "Extracted for" in last_results:
            found = last_results.rsplit("Extracted for", 1)[1].split(":\n", 1)[1].split("\n")[0]
            mugs = json.loads(found)["mugs"]
            cheapest = min(mugs, key=lambda m: m["price_eur"])["name"]
            done = {"action": "done", "data": {"mugs": mugs, "cheapest": cheapest}, "success": True}
            return {"current_state": _brain("answer"), "action": [done]}
        if "Mugs" in state:
            extract = {
                "action": "extract_content",
                "goal": "every mug and its price",
                "output_schema": {
                    "type": "object",
                    "properties": {"mugs": {"type": "array", "items": Mug.model_json_schema()}},
                },
            }
            return {"current_state": _brain("extract"), "action": [extract]}
        return {"current_state": _brain("open"), "action": [{"action": "go_to_url", "url": url}]}

    return policy


def scripted_extractor(messages: list[BaseMessage]) -> str:
    page = str(messages[1].content)
    found = re.findall(r"(\w+ mug) (\d+\.\d+) EUR", page)
    return json.dumps({"mugs": [{"name": n, "price_eur": float(p)} for n, p in found]})


async def main() -> int:
    real = chat_model_from_env()
    with PageServer({"/mugs.html": PAGE}) as site:
        url = site.url("/mugs.html")
        agent = Agent(
            f"List the mugs on {url} with their prices and name the cheapest one.",
            real or ScriptedChatModel(policy=scripted_agent(url)),
            browser=BrowserConfig(allowed_domains=("http://127.0.0.1:*",)),
            settings=AgentSettings(page_extraction_llm=real or ScriptedChatModel(policy=scripted_extractor)),
            output_model=Catalog,
        )
        history = await agent.run(max_steps=6)
    catalog = history.structured_output(Catalog)  # typed; without the argument, the agent's output_model
    print("done:", history.is_done())
    if catalog is not None:
        print("cheapest:", catalog.cheapest)
        print("mugs:", ", ".join(f"{m.name} {m.price_eur:.2f}" for m in catalog.mugs))
    print("tokens by role:", history.usage.model_dump())
    return 0 if history.is_successful() else 1


if __name__ == "__main__":
    try:
        sys.exit(asyncio.run(main()))
    except BrowserAgentError as exc:  # a setup mistake (no API key, no browser): one line, no traceback
        sys.exit(f"structured_extract: {exc}")
