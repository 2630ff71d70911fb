"""NesPanini written as data (data/rules/nespanini.toml) against its hand-written engine, on the
same seeds: goldfish mean score of each starter deck and the greedy duel win rate (points rate,
seats swapped on the same deals) of every pair of starter decks, with the hand-written engine's
95 % interval, and the games per second of each (processor time, so that a busy machine does not
skew it) beside the target: 1,000 greedy games a second for the file (issue 28).

    PYTHONPATH=. nice python benchmarks/bench_rulesdata_nespanini.py --games 400
    PYTHONPATH=. nice python benchmarks/bench_rulesdata_nespanini.py --games 400 --before CHECKOUT

``--before`` is another checkout of the code (``git worktree add DIR <commit> --detach``): the
file's games of each checkout run in their own process, the two alternate ``--rounds`` times (the
best CPU time of each kept), and each row gets the speed-up and whether both played the same
games — a digest of every game's moves, winners and ending: equal digests, the same moves.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGET = 1000  # greedy games a second (processor time) for the file, every row

# The file's greedy games of every row, in the checkout given: figure, CPU time, digest.
CHILD = r"""
import hashlib, json, sys, time
root = sys.argv[1]
sys.path.insert(0, root)
from pathlib import Path
from cardbase.games.rulesdata.engine import Game
from cardbase.games.rulesdata.language import load_rules
from cardbase.playtest.batch import game_seed
from cardbase.playtest.cards import load_deck_defs, starter_decks
n, seed, rows = int(sys.argv[2]), int(sys.argv[3]), json.loads(sys.argv[4])
decks = {k: load_deck_defs(p) for k, p in starter_decks().items()}
rules = load_rules(Path(root) / "data" / "rules" / "nespanini.toml")
out = {}

def play(game, i):
    s = game.new_state(game_seed(seed, i), log=False)
    while not s.is_terminal():
        s.apply_action(s.greedy_action())
    return s

for row in rows:
    h = hashlib.sha256()
    values, cpu = [], 0.0
    if len(row) == 1:
        g = Game(rules, decks=[decks[row[0]]])
        t = time.process_time()
        games = [play(g, i) for i in range(n)]
        cpu = time.process_time() - t
        values = [s.effect_score(0) for s in games]
    else:
        games = []
        for flip in (False, True):
            order = [decks[row[1]], decks[row[0]]] if flip else [decks[row[0]], decks[row[1]]]
            g = Game(rules, decks=order)
            t = time.process_time()
            part = [play(g, i) for i in range(n // 2)]
            cpu += time.process_time() - t
            values += [(s.returns()[1 if flip else 0] + 1) / 2 for s in part]
            games += part
    for s in games:
        h.update(repr((s.history, s.winners, s.ended_by)).encode())
    out[",".join(row)] = {"values": values, "cpu": cpu, "games": len(games), "digest": h.hexdigest()[:16]}
print(json.dumps(out))
"""


def run_child(root: Path, n: int, seed: int, rows: list[tuple[str, ...]]) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    p = subprocess.run([sys.executable, "-c", CHILD, str(root), str(n), str(seed), json.dumps(rows)],
                       env=env, capture_output=True, text=True, check=True, cwd=root)
    return json.loads(p.stdout)


def engine_figures(decks: dict, rows: list[tuple[str, ...]], n: int, seed: int) -> dict:
    """The hand-written engine's figure, its 95 % interval and games a second, per row."""
    from cardbase.games import nespanini as npn
    from cardbase.playtest.batch import game_seed
    from cardbase.playtest.stats import wilson

    out = {}
    for row in rows:
        if len(row) == 1:
            h = npn.Game([decks[row[0]]])
            t = time.process_time()
            b = [h.new_state(game_seed(seed, i), log=False).play_greedy().score(0) for i in range(n)]
            tb = time.process_time() - t
            mb, hw = statistics.fmean(b), 1.96 * statistics.stdev(b) / math.sqrt(n)
            out[row] = (mb, mb - hw, mb + hw, n / tb)
        else:
            rb, tb = [], 0.0
            for flip in (False, True):
                order = [decks[row[1]], decks[row[0]]] if flip else [decks[row[0]], decks[row[1]]]
                h = npn.Game(order)
                t = time.process_time()
                rb += [(h.new_state(game_seed(seed, i), log=False).play_greedy().returns()[1 if flip else 0]
                        + 1) / 2 for i in range(n // 2)]
                tb += time.process_time() - t
            lo, hi = wilson(sum(rb), len(rb))
            out[row] = (sum(rb) / len(rb), lo, hi, len(rb) / tb)
    return out


def main() -> None:
    from cardbase.playtest.cards import load_deck_defs, starter_decks

    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--pair", action="append", default=None,
                    help="deck-a,deck-b (repeatable; default: every pair of starter decks)")
    ap.add_argument("--before", type=Path, default=None, help="another checkout to compare with")
    ap.add_argument("--rounds", type=int, default=1, help="alternations of the checkouts (best CPU kept)")
    args = ap.parse_args()
    decks = {n: load_deck_defs(p) for n, p in starter_decks().items()
             if "# game: nespanini" in p.read_text(encoding="utf-8")}
    names = sorted(decks)
    pairs = [tuple(p.split(",")) for p in args.pair] if args.pair else list(itertools.combinations(names, 2))
    rows: list[tuple[str, ...]] = [(d,) for d in names] + pairs
    n = args.games
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores; {n} games a row, seed {args.seed}; "
          f"goldfish greedy, then greedy v greedy duels (seats swapped on the same deals); target "
          f"{TARGET:,} parties/s (processor time) for the file")
    roots = [("after", ROOT)] + ([("before", args.before.resolve())] if args.before else [])
    best: dict[str, dict] = {}
    for r in range(max(args.rounds, 1)):
        for name, root in (roots if r % 2 == 0 else roots[::-1]):
            res = run_child(root, n, args.seed, rows)
            if name not in best:
                best[name] = res
            else:
                for k, v in res.items():
                    best[name][k]["cpu"] = min(best[name][k]["cpu"], v["cpu"])
    engine = engine_figures(decks, rows, n, args.seed)
    met = 0
    for row in rows:
        a = best["after"][",".join(row)]
        speed = a["games"] / a["cpu"]
        met += speed >= TARGET
        mb, lo, hi, eb = engine[row]
        ma = statistics.fmean(a["values"])
        label = f"goldfish {row[0]}" if len(row) == 1 else f"{row[0]} v {row[1]}"
        f = "6.2f" if len(row) == 1 else ".3f"
        inside = "dans" if lo <= ma <= hi else "HORS de"
        line = (f"  {label:38s} fichier {ma:{f}} ({speed:6.0f} parties/s, cible {TARGET}: "
                f"{'atteinte' if speed >= TARGET else 'non'}) | moteur {mb:{f}} [{lo:{f}} – {hi:{f}}] "
                f"({eb:6.0f} parties/s) : {inside} l'intervalle")
        if "before" in best:
            b = best["before"][",".join(row)]
            same = "mêmes parties" if b["digest"] == a["digest"] else "PARTIES DIFFÉRENTES"
            line += f" | avant {b['games'] / b['cpu']:6.0f} parties/s, ×{b['cpu'] / a['cpu']:.2f}, {same}"
        print(line)
    print(f"cible de {TARGET:,} parties/s atteinte sur {met} ligne(s) sur {len(rows)}; "
          f"load average {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
