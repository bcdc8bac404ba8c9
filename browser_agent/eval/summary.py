"""Records summed by task, by family and in total: success with its 95 % interval, cost per step."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from browser_agent.eval.episode_record import EpisodeRecord
from browser_agent.eval.stats import wilson_interval

__all__ = ["Group", "by_family", "by_task", "total"]


@dataclass(frozen=True, slots=True)
class Group:
    """The episodes of one task, one family, or a whole run, summed."""

    name: str
    family: str = ""
    n: int = 0
    successes: int = 0
    steps: int = 0
    model_calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    cached_input_tokens: int = 0
    seconds: float = 0.0
    failures: Counter[str] = field(default_factory=Counter)

    @property
    def rate(self) -> float:
        return self.successes / self.n if self.n else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        """The 95 % Wilson interval of the success rate."""
        return wilson_interval(self.successes, self.n)

    def per_step(self, amount: float) -> float:
        """``amount`` divided by the steps taken (0 when none was)."""
        return amount / self.steps if self.steps else 0.0

    def add(self, record: EpisodeRecord) -> Group:
        failures = Counter(self.failures)
        if record.failure != "none":
            failures[record.failure] += 1
        return Group(
            self.name,
            self.family or record.family,
            self.n + 1,
            self.successes + record.success,
            self.steps + record.steps,
            self.model_calls + record.model_calls,
            self.input_tokens + record.input_tokens,
            self.output_tokens + record.output_tokens,
            self.cached_input_tokens + record.cached_input_tokens,
            self.seconds + record.seconds,
            failures,
        )


def _grouped(records: Iterable[EpisodeRecord], key: Callable[[EpisodeRecord], str]) -> list[Group]:
    groups: dict[str, Group] = {}
    for record in records:
        name = key(record)
        groups[name] = groups.get(name, Group(name)).add(record)
    return list(groups.values())


def by_task(records: Iterable[EpisodeRecord]) -> list[Group]:
    """One group per task, in the order the tasks first appear."""
    return _grouped(records, lambda r: r.task)


def by_family(records: Iterable[EpisodeRecord]) -> list[Group]:
    """One group per family (``-`` for tasks without one), in the order they first appear."""
    return _grouped(records, lambda r: r.family or "-")


def total(records: Iterable[EpisodeRecord]) -> Group:
    """Every episode in one group named ``total``."""
    group = Group("total")
    for record in records:
        group = group.add(record)
    return group
