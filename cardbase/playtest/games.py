"""Batches of any registered box game (``cardbase sim game``): seats, ties, a card's impact.

Game ``i`` of a batch seeded ``s`` is dealt from ``game_seed(s, i)`` and its bots are seeded from
it too, so a batch gives the same figures whatever the number of worker processes. Workers get the
cards as values (no database).

A team game's state says each seat's team (``team_of(seat)``, returns shared by the team): the report
then gives each seat's ``team`` and ``teams`` — per team its seats, wins, win rate and 95 % interval
(a team wins a game when one of its seats has a positive return).
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from cardbase.domain import CardDef
from cardbase.errors import CardbaseError
from cardbase.games import registry
from cardbase.i18n import tr
from cardbase.playtest.cluster import chunks, game_seed, parallelism, run_chunks
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
    teams: tuple[str, ...] = ()  # each seat's team in a team game (``state.team_of``), else empty
    facts: Any = None  # a game's own figures of the game (``state.record_facts()``), if it has any
    coverage: Any = None  # the game's rule coverage (``state.coverage()``: key -> [occasions, used])
    # a digest of the game's moves (``state.history``; None when the state keeps none): two readings
    # of a ruling that give the same digest on every game were never brought into play by the bots
    moves: str | None = None


_GAMES: dict[tuple, Any] = {}


def _game(code: str, cards: tuple[CardDef, ...], players: int, options: tuple, draft: Any = None) -> Any:
    """The game ``code`` (``draft``: a rules file outside data/rules/ played under that code, built
    from its text — a worker process knows no draft of its own), cached."""
    key = (code, cards, players, options, draft)
    g = _GAMES.get(key)
    if g is None:
        if len(_GAMES) > 16:
            _GAMES.clear()
        if draft is not None:
            g = registry.draft_game(draft, cards, players, **dict(options))
        else:
            g = registry.get(code).build(cards, players, **dict(options))
        _GAMES[key] = g
    return g


SEARCH_BOTS = ("mc", "ismcts")  # the generic bots that take a time limit per decision (max_ms)


def seat_bot(name: str, seed: int, game: Any = None, *, max_ms: float | None = None) -> Any:
    """A game's own bot when it makes one (``Game.make_bot(name, seed)``), else a generic one;
    ``max_ms``: a generic search bot's time limit per decision (the app's tables; batches have
    none, so that their games depend on the seed alone)."""
    own = getattr(game, "make_bot", None)
    if own is not None:
        bot = own(name, seed)
        if bot is not None:
            return bot
    from cardbase.games.bots.registry import make_bot

    if max_ms is not None and name.strip().lower() in SEARCH_BOTS:
        return make_bot(name, seed=seed, max_ms=max_ms)
    return make_bot(name, seed=seed)


def _played(game: Any, seed: int, bots: Sequence[str], log: bool = False) -> Any:
    """Game ``seed`` played to its end by ``bots`` (``log``: keeping its log)."""
    state = game.new_state(seed, log=log)
    fast = getattr(state, "play_greedy", None)
    if fast is not None and all(b == "greedy" for b in bots):
        fast()  # the game's own greedy play-out: the moves of GreedyBot, without the bot calls
    else:
        players = [seat_bot(b, seed * 31 + i, game) for i, b in enumerate(bots)]
        while not state.is_terminal():
            state.apply_action(players[state.current_player()].step(state))
    return state


def play_one(game: Any, seed: int, bots: Sequence[str]) -> Record:
    state = _played(game, seed, bots)
    held = tuple(frozenset(state.held_cards(p)) if hasattr(state, "held_cards") else frozenset()
                 for p in range(len(bots)))
    team_of = getattr(state, "team_of", None)
    teams = tuple(team_of(p) for p in range(len(bots))) if team_of is not None else ()
    facts = getattr(state, "record_facts", None)
    coverage = getattr(state, "coverage", None)
    return Record(tuple(state.returns()), getattr(state, "turns", len(state.history)),
                  getattr(state, "round", 1), state.ended_by, held, teams,
                  facts() if facts is not None else None,
                  coverage() if coverage is not None else None, moves_digest(state))


SAFETY_NETS = ("round_limit", "turn_limit")  # the endings of a game stopped by its safety net


def log_support(game: Any, seat: int | None = None) -> str | None:
    """Why ``game``'s log cannot be printed (an i18n key), None when it can: a log in words
    (``log_lines``, or ``event_to_string`` on its events), and one seat's view for ``seat``."""
    import inspect

    state = game.new_state(0, log=True)
    lines = getattr(state, "log_lines", None)
    if lines is None:
        if getattr(state, "event_to_string", None) is None or getattr(state, "events", None) is None:
            return "games.log.none"
        return "games.log.no_seat" if seat is not None else None
    if seat is not None and len(inspect.signature(lines).parameters) == 0:
        return "games.log.no_seat"
    return None


