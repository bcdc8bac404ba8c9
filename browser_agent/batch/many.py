"""``run_many``: many tasks, at most N agents at once, results in the order of the tasks.

Usage::

    histories = await run_many(["Find the price of the blue mug", "Find the opening hours"],
                               llm=ChatOpenAI(model="gpt-4o"), concurrency=8)
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable, Sequence

from browser_agent.batch.executors import Executor, LocalExecutor
from browser_agent.batch.options import BatchOptions, BatchSetup, BrowserSource, LlmSource, browser_sources
from browser_agent.batch.outcome import TaskOutcome
from browser_agent.batch.spec import TaskSpec, as_specs
from browser_agent.errors import UserError
from browser_agent.record import AgentHistory

__all__ = ["run_batch", "run_many"]

ResultListener = Callable[[TaskOutcome], None]


async def run_many(
    specs: Iterable[TaskSpec | str],
    *,
    llm: LlmSource,
    concurrency: int = 4,
    browser: BrowserSource | Sequence[BrowserSource] | None = None,
    options: BatchOptions | None = None,
    executor: Executor | None = None,
    on_result: ResultListener | None = None,
) -> list[AgentHistory]:
    """Run every task, at most ``concurrency`` at once, each agent in its own browser context.

    One failing task never stops the others: its history's ``error`` says why. Histories come back in
    the order of ``specs``.

    Args:
        specs: Task strings or ``TaskSpec``s.
        llm: A chat model, or a function returning one (called once per process that runs agents).
        concurrency: How many agents run at once.
        browser: Where contexts are opened: one launched Chromium (None), a ``BrowserConfig`` (launch,
            or connect to its ``ws_endpoint``/``cdp_url``), a running Playwright ``Browser``, or a list
            of these (a fleet): each task goes to the browser running the fewest.
        options: Settings every task shares (``BatchOptions``).
        executor: Where agents run: this process (default), or ``RayExecutor(...)``.
        on_result: Called with each ``TaskOutcome`` as soon as its task ends.

    Raises:
        UserError: bad arguments (no tasks, concurrency < 1, a BrowserSession as browser, ...).
    """
    outcomes = await run_batch(
        as_specs(specs),
        BatchSetup(browser_sources(browser), llm, options or BatchOptions(), concurrency),
        executor,
        on_result,
    )
    return [outcome.history for outcome in outcomes]


async def run_batch(
    specs: Sequence[TaskSpec],
    setup: BatchSetup,
    executor: Executor | None = None,
    on_result: ResultListener | None = None,
) -> list[TaskOutcome]:
    """``run_many`` with its parts already built; returns each task's ``TaskOutcome`` in order."""
    if setup.concurrency < 1:
        raise UserError(f"concurrency={setup.concurrency}: run at least one agent at a time (1 or more).")
    if not specs:
        raise UserError("run_many got no task; give at least one task string or TaskSpec.")
    runner = executor or LocalExecutor()
    slots = asyncio.Semaphore(setup.concurrency)
    outcomes: list[TaskOutcome | None] = [None] * len(specs)

    async def run_one(index: int, spec: TaskSpec) -> None:
        async with slots:
            outcome = await runner.run(spec, index)
        outcomes[index] = outcome
        if on_result is not None:
            on_result(outcome)

    await runner.start(setup)
    try:
        async with asyncio.TaskGroup() as group:
            for index, spec in enumerate(specs):
                group.create_task(run_one(index, spec), name=f"browser_agent task {spec.task_id}")
    finally:
        await runner.close()
    finished = [outcome for outcome in outcomes if outcome is not None]
    assert len(finished) == len(specs), "every task of a batch that was not interrupted has an outcome"
    return finished
