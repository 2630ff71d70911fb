"""One click at each Playtest table: what a person waits for, per game, player count and bot.

    python benchmarks/bench_tables.py [--games N] [--only GAME] [--budget SECONDS]

A click at a table replays the game's record from its seed (the page keeps only the actions),
plays the person's move, then lets the bots play until it is the person's turn again
(``cardbase.ui.playtest_box.bots_until``). This script does the same work outside the page for
whole games where the person plays a random legal move, and prints for every configuration the
median, the 95th percentile and the slowest click, in wall and CPU seconds. Configurations whose
slowest click passes the budget (1 s) are marked ``SLOW``: the table must show progress there or
not offer that bot at that count. Asserts nothing.
"""

from __future__ import annotations

import argparse
import logging
import os
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cardbase.games import registry  # noqa: E402
from cardbase.playtest.cards import load_edition_defs  # noqa: E402
from cardbase.ui.playtest_box import bots_until  # noqa: E402


def box(code: str):
    editions = sorted((ROOT / "data" / "editions").glob("*.toml"))
    return [c for c in load_edition_defs(editions) if c.game == code]


def one_game(game, seed: int, bot: str, human: int, rng: random.Random) -> list[tuple[float, float]]:
    """Every click of one game: (wall, cpu) seconds."""
    actions: list[int] = []
    state = game.new_state(seed)
    actions += bots_until(state, human=human, bot=bot, seed=seed, played=0)
    clicks = []
    while not state.is_terminal():
        w0, c0 = time.perf_counter(), time.process_time()
        state = game.new_state(seed)  # the page replays the record at every click
        for a in actions:
            state.apply_action(a)
        move = rng.choice(state.legal_actions(human))
        state.apply_action(move)
        actions.append(move)
        actions += bots_until(state, human=human, bot=bot, seed=seed, played=len(actions))
        clicks.append((time.perf_counter() - w0, time.process_time() - c0))
        if len(clicks) > 400:
            break
    return clicks


def main() -> None:
    logging.getLogger("streamlit").setLevel(logging.ERROR)  # outside a page: its bare-mode warnings
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2, help="games per configuration")
    ap.add_argument("--only", default=None, help="one game code")
    ap.add_argument("--budget", type=float, default=1.0, help="seconds a click may take")
    ap.add_argument("--pushluck-optimal-max", type=int, default=4,
                    help="15 en un tour: the most players timed with the optimal bots (their solver "
                         "is built first, minutes at 5)")
    args = ap.parse_args()
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores; {args.games} game(s) a configuration")
    print(f"{'game':<10} {'players':>7} {'bot':<8} {'clicks':>6} {'median':>8} {'p95':>8} {'max':>8} "
          f"{'max cpu':>8}")
    for code, spec in registry.REGISTRY.items():
        if args.only and code != args.only or spec.material != "box" or not spec.engine:
            continue
        cards = box(code)
        for players in range(spec.min_players, spec.max_players + 1):
            game = spec.build(cards, players)
            for bot in spec.bots:
                if code == "pushluck" and bot == "optimal" and players > 3:
                    # the table builds this solver once in the background (or does not offer it):
                    # bench_pushluck_table.py times that build; here only the clicks after it
                    from cardbase.ui.playtest_pushluck import BACKGROUND_MAX_PLAYERS

                    if players > BACKGROUND_MAX_PLAYERS or players > args.pushluck_optimal_max:
                        continue
                    game.solver().seats(players)
                times: list[tuple[float, float]] = []
                for g in range(args.games):
                    rng = random.Random(g)
                    times += one_game(game, 1000 + g, bot, 0, rng)
                if not times:
                    continue
                walls = sorted(w for w, _ in times)
                p95 = walls[min(len(walls) - 1, int(0.95 * len(walls)))]
                slow = "  SLOW" if walls[-1] > args.budget else ""
                print(f"{code:<10} {players:>7} {bot:<8} {len(times):>6} {statistics.median(walls):>8.3f} "
                      f"{p95:>8.3f} {walls[-1]:>8.3f} {max(c for _, c in times):>8.3f}{slow}", flush=True)


if __name__ == "__main__":
    main()
