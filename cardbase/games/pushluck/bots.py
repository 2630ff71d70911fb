"""Bots of 15 en un tour: greedy (go until the target, then stop) and optimal (the solver's policy).

Both read only what every player sees: the turn's points, the Protections not yet spent, which
cards are still face down (their order is unknown to all, PL1) and the scores of the round.
"""

from __future__ import annotations

from .state import FLIP, RESHUFFLE, STOP, State


def greedy_action(s: State) -> int:
    """Go on while the turn's points are below the target; stop at the target or above."""
    if s.full:
        return RESHUFFLE if s.points < s.rules.target else STOP
    if s.turn_flips and s.points >= s.rules.target:
        return STOP
    return FLIP  # flips are blind: the first face-down card is as good as any


class GreedyBot:
    name = "greedy"

    def step(self, state: State) -> int:
        return greedy_action(state)


def optimal_action(s: State, solo_reshuffles: int = 3) -> int:
    """The exact solver's choice: several players, the seat's winning probability (PL7, the seat
    knows the round's scores before it); solo, the expected points with at most
    ``solo_reshuffles`` reshuffles in the turn (PL12: with unbounded reshuffles the expectation has
    no maximum for the default box)."""
    solver = s.game.solver()
    rem = solver.rem_of(s.remaining_counts())
    if s.n == 1:
        go = solver.solo(solo_reshuffles).decide(solo_reshuffles - s.reshuffles, s.points, rem,
                                                 s.shields)
    else:
        go = solver.seats(s.n).decide(s.player, s.best_before(), s.points, rem, s.shields)
    if s.full:
        return RESHUFFLE if go else STOP
    if go or not s.turn_flips:
        return FLIP
    return STOP


class OptimalBot:
    name = "optimal"

    def __init__(self, solo_reshuffles: int = 3) -> None:
        self.solo_reshuffles = solo_reshuffles

    def step(self, state: State) -> int:
        return optimal_action(state, self.solo_reshuffles)
