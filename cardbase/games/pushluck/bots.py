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


def optimal_action(s: State, solo_reshuffles: int | None = None,
                   memory: dict | None = None) -> int:
    """The exact solver's choice: several players, the seat's winning probability (PL7, the seat
    knows the round's scores before it); solo, the expected points with unlimited reshuffles
    (PL12, :mod:`.solo`) — or with at most ``solo_reshuffles`` of them when that is given, or when
    the unlimited expectation is unbounded (then the cap is 3).

    ``memory`` (the bot's) counts the passes finished at the tail threshold or above in the turn:
    the unlimited policy switches to its slope policy after ``solo.TAIL_PASSES`` of them."""
    solver = s.game.solver()
    rem = solver.rem_of(s.remaining_counts())
    if s.n == 1:
        go = None
        if solo_reshuffles is None:
            from .solo import NoExactSolo

            try:
                u = solver.unlimited()
            except NoExactSolo:
                u = None
            if u is not None:
                key = (s.seed, s.round)
                tail = (memory or {}).get(key, 0)
                go = u.decide(s.points, rem, s.shields, tail, first=not s.turn_flips)
                if s.full and go and s.points >= u.X and memory is not None:
                    if len(memory) > 64:
                        memory.clear()
                    memory[key] = tail + 1
        if go is None:
            k = 3 if solo_reshuffles is None else solo_reshuffles
            go = solver.solo(k).decide(k - s.reshuffles, s.points, rem, s.shields)
    else:
        go = solver.seats(s.n).decide(s.player, s.best_before(), s.points, rem, s.shields)
    if s.full:
        return RESHUFFLE if go else STOP
    if go or not s.turn_flips:
        return FLIP
    return STOP


class OptimalBot:
    name = "optimal"

    def __init__(self, solo_reshuffles: int | None = None) -> None:
        self.solo_reshuffles = solo_reshuffles
        self.memory: dict = {}

    def step(self, state: State) -> int:
        return optimal_action(state, self.solo_reshuffles, self.memory)
