"""The cost of the cards' figures of a rules file's batch (offered, taken: ``State.card_counts``):
games per processor second (user + system of this process) of Cueillette (3 players) and Le Huit
(4 players), greedy and random bots on every seat, played as ``sim game`` plays them
(``play_one``: the record, its held cards and facts). Run it against two checkouts to compare::

    PYTHONPATH=. nice python benchmarks/bench_rulesdata_card_figures.py --greedy 60 --random 400
"""

from __future__ import annotations

import argparse
import os
import time

from cardbase.playtest.cluster import game_seed
from cardbase.playtest.games import _game, play_one


def rate(code: str, players: int, bot: str, games: int) -> float:
    """Games per CPU second."""
    game = _game(code, (), players, ())
    start = time.process_time()
    for i in range(games):
        play_one(game, game_seed(0, i), [bot] * players)
    return games / (time.process_time() - start)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--greedy", type=int, default=60, help="greedy games a game")
    ap.add_argument("--random", type=int, default=400, help="random games a game")
    ap.add_argument("--repeat", type=int, default=3, help="runs of each; the best is printed")
    args = ap.parse_args()
    print(f"load average at the start: {os.getloadavg()[0]:.1f}")
    for code, players in (("cueillette", 3), ("huit", 4)):
        for bot, games in (("greedy", args.greedy), ("random", args.random)):
            best = max(rate(code, players, bot, games) for _ in range(args.repeat))
            print(f"{code} ({players} players), {bot}: {best:.1f} games / CPU s ({games} games, best of {args.repeat})")
    print(f"load average at the end: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
