"""Menteur written as data (data/rules/menteur.toml): processor time (user + system of this
process) per game, random bots and greedy bots on every seat, seeds 0 … N-1, with the turns per
game and the first player's wins (the seat drawn to start, MN2) beside it, how often the seats
call « Menteur ! » and what the calls find, and the load average.

    PYTHONPATH=. nice python benchmarks/bench_rulesdata_menteur.py --players 4 --random 100 --greedy 100

The calls: the share of the occasions (a seat asked in a window) where the seat called, the share
of the calls that caught a lie, and the share of the lies (lays of which one card at least is not
of the asked rank: the file's ``[[coverage]] bluff``) that were caught.
"""

from __future__ import annotations

import argparse
import os
import time

from rulesdata_play import built, finished_games


def play(players: int, games: int, greedy: bool) -> dict[str, float]:
    """CPU seconds per game, turns per game, the first player's share of the wins, the calls."""
    start = time.process_time()
    turns = first = asked = calls = lays = lies = caught = 0
    for s in finished_games(built("menteur", players), games, greedy=greedy, ending="main_vide"):
        turns += s.turns
        first += s.first in s.winners
        cov = s.coverage()
        asked, calls = asked + cov["menteur"][0], calls + cov["menteur"][1]
        lays, lies = lays + cov["bluff"][0], lies + cov["bluff"][1]
        caught += sum(c["mensonges"] for c in s.counters)
    return {"cpu": (time.process_time() - start) / games, "turns": turns / games, "first": first / games,
            "asked": asked, "calls": calls, "lays": lays, "lies": lies, "caught": caught}


def _share(a: int, b: int) -> str:
    return f"{100 * a / b:.1f} % ({a} of {b})" if b else "— (0 of 0)"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--random", type=int, default=100, help="random games")
    ap.add_argument("--greedy", type=int, default=100, help="greedy games")
    args = ap.parse_args()
    print(f"load average at the start: {os.getloadavg()[0]:.1f}")
    for name, games, greedy in (("random", args.random, False), ("greedy", args.greedy, True)):
        if not games:
            continue
        r = play(args.players, games, greedy)
        print(f"{args.players} players, {name} ({games} games): {r['cpu'] * 1000:.1f} CPU ms a game, "
              f"{r['turns']:.1f} turns a game, first player wins {r['first'] * 100:.1f} %")
        print(f"  calls: {_share(r['calls'], r['asked'])} of the occasions; "
              f"{_share(r['caught'], r['calls'])} of the calls caught a lie; "
              f"lies {_share(r['lies'], r['lays'])} of the lays, {_share(r['caught'], r['lies'])} of them caught")
    print(f"load average at the end: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
