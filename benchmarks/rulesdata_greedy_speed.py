"""The greedy bot of the rules interpreter on the games written as data: for each game and player
count, a digest of N seeded greedy games (game i dealt from game_seed(0, i); the action sequences,
winners and endings) and the greedy games per second of processor time (user + system of this
process), with the load average. A speed change of the greedy bot must leave every digest unchanged
(the same moves): run it before and after and compare the digests (``--digests`` prints them alone,
as JSON, to keep and ``diff``). Marché, Cueillette, Enchères, L'Atout, Le Huit, Menteur and 15 en
un tour at 2, 3 and 4 players (those of the game's range: Menteur from 3); NesPanini
(data/rules/nespanini.toml, two players, every pair of starter decks at its turn) at 2.

    PYTHONPATH=. nice python benchmarks/rulesdata_greedy_speed.py 20
    PYTHONPATH=. nice python benchmarks/rulesdata_greedy_speed.py 20 --games marche cueillette --players 2
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import json
import os
import time
from pathlib import Path

from cardbase.games import registry
from cardbase.games.rulesdata.engine import Game
from cardbase.games.rulesdata.language import load_rules
from cardbase.playtest.batch import game_seed
from cardbase.playtest.cards import load_deck_defs, load_edition_defs, starter_decks

ROOT = Path(__file__).resolve().parent.parent
GAMES = ("marche", "cueillette", "encheres", "atout", "huit", "menteur", "pushluck", "nespanini")


def _builds(code: str, players: int) -> list:
    """The games to play (NesPanini: one per pair of starter decks)."""
    if code == "nespanini":
        rules = load_rules(ROOT / "data" / "rules" / "nespanini.toml")
        decks = {k: load_deck_defs(p) for k, p in starter_decks().items()
                 if "# game: nespanini" in p.read_text(encoding="utf-8")}
        return [Game(rules, decks=[decks[a], decks[b]]) for a, b in itertools.combinations(sorted(decks), 2)]
    if code == "pushluck":
        p15 = [c for c in load_edition_defs([ROOT / "data" / "editions" / "P15.toml"]) if c.game == "pushluck"]
        return [Game(load_rules(ROOT / "data" / "rules" / "pushluck.toml"), p15, players)]
    return [registry.get(code).build((), players)]


def run(code: str, players: int, n: int) -> tuple[str, int, float]:
    """(digest, games played, CPU seconds)."""
    h = hashlib.sha256()
    games = 0
    start = time.process_time()
    for game in _builds(code, players):
        for i in range(n):
            s = game.new_state(game_seed(0, i), log=False)
            while not s.is_terminal():
                s.apply_action(s.greedy_action())
            h.update(repr((s.history, s.winners, s.ended_by)).encode())
            games += 1
    return h.hexdigest()[:16], games, time.process_time() - start


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("n", type=int, nargs="?", default=20, help="seeded games per game and player count")
    ap.add_argument("--games", nargs="*", default=list(GAMES))
    ap.add_argument("--players", nargs="*", type=int, default=[2, 3, 4])
    ap.add_argument("--digests", action="store_true", help="print the digests alone, as JSON")
    args = ap.parse_args()
    out: dict[str, str] = {}
    if not args.digests:
        print(f"load average at the start: {os.getloadavg()[0]:.2f}")
    for code in args.games:
        rules = load_rules(ROOT / "data" / "rules" / f"{code}.toml")
        counts = [p for p in args.players if rules.min_players <= p <= rules.max_players]
        for players in counts if code != "nespanini" else [2]:  # the counts the game is played at
            digest, games, cpu = run(code, players, args.n)
            out[f"{code}:{players}"] = digest
            if not args.digests:
                print(f"{code:10} {players} players  {digest}  {games:4} games  {cpu:7.2f} CPU s  "
                      f"{games / cpu:7.1f} greedy games / CPU s", flush=True)
    if args.digests:
        print(json.dumps(out, indent=1))
    else:
        print(f"load average at the end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
