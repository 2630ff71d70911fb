"""The moves of the rules interpreter's greedy bot, as digests: every starter deck's goldfish and
every pair of starter decks in duel of data/rules/nespanini.toml, Le Huit (data/rules/huit.toml) and
15 en un tour (data/rules/pushluck.toml), N seeded games each (game i dealt from game_seed(0, i)); a
digest of each batch's action sequences, winners and endings, and the games per second of processor
time. A speed change of the interpreter must leave every digest unchanged (the same moves); run it
before and after (``bench_rulesdata_nespanini.py --before`` compares the NesPanini rows itself).

    PYTHONPATH=. nice python benchmarks/rulesdata_greedy_fingerprint.py 100
"""

from __future__ import annotations

import hashlib
import itertools
import json
import sys
import time
from pathlib import Path

from cardbase.games import registry
from cardbase.games.rulesdata.engine import Game
from cardbase.games.rulesdata.language import load_rules
from cardbase.playtest.batch import game_seed
from cardbase.playtest.cards import load_deck_defs, load_edition_defs, starter_decks

ROOT = Path(__file__).resolve().parent.parent


def _play(game, seed: int):
    s = game.new_state(seed, log=False)
    while not s.is_terminal():
        s.apply_action(s.greedy_action())
    return s


def _digest(game, n: int) -> str:
    h = hashlib.sha256()
    for i in range(n):
        s = _play(game, game_seed(0, i))
        h.update(repr((s.history, s.winners, s.ended_by)).encode())
    return h.hexdigest()[:16]


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    rules = load_rules(ROOT / "data" / "rules" / "nespanini.toml")
    decks = {k: load_deck_defs(p) for k, p in starter_decks().items()
             if "# game: nespanini" in p.read_text(encoding="utf-8")}
    names = sorted(decks)
    out: dict[str, str] = {}
    t = time.process_time()
    for name in names:
        out[f"goldfish:{name}"] = _digest(Game(rules, decks=[decks[name]]), n)
    gold = time.process_time() - t
    t = time.process_time()
    for a, b in itertools.combinations(names, 2):
        out[f"duel:{a}:{b}"] = _digest(Game(rules, decks=[decks[a], decks[b]]), n)
    duels = time.process_time() - t
    out["huit"] = _digest(registry.get("huit").build((), 2), n)
    p15 = [c for c in load_edition_defs([ROOT / "data" / "editions" / "P15.toml"]) if c.game == "pushluck"]
    out["pushluck"] = _digest(Game(load_rules(ROOT / "data" / "rules" / "pushluck.toml"), p15, 2), n)
    print(json.dumps(out, indent=1))
    pairs = len(names) * (len(names) - 1) // 2
    print(f"goldfish {len(names) * n} games {len(names) * n / gold:.0f}/s, duels {pairs * n} games "
          f"{pairs * n / duels:.0f}/s (processor time)", file=sys.stderr)


if __name__ == "__main__":
    main()
