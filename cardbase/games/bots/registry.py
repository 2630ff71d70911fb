"""The bots by name: ``random``, ``greedy``, ``mc`` (determinized Monte Carlo), ``ismcts``.

A game's own bots (Overseers' ``belief``, 15 en un tour's ``optimal``) come from the game's
package through :func:`cardbase.games.frame.own_bot`; these are the generic ones.
"""

from __future__ import annotations

from typing import Any

from .base import Bot, RandomBot

BOT_NAMES = ("random", "greedy", "mc", "ismcts")


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
