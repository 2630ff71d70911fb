"""Greedy: the action whose immediate result scores best for the acting player."""

from __future__ import annotations

from typing import Any

from cardbase.games.frame import greedy_of, play_greedy, policies_of


def greedy_step(state: Any) -> int:
    """The game's own greedy choice if it has one (given by its package to the frame), else a
    one-step look-ahead on ``heuristic``."""
    own = greedy_of(state)
    if own is not None:
        return own(state)
    fast = getattr(state, "greedy_action", None)
    if fast is not None:
        return fast()
    p = state.current_player()
    best, best_v = None, None
    for a in state.legal_actions():
        s = state.clone()
        s.apply_action(a)
        v = s.heuristic(p)
        if best_v is None or v > best_v:
            best, best_v = a, v
    assert best is not None
    return best


class GreedyBot:
    """Best immediate score (see ``cardbase.games.nespanini.policy`` for NesPanini's rule)."""

    name = "greedy"

    def step(self, state: Any) -> int:
        return greedy_step(state)


def greedy_rollout(state: Any, horizon: Any = None) -> Any:
    """Play ``state`` with the greedy policy for every player (in place): to the end, or until
    ``horizon`` (a mark from ``state.search_horizon()``) is reached."""
    pol = policies_of(state)
    if pol.playout is not None:  # a game's own fast greedy play-out
        return pol.playout(state) if horizon is None else pol.playout(state, horizon)
    if pol.greedy is not None:  # a game's own greedy
        return play_greedy(state, horizon)
    whole = getattr(state, "play_greedy", None)  # a state's own fast greedy play-out
    if whole is not None:
        return whole() if horizon is None else whole(horizon)
    fast = getattr(state, "greedy_action", None)
    step = (lambda: state.greedy_action()) if fast is not None else (lambda: greedy_step(state))
    if horizon is None:
        while not state.is_terminal():
            state.apply_action(step())
        return state
    while not state.is_terminal() and state.horizon_utilities(horizon) is None:
        state.apply_action(step())
    return state
