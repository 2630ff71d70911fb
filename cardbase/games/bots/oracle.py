"""The clairvoyant goldfish oracle: the best score reachable when the deck order is known.

It searches the real game tree of a one-player state (every legal action, effect choices
included) with memoisation on the position, so it plays by exactly the engine's rules. It is an
upper bound for any bot on the same seed, not a fair player.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


def _key(s: Any) -> tuple:
    return (
        tuple(sorted(s.hands[0])),
        tuple(sorted(s.discards[0])),
        tuple(s.decks[0]),
        s.decision,
        tuple(s.queue),
        min(10, s.turn),
        min(10, s.turn - s.peak_turn),  # ruling R10: turns since the Cimetière last grew
    )


class _Budget(Exception):
    pass


@dataclass(slots=True, frozen=True)
class OracleResult:
    score: int
    exact: bool  # False when the node budget ran out (score is then the best line found)
    nodes: int


def oracle_search(state: Any, *, max_nodes: int = 5_000) -> OracleResult:
    """Best final score player 0 can reach from ``state`` (a goldfish state, deck order known).

    Depth-first over every legal action with memoisation, the greedy choice tried first. Decks
    with many Défausse choices can have huge trees: past ``max_nodes`` the search stops and
    returns the best score found so far (at least the greedy line's) with ``exact=False``.
    """
    if state.num_players != 1:
        raise ValueError("the oracle is defined for goldfish (one-player) games only")
    memo: dict[tuple, int] = {}
    nodes = 0
    best_seen = [None]

    def best(s: Any) -> int:
        nonlocal nodes
        if s.is_terminal():
            v = s.score(0)
            if best_seen[0] is None or v > best_seen[0]:
                best_seen[0] = v
            return v
        key = _key(s)
        hit = memo.get(key)
        if hit is not None:
            return hit
        nodes += 1
        if nodes > max_nodes:
            raise _Budget
        legal = s.legal_actions()
        g = s.greedy_action() if hasattr(s, "greedy_action") else legal[0]
        top = None
        for a in [g] + [x for x in legal if x != g]:
            c = s.clone()
            c.apply_action(a)
            v = best(c)
            if top is None or v > top:
                top = v
        memo[key] = top  # type: ignore[assignment]
        return top  # type: ignore[return-value]

    try:
        return OracleResult(best(state.clone()), True, nodes)
    except _Budget:
        return OracleResult(best_seen[0], False, nodes)  # type: ignore[arg-type]


def oracle_score(state: Any, *, max_nodes: int = 5_000) -> int:
    """The oracle's score (see :func:`oracle_search`)."""
    return oracle_search(state, max_nodes=max_nodes).score


def oracle_line(state: Any) -> list[int]:
    """One sequence of actions reaching :func:`oracle_score` from ``state``."""
    target = oracle_score(state)
    s = state.clone()
    line = []
    while not s.is_terminal():
        for a in s.legal_actions():
            c = s.clone()
            c.apply_action(a)
            if oracle_score(c) == target:
                line.append(a)
                s = c
                break
    return line
