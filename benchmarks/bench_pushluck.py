"""15 en un tour: the exact solver's time and the engine's throughput. Prints figures; asserts nothing.

    python benchmarks/bench_pushluck.py [--games N] [--seats N]

Targets (one core): the solver answers in under 1 s for any box of up to 8 cards (P(15), expected
flips, the solo table with 3 reshuffles, and the 2-player seats); the batch runner plays at least
20,000 greedy games/s (2 players, through ``cardbase.playtest.games.simulate``). Seats for 3 or
more players are timed too (they nest one search per later seat). The figures depend on the
machine's load (printed first); solver times are CPU seconds of this process
(``time.process_time``), throughputs are games per CPU second, so that a busy machine does not
inflate them.
"""

from __future__ import annotations

import argparse
import os
import time

from cardbase.games.pushluck.material import parse_box
from cardbase.games.pushluck.solver import Solver, solve
from cardbase.playtest.cards import DATA_DIR, load_edition_defs
from cardbase.playtest.games import simulate

BOXES = [
    "+3,+5,x2,protection,perdre-tout",
    "+1,+3,x2,protection,perdre-tout",
    "+1,+3,+5,x2,protection,perdre-tout",
    "+1,+3,+5,x2,protection,protection,perdre-tout",
    "+1,+3,+5,x2,x2,protection,perdre-tout,perdre-tout",
    "+1,+2,+3,+5,x2,protection,protection,perdre-tout",
    "+1,+3,+5,+5,x2,x2,protection,perdre-tout",
    "+1,+2,+3,+4,+5,protection,perdre-tout,perdre-tout",
]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=50_000)
    ap.add_argument("--seats", type=int, default=3, help="time the seats up to this many players")
    args = ap.parse_args()
    print(f"load average: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")

    print("\nsolver: P(15) exact + expected flips + solo table (K = 3), then 2-player seats, CPU seconds:")
    for box in BOXES:
        b = parse_box(box)
        t = time.process_time()
        data = solve(b, players=1, reshuffles=3)
        core = time.process_time() - t
        t = time.process_time()
        win = Solver(b).seats(2).win
        seats = time.process_time() - t
        print(f"  {box:52s} {core:6.3f} s + seats {seats:7.3f} s   P(15) = {data['p_reach_15']:.4f}"
              f"   seats {win[0]:.3f}/{win[1]:.3f}   solo {data['solo']['status']}")

    print("\nseats alone, by number of players (default box and +1 reading), CPU seconds:")
    for box in BOXES[:2]:
        for n in range(2, args.seats + 1):
            s = Solver(parse_box(box))
            t = time.process_time()
            win = s.seats(n).win
            print(f"  {box:34s} {n} players {time.process_time() - t:7.3f} s   "
                  + " ".join(f"{x:.3f}" for x in win))

    defs = load_edition_defs([DATA_DIR / "editions" / "P15.toml"])
    simulate("pushluck", defs, players=2, bots=["greedy"], games=1000, seed=99)  # warm up
    print("\nbatch runner, one core:")
    for players, bots in ((2, ["greedy"]), (4, ["greedy"]), (2, ["random"]), (2, ["optimal"])):
        n = args.games if bots == ["greedy"] else args.games // 5
        t = time.process_time()
        simulate("pushluck", defs, players=players, bots=bots, games=n, seed=1, workers=1)
        dt = time.process_time() - t
        print(f"  {bots[0]:8s} {players} players: {n / dt:9.0f} games/s")


if __name__ == "__main__":
    main()
