"""The bot protocol, the random bot, the utility used by search bots, and the bot registry."""

from __future__ import annotations

import random
from typing import Any, Protocol

BOT_NAMES = ("random", "greedy", "mc", "ismcts")


class Bot(Protocol):
    name: str

    def step(self, state: Any) -> int:
        """The action this bot plays in ``state`` (it must be this bot's turn)."""
        ...


def utility(state: Any, player: int) -> float:
    """What search bots maximise at a terminal state.

    Two players: the return (+1 win, 0 tie, -1 loss) plus a small share of the score margin, so
    that among equal outcomes a larger margin is preferred. One player (goldfish): the score / 10.
    """
    return utilities(state.scores())[player]


def utilities(scores: list[int]) -> list[float]:
    """:func:`utility` of every player from the final scores (computed once)."""
    if len(scores) == 1:
        return [scores[0] / 10.0]
    margin = scores[0] - scores[1]
    r = (margin > 0) - (margin < 0)  # the return: +1 / 0 / -1 (ties are 0, ruling R5)
    return [r + 0.02 * margin, -r - 0.02 * margin]


class RandomBot:
    """Plays a legal action uniformly at random."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def step(self, state: Any) -> int:
        legal = state.legal_actions()
        return legal[self.rng.randrange(len(legal))]


def make_bot(name: str, seed: int | None = None, **options: Any) -> Bot:
    """A bot by name: random, greedy, mc (determinized Monte Carlo) or ismcts."""
    from cardbase.errors import CardbaseError

    from .greedy import GreedyBot
    from .ismcts import ISMCTSBot
    from .montecarlo import MonteCarloBot

    key = name.strip().lower()
    if key == "random":
        return RandomBot(seed)
    if key == "greedy":
        return GreedyBot()
    if key in ("mc", "montecarlo", "monte-carlo"):
        return MonteCarloBot(seed=seed, **options)
    if key == "ismcts":
        return ISMCTSBot(seed=seed, **options)
    from cardbase.i18n import tr

    raise CardbaseError(tr("engine.error.unknown_bot", name=name, known=", ".join(BOT_NAMES)))
