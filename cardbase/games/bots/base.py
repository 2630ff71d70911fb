"""The bot protocol, what a game state must offer the bots, the utility (the bots by name: :mod:`.registry`).

What a state offers (every engine of ``cardbase/games/`` does; OpenSpiel-shaped):

* ``current_player() -> int`` — the seat to act, ``0 … n-1`` (negative once the game is over);
* ``legal_actions() -> list[int]`` — the actions of that seat, in a fixed order;
* ``apply_action(a)`` — play ``a`` (chance inside the state: its own seeded ``random.Random``);
* ``is_terminal() -> bool``;
* ``returns() -> list[float]`` — one per seat at the end: +1 win, -1 loss, 0 a shared result;
  team games give every seat of a team the team's return (a win of the team is a win of each
  teammate), games of more than two players give what their rules say (e.g. +1 to the winner,
  -1/(n-1) to the others). The search bots maximise the acting seat's own return, so team play
  needs nothing more: a seat's return already *is* its team's;
* ``clone()`` — an independent copy (cheap: search clones a lot);
* ``resample(player, rng)`` — a clone where everything ``player`` cannot see is dealt again at
  random, consistently with what ``player`` saw (the search bots never read hidden cards).

Optional, used when present:

* ``utilities() -> list[float]`` — what search maximises at the end of a game, one per seat,
  when it is not simply ``returns()`` (NesPanini adds a share of the score margin);
* ``greedy_action() -> int`` — the game's greedy heuristic for the seat to act (the ``greedy``
  bot; search play-outs and the modelled opponents of ISMCTS); a game package gives it to
  :mod:`cardbase.games.frame` (``frame.register(__name__, greedy=…)``), where the bots look first;
* ``play_greedy(horizon=None)`` — a fast greedy play-out, in place, making exactly the moves of
  repeated ``greedy_action`` (to the end, or to ``horizon`` when the state offers one); given to
  the frame as ``playout=…``;
* ``search_horizon() -> mark`` and ``horizon_utilities(mark) -> list[float] | None`` — a point
  where play-outs stop and how the position is valued there (``None`` while it is not reached).
  OVERKILL's horizon is the end of the round in play: a game is many rounds, and a play-out to the
  end of the game would be slow and mostly noise from rounds not yet dealt;
* ``information_key(player)`` — a hashable key of what ``player`` knows (ISMCTS's nodes);
* ``heuristic(player) -> float`` — a one-step look-ahead score when there is no ``greedy_action``.
"""

from __future__ import annotations

import random
from typing import Any, Protocol


class Bot(Protocol):
    name: str

    def step(self, state: Any) -> int:
        """The action this bot plays in ``state`` (it must be this bot's turn)."""
        ...


def utility(state: Any, player: int) -> float:
    """What search bots maximise at a terminal state, for ``player`` (see :func:`utilities`)."""
    return utilities(state)[player]


def utilities(state: Any) -> list[float]:
    """Every seat's utility of a finished game: the state's ``utilities()`` if it defines one,
    else its ``returns()`` (any number of players, teams included)."""
    own = getattr(state, "utilities", None)
    if own is not None:
        return own()
    return list(state.returns())


def margin_utilities(scores: list[int]) -> list[float]:
    """NesPanini's utility from the final scores (its ``State.utilities``).

    Two players: the return (+1 win, 0 tie, -1 loss) plus 0.02 × the score margin, so that among
    equal outcomes a larger margin is preferred. One player (goldfish): the score / 10.
    """
    if len(scores) == 1:
        return [scores[0] / 10.0]
    margin = scores[0] - scores[1]
    r = (margin > 0) - (margin < 0)  # the return: +1 / 0 / -1 (ties are 0, ruling R5)
    return [r + 0.02 * margin, -r - 0.02 * margin]


def playout_utilities(s: Any, horizon: Any = None) -> list[float]:
    """Play ``s`` greedily (in place) to the end, or to ``horizon``; every seat's utility there."""
    from .greedy import greedy_rollout

    if horizon is None:
        greedy_rollout(s)
        return utilities(s)
    greedy_rollout(s, horizon)
    return s.horizon_utilities(horizon)


def horizon_of(state: Any) -> Any:
    """The state's search horizon mark, or ``None`` when it has none (play-outs go to the end)."""
    h = getattr(state, "search_horizon", None)
    return None if h is None else h()


class RandomBot:
    """Plays a legal action uniformly at random."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def step(self, state: Any) -> int:
        legal = state.legal_actions()
        return legal[self.rng.randrange(len(legal))]


def out_of_time(state: Any, tried: list[int], values: list[float]) -> int:
    """The move of a search bot whose time per decision ran out before it could try every move
    once: the game's greedy move when it has one (a move chosen by looking at all of them), else the
    best of the moves tried."""
    from cardbase.games.frame import greedy_of

    greedy = greedy_of(state)
    if greedy is None and hasattr(state, "greedy_action"):
        greedy = type(state).greedy_action
    if greedy is not None:
        return greedy(state)
    return max(zip(values, tried), key=lambda vt: vt[0])[1] if tried else state.legal_actions()[0]
