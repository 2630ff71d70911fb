"""OVERKILL greedy play-out: games per CPU second, and the same moves as another checkout.

    python benchmarks/bench_overkill_greedy.py [--games 3000] [--check 3000] [--before CHECKOUT]

Target (issue 29): >= 2,000 greedy-vs-greedy games per CPU second on one core (``State.play_greedy``,
the path of ``cardbase sim game overkill`` and of the search bots' play-outs), move for move the
same as before. ``--before`` is another checkout of the code (``git archive <commit> | tar -x -C
DIR``): each checkout runs in its own process, the two alternate ``--rounds`` times, and the script
prints the CPU time (``time.process_time``, steadier than wall time on a shared machine) of each,
their ratio, and a digest of every game's history, event log, scores, rule coverage and generator
state on ``--check`` seeds under four rule sets: equal digests mean the same games, move for move.
This is the inner loop; the whole ``cardbase sim game overkill`` process is timed by
``bench_overkill.py`` (games/s start-up included) and ``bench_startup.py`` (its fixed cost). On a
shared machine CPU time still moves by ±20 % from run to run: for a steady comparison count
instructions, e.g. ``valgrind --tool=callgrind python -c '…play N games…'`` for two values of N.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RULES = [{}, {"points": "all"}, {"points": "best_line", "reset_keeps": 1},
         {"reset_keeps": 0, "timer": 6, "first_player": "loser", "pile_copies": 2}]

CHILD = r"""
import hashlib, json, sys, time
sys.path.insert(0, sys.argv[1])
games, check = int(sys.argv[2]), int(sys.argv[3])
rules_sets = json.loads(sys.argv[4])
from cardbase.games.overkill.material import box_from_cards
from cardbase.games.overkill.rules import Rules
from cardbase.games.overkill.state import Game
from cardbase.playtest.cards import load_edition_defs
from pathlib import Path
box = box_from_cards(load_edition_defs([Path(sys.argv[1]) / "data" / "editions" / "OVK.toml"]))
out = {}
game = Game(box)
for i in range(min(games, 2000)):  # the per-game memos, as in a long batch
    game.new_state(1_000_000 + i, log=False).play_greedy()
t = time.process_time()
w = time.perf_counter()
for i in range(games):
    game.new_state(i, log=False).play_greedy()
out["cpu"] = time.process_time() - t
out["wall"] = time.perf_counter() - w
digests = []
for rules in rules_sets:
    g = Game(box, Rules(**rules))
    h = hashlib.sha256()
    for i in range(check):
        s = g.new_state(i)
        s.play_greedy()
        h.update(repr((s.history, s.events, s.scores(), s.cov, s.turns, s.round,
                       s.rng.getstate())).encode())
    digests.append(h.hexdigest()[:16])
out["digests"] = digests
print(json.dumps(out))
"""


def run(root: Path, games: int, check: int) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    p = subprocess.run([sys.executable, "-c", CHILD, str(root), str(games), str(check),
                        json.dumps(RULES)], env=env, capture_output=True, text=True, check=True)
    return json.loads(p.stdout)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=3000)
    ap.add_argument("--check", type=int, default=3000, help="seeds compared per rule set")
    ap.add_argument("--before", type=Path, default=None)
    ap.add_argument("--root", type=Path, default=ROOT)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    print(f"load average: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    roots = [("after", args.root)] + ([("before", args.before)] if args.before else [])
    best: dict[str, dict] = {}
    for r in range(args.rounds):
        for name, root in (roots if r % 2 == 0 else roots[::-1]):
            res = run(root, args.games, args.check if r == 0 else 0)
            prev = best.get(name)
            if prev is None:
                best[name] = res
            else:
                prev["cpu"] = min(prev["cpu"], res["cpu"])
                prev["wall"] = min(prev["wall"], res["wall"])
    for name, res in best.items():
        print(f"{name}: {args.games / res['cpu']:,.0f} greedy games per CPU second "
              f"({args.games / res['wall']:,.0f} wall), digests {' '.join(res['digests'])}")
    if "before" in best:
        a, b = best["after"], best["before"]
        print(f"speed-up: {b['cpu'] / a['cpu']:.2f}x CPU ({b['wall'] / a['wall']:.2f}x wall); "
              f"same games on {args.check} seeds x {len(RULES)} rule sets: "
              f"{'yes' if a['digests'] == b['digests'] else 'NO'}")


if __name__ == "__main__":
    main()
