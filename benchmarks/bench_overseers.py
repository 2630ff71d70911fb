"""Overseers engine throughput and balance figures. Prints figures; asserts nothing.

    python benchmarks/bench_overseers.py [--games N] [--players 5] [--figures N]

Target (issue 13, one core): >= 500 greedy 5-player games/s. Measured three ways: the state's own
greedy play-out (``play_greedy``), the bot interface step by step (what ``cardbase sim game`` does),
and random bots. Then the balance figures of :mod:`cardbase.games.overseers.analysis` at 4 and 5
players with greedy bots (seat, first Leader, rounds led, colours), with Wilson 95 % intervals.
Figures depend on the machine's load (printed first).
"""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

from cardbase.games.bots.registry import make_bot
from cardbase.games import registry
from cardbase.playtest.overseers import analyse
from cardbase.playtest.cards import load_edition_defs

DATA = Path(__file__).resolve().parent.parent / "data" / "editions" / "OVS.toml"


def rate(game, n: int, how: str) -> tuple[float, float]:
    """Games per second of wall time and of this process's CPU time (steadier on a shared machine)."""
    def play(i: int) -> None:
        s = game.new_state(i, log=False)
        if how == "play_greedy":
            s.play_greedy()
            return
        bots = [make_bot(how, seed=i * 31 + p) for p in range(game.num_players)]
        while not s.is_terminal():
            s.apply_action(bots[s.current_player()].step(s))

    for i in range(20):  # warm-up on other seeds
        play(10**6 + i)
    t, c = time.perf_counter(), time.process_time()
    for i in range(n):
        play(i)
    return n / (time.perf_counter() - t), n / (time.process_time() - c)


def pct(x: float) -> str:
    return f"{100 * x:.1f} %"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--players", type=int, default=5)
    ap.add_argument("--figures", type=int, default=4000, help="games per balance batch (0: none)")
    args = ap.parse_args()
    print(f"load average: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    defs = load_edition_defs([DATA])
    game = registry.get("overseers").build(defs, args.players)
    for how in ("play_greedy", "greedy", "random"):
        r, cpu = rate(game, args.games, how)
        print(f"{args.players} players, {how:11s}: {r:8.0f} games/s, {cpu:6.0f} per CPU second "
              f"(target >= 500 greedy)")
    if not args.figures:
        return
    for players in (4, 5):
        a = analyse(defs, players, games=args.figures, seed=0)
        print(f"\n{players} players, {a['games']} greedy games (shared wins: {a['shared_wins']}):")
        for s in a["seats"]:
            lo, hi = s["ci95"]
            print(f"  seat {s['seat']}: {pct(s['win_rate'])} (95 % CI {pct(lo)}–{pct(hi)})")
        f = a["first_leader"]
        lo, hi = f["ci95"]
        print(f"  first Leader: {pct(f['win_rate'])} (95 % CI {pct(lo)}–{pct(hi)}); "
              f"fair share {pct(f['fair_share'])}")
        for r in a["rounds_led"]:
            lo, hi = r["ci95"]
            print(f"  led {r['rounds']} round(s): {r['games']} player-games, {pct(r['win_rate'])} "
                  f"(95 % CI {pct(lo)}–{pct(hi)})")
        print("  cards of each colour over the three counts, winners / others:")
        for c in a["colours"]:
            print(f"    {c['colour']:7s} {c['per_winner']:.2f} / {c['per_other']:.2f}")
        print("  rule coverage (used / occasions):")
        for key, (occasions, used) in a.get("coverage", {}).items():
            share = f"{100 * used / occasions:5.1f} %" if occasions else "    —"
            print(f"    {key:22s} {used:6d} / {occasions:6d}  {share}")


if __name__ == "__main__":
    main()
