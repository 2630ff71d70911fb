"""Overseers' rule coverage by bot: how often each judgement, Leader's call, steal, character power
and ending came up and was used. Prints figures; asserts nothing.

    python benchmarks/bench_overseers_coverage.py [--bots greedy] [--games 200] [--players 4]

``--bots`` names one bot for every seat, or one per seat (``belief,greedy,greedy,greedy``); the
seat list is rotated over the games so that no seat is favoured. ``admit_not_best`` counts the
admissions of a player who did not have the best score; ``penalty`` the denials of one who had it.
The first named bot's win rate (a shared win counts) is printed with a Wilson 95 % interval.
"""

from __future__ import annotations

import argparse
import os
import time
from collections import Counter
from pathlib import Path

from cardbase.games.bots.registry import make_bot
from cardbase.games import registry
from cardbase.games.overseers.rulings import COVERAGE
from cardbase.games.overseers.state import ADMIT, P_JUDGE
from cardbase.playtest.cards import load_edition_defs
from cardbase.playtest.coverage import merge
from cardbase.playtest.stats import wilson

DATA = Path(__file__).resolve().parent.parent / "data" / "editions" / "OVS.toml"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--bots", default="greedy")
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    n = args.players
    names = [b.strip() for b in args.bots.split(",")]
    names = names * n if len(names) == 1 else names
    assert len(names) == n, "one bot, or one per seat"
    game = registry.playable("overseers").build(tuple(load_edition_defs([DATA])), n)
    counts = []
    judged: Counter = Counter()
    wins = tested = 0
    t = time.perf_counter()
    for i in range(args.games):
        seed = args.seed + i
        shift = i % n
        seats = [names[(p - shift) % n] for p in range(n)]
        bots = [game.make_bot(b, seed * 31 + p) or make_bot(b, seed=seed * 31 + p)
                for p, b in enumerate(seats)]
        s = game.new_state(seed, log=False)
        first = shift  # the seat playing names[0]
        while not s.is_terminal():
            a = bots[s.current_player()].step(s)
            if s.phase == P_JUDGE and s.current_player() == first:
                scores = [s.score(q) for q in range(n)]
                best = scores[first] == max(scores)
                judged[("admit" if a == ADMIT else "deny") + (" best" if best else " not best")] += 1
            s.apply_action(a)
        counts.append(s.coverage())
        wins += s.returns()[first] > 0
        tested += 1
    spent = time.perf_counter() - t
    total = merge(counts)
    print(f"load average: {os.getloadavg()[0]:.1f}; {args.games} games, {n} players, bots "
          f"{','.join(names)}; {spent / args.games:.2f} s/game")
    lo, hi = wilson(wins, tested)
    print(f"{names[0]} (first seat of the list): win rate {wins / tested:.1%} "
          f"(95 % {lo:.1%}-{hi:.1%}), fair share {1 / n:.1%}")
    print(f"{names[0]}'s own judgements: " + ", ".join(f"{k} {v}" for k, v in sorted(judged.items())))
    print("coverage of the whole table (used / occasions):")
    for key, (occasions, used) in total.items():
        label = COVERAGE.get(key, {}).get("en", key)
        share = f"{100 * used / occasions:5.1f} %" if occasions else "    —"
        print(f"  {key:22s} {used:6d} / {occasions:6d} {share}  {label}")


if __name__ == "__main__":
    main()
