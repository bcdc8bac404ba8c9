"""Two evaluations side by side as text (``browser-agent eval compare``): the table of differences from
``eval.compare``, then where the episodes that ended differently parted (``eval.divergence``)."""

from __future__ import annotations

from collections.abc import Sequence

from browser_agent.eval.compare import Comparison, Difference
from browser_agent.eval.divergence import Parting
from browser_agent.eval.summary import Group

__all__ = ["format_comparison", "format_partings"]


def format_comparison(comparison: Comparison, a_name: str, b_name: str) -> str:
    """The comparison as a text table, one line per task, then families and the total."""
    width = max([len("total"), *(len(d.name) for d in comparison.tasks + comparison.families)])
    lines = [f"A = {a_name}", f"B = {b_name}"]
    if comparison.only_in_a or comparison.only_in_b:
        lines.append(
            f"Compared: the {comparison.total.a.n} episodes both runs have (left out: {comparison.only_in_a} "
            f"only in A, {comparison.only_in_b} only in B)."
        )
    lines.append(f"{'':{width}}  {'A':>9}  {'B':>9}  {'change':>7}  {'p':>6}")
    for title, rows in (("tasks", comparison.tasks), ("families", comparison.families)):
        lines.append(f"-- {title}")
        lines += [_line(d, width) for d in rows]
    lines += ["--", _line(comparison.total, width)]
    marked = [d.name for d in comparison.tasks + comparison.families + [comparison.total] if d.beyond_noise]
    lines.append(
        f"Paired episodes (same task and seed): only A succeeded in {comparison.only_a_won}, only B in "
        f"{comparison.only_b_won}."
    )
    lines.append(
        f"Test: Fisher's exact test, two-sided; * marks p < {comparison.alpha:g} (beyond noise): "
        + (", ".join(marked) if marked else "none.")
    )
    return "\n".join(lines)


def _share(group: Group) -> str:
    return f"{group.successes}/{group.n}" if group.n else "–"


def _line(d: Difference, width: int) -> str:
    change = f"{d.change * 100:+.0f} %" if d.a.n and d.b.n else "–"
    mark = " *" if d.beyond_noise else ""
    return f"{d.name:{width}}  {_share(d.a):>9}  {_share(d.b):>9}  {change:>7}  {d.p_value:6.3f}{mark}"


def format_partings(found: Sequence[Parting]) -> str:
    """One line per episode, then how many parted at the first reply and how many later ("" for none)."""
    if not found:
        return ""
    lines = ["Episodes that ended differently, and the first step whose replies differ:"]
    for p in found:
        where = f"step {p.step}" if p.step is not None else "unknown (no history, or the same replies)"
        lines.append(
            f"  {p.task} #{p.seed}: {'A' if p.a_won else 'B'} succeeded; replies first differ at {where}"
        )
    first = sum(p.step == 1 for p in found)
    later = sum(p.step is not None and p.step > 1 for p in found)
    lines.append(
        f"Parted at the first reply: {first}; later: {later}. Where the change leaves an episode's first "
        "request as it was, a parting at the first reply is the model's run-to-run noise, not the change."
    )
    return "\n".join(lines)
