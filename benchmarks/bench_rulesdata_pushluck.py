"""15 en un tour written as data (data/rules/pushluck.toml) against its hand-written engine, on the
same seeds, two players, greedy bots on both seats: seat 1's win rate and P(15 in the first turn)
(seat 1's first turn ends at 15 or more), each engine's figure with the hand-written engine's
95 % interval, and the games per second of each (processor time, so that a busy machine does not skew it).

    PYTHONPATH=. nice python benchmarks/bench_rulesdata_pushluck.py --games 2000
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from cardbase.games.pushluck.bots import greedy_action
from cardbase.games.pushluck.material import box_from_cards
from cardbase.games.pushluck.rules import Rules as PushRules
from cardbase.games.pushluck.state import Game as PushGame
from cardbase.games.rulesdata.engine import Game
from cardbase.games.rulesdata.language import load_rules
from cardbase.playtest.batch import game_seed
from cardbase.playtest.cards import load_edition_defs
from cardbase.playtest.stats import wilson

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    cards = [c for c in load_edition_defs([ROOT / "data" / "editions" / "P15.toml"]) if c.game == "pushluck"]
    data = Game(load_rules(ROOT / "data" / "rules" / "pushluck.toml"), cards, 2)
    hand = PushGame(box_from_cards(cards), PushRules(), 2)
    n = args.games
    out = {}
    for label, game, step, score in (
            ("fichier", data, lambda s: s.greedy_action(), lambda s: s.counters[0]["score"]),
            ("moteur", hand, greedy_action, lambda s: s.scores()[0])):
        wins = fifteen = 0
        t = time.process_time()
        for i in range(n):
            s = game.new_state(game_seed(args.seed, i), log=False)
            first = None
            while not s.is_terminal():
                s.apply_action(step(s))
                if first is None and s.turns >= 1:
                    first = score(s)
            wins += s.winner() == 0
            fifteen += (score(s) if first is None else first) >= 15
        out[label] = (wins, fifteen, n / (time.process_time() - t))
    hw, hf, _ = out["moteur"]
    for label, (w, f, speed) in out.items():
        print(f"{label:8s} place 1 : {w / n:.3f} (moteur [{wilson(hw, n)[0]:.3f} – {wilson(hw, n)[1]:.3f}])"
              f" ; P(15 au premier tour) : {f / n:.3f} (moteur [{wilson(hf, n)[0]:.3f} – "
              f"{wilson(hf, n)[1]:.3f}]) ; {speed:.0f} parties/s")


if __name__ == "__main__":
    main()
