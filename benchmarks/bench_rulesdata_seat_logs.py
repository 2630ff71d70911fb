"""Reading every seat's log after every move of a game written as data: processor time (user +
system of this process, so that a busy machine does not skew it) of random Menteur games at six
players (data/rules/menteur.toml), the games alone and the games with every seat's log and the
referee's read after each move (as a referee test or the app's table reads them), with the load
average beside it.

    PYTHONPATH=. nice python benchmarks/bench_rulesdata_seat_logs.py --games 5 --players 6
"""

from __future__ import annotations

import argparse
import os
import random
import time

from cardbase.games import registry


def play(game, seed: int, read: bool) -> tuple[int, int]:
    """One random game, seed ``seed``; ``read``: every seat's log and the referee's read after each
    move. Its moves and the lines of its referee's log."""
    s = game.new_state(seed)
    rng = random.Random(seed)
    moves = 0
    while not s.is_terminal():
        s.apply_action(rng.choice(s.legal_actions()))
        moves += 1
        if read:
            for seat in (None, *range(s.num_players)):
                s.log_lines(seat)
    return moves, len(s.log_lines())


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=5)
    ap.add_argument("--players", type=int, default=6)
    args = ap.parse_args()
    game = registry.get("menteur").build([], args.players)
    print(f"load average at the start: {os.getloadavg()[0]:.1f}")
    for read in (False, True):
        start = time.process_time()
        moves = lines = 0
        for seed in range(args.games):
            m, n = play(game, seed, read)
            moves, lines = moves + m, lines + n
        cpu = time.process_time() - start
        what = "every log read after every move" if read else "the games alone"
        print(f"{what}: {cpu:.2f} CPU s for {args.games} games ({moves} moves, {lines} lines of "
              f"the referee's logs at the end), {1000 * cpu / moves:.2f} CPU ms a move")
    print(f"load average at the end: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
