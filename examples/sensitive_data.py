"""Secrets: the model sees only <secret>name</secret>; the value is typed at action time and redacted
from every prompt, log line and saved history.

    BROWSER_AGENT_MODEL=openai:gpt-4o-mini python examples/sensitive_data.py

Without BROWSER_AGENT_MODEL a scripted model fills the demo shop's checkout with the secret e-mail offline.
"""

from __future__ import annotations

import asyncio
import os
import tempfile
from pathlib import Path

from browser_agent import Agent, AgentSettings, BrowserConfig
from browser_agent.cli.models import load_chat_model
from browser_agent.demo.policy import CUSTOMER, TASK, DemoPolicy
from browser_agent.demo.site import DemoSite
from browser_agent.testing import ScriptedChatModel

SECRETS = {"email": "ada@example.com"}


async def main() -> None:
    with DemoSite() as shop:
        spec = os.environ.get("BROWSER_AGENT_MODEL")
        customer = CUSTOMER | {"email": "<secret>email</secret>"}
        llm = load_chat_model(spec) if spec else ScriptedChatModel(policy=DemoPolicy(shop.url, customer))
        saved = Path(tempfile.mkdtemp()) / "run.json"
        task = TASK.replace("ada@example.com", "<secret>email</secret>") + f" The shop is at {shop.url}"
        agent = Agent(
            task,
            llm,
            sensitive_data=SECRETS,
            browser=BrowserConfig(block_external_network=True),
            settings=AgentSettings(save_history_path=saved, allowed_domains=("http://127.0.0.1:*",)),
        )
        history = await agent.run(max_steps=15)
    text = saved.read_text()
    print("result:", history.final_result())
    print(
        "secret in saved history:",
        SECRETS["email"] in text,
        "| placeholder in it:",
        "<secret>email</secret>" in text,
    )


if __name__ == "__main__":
    asyncio.run(main())
