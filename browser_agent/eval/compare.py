"""Two evaluations side by side: per task, per family and in total, the change in success and whether it
is beyond noise.

The test is Fisher's exact test, two-sided, on each 2×2 table (successes and failures of run A and run
B): exact at the handful of episodes a task has, where a normal approximation is wrong. A difference is
*beyond noise* when its p-value is below ``alpha`` (0.05). With two seeds per task no single task can
reach it (0/2 against 2/2 gives p = 0.33); the total over many tasks can. Episodes present in both runs
(same task and seed) are also counted as pairs: how many only A won, how many only B won.

Only the episodes both runs have are compared: a run stopped half-way (or one with other seeds) would
otherwise be set against the whole of the other, and its easy first tasks read as a gain. The episodes
left out are counted. ``output.eval_comparison`` renders a comparison as text.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from browser_agent.eval.episode_record import EpisodeRecord
from browser_agent.eval.stats import fisher_exact
from browser_agent.eval.summary import Group, by_family, by_task, total

__all__ = ["ALPHA", "Comparison", "Difference", "Pair", "compare"]

ALPHA = 0.05


@dataclass(frozen=True, slots=True)
class Difference:
    """One task, family or the total in both runs."""

    name: str
    a: Group
    b: Group
    p_value: float
    beyond_noise: bool

    @property
    def change(self) -> float:
        """B's success rate minus A's (in 0..1 units)."""
        return self.b.rate - self.a.rate


Pair = tuple[EpisodeRecord, EpisodeRecord]


@dataclass(frozen=True, slots=True)
class Comparison:
    """The differences, and the episodes (same task and seed) the two runs ended differently."""

    tasks: list[Difference]
    families: list[Difference]
    total: Difference
    alpha: float
    discordant: tuple[Pair, ...] = ()
    only_in_a: int = 0
    only_in_b: int = 0

    @property
    def only_a_won(self) -> int:
        return sum(a.success for a, _ in self.discordant)

    @property
    def only_b_won(self) -> int:
        return sum(b.success for _, b in self.discordant)


def compare(a: Sequence[EpisodeRecord], b: Sequence[EpisodeRecord], *, alpha: float = ALPHA) -> Comparison:
    """Compare run ``a`` (the baseline) with run ``b`` (the change), on the episodes both have."""
    a_keys, b_keys = {r.key for r in a}, {r.key for r in b}
    both = a_keys & b_keys
    only_in_a, only_in_b = len(a_keys - both), len(b_keys - both)
    a = [r for r in a if r.key in both]
    b = [r for r in b if r.key in both]
    b_records = {r.key: r for r in b}
    pairs = [(r, b_records[r.key]) for r in a]
    return Comparison(
        tasks=_differences(by_task(a), by_task(b), alpha),
        families=_differences(by_family(a), by_family(b), alpha),
        total=_difference(total(a), total(b), alpha),
        alpha=alpha,
        discordant=tuple((x, y) for x, y in pairs if x.success != y.success),
        only_in_a=only_in_a,
        only_in_b=only_in_b,
    )


def _differences(a: list[Group], b: list[Group], alpha: float) -> list[Difference]:
    a_named, b_named = {g.name: g for g in a}, {g.name: g for g in b}
    names = list(dict.fromkeys([*a_named, *b_named]))
    return [_difference(a_named.get(n, Group(n)), b_named.get(n, Group(n)), alpha) for n in names]


def _difference(a: Group, b: Group, alpha: float) -> Difference:
    p = fisher_exact(a.successes, a.n, b.successes, b.n)
    return Difference(a.name or b.name, a, b, p, p < alpha)
