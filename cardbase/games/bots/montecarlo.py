"""Determinized Monte Carlo: sample what is hidden, try each action, play out greedily."""

from __future__ import annotations

import random
from typing import Any

from .base import horizon_of, playout_utilities


class MonteCarloBot:
    """For each legal action, ``samples`` determinizations played out with the greedy policy.

    Every action is tried on the same determinizations (common random numbers), which removes
    most of the noise between actions. Ties go to the first action in legal order. Any number of
    players: the acting seat's utility (its team's, in a team game) is maximised. A state with a
    search horizon (``search_horizon``) is played out to it and valued there.
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
        horizon = horizon_of(state)
        worlds = [state.resample(p, self.rng) for _ in range(self.samples)]
        best, best_v = legal[0], None
        for a in legal:
            total = 0.0
            for w in worlds:
                s = w.clone()
                s.apply_action(a)
                total += playout_utilities(s, horizon)[p]
            if best_v is None or total > best_v:
                best, best_v = a, total
        return best
