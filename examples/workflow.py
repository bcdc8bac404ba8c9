"""Workflows: record a run once, then run it again with other values, without a model.

    python examples/workflow.py

The package ships a recorded purchase on its demo shop (2 × Blue ceramic mug for Ada Lovelace). This
example makes it a workflow, lists the inputs found in it, and runs it on the shop, served here on
127.0.0.1 and laid out afresh on every page load, with another product, quantity, name and email.
At the end it writes the workflow as a plain Playwright script (``export_workflow``). Offline: no model,
no key. ``browser-agent workflow make | show | run`` and ``browser-agent export`` do the same from the shell.
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
from pathlib import Path

from browser_agent import (
    AgentHistory,
    BrowserConfig,
    BrowserSession,
    Workflow,
    export_workflow,
    make_workflow,
    run_workflow,
)
from browser_agent.demo import RECORDED_RUN, DemoSite


async def main() -> int:
    # Once: a saved run (AgentHistory.save, or `browser-agent run ... --save run.json`) made a workflow.
    workflow = make_workflow(AgentHistory.load(RECORDED_RUN))
    path = workflow.save(Path(tempfile.mkdtemp()) / "purchase.workflow.json")
    workflow = Workflow.load(path)  # a versioned JSON file: keep it, edit it, run it anywhere
    print("task:", workflow.task)
    for item in workflow.inputs:
        print(f"input {item.name}: recorded {item.default!r} ({item.description})")

    # Every time: new values by name; the others keep their recorded ones.
    with DemoSite(seed=2024) as shop:  # the seed fixes the sequence of layouts, each page load still differs
        inputs = {"url": shop.url, "product": "Red kettle", "quantity": "3", "email": "grace@example.org"}
        inputs["full_name"] = "Grace Hopper"
        async with BrowserSession(BrowserConfig(allowed_domains=("http://127.0.0.1:*",))) as session:
            report = await run_workflow(workflow, session, inputs)
            confirmation = await session.page.text_content("#order") if report.ok else None
    for action in report.actions:
        print(f"step {action.step} {action.action.name}: {action.status}")
    if not report.ok:  # an element it could not be sure of: it stopped there instead of guessing
        print("stopped:", report.stopped)
        return 1
    print("the shop says:", confirmation)

    # Or with plain Playwright only: the workflow as a script whose inputs keep their names.
    script = path.with_name("purchase.py")
    script.write_text(export_workflow(workflow).source)
    print(f"exported {script} (run it: BA_BASE_URL=... BA_PRODUCT='Red kettle' python {script.name})")
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
