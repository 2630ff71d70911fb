"""NesPanini engine throughput. Prints figures; asserts nothing.

    python benchmarks/bench_engine.py [--games N] [--deck NAME] [--goldfish-only]
                                      [--before CHECKOUT [--same N]]

Targets from the specification (one core): greedy goldfish >= 20,000 games/s, greedy vs greedy
>= 10,000 games/s, an ISMCTS decision <= 100 ms at its default budget, 2 processes >= 1.7x one.
Also runs a minimal value-only greedy loop (no rules beyond "discard the lowest value") and prints
the engine's speed as a fraction of it. Greedy games go through ``play_greedy`` (the fast path);
the step-by-step interface is measured too. Throughputs are measured after warming the per-game
caches on other seeds; the figures depend on the machine's load (printed first).
Also prints ruling R10's effect on the 16-Légendaire deck of docs/rulings/nespanini.md (games/s and turns).

Rates are games per second of processor time (``time.process_time``: the machine is shared), the
minimal loop and the engine measured in the same process; the parallel batch alone is timed on
the wall clock. ``--before CHECKOUT`` (a checkout of an earlier commit, e.g. made with
``git worktree add /tmp/before COMMIT --detach``) also plays ``--same`` seeded goldfish games per
starter deck with that checkout's engine and this one, logged, and says whether every move, zone,
score, log entry, rule-coverage count and the generator's state after each game is the same (a
digest of each), and prints the earlier
engine's goldfish rate and ratio to the minimal loop, measured in its own process the same way.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor

from cardbase.games.bots import ISMCTSBot
from cardbase.games.nespanini import Game, play_greedy
from cardbase.playtest.batch import run_goldfish_chunk
from cardbase.playtest.cards import load_deck_defs, starter_decks


def minimal_loop(values: list[int], n: int) -> float:
    rng = random.Random(0)
    t = time.process_time()
    for i in range(n):
        rng.seed(i)
        deck = values[:]
        rng.shuffle(deck)
        hand = deck[-5:]
        del deck[-5:]
        for _ in range(5):
            hand.append(deck.pop())
            hand.remove(min(hand))
        sum(hand)
    return n / (time.process_time() - t)


def engine_rate(game: Game, n: int, *, fast: bool = True) -> float:
    """Greedy games per second: :func:`play_greedy`, or the general step-by-step interface."""
    def play(i: int) -> None:
        s = game.new_state(i, log=False)
        if fast:
            play_greedy(s)
            return
        while s.player != -4:
            s.apply_action(s.greedy_action())

    for i in range(min(n, 2000)):  # warm the per-game caches
        play(i)
    t = time.process_time()
    for i in range(n):
        play(10_000 + i)
    return n / (time.process_time() - t)


def warm_rate(game: Game, n: int) -> float:
    """Greedy games per second once the caches hold every position: ``n`` deals played twice,
    the second pass timed (what a long batch tends to)."""
    for i in range(n):
        play_greedy(game.new_state(50_000 + i, log=False))
    t = time.process_time()
    for i in range(n):
        play_greedy(game.new_state(50_000 + i, log=False))
    return n / (time.process_time() - t)


def ismcts_ms(game: Game, decisions: int = 20) -> float:
    bot = ISMCTSBot(seed=1)
    total, count, seed = 0.0, 0, 0
    while count < decisions:
        s = game.new_state(seed, log=False)
        seed += 1
        while not s.is_terminal() and count < decisions:
            if len(s.legal_actions()) > 1:
                t = time.process_time()
                a = bot.step(s)
                total += time.process_time() - t
                count += 1
            else:
                a = s.legal_actions()[0]
            s.apply_action(a)
    return 1000 * total / count


def timed_chunk(n: int, deck: tuple, seed: int) -> float:
    """In a worker: warm the caches on 500 games, then the seconds taken by ``n`` more."""
    run_goldfish_chunk(0, 500, deck, "greedy", seed + 1000)
    t = time.perf_counter()
    run_goldfish_chunk(0, n, deck, "greedy", seed)
    return time.perf_counter() - t


def parallel(deck: tuple, n: int) -> tuple[float, float]:
    """Goldfish batch throughput with 1 and 2 worker processes (each warmed the same way)."""
    one = two = 0.0
    for _ in range(2):  # the best of two tries of each: other jobs on the machine only slow down
        with ProcessPoolExecutor(1) as ex:
            one = max(one, n / ex.submit(timed_chunk, n, deck, 7).result())
        with ProcessPoolExecutor(2) as ex:
            futs = [ex.submit(timed_chunk, n, deck, 7 + w) for w in range(2)]
            two = max(two, 2 * n / max(f.result() for f in futs))
    return one, two


LEGENDS = """2 Dragonne des Braises
2 Le Colosse de Fer
2 Oracle des marées
2 Le Grand Chêne
2 La Liche
2 La Reine des Ombres
2 Le Roi Soleil
2 La Reine Mère
2 Navigatrice
2 Kraken
"""


def stalemate_figures(n: int) -> None:
    """Ruling R10 on the 16-Légendaire deck whose Cimetière cannot reach 10: greedy duels per
    second and mean turns, with the ruling (ends after 5 turns each) and without (60 turns)."""
    from pathlib import Path

    from cardbase.playtest.cards import deck_from_text, load_edition_defs

    np1 = Path(__file__).resolve().parent.parent / "data" / "editions" / "NP1.toml"
    deck = deck_from_text(LEGENDS, load_edition_defs([np1]))
    parts = []
    for label, rounds in (("ruling R10", 10), ("R10 off", 0)):
        game = Game([deck, deck], stalemate_rounds=rounds)
        turns = 0
        t = time.process_time()
        for i in range(n):
            turns += play_greedy(game.new_state(i, log=False)).turn
        parts.append(f"{label} {n / (time.process_time() - t):,.0f} games/s, {turns / n:.0f} turns")
    print("16 Légendaires vs the same (Cimetière out of reach): " + "; ".join(parts))


def goldfish_digest(deck: list, n: int) -> str:
    """A digest of ``n`` seeded greedy goldfish games of ``deck``, logged: every move, zone,
    score, log entry, rule-coverage count, ending and the dealing generator's state after the
    game (the API of every engine version)."""
    from cardbase.games.nespanini.state import _RNG

    game = Game([deck])
    h = hashlib.sha256()
    for seed in range(n):
        s = play_greedy(game.new_state(seed))
        h.update(repr((s.history, s.hands, s.discards, s.decks, s.turn, s.ended_by, s.scores(),
                       s.events, s.cov, s.peak, s.peak_turn, s.skipped, s.revealed,
                       _RNG.rng.getstate())).encode())
    return h.hexdigest()[:16]


def goldfish_figures(names: list[str], games: int, same: int) -> dict[str, list]:
    """Per starter deck: [minimal loop games/s, goldfish games/s, digest of ``same`` games]."""
    starters = starter_decks()
    out = {}
    for name in names:
        deck = load_deck_defs(starters[name])
        values = [int(c.value or 0) for c in deck]
        base = minimal_loop(values, games)
        gold = engine_rate(Game([deck]), games)
        out[name] = [base, gold, goldfish_digest(deck, same) if same else ""]
    return out


def before_figures(checkout: str, names: list[str], games: int, same: int) -> dict[str, list]:
    """:func:`goldfish_figures` with the engine of ``checkout``, in a process of its own."""
    env = dict(os.environ, PYTHONPATH=os.path.abspath(checkout))
    cmd = [sys.executable, os.path.abspath(__file__), "--figures-json", "--games", str(games),
           "--same", str(same), *(a for n in names for a in ("--deck", n))]
    done = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=20_000)
    ap.add_argument("--deck", action="append", default=None)
    ap.add_argument("--goldfish-only", action="store_true",
                    help="only the goldfish rates and their ratio to the minimal loop")
    ap.add_argument("--before", default=None, help="a checkout of an earlier commit to compare with")
    ap.add_argument("--same", type=int, default=3000,
                    help="seeded goldfish games per deck compared with --before")
    ap.add_argument("--figures-json", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    starters = starter_decks()
    names = args.deck or list(starters)
    if args.figures_json:  # the --before side, run with the earlier checkout's engine
        print(json.dumps(goldfish_figures(names, args.games, args.same)))
        return
    print(f"cpu count {os.cpu_count()}, load average {os.getloadavg()[0]:.2f}, "
          "rates in games per second of processor time")
    if args.before:
        now = goldfish_figures(names, args.games, args.same)
        then = before_figures(args.before, names, args.games, args.same)
        print(f"against {args.before} ({args.same} seeded goldfish games a deck compared, logged):")
        for name in names:
            b, g, d = now[name]
            b0, g0, d0 = then[name]
            print(f"  {name}: {'same games' if d == d0 else 'DIFFERENT GAMES'} ({d} / {d0}); "
                  f"goldfish {g:,.0f} games/s = {g / b:.2f}x minimal ({b:,.0f}), before {g0:,.0f} "
                  f"games/s = {g0 / b0:.2f}x minimal ({b0:,.0f}); {g / g0:.2f}x faster")
        print(f"load average {os.getloadavg()[0]:.2f}")
        return
    if args.goldfish_only:
        for name, (base, gold, _) in goldfish_figures(names, args.games, 0).items():
            print(f"{name}: minimal {base:,.0f} games/s, greedy goldfish {gold:,.0f} games/s, "
                  f"ratio to minimal {gold / base:.2f}")
        print(f"load average {os.getloadavg()[0]:.2f}")
        return
    stalemate_figures(max(200, args.games // 20))
    for name in names:
        deck = load_deck_defs(starters[name])
        values = [int(c.value or 0) for c in deck]
        base = minimal_loop(values, args.games)
        gold = engine_rate(Game([deck]), args.games)
        duel = engine_rate(Game([deck, deck]), args.games // 2)
        gold_warm = warm_rate(Game([deck]), 5000)
        duel_warm = warm_rate(Game([deck, deck]), 2500)
        gold_general = engine_rate(Game([deck]), args.games // 4, fast=False)
        duel_general = engine_rate(Game([deck, deck]), args.games // 8, fast=False)
        ms = ismcts_ms(Game([deck, deck]))
        one, two = parallel(tuple(deck), args.games // 4)
        print(f"{name}:")
        print(f"  minimal value-only loop     {base:10,.0f} games/s")
        print(f"  greedy goldfish (engine)    {gold:10,.0f} games/s   ratio to minimal {gold / base:.2f}")
        print(f"  greedy vs greedy (engine)   {duel:10,.0f} games/s")
        print(f"  caches full (same deals again): goldfish {gold_warm:,.0f}, duel {duel_warm:,.0f} games/s")
        print(f"  same, step by step through apply_action(greedy_action()): goldfish "
              f"{gold_general:,.0f}, duel {duel_general:,.0f} games/s")
        print(f"  ISMCTS decision (300 iter.) {ms:10.1f} ms")
        print(f"  goldfish batch 1 process    {one:10,.0f} games/s; 2 processes {two:,.0f} "
              f"({two / one:.2f}x)")


if __name__ == "__main__":
    main()
