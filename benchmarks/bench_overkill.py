"""OVERKILL engine and bots: throughputs, decision times, process scaling, the ladder. Asserts nothing.

    python benchmarks/bench_overkill.py [--games N]            # speed figures
    python benchmarks/bench_overkill.py --ladder N [--seed S]  # the bot ladder, N seeds per rung

Targets (issue 10, one core): >= 2,000 greedy-vs-greedy games/s, an ISMCTS decision <= 100 ms at
its default budget, ``cardbase sim game`` on 2 processes >= 1.7x one. Prints, in order: the load,
greedy games/s of the fast path (``State.play_greedy``) and of the step-by-step interface, the
whole ``cardbase sim game overkill`` command with its start-up (1 and 2 workers), the batch
runner's process scaling, and ms per decision of ``mc`` and ``ismcts``. CPU time (``cpu``) is
printed beside wall time: on a loaded machine it is the fairer figure of one core's speed.

The ladder plays every rung on the same deal seeds with the seats swapped (each seed twice) and
prints wins / ties / losses, the points rate (a tie counts a half) and its Wilson 95 % interval.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from cardbase.games.bots import make_bot
from cardbase.games.overkill.material import box_from_cards
from cardbase.games.overkill.state import Game
from cardbase.playtest.cards import load_edition_defs
from cardbase.playtest.games import simulate
from cardbase.playtest.stats import wilson

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "data" / "editions" / "OVK.toml"
CARDBASE = "import sys; sys.argv[0] = 'cardbase'; from cardbase.cli import main; sys.exit(main())"


def defs():
    return load_edition_defs([DATA])


def greedy_rate(game: Game, n: int, *, fast: bool = True, reference: bool = False) -> tuple[float, float]:
    """Greedy-vs-greedy games per second (wall, cpu), after warming the per-game memos: the fast
    path, the step-by-step interface, or the reference heuristic (:mod:`.overkill.bots`) step by step."""
    from cardbase.games.overkill.bots import greedy_action as reference_action

    def play(i: int) -> None:
        s = game.new_state(i, log=False)
        if fast:
            s.play_greedy()
            return
        choose = reference_action if reference else type(s).greedy_action
        while not s.is_terminal():
            s.apply_action(choose(s))

    for i in range(min(n, 2000)):
        play(1_000_000 + i)
    w, c = time.perf_counter(), time.process_time()
    for i in range(n):
        play(i)
    return n / (time.perf_counter() - w), n / (time.process_time() - c)


def decision_ms(game: Game, name: str, decisions: int) -> float:
    """Mean ms (cpu) of a ``name`` decision against greedy, over the first decisions of games."""
    total, n, seed = 0.0, 0, 0
    while n < decisions:
        s = game.new_state(seed, log=False)
        bot = make_bot(name, seed=seed)
        while not s.is_terminal() and n < decisions:
            if s.current_player() == 0:
                t = time.process_time()
                a = bot.step(s)
                total += time.process_time() - t
                n += 1
            else:
                a = s.greedy_action()
            s.apply_action(a)
        seed += 1
    return 1000 * total / n


def command_rate(games: int, workers: int) -> float:
    """Games/s of the whole ``cardbase sim game overkill`` command, start-up included."""
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, DATABASE_URL=f"sqlite:///{tmp}/bench.db", CARDBASE_LANG="en")
        subprocess.run([sys.executable, "-c", CARDBASE, "init"], env=env, check=True,
                       capture_output=True, cwd=ROOT)
        t = time.perf_counter()
        subprocess.run([sys.executable, "-c", CARDBASE, "sim", "game", "overkill", "--games",
                        str(games), "--workers", str(workers), "--json"], env=env, check=True,
                       capture_output=True, cwd=ROOT)
        return games / (time.perf_counter() - t)


def runner_rate(games: int, workers: int) -> float:
    cards = defs()
    t = time.perf_counter()
    simulate("overkill", cards, games=games, seed=7, workers=workers)
    return games / (time.perf_counter() - t)


def rung(a: str, b: str, seeds: int, seed: int, workers: int) -> dict:
    """``a`` against ``b`` on ``seeds`` deals, each played twice with the seats swapped."""
    cards = defs()
    first, _ = simulate("overkill", cards, bots=[a, b], games=seeds, seed=seed, workers=workers)
    second, _ = simulate("overkill", cards, bots=[b, a], games=seeds, seed=seed, workers=workers)
    w = first.seats[0]["wins"] + second.seats[1]["wins"]
    lost = first.seats[1]["wins"] + second.seats[0]["wins"]
    n = 2 * seeds
    ties = n - w - lost
    points = w + ties / 2
    lo, hi = wilson(points, n)
    return {"bot": a, "against": b, "games": n, "wins": w, "ties": ties, "losses": lost,
            "points_rate": points / n, "ci95": [lo, hi]}


def insight(games: int, seed: int, **rules) -> None:
    """Design figures from greedy-vs-greedy games, round by round: each atout's round win rate
    when dealt (against the rounds it was not dealt to that seat), how often it is played, the
    first player's share of rounds, rounds per game and stakes."""
    from collections import Counter

    from cardbase.games.overkill.rules import Rules
    from cardbase.playtest.batch import game_seed

    game = Game(box_from_cards(defs()), Rules(**rules))
    names = [a.name for a in game.atouts]
    dealt = Counter()
    won_dealt = Counter()
    played = Counter()
    gained = Counter()  # score change of the seat in the rounds it was dealt the atout
    gained_sq = Counter()
    rounds_total = first_won = first_lost = 0
    lengths = []
    last_bets = []
    stakes = []
    seat1 = 0
    for i in range(games):
        s = game.new_state(game_seed(seed, i))
        while not s.is_terminal():
            r, hands, first = s.round, [list(h) for h in s.hands], s.round_first
            last_bet = s.bet  # the bet of the round in play (OK2: it grows after a won round)
            before = s.scores()
            s.play_greedy(r)
            after = s.scores()
            winner = s.round_winners[r - 1]
            rounds_total += 1
            first_won += winner == first
            first_lost += winner == 1 - first
            for p in (0, 1):
                for k in hands[p]:
                    dealt[k] += 1
                    won_dealt[k] += 1.0 if winner == p else 0.5 if winner < 0 else 0.0
                    d = after[p] - before[p]
                    gained[k] += d
                    gained_sq[k] += d * d
        for e in s.events:
            if e[0] == "atout":
                played[e[2]] += 1
            elif e[0] == "round_end":
                stakes.append(e[4])
        lengths.append(s.round)
        last_bets.append(last_bet)
        seat1 += s.returns()[0] > 0
    lo, hi = wilson(seat1, games)
    print(f"{games} greedy games {rules or ''}: seat 1 (starts round 1) wins {seat1 / games:.3f} "
          f"({lo:.3f}-{hi:.3f})")
    lo, hi = wilson(first_won + (rounds_total - first_won - first_lost) / 2, rounds_total)
    print(f"rounds: {rounds_total}; the round's first player scores {(first_won + (rounds_total - first_won - first_lost) / 2) / rounds_total:.3f}"
          f" ({lo:.3f}-{hi:.3f}); ties {(rounds_total - first_won - first_lost) / rounds_total:.3f}")
    lengths.sort()
    q = [lengths[int(len(lengths) * x)] for x in (0.1, 0.5, 0.9)]
    print(f"rounds a game: mean {sum(lengths) / games:.2f}, 10/50/90 % {q}, max {lengths[-1]};"
          f" mean stake {sum(stakes) / len(stakes):.2f}, last round's bet mean "
          f"{sum(last_bets) / games:.2f}")
    print("atout | rounds dealt | round points when dealt (95 %) | played when dealt"
          " | mean score change when dealt (95 %)")
    total_points = sum(won_dealt.values())
    total_dealt = sum(dealt.values())
    rows = []
    for k, name in enumerate(names):
        n = dealt[k]
        lo, hi = wilson(won_dealt[k], n)
        other = (total_points - won_dealt[k]) / (total_dealt - n)
        mean = gained[k] / n
        half = 1.96 * max(gained_sq[k] / n - mean * mean, 0.0) ** 0.5 / n ** 0.5
        rows.append((won_dealt[k] / n, name, n, lo, hi, other, played[k] / n, mean, half))
    for rate, name, n, lo, hi, other, play, mean, half in sorted(rows, reverse=True):
        print(f"{name} | {n} | {rate:.3f} ({lo:.3f}-{hi:.3f}) vs {other:.3f} without | {play:.2f}"
              f" | {mean:+.2f} ({mean - half:+.2f} to {mean + half:+.2f})")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=3000)
    ap.add_argument("--ladder", type=int, default=0, help="seeds per rung (each played twice)")
    ap.add_argument("--rungs", default="greedy:random,mc:greedy,ismcts:greedy,ismcts:mc")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--insight", type=int, default=0, help="design figures from N greedy games")
    args = ap.parse_args()
    print(f"load average: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    if args.insight:
        insight(args.insight, args.seed)
        insight(args.insight, args.seed, first_player="fixed")
        return
    if args.ladder:
        for pair in args.rungs.split(","):
            a, b = pair.split(":")
            t = time.perf_counter()
            r = rung(a, b, args.ladder, args.seed, args.workers)
            print(f"{a} vs {b}: {r['games']} games, W/T/L {r['wins']}/{r['ties']}/{r['losses']}, "
                  f"points rate {r['points_rate']:.3f}, 95% {r['ci95'][0]:.3f}-{r['ci95'][1]:.3f}"
                  f" ({time.perf_counter() - t:.0f} s)", flush=True)
        return
    game = Game(box_from_cards(defs()))
    wall, cpu = greedy_rate(game, args.games)
    print(f"greedy vs greedy, fast path (play_greedy): {wall:,.0f} games/s wall, {cpu:,.0f} cpu")
    wall, cpu = greedy_rate(game, max(200, args.games // 10), fast=False)
    print(f"greedy vs greedy, step by step (greedy_action + apply_action): {wall:,.0f} games/s wall,"
          f" {cpu:,.0f} cpu")
    wall, cpu = greedy_rate(game, max(200, args.games // 10), fast=False, reference=True)
    print(f"greedy vs greedy, reference heuristic step by step: {wall:,.0f} games/s wall, {cpu:,.0f} cpu")
    n = max(2000, args.games)
    one = command_rate(n, 1)
    two = command_rate(n, 2)
    print(f"cardbase sim game overkill --games {n} (start-up included): 1 worker {one:,.0f} games/s,"
          f" 2 workers {two:,.0f} games/s ({two / one:.2f}x)")
    big = 4 * n
    one = runner_rate(big, 1)
    two = runner_rate(big, 2)
    print(f"batch runner, {big} games: 1 process {one:,.0f} games/s, 2 processes {two:,.0f} games/s"
          f" ({two / one:.2f}x)")
    for name in ("mc", "ismcts"):
        print(f"{name} at its default budget: {decision_ms(game, name, 60):.1f} ms a decision (cpu)")


if __name__ == "__main__":
    main()