def game_log(game: Any, index: int, batch_seed: int, bots: Sequence[str], seat: int | None = None) -> dict[str, Any]:
    """Game ``index`` of a batch seeded ``batch_seed`` played again as the batch played it, with
    its log: its seed, seats and bots, its log in words (as ``seat`` may know it, from 0; None:
    the referee's), its result (returns, winners, ending, whether the safety net ended it)."""
    seed = game_seed(batch_seed, index)
    state = _played(game, seed, bots, log=True)
    lines = getattr(state, "log_lines", None)
    if lines is None:
        text = [state.event_to_string(e) for e in state.events]
    else:
        text = lines() if seat is None else lines(seat)
    returns = list(state.returns())
    scores = getattr(state, "scores", None)
    return {"game": index, "seed": seed, "seats": [{"seat": p + 1, "bot": b} for p, b in enumerate(bots)],
            "seat": None if seat is None else seat + 1, "lines": text, "returns": returns,
            "scores": list(scores()) if scores is not None else None,
            "winners": [p + 1 for p, x in enumerate(returns) if x > 0], "ended_by": state.ended_by,
            "safety_net": state.ended_by in SAFETY_NETS,
            "turns": getattr(state, "turns", len(state.history)), "rounds": getattr(state, "round", 1)}


def moves_digest(state: Any) -> str | None:
    """A digest of a finished game's moves, the same in every process (None: no moves kept)."""
    history = getattr(state, "history", None)
    if not history:
        return None
    return hashlib.blake2b(repr(list(history)).encode(), digest_size=8).hexdigest()


def run_chunk(start: int, stop: int, code: str, cards: tuple[CardDef, ...], players: int,
              bots: tuple[str, ...], seed: int, options: tuple, draft: Any = None) -> list[Record]:
    """Games ``start..stop-1`` of a batch (``draft``: :func:`cardbase.games.registry.draft_of`)."""
    game = _game(code, cards, players, options, draft)
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
    # a game's own figures (``game.analytics(records)``: JSON keys such as Overseers' ``leader``
    # and ``colours``) and their text lines in the current language (``game.analytics_text``)
    extra: dict[str, Any] = field(default_factory=dict)
    extra_lines: list[str] = field(default_factory=list)
    # the options of every ruling in force (``cardbase.games.rulings.in_force``), the rule coverage
    # (``cardbase.playtest.coverage.as_json``) and its warnings in the current language
    rulings: list[dict[str, Any]] = field(default_factory=list)
    coverage: dict[str, Any] = field(default_factory=dict)
    coverage_warnings: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        out = {"game": self.game, "players": self.players, "games": self.games, "seed": self.seed,
               "bots": self.bots, "seats": self.seats, "ties": self.ties,
               "mean_turns": self.mean_turns, "mean_rounds": self.mean_rounds, "ended_by": self.ended_by,
               "rulings": self.rulings, "coverage": self.coverage,
               "coverage_warnings": self.coverage_warnings}
        if self.teams is not None:
            out["teams"] = self.teams
        if self.cards:
            out["cards"] = self.cards
        out.update(self.extra)
        return out


