"""RayExecutor on a local Ray instance: agents in actors that own a browser, histories back to the caller,
a crashed actor restarted by Ray and its task retried."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from browser_agent import BrowserConfig, Controller
from browser_agent.batch import BatchOptions, RayExecutor, TaskOutcome, TaskSpec, run_many
from browser_agent.testing import ScriptedChatModel
from tests.support import batch_policy
from tests.support.server import LocalServer


def crash_once_controller(marker: Path) -> Controller:
    """``hold`` kills the actor's whole process the first time it runs, as an out-of-memory kill would."""
    controller = Controller()

    @controller.action("Hold (crashes the worker once)")
    async def hold() -> str:
        if not marker.exists():
            marker.write_text(str(os.getpid()))
            os._exit(1)
        return "held"

    return controller


@pytest.mark.timeout(180)  # starting Ray and restarting an actor take a while on a loaded machine
async def test_ray_actors_run_the_batch_and_a_crashed_actor_is_retried(
    server: LocalServer, tmp_path: Path
) -> None:
    ray = pytest.importorskip("ray")  # here, not at the top: only the worker that runs this test imports it
    ray.cloudpickle.register_pickle_by_value(batch_policy)  # the workers need not import the tests
    marker = tmp_path / "crashed-once"
    modes = ["", "", "hold", ""]
    specs = [
        TaskSpec(task=f"Count {n}", start_url=server.url(f"batch/counter.html?n={n}&mode={m}"))
        for n, m in enumerate(modes)
    ]
    outcomes: list[TaskOutcome] = []
    executor = RayExecutor(
        actors=2,
        max_restarts=1,
        max_task_retries=1,
        init_options={
            "num_cpus": 2,
            "include_dashboard": False,
            "log_to_driver": False,
            "_node_ip_address": "127.0.0.1",  # Ray's own traffic stays on the loopback interface
        },
    )
    histories = await run_many(
        specs,
        llm=lambda: ScriptedChatModel(policy=batch_policy.counter_policy),
        concurrency=4,
        browser=BrowserConfig(block_external_network=True),
        options=BatchOptions(controller=crash_once_controller(marker), history_dir=tmp_path / "histories"),
        executor=executor,
        on_result=outcomes.append,
    )
    assert not ray.is_initialized(), "the executor shuts down the Ray it started"
    results = [h.final_result() for h in histories]
    assert results == [f"n={n} visits=2" for n in range(4)], [h.error for h in histories]  # says why
    # the actor process running task 2 died in `hold` (it wrote the marker first); Ray restarted the actor
    # and re-ran the task, which found the marker and finished: every result above is there
    assert marker.exists() and int(marker.read_text()) != os.getpid()
    assert {o.endpoint for o in outcomes} == {"local Chromium"}
    for outcome in outcomes:
        assert outcome.history_path is not None and outcome.history_path.parent == tmp_path / "histories"
        assert json.loads(outcome.history_path.read_text())["task"] == f"Count {outcome.index}"
