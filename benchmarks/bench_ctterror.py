"""CT vs Terror engine throughput. Prints figures; asserts nothing.

    python benchmarks/bench_ctterror.py [--games N]

Target (one core): >= 1,000 greedy 4-player games/s. Measured three ways: ``play_greedy`` (the
engine's own greedy play-out, no legality check), the step-by-step interface
(``apply_action(greedy_action())``, every action checked against ``legal_actions``), and the batch
runner ``simulate`` with one process (bot objects, records, the report). Random play is measured
through the step interface. Rates are per second of this process's CPU time (``process_time``),
so that other jobs on a shared machine do not lower them; the wall-clock rate of the batch runner is
printed too, with the load average.
"""

from __future__ import annotations

import argparse
import os
import random
import time
from pathlib import Path

from cardbase.games.ctterror.material import box_from_cards
from cardbase.games.ctterror.state import Game
from cardbase.playtest.cards import load_edition_defs
from cardbase.playtest.games import simulate

DATA = Path(__file__).resolve().parent.parent / "data" / "editions" / "CTT.toml"


def rate(game: Game, n: int, how: str) -> tuple[float, float]:
    """Games per second and mean turns per game."""
    turns = 0
    t = time.process_time()
    for i in range(n):
        s = game.new_state(10_000 + i, log=False)
        if how == "fast":
            s.play_greedy()
        elif how == "step":
            while not s.is_terminal():
                s.apply_action(s.greedy_action())
        else:
            rng = random.Random(i)
            while not s.is_terminal():
                legal = s.legal_actions()
                s.apply_action(legal[rng.randrange(len(legal))])
        turns += s.turns
    return n / (time.process_time() - t), turns / n


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=10_000)
    args = ap.parse_args()
    n = args.games
    defs = load_edition_defs([DATA])
    box = box_from_cards(defs)
    print(f"cpu count {os.cpu_count()}, load average {os.getloadavg()[0]:.2f}")
    print("games per CPU second")
    print("players  greedy play_greedy   greedy step-by-step   random step-by-step   mean turns (greedy)")
    for players in (2, 4, 6, 8):
        game = Game(box, players)
        rate(game, min(n, 500), "fast")  # warm up
        fast, turns = rate(game, n, "fast")
        step, _ = rate(game, n // 2, "step")
        rnd, _ = rate(game, n // 2, "random")
        print(f"{players:>7}  {fast:12,.0f} g/s   {step:14,.0f} g/s   {rnd:14,.0f} g/s   {turns:10.1f}")
    t, c = time.perf_counter(), time.process_time()
    simulate("ctterror", defs, players=4, bots=["greedy"], games=n, seed=1, workers=1)
    cpu, wall = time.process_time() - c, time.perf_counter() - t
    print(f"simulate (4 players, greedy, 1 process): {n / cpu:,.0f} games per CPU second, "
          f"{n / wall:,.0f} games/s wall clock (target >= 1,000 greedy 4-player games/s)")


if __name__ == "__main__":
    main()