def _chunks(n: int, parts: int) -> list[tuple[int, int]]:
    return chunks(n, parts)


def simulate(code: str, cards: Sequence[CardDef], *, players: int | None = None,
             bots: Sequence[str] | None = None, games: int = 1000, seed: int = 0,
             workers: int | None = None, options: dict[str, Any] | None = None,
             progress: Progress | None = None, executor: Any = None) -> tuple[GameReport, list[Record]]:
    """Play ``games`` games of the box game ``code``; the report and every game's record.

    ``executor``: where chunks run (a :class:`cardbase.playtest.cluster.DaskExecutor`, any
    ``concurrent.futures`` executor); without one, ``workers`` local processes (1: here)."""
    spec = registry.playable(code)
    if spec.material != "box":
        raise CardbaseError(tr("games.decks_needed", game=code))
    players, bots = registry.seat_bots(spec, players, bots, games)
    cards_t = tuple(cards)
    if not cards_t and not spec.own_cards:  # a rules file may describe its own cards
        raise CardbaseError(tr("games.no_cards", game=code))
    opts = tuple(sorted((options or {}).items()))
    draft = registry.draft_of(spec.code)  # a draft's workers get its text, not its path
    game = _game(spec.code, cards_t, players, opts, draft)  # material problems show here, before any worker starts
    jobs = workers if workers is not None else 1
    args = (spec.code, cards_t, players, tuple(bots), seed, opts, draft)
    if executor is not None:  # a given executor (a Dask cluster…): chunks sized to its workers
        parts = run_chunks(run_chunk, _chunks(games, parallelism(executor, workers) * 4), args, executor,
                           progress=progress, total=games)
    elif jobs <= 1:
        parts = run_chunks(run_chunk, _chunks(games, max(1, games // 200)), args, None,
                           progress=progress, total=games)
    else:
        with ProcessPoolExecutor(max_workers=min(jobs, os.cpu_count() or jobs)) as pool:
            parts = run_chunks(run_chunk, _chunks(games, jobs * 4), args, pool, progress=progress,
                               total=games)
    records: list[Record] = [r for part in parts for r in part]
    return report(code, players, seed, bots, records, cards_t, game=game, options=options), records


def _card_choices(records: Sequence[Record]) -> dict[str, tuple[int, int]] | None:
    """A rules file's game: per card, over every seat of every game, the decisions where a legal
    action could choose it and the times it was chosen (the games' ``facts["cards"]``, from
    ``state.record_facts()``); None for a game that does not count them."""
    total: dict[str, list[int]] = {}
    counted = False
    for r in records:
        seats = r.facts.get("cards") if isinstance(r.facts, dict) else None
        if seats is None:
            continue
        counted = True
        for one in seats:
            for ref, (offered, taken) in one.items():
                slot = total.setdefault(ref, [0, 0])
                slot[0] += offered
                slot[1] += taken
    return {ref: (o, t) for ref, (o, t) in total.items()} if counted else None


def report(code: str, players: int, seed: int, bots: Sequence[str], records: Sequence[Record],
           cards: Sequence[CardDef], game: Any = None, options: dict[str, Any] | None = None) -> GameReport:
    n = len(records)
    seat_teams = records[0].teams if records and records[0].teams else ()
    # a decided game has one winner (one seat; in a team game, one team): a seat's edge is measured
    # over those, with the ties beside it — a tie is nobody's loss
    if seat_teams:
        sole = [next(iter({seat_teams[p] for p in range(players) if r.returns[p] > 0}))
                if len({seat_teams[p] for p in range(players) if r.returns[p] > 0}) == 1 else None
                for r in records]
    else:
        sole = [next(p for p in range(players) if r.returns[p] > 0)
                if sum(1 for x in r.returns if x > 0) == 1 else None for r in records]
    decided = sum(1 for w in sole if w is not None)
    seats = []
    for p in range(players):
        wins = sum(1 for r in records if r.returns[p] > 0)
        lo, hi = wilson(wins, n)
        mine = seat_teams[p] if seat_teams else p
        sole_wins = sum(1 for w in sole if w == mine)
        dlo, dhi = wilson(sole_wins, decided)
        seats.append({"seat": p + 1, "bot": bots[p], "team": seat_teams[p] if seat_teams else None,
                      "wins": wins, "win_rate": wins / n if n else 0.0, "ci95": [lo, hi],
                      "decided": decided, "wins_decided": sole_wins,
                      "win_rate_decided": sole_wins / decided if decided else None,
                      "ci95_decided": [dlo, dhi] if decided else None})
    teams = None
    if seat_teams:  # a team game: a team wins a game when one of its seats has a positive return
        teams = {}
        for name in sorted(set(seat_teams)):
            mine = [p for p, t in enumerate(seat_teams) if t == name]
            wins = sum(1 for r in records if any(r.returns[p] > 0 for p in mine))
            lo, hi = wilson(wins, n)
            teams[name] = {"seats": [p + 1 for p in mine], "wins": wins,
                           "win_rate": wins / n if n else 0.0, "ci95": [lo, hi]}
    if seat_teams:  # a team game: a tie is a game no team won
        ties = sum(1 for r in records if not any(x > 0 for x in r.returns))
    else:  # a tie: nobody won, or a shared win (several seats with +1, as Overseers allows)
        ties = sum(1 for r in records if sum(1 for x in r.returns if x > 0) != 1)
    ended: dict[str, int] = {}
    for r in records:
        ended[r.ended_by] = ended.get(r.ended_by, 0) + 1
    # a card's impact: win rate of the seats that held it against those that did not
    held_any = any(h for r in records for h in r.held)
    card_rows = []
    choices = _card_choices(records)
    if held_any or choices:  # a rules file's game: every card offered, the never-chosen ones too
        refs = sorted({ref for r in records for h in r.held for ref in h} | set(choices or ()))
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
            olo, ohi = wilson(won_other, other)
            row = {"ref": ref, "name": names.get(ref, ref), "games_held": held,
                   "win_rate_held": won_held / held if held else 0.0,
                   "win_rate_not_held": won_other / other if other else 0.0,
                   "ci95_held": [lo, hi], "games_not_held": other, "ci95_not_held": [olo, ohi],
                   # wins when held − wins otherwise; None when every seat, or none, held it
                   "effect": won_held / held - won_other / other if held and other else None}
            if choices is not None:  # a rules file's game: how often the bots chose the card
                offered, taken = choices.get(ref, (0, 0))
                tlo, thi = wilson(taken, offered)
                row.update({"offered": offered, "taken": taken,
                            "take_rate": taken / offered if offered else 0.0, "ci95_take": [tlo, thi]})
            card_rows.append(row)
    extra: dict[str, Any] = {}
    lines: list[str] = []
    analytics = getattr(game, "analytics", None)
    if analytics is not None and records:
        extra = analytics(records)
        text = getattr(game, "analytics_text", None)
        lines = text(extra) if text is not None else []
    from cardbase.games.rulings import in_force
    from cardbase.playtest import coverage as cov

    total = cov.merge(r.coverage for r in records)
    for key, count in ended.items():  # every ending is a rule the games reached (or not)
        total.setdefault(f"ending:{key}", [n, count])
    return GameReport(code, players, n, seed, list(bots), seats, ties,
                      sum(r.turns for r in records) / n if n else 0.0,
                      sum(r.rounds for r in records) / n if n else 0.0,
                      dict(sorted(ended.items())), card_rows, teams, extra, lines,
                      in_force(code, options), cov.as_json(code, dict(sorted(total.items())), n),
                      cov.warnings(code, total))
