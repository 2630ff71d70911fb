"""The moves of the rules interpreter's greedy bot, as digests: every starter deck's goldfish and two
duels of data/rules/nespanini.toml, and Le Huit (data/rules/huit.toml), N seeded games each (game
i dealt from game_seed(0, i)); a digest of each batch's action sequences, winners and endings, and
the games per second of processor time. A speed change of the interpreter must leave every digest
unchanged (the same moves); run it before and after.

    PYTHONPATH=. nice python benchmarks/rulesdata_greedy_fingerprint.py 100
"""
import hashlib, sys, time, json
from pathlib import Path
from cardbase.games.rulesdata.engine import Game
from cardbase.games.rulesdata.language import load_rules
from cardbase.playtest.cards import load_deck_defs, starter_decks
from cardbase.playtest.batch import game_seed
N = int(sys.argv[1]) if len(sys.argv) > 1 else 100
rules = load_rules(Path("data/rules/nespanini.toml"))
decks = {n: load_deck_defs(p) for n, p in starter_decks().items()}
names = sorted(decks)
out = {}
t0 = time.process_time(); games = 0
def play(g, seed):
    s = g.new_state(seed, log=False)
    while not s.is_terminal():
        s.apply_action(s.greedy_action())
    return s
for name in names:
    g = Game(rules, decks=[decks[name]])
    h = hashlib.sha256()
    for i in range(N):
        s = play(g, game_seed(0, i)); games += 1
        h.update(repr((s.history, s.winners, s.ended_by)).encode())
    out["gold:" + name] = h.hexdigest()[:16]
tg = time.process_time() - t0; ng = games
t1 = time.process_time()
for a, b in [(names[0], names[1]), (names[2], names[3] if len(names) > 3 else names[0])]:
    g = Game(rules, decks=[decks[a], decks[b]])
    h = hashlib.sha256()
    for i in range(N):
        s = play(g, game_seed(0, i)); games += 1
        h.update(repr((s.history, s.winners, s.ended_by)).encode())
    out[f"duel:{a}:{b}"] = h.hexdigest()[:16]
td = time.process_time() - t1
from cardbase.games import registry
for code in ("huit",):
    g = registry.get(code).build((), 2)
    h = hashlib.sha256()
    for i in range(N):
        s = play(g, game_seed(0, i))
        h.update(repr((s.history, s.winners, s.ended_by)).encode())
    out[code] = h.hexdigest()[:16]
print(json.dumps(out, indent=1))
print(f"goldfish {ng} games {ng/tg:.0f}/s CPU; duels {games-ng} games {(games-ng)/td:.0f}/s CPU", file=sys.stderr)
