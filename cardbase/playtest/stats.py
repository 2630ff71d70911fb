"""Small statistics helpers: Wilson intervals, paired differences, percentiles, Bradley–Terry ratings."""

from __future__ import annotations

import math
from collections.abc import Sequence

from cardbase.games.stats import wilson  # noqa: F401 - re-exported: the batch figures use it too

Z95 = 1.959963984540054  # the two-sided 95 % quantile of the normal law


def paired_delta(a: Sequence[float], b: Sequence[float]) -> tuple[float, list[float]]:
    """Mean of ``b[i] - a[i]`` and its 95 % interval (normal approximation of the paired mean)."""
    n = len(a)
    if n == 0:
        return 0.0, [0.0, 0.0]
    d = [y - x for x, y in zip(a, b, strict=True)]
    mean = sum(d) / n
    if n < 2:
        return mean, [mean, mean]
    var = sum((x - mean) ** 2 for x in d) / (n - 1)
    half = Z95 * math.sqrt(var / n)
    return mean, [mean - half, mean + half]


def percentile(sorted_values: Sequence[float], q: float) -> float:
    """Linear-interpolated percentile ``q`` (0–100) of already sorted values."""
    if not sorted_values:
        return float("nan")
    pos = (len(sorted_values) - 1) * q / 100
    lo = math.floor(pos)
    hi = math.ceil(pos)
    if lo == hi:
        return float(sorted_values[lo])
    return sorted_values[lo] + (sorted_values[hi] - sorted_values[lo]) * (pos - lo)


def bradley_terry(names: Sequence[str], wins: dict[tuple[str, str], float],
                  iterations: int = 200) -> dict[str, float]:
    """Ratings on the Elo scale (mean 1500) from ``wins[(a, b)]`` = points a scored against b.

    Ties count half to each side. Minorization–maximization (Hunter 2004) with a small prior of
    one tie against a virtual average opponent, so a deck that never lost keeps a finite rating.
    """
    strength = {n: 1.0 for n in names}
    for _ in range(iterations):
        new = {}
        for a in names:
            w = 0.5  # prior: half a win …
            denom = 1.0 / (strength[a] + 1.0)  # … in one game against strength 1
            for b in names:
                if a == b:
                    continue
                n_ab = wins.get((a, b), 0.0) + wins.get((b, a), 0.0)
                if n_ab:
                    w += wins.get((a, b), 0.0)
                    denom += n_ab / (strength[a] + strength[b])
            new[a] = w / denom
        g = math.exp(sum(math.log(v) for v in new.values()) / len(new))
        strength = {k: v / g for k, v in new.items()}
    return {k: 1500 + 400 * math.log10(v) for k, v in strength.items()}
