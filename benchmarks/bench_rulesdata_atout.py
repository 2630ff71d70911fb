"""Atout written with ``next_turn`` (data/rules/atout.toml: the trick's winner leads the next
trick) against its former file (tests/data/rules/atout_prochain.toml: a counter ``prochain`` gives
the turn, every seat between the last player and the winner has an empty turn): random and greedy
games per CPU second at 2, 3 and 4 players, the ratio new / old, the mean turns a game of each, and
whether both played the same games (a digest of every game's moves, points and winners).

    PYTHONPATH=. nice python benchmarks/bench_rulesdata_atout.py --games 100 --rounds 3

CPU time (user + system of this process, ``time.process_time``), the best of ``--rounds`` runs of
each file, the two files alternating, so that a busy machine skews it less; the load average is
printed beside.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import time
from pathlib import Path

from rulesdata_play import finished_games

from cardbase.games.rulesdata.engine import Game
from cardbase.games.rulesdata.language import parse_rules_text

ROOT = Path(__file__).resolve().parent.parent
FILES = {"old (prochain)": ROOT / "tests" / "data" / "rules" / "atout_prochain.toml",
         "new (next_turn)": ROOT / "data" / "rules" / "atout.toml"}


def run(game: Game, games: int, greedy: bool) -> tuple[float, float, str]:
    """CPU seconds for ``games`` seeded games, mean turns a game, a digest of the games."""
    digest = hashlib.sha256()
    turns = 0
    t0 = time.process_time()
    for s in finished_games(game, games, greedy=greedy, log=False):
        turns += s.turns
        digest.update(repr((s.history, [c["points"] for c in s.counters], s.winners)).encode())
    return time.process_time() - t0, turns / games, digest.hexdigest()[:12]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=100, help="games of each kind, each file, each count")
    ap.add_argument("--rounds", type=int, default=3, help="runs of each; the best CPU time kept")
    ap.add_argument("--players", default="2,3,4")
    args = ap.parse_args()
    texts = {k: p.read_text(encoding="utf-8") for k, p in FILES.items()}
    print(f"load average {os.getloadavg()[0]:.1f}; {args.games} games, best of {args.rounds}")
    print(f"{'bots':7} {'players':>7} {'file':16} {'games/CPU s':>11} {'turns/game':>10} {'ratio':>6} same")
    for bots in ("random", "greedy"):
        for n in (int(x) for x in args.players.split(",")):
            games = {k: Game(parse_rules_text(t), [], n) for k, t in texts.items()}
            best: dict[str, tuple[float, float, str]] = {}
            for _ in range(args.rounds):
                for k, g in games.items():
                    cpu, turns, dig = run(g, args.games, bots == "greedy")
                    if k not in best or cpu < best[k][0]:
                        best[k] = (cpu, turns, dig)
            old, new = best.values()
            for k, (cpu, turns, _digest) in best.items():
                ratio = f"×{old[0] / new[0]:.2f}" if k.startswith("new") else ""
                same = ("yes" if old[2] == new[2] else "NO") if k.startswith("new") else ""
                print(f"{bots:7} {n:>7} {k:16} {args.games / cpu:>11.1f} {turns:>10.1f} {ratio:>6} {same}")


if __name__ == "__main__":
    main()
