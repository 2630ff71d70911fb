"""Cueillette written as data (data/rules/cueillette.toml): processor time (user + system of this
process, so that a busy machine does not skew it) per 1,000 games at every player count, random
bots and greedy bots on every seat, seeds 0 … N-1, with the load average beside it.

    PYTHONPATH=. nice python benchmarks/bench_rulesdata_cueillette.py --random 2000 --greedy 100
"""

from __future__ import annotations

import argparse
import os
import time

from rulesdata_play import built, finished_games


def play(players: int, games: int, greedy: bool) -> float:
    """CPU seconds per 1,000 games."""
    start = time.process_time()
    for _ in finished_games(built("cueillette", players), games, greedy=greedy, ending="manches_jouees"):
        pass
    return (time.process_time() - start) * 1000 / games


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--random", type=int, default=2000, help="random games a player count")
    ap.add_argument("--greedy", type=int, default=100, help="greedy games a player count")
    args = ap.parse_args()
    print(f"load average at the start: {os.getloadavg()[0]:.1f}")
    for players in (2, 3, 4, 5):
        r = play(players, args.random, False)
        g = play(players, args.greedy, True)
        print(f"{players} players: random {r:.1f} CPU s / 1,000 games ({args.random} games), "
              f"greedy {g:.0f} CPU s / 1,000 games ({args.greedy} games)")
    print(f"load average at the end: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
