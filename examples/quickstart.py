"""Quickstart: one agent, one task, a real model.

    pip install -e '.[openai]'            # or [anthropic], [ollama]
    export OPENAI_API_KEY=...
    BROWSER_AGENT_MODEL=openai:gpt-4o-mini python examples/quickstart.py

The task runs on the bundled demo shop (served on 127.0.0.1), so it needs no site of yours. Without
BROWSER_AGENT_MODEL the example uses the scripted demo policy instead of a model, to show the flow offline.
"""

from __future__ import annotations

import asyncio
import os

from browser_agent import Agent, AgentSettings, BrowserConfig
from browser_agent.cli.models import load_chat_model
from browser_agent.demo.policy import TASK, DemoPolicy
from browser_agent.demo.site import DemoSite
from browser_agent.testing import ScriptedChatModel


async def main() -> None:
    with DemoSite() as shop:
        spec = os.environ.get("BROWSER_AGENT_MODEL")
        llm = load_chat_model(spec) if spec else ScriptedChatModel(policy=DemoPolicy(shop.url))
        agent = Agent(
            task=f"{TASK} The shop is at {shop.url}",
            llm=llm,
            browser=BrowserConfig(block_external_network=True),
            settings=AgentSettings(allowed_domains=("http://127.0.0.1:*",)),
        )
        history = await agent.run(max_steps=15)
    print("done:", history.is_done(), "success:", history.is_successful())
    print("result:", history.final_result())
    print(f"{len(history.steps)} steps, {history.total_input_tokens()} input tokens")


if __name__ == "__main__":
    asyncio.run(main())
