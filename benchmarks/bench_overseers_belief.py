"""Overseers' belief bot (OV18) against greedy bots. Prints figures; asserts nothing.

    python benchmarks/bench_overseers_belief.py [--games N] [--players 4] [--bot belief]

One ``--bot`` seat and greedy bots in the others; the tested seat goes round every seat on the
same game seeds (seat-rotated), so each seat plays ``games`` games. Prints the tested bot's win
rate with a Wilson 95 % interval against the fair share ``1/n`` (a shared win counts as a win),
and the time per decision it took (the search's decisions and the greedy ones it plays).
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

from cardbase.games import registry
from cardbase.playtest.cards import load_edition_defs
from cardbase.playtest.stats import wilson

DATA = Path(__file__).resolve().parent.parent / "data" / "editions" / "OVS.toml"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=100, help="games per seat")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--bot", default="belief")
    ap.add_argument("--no-belief", action="store_true",
                    help="ablation: resample ignores what passed in the draft (only the set aside)")
    args = ap.parse_args()
    if args.no_belief:
        from cardbase.games.overseers.state import State

        State.belief = lambda self, player: {}
    print(f"load average: {os.getloadavg()[0]:.1f}")
    from cardbase.games.bots.registry import make_bot
    from cardbase.games.overseers.bots import GreedyBot

    n = args.players
    game = registry.playable("overseers").build(tuple(load_edition_defs([DATA])), n)
    wins = played = decisions = 0
    spent = 0.0
    for seat in range(n):
        for i in range(args.games):
            s = game.new_state(i, log=False)
            tested = game.make_bot(args.bot, i * 31 + seat) or make_bot(args.bot, seed=i * 31 + seat)
            bots = [tested if p == seat else GreedyBot() for p in range(n)]
            while not s.is_terminal():
                p = s.current_player()
                if p == seat:
                    t = time.perf_counter()
                    a = tested.step(s)
                    spent += time.perf_counter() - t
                    decisions += 1
                else:
                    a = bots[p].step(s)
                s.apply_action(a)
            wins += s.returns()[seat] > 0
            played += 1
    lo, hi = wilson(wins, played)
    label = args.bot + (" without belief" if args.no_belief else "")
    print(f"{label} (1) vs greedy ({n - 1}), {n} players, {played} games seat-rotated: "
          f"win rate {wins / played:.1%} (95 % {lo:.1%}-{hi:.1%}), fair share {1 / n:.1%}; "
          f"{1000 * spent / decisions:.2f} ms/decision over {decisions} decisions")


if __name__ == "__main__":
    main()
