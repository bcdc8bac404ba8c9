"""Many tasks at once on a Playwright browser server: each agent in its own context, results in order.

    python -m playwright run-server --port 3000 --host 127.0.0.1     # anywhere; here, or another machine
    PLAYWRIGHT_WS_ENDPOINT=ws://127.0.0.1:3000/ python examples/parallel.py

Without PLAYWRIGHT_WS_ENDPOINT the example starts such a server itself, on 127.0.0.1. The tasks run on
the bundled demo shop (served on 127.0.0.1). With BROWSER_AGENT_MODEL (e.g. ``openai:gpt-4o-mini``) a
real model does them; without it, a scripted policy, offline.
"""

from __future__ import annotations

import asyncio
import os
import re
import signal
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager

from browser_agent import BrowserConfig, BrowserError, TaskSpec, run_many
from browser_agent.batch import BatchOptions, TaskOutcome
from browser_agent.browser.chromium import find_chromium
from browser_agent.cli.models import load_chat_model
from browser_agent.demo.catalog import PRODUCTS
from browser_agent.demo.policy import price_policy, price_task
from browser_agent.demo.site import DemoSite
from browser_agent.testing import ScriptedChatModel


@contextmanager
def local_playwright_server() -> Iterator[str]:
    """``playwright run-server`` on 127.0.0.1 (a free port); yields its ws endpoint.

    ``--unsafe`` lets the client name the Chromium to launch: needed where Playwright's own browser
    build is not installed (then the system Chromium is used).
    """
    command = [sys.executable, "-m", "playwright", "run-server", "--port=0", "--host=127.0.0.1", "--unsafe"]
    server = subprocess.Popen(command, stdout=subprocess.PIPE, text=True, start_new_session=True)
    try:
        assert server.stdout is not None
        for line in server.stdout:
            if found := re.search(r"Listening on (ws://\S+)", line):
                yield found.group(1)
                break
        else:
            raise RuntimeError("the Playwright server exited before listening")
    finally:
        os.killpg(server.pid, signal.SIGKILL)  # the server and the browsers it started
        server.wait()


def browser_for(endpoint: str) -> BrowserConfig:
    """The server launches this machine's Chromium when it has one, else Playwright's own build."""
    try:
        system = find_chromium().path
    except BrowserError:
        system = None
    return BrowserConfig(ws_endpoint=endpoint, executable_path=system, block_external_network=True)


async def run_batch(endpoint: str, shop_url: str) -> None:
    model = os.environ.get("BROWSER_AGENT_MODEL")
    llm = load_chat_model(model) if model else ScriptedChatModel(policy=price_policy, latency_s=0.2)
    specs = [
        TaskSpec(
            id=p.slug, task=price_task(p.name), start_url=shop_url, allowed_domains=("http://127.0.0.1:*",)
        )
        for p in PRODUCTS
    ]

    def report(outcome: TaskOutcome) -> None:
        print(f"  {outcome.task_id}: {outcome.history.final_result() or outcome.history.error}")

    histories = await run_many(
        specs,
        llm=llm,
        concurrency=3,
        browser=browser_for(endpoint),
        options=BatchOptions(max_steps=8),  # history_dir=Path(...) saves each task's history there
        on_result=report,
    )
    succeeded = sum(bool(h.is_successful()) and h.error is None for h in histories)
    print(
        f"{succeeded} of {len(histories)} tasks succeeded; in order: {[h.final_result() for h in histories]}"
    )


async def main() -> None:
    with DemoSite() as shop:
        endpoint = os.environ.get("PLAYWRIGHT_WS_ENDPOINT")
        if endpoint:
            await run_batch(endpoint, shop.url)
            return
        with local_playwright_server() as started:
            print(f"started a Playwright server at {started}")
            await run_batch(started, shop.url)


if __name__ == "__main__":
    asyncio.run(main())
