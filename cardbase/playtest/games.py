"""Batches of any registered box game (``cardbase sim game``): seats, ties, a card's impact.

Game ``i`` of a batch seeded ``s`` is dealt from ``game_seed(s, i)`` and its bots are seeded from
it too, so a batch gives the same figures whatever the number of worker processes. Workers get the
cards as values (no database).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from cardbase.domain import CardDef
from cardbase.errors import CardbaseError
from cardbase.games import registry
from cardbase.i18n import tr
from cardbase.playtest.batch import game_seed
from cardbase.playtest.stats import wilson

Progress = Callable[[int, int], None]


@dataclass(slots=True, frozen=True)
class Record:
    """One game's outcome: the return of each seat, its length, how it ended, the cards held."""

    returns: tuple[float, ...]
    turns: int
    rounds: int
    ended_by: str
    held: tuple[frozenset[str], ...]


_GAMES: dict[tuple, Any] = {}


def _game(code: str, cards: tuple[CardDef, ...], players: int, options: tuple) -> Any:
    key = (code, cards, players, options)
    g = _GAMES.get(key)
    if g is None:
        if len(_GAMES) > 16:
            _GAMES.clear()
        g = _GAMES[key] = registry.get(code).build(cards, players, **dict(options))
    return g


def _bot(name: str, seed: int) -> Any:
    from cardbase.bots.base import make_bot

    return make_bot(name, seed=seed)


def play_one(game: Any, seed: int, bots: Sequence[str]) -> Record:
    state = game.new_state(seed, log=False)
    if all(b == "greedy" for b in bots) and hasattr(state, "play_greedy"):
        state.play_greedy()  # the game's fast greedy play-out: the same moves (cardbase/bots/base.py)
    players = [_bot(b, seed * 31 + i) for i, b in enumerate(bots)]
    while not state.is_terminal():
        state.apply_action(players[state.current_player()].step(state))
    held = tuple(frozenset(state.held_cards(p)) if hasattr(state, "held_cards") else frozenset()
                 for p in range(len(bots)))
    return Record(tuple(state.returns()), getattr(state, "turns", len(state.history)),
                  getattr(state, "round", 1), state.ended_by, held)


def run_chunk(start: int, stop: int, code: str, cards: tuple[CardDef, ...], players: int,
              bots: tuple[str, ...], seed: int, options: tuple) -> list[Record]:
    game = _game(code, cards, players, options)
    return [play_one(game, game_seed(seed, i), bots) for i in range(start, stop)]


@dataclass(slots=True)
class GameReport:
    game: str
    players: int
    games: int
    seed: int
    bots: list[str]
    seats: list[dict[str, Any]]
    ties: int
    mean_turns: float
    mean_rounds: float
    ended_by: dict[str, int]
    cards: list[dict[str, Any]] = field(default_factory=list)
    teams: dict[str, dict[str, Any]] | None = None

    def as_dict(self) -> dict[str, Any]:
        out = {"game": self.game, "players": self.players, "games": self.games, "seed": self.seed,
               "bots": self.bots, "seats": self.seats, "ties": self.ties,
               "mean_turns": self.mean_turns, "mean_rounds": self.mean_rounds, "ended_by": self.ended_by}
        if self.teams is not None:
            out["teams"] = self.teams
        if self.cards:
            out["cards"] = self.cards
        return out


def _chunks(n: int, parts: int) -> list[tuple[int, int]]:
    size = max(1, -(-n // parts))
    return [(i, min(n, i + size)) for i in range(0, n, size)]


def simulate(code: str, cards: Sequence[CardDef], *, players: int | None = None,
             bots: Sequence[str] | None = None, games: int = 1000, seed: int = 0,
             workers: int | None = None, options: dict[str, Any] | None = None,
             progress: Progress | None = None) -> tuple[GameReport, list[Record]]:
    """Play ``games`` games of the box game ``code``; the report and every game's record."""
    spec = registry.playable(code)
    if spec.material != "box":
        raise CardbaseError(tr("games.decks_needed", game=code))
    players = players or spec.min_players
    registry.check_players(spec, players)
    bots = list(bots or ["greedy"])
    if len(bots) == 1:
        bots = bots * players
    if len(bots) != players:
        raise CardbaseError(tr("games.bad_bot_count", count=len(bots), players=players))
    registry.check_bots(spec, bots)
    if games < 1:
        raise CardbaseError(tr("games.bad_count", games=games))
    cards_t = tuple(cards)
    if not cards_t:
        raise CardbaseError(tr("games.no_cards", game=code))
    opts = tuple(sorted((options or {}).items()))
    _game(code, cards_t, players, opts)  # material problems show here, before any worker starts
    jobs = workers if workers is not None else 1
    records: list[Record] = []
    if jobs <= 1:
        for start, stop in _chunks(games, max(1, games // 200)):
            records += run_chunk(start, stop, code, cards_t, players, tuple(bots), seed, opts)
            if progress:
                progress(stop, games)
    else:
        spans = _chunks(games, jobs * 4)
        with ProcessPoolExecutor(max_workers=min(jobs, os.cpu_count() or jobs)) as pool:
            futures = [pool.submit(run_chunk, a, b, code, cards_t, players, tuple(bots), seed, opts)
                       for a, b in spans]
            for (_, stop), fut in zip(spans, futures, strict=True):
                records += fut.result()
                if progress:
                    progress(stop, games)
    return report(code, players, seed, bots, records, cards_t), records


def report(code: str, players: int, seed: int, bots: Sequence[str], records: Sequence[Record],
           cards: Sequence[CardDef]) -> GameReport:
    n = len(records)
    seats = []
    for p in range(players):
        wins = sum(1 for r in records if r.returns[p] > 0)
        lo, hi = wilson(wins, n)
        seats.append({"seat": p + 1, "bot": bots[p], "team": None, "wins": wins,
                      "win_rate": wins / n if n else 0.0, "ci95": [lo, hi]})
    ties = sum(1 for r in records if not any(x > 0 for x in r.returns))  # nobody won
    ended: dict[str, int] = {}
    for r in records:
        ended[r.ended_by] = ended.get(r.ended_by, 0) + 1
    # a card's impact: win rate of the seats that held it against those that did not
    held_any = any(h for r in records for h in r.held)
    card_rows = []
    if held_any:
        refs = sorted({ref for r in records for h in r.held for ref in h})
        names = {c.ref: c.name for c in cards}
        for ref in refs:
            held = won_held = other = won_other = 0
            for r in records:
                for p in range(players):
                    win = r.returns[p] > 0
                    if ref in r.held[p]:
                        held += 1
                        won_held += win
                    else:
                        other += 1
                        won_other += win
            lo, hi = wilson(won_held, held)
            card_rows.append({"ref": ref, "name": names.get(ref, ref), "games_held": held,
                              "win_rate_held": won_held / held if held else 0.0,
                              "win_rate_not_held": won_other / other if other else 0.0,
                              "ci95_held": [lo, hi]})
    return GameReport(code, players, n, seed, list(bots), seats, ties,
                      sum(r.turns for r in records) / n if n else 0.0,
                      sum(r.rounds for r in records) / n if n else 0.0,
                      dict(sorted(ended.items())), card_rows)
