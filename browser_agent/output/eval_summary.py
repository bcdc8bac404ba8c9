"""An evaluation's results in a few lines, printed after ``browser-agent eval`` runs: each family, then
the total, with its 95 % interval and the cost per step."""

from __future__ import annotations

from collections.abc import Iterable

from browser_agent.eval.episode_record import EpisodeRecord
from browser_agent.eval.summary import Group, by_family, total

__all__ = ["summary_lines"]


def summary_lines(records: Iterable[EpisodeRecord]) -> list[str]:
    """One line per family of ``records``, then one for all of them."""
    records = list(records)
    return [_line(group) for group in [*by_family(records), total(records)]]


def _line(group: Group) -> str:
    low, high = group.interval
    tokens, seconds = group.per_step(group.input_tokens), group.per_step(group.seconds)
    return (
        f"{group.name}: {group.successes}/{group.n} ({group.rate:.0%}, 95 % interval "
        f"{low:.0%}–{high:.0%}), {tokens:.0f} input tokens and {seconds:.1f} s per step"
    )
