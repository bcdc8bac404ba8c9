"""A planner model re-plans every few steps; its plan goes into the next state message.

    BROWSER_AGENT_MODEL=openai:gpt-4o-mini BROWSER_AGENT_PLANNER=openai:o4-mini python examples/planner.py

Without the environment variables, a scripted model and a scripted planner run it offline on the demo shop.
"""

from __future__ import annotations

import asyncio
import os

from langchain_core.messages import BaseMessage

from browser_agent import Agent, AgentSettings, BrowserConfig
from browser_agent.cli.models import load_chat_model
from browser_agent.demo.policy import TASK, DemoPolicy
from browser_agent.demo.site import DemoSite
from browser_agent.testing import ScriptedChatModel


def scripted_planner(messages: list[BaseMessage]) -> str:
    steps = str(messages[-1].content).count("Step ")
    return f"<think>count the steps</think>State: {steps} steps logged.\nNext steps: finish the checkout."


async def main() -> None:
    with DemoSite() as shop:
        spec, planner_spec = os.environ.get("BROWSER_AGENT_MODEL"), os.environ.get("BROWSER_AGENT_PLANNER")
        llm = load_chat_model(spec) if spec else ScriptedChatModel(policy=DemoPolicy(shop.url))
        planner = (
            load_chat_model(planner_spec) if planner_spec else ScriptedChatModel(policy=scripted_planner)
        )
        settings = AgentSettings(
            planner_llm=planner, planner_interval=2, allowed_domains=("http://127.0.0.1:*",)
        )
        agent = Agent(
            f"{TASK} The shop is at {shop.url}",
            llm,
            browser=BrowserConfig(block_external_network=True),
            settings=settings,
        )
        history = await agent.run(max_steps=15)
    for step in history.steps:
        if step.plan:
            print(f"plan before step {step.step}: {step.plan!r}")
    print("result:", history.final_result())


if __name__ == "__main__":
    asyncio.run(main())
