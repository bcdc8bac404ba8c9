"""Many tasks at once: each agent in its own browser context, at most ``concurrency`` at a time, results
in the order of the tasks.

    python examples/parallel.py                                          # offline: a scripted model
    BROWSER_AGENT_MODEL=openai:gpt-4o-mini python examples/parallel.py   # a real model
    (BROWSER_AGENT_BASE_URL=http://127.0.0.1:8088/v1 with BROWSER_AGENT_MODEL=openai:local: a local server)

One Chromium is launched on this machine. To run the browsers elsewhere, start a Playwright server
(``python -m playwright run-server --port 3000 --host 127.0.0.1``, here or on another machine) and set
``PLAYWRIGHT_WS_ENDPOINT=ws://127.0.0.1:3000/``. The catalog is served by the example on 127.0.0.1.
"""

from __future__ import annotations

import asyncio
import os
import re
import sys
from typing import Any

from langchain_core.messages import BaseMessage

from browser_agent import BrowserAgentError, BrowserConfig, TaskSpec, run_many
from browser_agent.batch import BatchOptions, TaskOutcome
from browser_agent.models import chat_model_from_env
from browser_agent.testing import PageServer, ScriptedChatModel

PRICES = {
    "blue mug": "12.50",
    "red mug": "9.90",
    "tea spoon": "3.20",
    "teapot": "34.00",
    "sugar bowl": "15.75",
    "tray": "22.00",
}
CATALOG = "<!doctype html><title>Catalog</title><h1>Catalog</h1><ul>{}</ul>".format(
    "".join(f"<li>{name.capitalize()}: <b>{price} EUR</b></li>" for name, price in PRICES.items())
)


def scripted(messages: list[BaseMessage]) -> dict[str, Any]:
    """Read the product from the task and its price from the page, as a model would."""
    task = next(str(m.content) for m in messages if str(m.content).startswith("Your task:"))
    product = re.search(r"price of the (.+?) in", task)
    assert product, task
    price = re.search(rf"{re.escape(product.group(1))}: (\d+\.\d\d EUR)", str(messages[-1].content), re.I)
    answer = f"{product.group(1)}: {price.group(1)}" if price else f"no {product.group(1)} on the page"
    brain = {"evaluation_previous_goal": "Success", "memory": answer, "next_goal": "report"}
    return {"current_state": brain, "action": [{"action": "done", "text": answer, "success": bool(price)}]}


async def main() -> int:
    # latency_s: each scripted answer takes 0.3 s, as a remote model's would; the agents overlap their waits
    llm = chat_model_from_env() or ScriptedChatModel(policy=scripted, latency_s=0.3)
    endpoint = os.environ.get("PLAYWRIGHT_WS_ENDPOINT")
    browser = BrowserConfig(ws_endpoint=endpoint) if endpoint else BrowserConfig()
    with PageServer({"/": CATALOG}) as site:
        specs = [
            TaskSpec(
                id=name.replace(" ", "-"),
                task=f"Find the price of the {name} in the catalog.",
                start_url=site.url("/"),
                allowed_domains=("http://127.0.0.1:*",),
            )
            for name in PRICES
        ]

        def report(outcome: TaskOutcome) -> None:  # called as each task ends, in the order they end
            print(f"  {outcome.task_id}: {outcome.history.final_result() or outcome.history.error}")

        histories = await run_many(
            specs,
            llm=llm,
            concurrency=3,
            browser=browser,
            options=BatchOptions(max_steps=8),  # history_dir=Path(...) saves each task's history there
            on_result=report,
        )
    succeeded = sum(bool(h.is_successful()) and h.error is None for h in histories)
    print(f"{succeeded} of {len(histories)} tasks succeeded")
    print("in the order of the tasks:", [h.final_result() for h in histories])
    return 0 if succeeded == len(histories) else 1


if __name__ == "__main__":
    try:
        sys.exit(asyncio.run(main()))
    except BrowserAgentError as exc:  # a setup mistake (no API key, no browser): one line, no traceback
        sys.exit(f"parallel: {exc}")
