"""NesPanini engine throughput. Prints figures; asserts nothing.

    python benchmarks/bench_engine.py [--games N] [--deck NAME]

Targets from the specification (one core): greedy goldfish >= 20,000 games/s, greedy vs greedy
>= 10,000 games/s, an ISMCTS decision <= 100 ms at its default budget, 2 processes >= 1.7x one.
Also runs a minimal value-only greedy loop (no rules beyond "discard the lowest value") and prints
the engine's speed as a fraction of it.
"""

from __future__ import annotations

import argparse
import os
import random
import time
from concurrent.futures import ProcessPoolExecutor

from cardbase.bots import ISMCTSBot
from cardbase.games.nespanini import Game
from cardbase.playtest.batch import run_goldfish_chunk
from cardbase.playtest.cards import load_deck_defs, starter_decks


def minimal_loop(values: list[int], n: int) -> float:
    rng = random.Random(0)
    t = time.perf_counter()
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
    return n / (time.perf_counter() - t)


def engine_rate(game: Game, n: int) -> float:
    for i in range(min(n, 2000)):  # warm the per-game caches
        s = game.new_state(i, log=False)
        while s.player != -4:
            s.apply_action(s.greedy_action())
    t = time.perf_counter()
    for i in range(n):
        s = game.new_state(10_000 + i, log=False)
        while s.player != -4:
            s.apply_action(s.greedy_action())
    return n / (time.perf_counter() - t)


def ismcts_ms(game: Game, decisions: int = 20) -> float:
    bot = ISMCTSBot(seed=1)
    total, count, seed = 0.0, 0, 0
    while count < decisions:
        s = game.new_state(seed, log=False)
        seed += 1
        while not s.is_terminal() and count < decisions:
            if len(s.legal_actions()) > 1:
                t = time.perf_counter()
                a = bot.step(s)
                total += time.perf_counter() - t
                count += 1
            else:
                a = s.legal_actions()[0]
            s.apply_action(a)
    return 1000 * total / count


def parallel(deck: tuple, n: int) -> tuple[float, float]:
    t = time.perf_counter()
    run_goldfish_chunk(0, n, deck, "greedy", 7)
    one = n / (time.perf_counter() - t)
    with ProcessPoolExecutor(2) as ex:
        list(ex.map(run_goldfish_chunk, [0, 0], [200, 200], [deck] * 2, ["greedy"] * 2, [1, 2]))
        t = time.perf_counter()
        futs = [ex.submit(run_goldfish_chunk, 0, n, deck, "greedy", 7 + w) for w in range(2)]
        for f in futs:
            f.result()
        two = 2 * n / (time.perf_counter() - t)
    return one, two


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=20_000)
    ap.add_argument("--deck", default=None)
    args = ap.parse_args()
    starters = starter_decks()
    names = [args.deck] if args.deck else list(starters)
    print(f"cpu count {os.cpu_count()}, load average {os.getloadavg()[0]:.2f}")
    for name in names:
        deck = load_deck_defs(starters[name])
        values = [int(c.value or 0) for c in deck]
        base = minimal_loop(values, args.games)
        gold = engine_rate(Game([deck]), args.games)
        duel = engine_rate(Game([deck, deck]), args.games // 2)
        ms = ismcts_ms(Game([deck, deck]))
        one, two = parallel(tuple(deck), args.games // 4)
        print(f"{name}:")
        print(f"  minimal value-only loop     {base:10,.0f} games/s")
        print(f"  greedy goldfish (engine)    {gold:10,.0f} games/s   ratio to minimal {gold / base:.2f}")
        print(f"  greedy vs greedy (engine)   {duel:10,.0f} games/s")
        print(f"  ISMCTS decision (300 iter.) {ms:10.1f} ms")
        print(f"  goldfish batch 1 process    {one:10,.0f} games/s; 2 processes {two:,.0f} "
              f"({two / one:.2f}x)")


if __name__ == "__main__":
    main()
