"""The measures of a good game, for a game written as data: played by bots, seeded.

* **first-player advantage**: how often the seat that played first wins, among decided games,
  with its 95 % (Wilson) interval — a fair game of ``n`` players sits near ``1/n``;
* **game length**: turns per game, mean, spread and quantiles;
* **lead changes**: after every turn the leader is the single best player by the rules file's
  ``[end.winner] by`` (highest or lowest as it says); a change is a new single leader;
* **comebacks** (drama): among decided games, how often the eventual winner was strictly behind at
  the middle turn of the game, and by how much on average (in ``[end.winner] by`` units);
* **decisiveness**: how early the winner is known — the share of the turns played before the
  eventual winner became the single leader for good (0 from the start, 1 only at the end);
* **skill gap** (``skill_games``): a greedy seat against random seats, its win rate beside the
  fair share; ``search_games``: a search seat (mc) against greedy seats;
* **decisions that change the outcome** (``outcome_games``): the share of the moves with a choice
  where another legal action, the game finished by the same bots and the same chance, gives
  another winner;
* **decisions**: moves where the player had more than one legal action, per game, and the mean
  number of options of those moves.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from typing import Any

from cardbase.domain import CardDef
from cardbase.games.rulesdata.engine import Game, State
from cardbase.games.rulesdata.language import Rules
from cardbase.playtest.batch import game_seed
from cardbase.playtest.stats import wilson


def _leader(state: State) -> int | None:
    r = state.rules
    vals = [state._eval(r.winner_by, p) for p in range(state.n)]
    best = max(vals) if r.winner_order == "highest" else min(vals)
    top = [p for p, v in enumerate(vals) if v == best]
    return top[0] if len(top) == 1 else None


def _gap(state: State, player: int) -> float:
    """How far ``player`` is behind the best other player by ``[end.winner] by`` (0 when not)."""
    r = state.rules
    vals = [state._eval(r.winner_by, p) for p in range(state.n)]
    mine = vals[player]
    others = [v for p, v in enumerate(vals) if p != player]
    if not others:
        return 0.0
    return float(max(0, (max(others) - mine) if r.winner_order == "highest" else (mine - min(others))))


def decided_at(leaders: Sequence[int | None], winner: int | None) -> float | None:
    """How early the winner is known: the share of the game's turns played before the eventual
    winner became the single leader for good (0: led from the first turn on; 1: only at the end).
    None for a game nobody won."""
    if winner is None:
        return None
    if not leaders:
        return 1.0
    i = len(leaders)
    while i > 0 and leaders[i - 1] == winner:
        i -= 1
    return i / len(leaders)


def _mean_ci(xs: Sequence[float]) -> list[float]:
    if len(xs) < 2:
        return [float(xs[0]), float(xs[0])] if xs else [0.0, 0.0]
    m, h = statistics.fmean(xs), 1.96 * statistics.stdev(xs) / len(xs) ** 0.5
    return [m - h, m + h]


def _behind(state: State, player: int) -> bool:
    r = state.rules
    vals = [state._eval(r.winner_by, p) for p in range(state.n)]
    mine = vals[player]
    return any((v > mine) if r.winner_order == "highest" else (v < mine) for v in vals)


def play_measured(game: Game, seed: int, bots: Sequence[str]) -> dict[str, Any]:
    """One game played by ``bots``; what the measures need of it."""
    from cardbase.playtest.games import seat_bot

    s = game.new_state(seed, log=False)
    players = [seat_bot(b, seed * 31 + i, game) for i, b in enumerate(bots)]
    first = s.current_player()
    leaders: list[int | None] = []
    snapshots: list[list[bool]] = []  # after each turn: is each seat strictly behind
    decisions = options = 0
    turns = s.turns
    while not s.is_terminal():
        legal = s.legal_actions()
        if len(legal) > 1:
            decisions += 1
            options += len(legal)
        s.apply_action(players[s.current_player()].step(s))
        if s.turns != turns and not s.is_terminal():
            turns = s.turns
            leaders.append(_leader(s))
            snapshots.append([_gap(s, p) for p in range(s.n)])
    changes = 0
    last = None
    for lead in leaders:
        if lead is not None and lead != last:
            if last is not None:
                changes += 1
            last = lead
    winner = s.winners[0] if len(s.winners) == 1 else None
    comeback = gap = None
    if winner is not None and snapshots:
        gap = snapshots[len(snapshots) // 2][winner]
        comeback = gap > 0
    return {"first": first, "winner": winner, "turns": s.turns, "ended_by": s.ended_by,
            "lead_changes": changes, "comeback": comeback, "gap": gap,
            "decided_at": decided_at(leaders, winner), "decisions": decisions, "options": options,
            "coverage": s.coverage()}


def skill_gap(game: Game, *, games: int, seed: int = 0, strong: str = "greedy",
              weak: str = "random") -> dict[str, Any]:
    """``strong`` against ``weak`` (greedy against random; a search bot against greedy): one seat
    ``strong``, the others ``weak``, the strong seat turning from game to game; its win rate
    among decided games with its interval, beside the fair share."""
    wins = decided = 0
    for i in range(games):
        names = [weak] * game.num_players
        names[i % game.num_players] = strong
        row = play_measured(game, game_seed(seed, i), names)
        if row["winner"] is not None:
            decided += 1
            wins += row["winner"] == i % game.num_players
    lo, hi = wilson(wins, decided)
    return {"games": games, "decided": decided, "wins": wins, "bots": [strong, weak],
            "rate": wins / decided if decided else None, "ci95": [lo, hi], "fair": 1 / game.num_players}


def outcome_share(game: Game, *, games: int, seed: int = 0, bots: Sequence[str] | None = None,
                  most_moves: int = 400) -> dict[str, Any]:
    """The share of decisions that change the outcome: in ``games`` games played by ``bots``, at
    every move with more than one legal action, each other action is played instead and the game
    finished by the same bots with the same chance (the state's generator is copied); the
    decision counts when some other action gives another winner (every finish of a decision is
    played by bots seeded alike, so only the action differs). With its interval."""
    from cardbase.playtest.games import seat_bot

    names = list(bots or ["greedy"])
    if len(names) == 1:
        names = names * game.num_players
    changed = total = 0
    for i in range(games):
        gs = game_seed(seed, i)
        s = game.new_state(gs, log=False)
        players = [seat_bot(b, gs * 31 + q, game) for q, b in enumerate(names)]

        def finish(t: State, at: int, gs: int = gs) -> tuple:
            # the same fresh bots for every alternative of a decision: only the action differs
            bots_now = [seat_bot(b, gs * 31 + q + 7_919 * at, game) for q, b in enumerate(names)]
            moves = 0
            while not t.is_terminal() and moves < most_moves:
                t.apply_action(bots_now[t.current_player()].step(t))
                moves += 1
            return tuple(t.winners) if t.is_terminal() else ("?",)

        while not s.is_terminal():
            legal = s.legal_actions()
            chosen = players[s.current_player()].step(s)
            if len(legal) > 1:
                base = s.clone()
                base.apply_action(chosen)
                at = len(s.history)
                mine = finish(base, at)
                total += 1
                for a in legal:
                    if a == chosen:
                        continue
                    alt = s.clone()
                    alt.apply_action(a)
                    if finish(alt, at) != mine:
                        changed += 1
                        break
            s.apply_action(chosen)
    lo, hi = wilson(changed, total)
    return {"games": games, "decisions": total, "changed": changed,
            "rate": changed / total if total else None, "ci95": [lo, hi]}


def measures(game: Game, *, games: int = 200, seed: int = 0, bots: Sequence[str] | None = None,
             skill_games: int = 0, search_games: int = 0, outcome_games: int = 0) -> dict[str, Any]:
    """The measures over ``games`` seeded games (game ``i`` dealt from ``game_seed(seed, i)``);
    ``skill_games``: that many more games for the skill gap (greedy against random),
    ``search_games`` for a search bot (mc) against greedy, ``outcome_games`` for the share of
    decisions that change the outcome."""
    names = list(bots or ["greedy"])
    if len(names) == 1:
        names = names * game.num_players
    rows = [play_measured(game, game_seed(seed, i), names) for i in range(games)]
    decided = [r for r in rows if r["winner"] is not None]
    first_wins = sum(1 for r in decided if r["winner"] == r["first"])
    lo, hi = wilson(first_wins, len(decided))
    lengths = sorted(r["turns"] for r in rows)
    backs = [r for r in decided if r["comeback"] is not None]
    cb = sum(1 for r in backs if r["comeback"])
    clo, chi = wilson(cb, len(backs))
    n = len(rows)

    def q(f: float) -> int:
        return lengths[min(n - 1, max(0, int(f * n - 1e-9)))]

    ended: dict[str, int] = {}
    for r in rows:
        ended[r["ended_by"]] = ended.get(r["ended_by"], 0) + 1
    dec = sum(r["decisions"] for r in rows)
    known = [r["decided_at"] for r in rows if r["decided_at"] is not None]
    return {"game": game.rules.code, "games": n, "players": game.num_players, "bots": names,
            "seed": seed, "decided": len(decided),
            "first_player": {"wins": first_wins, "rate": first_wins / len(decided) if decided else None,
                             "ci95": [lo, hi], "fair": 1 / game.num_players},
            "length": {"mean": statistics.fmean(lengths), "sd": statistics.pstdev(lengths),
                       "ci95": _mean_ci(lengths),
                       "min": lengths[0], "q25": q(0.25), "median": q(0.5), "q75": q(0.75),
                       "max": lengths[-1]},
            "lead_changes": {"mean": statistics.fmean(r["lead_changes"] for r in rows),
                             "ci95": _mean_ci([r["lead_changes"] for r in rows])},
            "comebacks": {"count": cb, "of": len(backs), "rate": cb / len(backs) if backs else None,
                          "ci95": [clo, chi],
                          "mean_gap": statistics.fmean(r["gap"] for r in backs if r["comeback"]) if cb else None},
            "decisiveness": {"mean": statistics.fmean(known) if known else None,
                             "ci95": _mean_ci(known), "of": len(known)},
            "skill_gap": skill_gap(game, games=skill_games, seed=seed + 1) if skill_games else None,
            "search_gap": skill_gap(game, games=search_games, seed=seed + 2, strong="mc", weak="greedy")
            if search_games else None,
            "outcome": outcome_share(game, games=outcome_games, seed=seed, bots=names) if outcome_games else None,
            "decisions": {"per_game": dec / n, "options": (sum(r["options"] for r in rows) / dec) if dec else 0.0},
            "ended_by": dict(sorted(ended.items()))}


def try_random(rules: Rules, cards: Sequence[CardDef], games: int, seed: int = 0, *,
               decks: Sequence[Sequence[CardDef]] | None = None) -> dict[str, Any]:
    """``games`` random games at the default player count: how many ended by a condition of the
    file rather than a safety net (the check that a game can end). ``decks``: one per player, for
    a game played with decks."""
    game = Game(rules, cards, decks=decks)
    names = ["random"] * game.num_players
    rows = [play_measured(game, game_seed(seed, i), names) for i in range(games)]
    conditions = {e.name for e in rules.endings}
    legal_somewhere = {k for r in rows for k in r["coverage"]}
    return {"games": games, "ended": sum(1 for r in rows if r["ended_by"] in conditions),
            "mean_turns": round(statistics.fmean(r["turns"] for r in rows), 1) if rows else 0.0,
            "never_legal": [a.name for a in rules.actions if a.name not in legal_somewhere],
            "never_ended_by": [e.name for e in rules.endings
                               if not any(r["ended_by"] == e.name for r in rows)]}
