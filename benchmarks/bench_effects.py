"""Score-effect evaluation speed: interpreted ``score_bonus`` vs compiled ``compile_score``.

Scores the final hands of a NP1 game state many times (every card with a score effect) and prints
evaluations per second and the equivalent "games scored per second" (10 cards a game).
"""

from __future__ import annotations

import random
import time
from pathlib import Path
from types import SimpleNamespace

from cardbase.storage.datafiles import load_edition_file
from cardbase.domain import CardDef
from cardbase.games.effects import compile_score, parse_effect, score_bonus

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    ed, rows = load_edition_file(ROOT / "data" / "editions" / "NP1.toml")
    cards = [CardDef(id=r["number"], game="nespanini", edition="NP1", number=r["number"],
                     set_size=ed["set_size"], name=r["name"], value=r["value"], colour=r["colour"],
                     banner=r["banner"], keywords=tuple(r.get("keywords", [])),
                     effect=r.get("effect")) for r in rows]
    effects = {c: parse_effect(c.effect) for c in cards}
    compiled = {c: compile_score(e) for c, e in effects.items()}
    rng = random.Random(1)
    situations = []
    for _ in range(200):
        pool = rng.sample(cards, 20)
        hand, disc, opp, deck = pool[:5], pool[5:10], pool[10:15], pool[15:]
        z = SimpleNamespace(hand=hand, discards=disc, opponent_discards=opp,
                            cimetiere=disc + opp, deck=deck)
        situations.append((hand, z))
    n_evals = sum(len(h) for h, _ in situations)

    def run(fn) -> float:
        best = float("inf")
        for _ in range(5):
            t0 = time.perf_counter()
            for hand, z in situations:
                for c in hand:
                    fn(c, z)
            best = min(best, time.perf_counter() - t0)
        return n_evals / best

    interp = run(lambda c, z: score_bonus(effects[c], c, z))
    comp = run(lambda c, z: compiled[c](c, z))
    print(f"interpreted score_bonus : {interp:12,.0f} card evaluations/s "
          f"({interp / 10:,.0f} games scored/s)")
    print(f"compiled compile_score  : {comp:12,.0f} card evaluations/s "
          f"({comp / 10:,.0f} games scored/s)")
    print(f"speed-up                : {comp / interp:.1f}x")


if __name__ == "__main__":
    main()
