"""Where two runs of one episode parted: the first step whose model reply differs.

Two runs of a fixed suite at temperature 0 still end some episodes differently for reasons other than
the change under test: a local server's answer to the very same request moves with what its prompt cache
held before it (llama.cpp reuses the previous request's prefix, and the reused part is computed in other
batches than a fresh one), a hosted model's with the batch it was served in. A change that leaves the
first request of an episode as it was (a memo of past steps, a loop rule, the state after an action)
cannot have caused a difference in the first reply: an episode whose runs parted there parted by noise.
Reading where each pair parted is how an A/B of such a change is read (``eval compare`` prints it when
the records name their saved histories; ``output.eval_comparison`` renders it).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from browser_agent.errors import UserError
from browser_agent.eval.compare import Pair
from browser_agent.eval.episode_record import EpisodeRecord
from browser_agent.record import AgentHistory

__all__ = ["Parting", "partings"]


@dataclass(frozen=True, slots=True)
class Parting:
    """One episode that ended one way in run A and the other in run B.

    Attributes:
        step: The first step whose model reply differs between the runs (1: the first reply); ``None``
            when a history is missing or unreadable, or the replies never differ (a judge or a page that
            moved on its own).
    """

    task: str
    seed: int
    a_won: bool
    step: int | None


def partings(discordant: Iterable[Pair], *, a_folder: Path, b_folder: Path) -> list[Parting]:
    """Where the two runs of each episode in ``discordant`` (``Comparison.discordant``) parted.

    A record's ``history`` is read as it was written, else relative to the folder of its results file.
    """
    found = []
    for record, other in discordant:
        replies_a, replies_b = _replies(record, a_folder), _replies(other, b_folder)
        step = None if replies_a is None or replies_b is None else _first_difference(replies_a, replies_b)
        found.append(Parting(record.task, record.seed, record.success, step))
    return found


def _replies(record: EpisodeRecord, folder: Path) -> list[str] | None:
    if not record.history:
        return None
    path = Path(record.history)
    if not path.exists() and not path.is_absolute():
        path = folder / path
    try:
        history = AgentHistory.load(path)
    except UserError:
        return None
    return [s.model_output.model_dump_json() if s.model_output else "" for s in history.steps]


def _first_difference(a: list[str], b: list[str]) -> int | None:
    for number, (x, y) in enumerate(zip(a, b, strict=False), start=1):
        if x != y:
            return number
    return min(len(a), len(b)) + 1 if len(a) != len(b) else None
