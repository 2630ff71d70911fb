"""NesPanini written as data (data/rules/nespanini.toml) against its hand-written engine, on the
same seeds: goldfish mean score of each starter deck and the greedy duel win rate (points rate,
seats swapped on the same deals) of each pair given, with the hand-written engine's 95 % interval,
and the games per second of each (processor time, so that a busy machine does not skew it).

    PYTHONPATH=. nice python benchmarks/bench_rulesdata_nespanini.py --games 400
"""

from __future__ import annotations

import argparse
import math
import statistics
import time
from pathlib import Path

from cardbase.games import nespanini as npn
from cardbase.games.rulesdata.engine import Game
from cardbase.games.rulesdata.language import load_rules
from cardbase.playtest.batch import game_seed
from cardbase.playtest.cards import load_deck_defs, starter_decks
from cardbase.playtest.stats import wilson

FILE = Path(__file__).resolve().parent.parent / "data" / "rules" / "nespanini.toml"


def _data_game(game: Game, seed: int):
    s = game.new_state(seed, log=False)
    while not s.is_terminal():
        s.apply_action(s.greedy_action())
    return s


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--pair", action="append", default=None, help="deck-a,deck-b (repeatable)")
    args = ap.parse_args()
    decks = {n: load_deck_defs(p) for n, p in starter_decks().items()}
    rules = load_rules(FILE)
    n = args.games
    print(f"goldfish, greedy, {n} games a deck, seed {args.seed}")
    for name in sorted(decks):
        g, h = Game(rules, decks=[decks[name]]), npn.Game([decks[name]])
        t = time.process_time()
        a = [_data_game(g, game_seed(args.seed, i)).effect_score(0) for i in range(n)]
        ta = time.process_time() - t
        t = time.process_time()
        b = [h.new_state(game_seed(args.seed, i), log=False).play_greedy().score(0) for i in range(n)]
        tb = time.process_time() - t
        mb, hw = statistics.fmean(b), 1.96 * statistics.stdev(b) / math.sqrt(n)
        ma = statistics.fmean(a)
        ok = "dans" if mb - hw <= ma <= mb + hw else "HORS de"
        print(f"  {name:18s} fichier {ma:6.2f} ({n / ta:6.0f} parties/s) | moteur {mb:6.2f} "
              f"[{mb - hw:.2f} – {mb + hw:.2f}] ({n / tb:6.0f} parties/s) : {ok} l'intervalle")
    pairs = [tuple(p.split(",")) for p in (args.pair or ["maree-et-crypte,braises-ardentes",
                                                         "bosquet-en-fete,cour-arc-en-ciel"])]
    print(f"duel, greedy v greedy, {n} games a pair (seats swapped on the same deals)")
    for da, db in pairs:
        ra, rb, ta, tb = [], [], 0.0, 0.0
        for flip in (False, True):
            order = [decks[db], decks[da]] if flip else [decks[da], decks[db]]
            me = 1 if flip else 0
            g, h = Game(rules, decks=order), npn.Game(order)
            t = time.process_time()
            ra += [(_data_game(g, game_seed(args.seed, i)).returns()[me] + 1) / 2 for i in range(n // 2)]
            ta += time.process_time() - t
            t = time.process_time()
            rb += [(h.new_state(game_seed(args.seed, i), log=False).play_greedy().returns()[me] + 1) / 2
                   for i in range(n // 2)]
            tb += time.process_time() - t
        pa, pb = sum(ra) / len(ra), sum(rb) / len(rb)
        lo, hi = wilson(sum(rb), len(rb))
        ok = "dans" if lo <= pa <= hi else "HORS de"
        print(f"  {da} v {db}: fichier {pa:.3f} ({len(ra) / ta:6.0f} parties/s) | moteur {pb:.3f} "
              f"[{lo:.3f} – {hi:.3f}] ({len(rb) / tb:6.0f} parties/s) : {ok} l'intervalle")


if __name__ == "__main__":
    main()
