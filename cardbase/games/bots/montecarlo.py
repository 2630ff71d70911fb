"""Determinized Monte Carlo: sample what is hidden, try each action, play out greedily."""

from __future__ import annotations

import random
import time
from typing import Any

from .base import horizon_of, out_of_time, playout_utilities


class MonteCarloBot:
    """For each legal action, ``samples`` determinizations played out with the greedy policy.

    Every action is tried on the same determinizations (common random numbers), which removes
    most of the noise between actions. Ties go to the first action in legal order. Any number of
    players: the acting seat's utility (its team's, in a team game) is maximised. A state with a
    search horizon (``search_horizon``) is played out to it and valued there.

    ``max_ms``: optional time limit per decision (the app's tables, where a person waits): the
    determinizations are played one after the other, every action on each, and the search stops
    after the first one that ends past the limit — every action has then been tried on the same
    ones. Off by default: the choice then depends on the seed alone, not on the machine's speed.
    """

    name = "mc"

    def __init__(self, samples: int = 24, seed: int | None = None, *, max_ms: float | None = None) -> None:
        self.samples = samples
        self.max_ms = max_ms
        self.rng = random.Random(seed)

    def step(self, state: Any) -> int:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        p = state.current_player()
        horizon = horizon_of(state)
        deadline = None if self.max_ms is None else time.perf_counter() + self.max_ms / 1000
        worlds = [state.resample(p, self.rng) for _ in range(self.samples)]
        totals = [0.0] * len(legal)
        for n, w in enumerate(worlds):  # each action's total adds the worlds in the same order as one loop would
            for i, a in enumerate(legal):
                if n == 0 and i and deadline is not None and time.perf_counter() > deadline:
                    # not even one world for every move within the time (hundreds of moves, a long
                    # play-out each): the game's greedy move, or the best of those tried
                    return out_of_time(state, legal[:i], totals[:i])
                s = w.clone()
                s.apply_action(a)
                totals[i] += playout_utilities(s, horizon)[p]
            if deadline is not None and time.perf_counter() > deadline:
                break
        best, best_v = legal[0], None
        for a, total in zip(legal, totals):
            if best_v is None or total > best_v:
                best, best_v = a, total
        return best

