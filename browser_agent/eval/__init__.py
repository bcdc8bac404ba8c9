"""Evaluate an agent: run suites of judged tasks with a model, N seeds each, and report or compare runs.

Suites: MiniWoB++ (``miniwob.py``, the optional extra ``eval``) and your own tasks in JSON Lines
(``suite.py``). An evaluation is a batch whose tasks have a judge (``browser_agent.batch.Judge``):
``run_episodes`` runs the episodes through the batch's task runner and writes one ``EpisodeRecord`` a
line; ``write_report`` renders a results file as HTML; ``compare`` says which differences between two
runs are beyond noise.
"""

from browser_agent.eval.episode import Episode, SuiteEpisode, Verdict
from browser_agent.eval.episode_record import FAILURE_KINDS, EpisodeRecord, FailureKind, read_records
from browser_agent.eval.evaluation import EvalOptions, pending, run_episodes
from browser_agent.eval.miniwob import FAMILIES, MiniwobEpisode, miniwob_folder, miniwob_tasks
from browser_agent.eval.static_site import StaticSite
from browser_agent.eval.suite import Check, SuiteTask, read_suite

__all__ = [
    "FAILURE_KINDS",
    "FAMILIES",
    "Check",
    "Episode",
    "EpisodeRecord",
    "EvalOptions",
    "FailureKind",
    "MiniwobEpisode",
    "StaticSite",
    "SuiteEpisode",
    "SuiteTask",
    "Verdict",
    "miniwob_folder",
    "miniwob_tasks",
    "pending",
    "read_records",
    "read_suite",
    "run_episodes",
]
