"""The clairvoyant goldfish oracle: the best score reachable when the deck order is known.

It searches the real game tree of a one-player state (every legal action, effect choices
included) with memoisation on the position, so it plays by exactly the engine's rules. It is an
upper bound for any bot on the same seed, not a fair player.
"""

from __future__ import annotations

from typing import Any


def _key(s: Any) -> tuple:
    return (
        tuple(sorted(s.hands[0])),
        tuple(sorted(s.discards[0])),
        tuple(s.decks[0]),
        s.decision,
        tuple(s.queue),
        min(10, s.turn),
    )


def oracle_score(state: Any) -> int:
    """Best final score player 0 can reach from ``state`` (a goldfish state, deck order known)."""
    if state.num_players != 1:
        raise ValueError("the oracle is defined for goldfish (one-player) games only")
    memo: dict[tuple, int] = {}

    def best(s: Any) -> int:
        if s.is_terminal():
            return s.score(0)
        key = _key(s)
        hit = memo.get(key)
        if hit is not None:
            return hit
        top = None
        for a in s.legal_actions():
            c = s.clone()
            c.apply_action(a)
            v = best(c)
            if top is None or v > top:
                top = v
        memo[key] = top  # type: ignore[assignment]
        return top  # type: ignore[return-value]

    return best(state.clone())


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
