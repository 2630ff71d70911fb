"""Menteur written as data (data/rules/menteur.toml): processor time (user + system of this
process) per game, random bots and greedy bots on every seat, seeds 0 … N-1, with the turns per
game and the first player's wins (the seat drawn to start, MN2) beside it, and the load average.

    PYTHONPATH=. nice python benchmarks/bench_rulesdata_menteur.py --players 4 --random 100 --greedy 100
"""

from __future__ import annotations

import argparse
import os
import time

from rulesdata_play import built, finished_games


def play(players: int, games: int, greedy: bool) -> tuple[float, float, float]:
    """CPU seconds per game, turns per game, the first player's share of the wins."""
    start = time.process_time()
    turns = first = 0
    for s in finished_games(built("menteur", players), games, greedy=greedy, ending="main_vide"):
        turns += s.turns
        first += s.first in s.winners
    return (time.process_time() - start) / games, turns / games, first / games


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--random", type=int, default=100, help="random games")
    ap.add_argument("--greedy", type=int, default=100, help="greedy games")
    args = ap.parse_args()
    print(f"load average at the start: {os.getloadavg()[0]:.1f}")
    for name, games, greedy in (("random", args.random, False), ("greedy", args.greedy, True)):
        cpu, turns, first = play(args.players, games, greedy)
        print(f"{args.players} players, {name} ({games} games): {cpu * 1000:.1f} CPU ms a game, "
              f"{turns:.1f} turns a game, first player wins {first * 100:.1f} %")
    print(f"load average at the end: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
