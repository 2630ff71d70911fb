"""15 en un tour's Playtest table: the time of one click, by player count and bot. Prints figures;
asserts nothing.

    python benchmarks/bench_pushluck_table.py [--clicks N]

One click is what the page does on « Nouvelle partie » or on a card / « M'arrêter »: replay the
game, apply your action, let the bots play until your next decision
(``cardbase.ui.playtest_pushluck.play``), then the advice shown with it (``win_advice`` and
``advice``). "cold" is the first click of a process for that player count (the exact solver of
the box is built then, once, behind a spinner); "warm" is the mean of the next clicks. Above
``OPTIMAL_MAX_PLAYERS`` and up to ``BACKGROUND_MAX_PLAYERS`` players the table builds the optimal
bots' solver in a background thread (the page shows the time spent and a cancel button): "cold"
is then that build, marked "(background)", and the clicks after it are timed as usual. Beyond,
the optimal bots are not offered, so they are not timed; ``--max-players`` skips the slow builds. Target: every warm click under 1 s. Wall-clock
seconds of this process (the page waits for wall time); the load average is printed first.
"""

from __future__ import annotations

import argparse
import os
import time

from cardbase.games import registry
from cardbase.games.pushluck.state import FLIP, RESHUFFLE, STOP, replay
from cardbase.playtest.cards import DATA_DIR, load_edition_defs
from cardbase.ui import playtest_pushluck as table


def _engine(players: int, stop15: bool = False):
    key = ("bench", players, stop15)
    game = table._GAMES.get(key)
    if game is None:
        cards = load_edition_defs([DATA_DIR / "editions" / "P15.toml"])
        game = table._GAMES[key] = registry.playable("pushluck").build(cards, players,
                                                                       stop_at_target=stop15)
    return game


def click(record: dict, action: int | None) -> tuple[dict, float]:
    t = time.perf_counter()
    record = table.play(record, action)
    state = replay(table.record_game(record), record["seed"], record["actions"])
    if not state.is_terminal():
        table.win_advice(state)
        table.advice(state)
    return record, time.perf_counter() - t


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--clicks", type=int, default=30)
    ap.add_argument("--max-players", type=int, default=6)
    args = ap.parse_args()
    print(f"load average: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    table.engine_game = _engine  # the edition's box, without the app's database
    print(f"{'players':>7} {'bot':>8} {'cold s':>8} {'warm s (mean)':>14} {'warm s (max)':>13}")
    for players in range(1, args.max_players + 1):
        for bot in table.BOTS:
            if bot == "optimal" and players > table.BACKGROUND_MAX_PLAYERS:
                print(f"{players:>7} {bot:>8}   not offered (exact solver too slow)")
                continue
            table._GAMES.pop(("bench", players, False), None)
            background = ""
            if bot == "optimal" and players > table.OPTIMAL_MAX_PLAYERS:
                t = time.perf_counter()  # what the background thread does, once per box and rules
                table.engine_game(players).solver().seats(players)
                build = time.perf_counter() - t
                background = " (background)"
            record, cold = click(table.new_game(bot, players, seed=1), None)
            if background:
                cold = build
            warm: list[float] = []
            while len(warm) < args.clicks:
                state = replay(table.engine_game(players), record["seed"], record["actions"])
                if state.is_terminal():
                    record, _ = click(table.new_game(bot, players, seed=len(warm) + 2), None)
                    continue
                act = (RESHUFFLE if state.full and state.points < 15 else STOP if state.full
                       else STOP if state.turn_flips and state.points >= 15 else FLIP)
                record, dt = click(record, act)
                warm.append(dt)
            print(f"{players:>7} {bot:>8} {cold:8.3f} {sum(warm) / len(warm):14.4f} {max(warm):13.4f}"
                  f"{background}", flush=True)


if __name__ == "__main__":
    main()
