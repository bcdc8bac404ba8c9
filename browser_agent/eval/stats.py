"""The two statistics an evaluation needs: how sure a success rate is, and whether two rates differ.

* ``wilson_interval``: the 95 % Wilson score interval of k successes in n episodes (good at small n and
  at rates near 0 or 1, where the normal approximation gives intervals outside [0, 1]).
* ``fisher_exact``: the two-sided p-value of Fisher's exact test on a 2×2 table (successes and failures
  of two runs): exact at any n, so it holds for the few episodes per task an evaluation has.
"""

from __future__ import annotations

import math

__all__ = ["Z_95", "fisher_exact", "wilson_interval"]

Z_95 = 1.959963984540054
"""The standard normal quantile of a two-sided 95 % interval."""

_RELATIVE_TIE = 1 + 1e-7  # tables as likely as the observed one, up to rounding, count as extreme


def wilson_interval(successes: int, n: int, z: float = Z_95) -> tuple[float, float]:
    """The Wilson score interval of ``successes`` out of ``n``: (low, high), within [0, 1].

    ``(0.0, 1.0)`` when ``n`` is 0: nothing is known.
    """
    if n <= 0:
        return 0.0, 1.0
    rate = successes / n
    spread = z * z / n
    center = (rate + spread / 2) / (1 + spread)
    half = z * math.sqrt(rate * (1 - rate) / n + spread / (4 * n)) / (1 + spread)
    return max(0.0, center - half), min(1.0, center + half)


def fisher_exact(a_successes: int, a_n: int, b_successes: int, b_n: int) -> float:
    """The two-sided p-value of Fisher's exact test: how likely a split of the successes at least as
    uneven as the observed one is, when both runs have the same success rate.

    Two-sided as R's ``fisher.test`` and SciPy compute it: the sum of the probabilities of every table
    with the same margins that is no more likely than the observed one.
    """
    if not (0 <= a_successes <= a_n and 0 <= b_successes <= b_n):
        raise ValueError(f"successes must lie in 0..n: {a_successes}/{a_n}, {b_successes}/{b_n}")
    total_successes = a_successes + b_successes
    total = a_n + b_n
    if total == 0:
        return 1.0
    denominator = math.comb(total, total_successes)

    def probability(k: int) -> float:
        return math.comb(a_n, k) * math.comb(b_n, total_successes - k) / denominator

    observed = probability(a_successes)
    low, high = max(0, total_successes - b_n), min(a_n, total_successes)
    p = sum(probability(k) for k in range(low, high + 1) if probability(k) <= observed * _RELATIVE_TIE)
    return min(1.0, p)
