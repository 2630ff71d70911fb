"""Determinized Monte Carlo: sample what is hidden, try each action, play out greedily."""

from __future__ import annotations

import random
from typing import Any

from .base import utility
from .greedy import greedy_rollout


class MonteCarloBot:
    """For each legal action, ``samples`` determinizations played out with the greedy policy.

    Every action is tried on the same determinizations (common random numbers), which removes
    most of the noise between actions. Ties go to the first action in legal order.
    """

    name = "mc"

    def __init__(self, samples: int = 24, seed: int | None = None) -> None:
        self.samples = samples
        self.rng = random.Random(seed)

    def step(self, state: Any) -> int:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        p = state.current_player()
        worlds = [state.resample(p, self.rng) for _ in range(self.samples)]
        best, best_v = legal[0], None
        for a in legal:
            total = 0.0
            for w in worlds:
                s = w.clone()
                s.apply_action(a)
                greedy_rollout(s)
                total += utility(s, p)
            if best_v is None or total > best_v:
                best, best_v = a, total
        return best
