"""Many agents at once: ``run_many`` over one browser or a fleet of endpoints, in this process or on Ray;
a task with a ``Judge`` is an episode of an evaluation."""

from browser_agent.batch.executors import Executor, LocalExecutor
from browser_agent.batch.judge import Judge, Verdict
from browser_agent.batch.many import run_many
from browser_agent.batch.options import BatchOptions
from browser_agent.batch.outcome import TaskOutcome
from browser_agent.batch.ray_executor import RayExecutor
from browser_agent.batch.spec import TaskSpec, read_specs

__all__ = [
    "BatchOptions",
    "Executor",
    "Judge",
    "LocalExecutor",
    "RayExecutor",
    "TaskOutcome",
    "TaskSpec",
    "Verdict",
    "read_specs",
    "run_many",
]
