"""Value sweeps: one card's figure tried at several values, on common random numbers.

:func:`sweep` plays the same batch (same seed, hence the same deals and bot seeds, game by game)
for every candidate value of one field of one card, so the differences between points are the
card's and not luck's. Each point gives ``value``, ``win_rate``, ``ci95`` and ``mean_score``;
the result also gives ``crossing``, the value where the win rate crosses 50 % (linear
interpolation between the two points around it), or None.

Fields:

- NesPanini (a deck, against another deck or alone): ``value`` (the card's value), ``copies`` (how
  many copies of the card the deck holds) and ``score`` (the signed number that opens a
  ``score:`` effect, ``score: +2 per card…``). ``value`` and ``score`` change the card wherever it is,
  in both decks (it is the same card); ``copies`` changes the swept deck only.
  Against a deck, ``win_rate`` and its Wilson ``ci95`` are the swept deck's (seats swapped on every
  seed, as ``duel``) and ``mean_score`` its mean score. Alone (goldfish), ``win_rate`` is None,
  ``ci95`` is the 95 % interval of the mean score and ``mean_score`` the mean score.
- A box game (``game=``: OVERKILL, CT vs Terror, Overseers): ``value``, ``copies``, or any figure of
  the card's ``stats`` (OVERKILL's ``objectif``, ``pari``…). The whole box is simulated with the
  card changed; ``win_rate``/``ci95`` are those of the seats that held the card (the game's card
  impact), ``mean_score`` their mean return; a game that does not say which cards a seat held
  gives seat 1's figures.

Every variant is built (and checked) before the first game; all the chunks of all the values are
submitted at once, so a cluster stays busy. ``progress(done, total)`` counts games.

With ``measures_games``, every point also carries ``measures``: the measures of a good game
(:mod:`cardbase.playtest.measures`) of that value's game, on the same seed at every value (the
same deals), so that a designer sees how the length, the first player's edge, the drama… move
with the value — at most the sweep's games a value, and likewise the skill-gap and outcome games.
A sweep against a deck measures both seat orders; a goldfish sweep gets the solo measures.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import os
import re
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from cardbase.domain import CardDef
from cardbase.errors import CardbaseError, NotFoundError
from cardbase.i18n import tr

from .cluster import chunks, open_executor, parallelism, run_chunks
from .limits import MAX_VALUE, MAX_VALUES, copies_problems, games_problems, number, raise_problems
from .stats import wilson

Progress = Callable[[int, int], None]
NESPANINI_FIELDS = ("value", "copies", "score")
BOX_FIELDS = ("value", "copies")  # and every figure of the card's stats
_SCORE = re.compile(r"^(\s*score:\s*)([+-]?\d+)")


def parse_values(text: str) -> list[int]:
    """``1..9``, ``1..9/2`` (a step), ``1,3,5`` or a mix ``1..3,7``: the values, in order given.

    The values are counted before any is listed (``1..1000000000`` is refused at once, not built):
    at most :data:`~cardbase.playtest.limits.MAX_VALUES`, each within ±``MAX_VALUE``.
    """
    raw = (text or "").strip()
    if not raw:
        raise CardbaseError(tr("dask.sweep.bad_values", text=text))
    spans: list[tuple[int, int, int]] = []
    count = 0
    for part in raw.split(","):
        part = part.strip()
        m = re.fullmatch(r"(-?\d+)\s*\.\.\s*(-?\d+)(?:\s*/\s*(\d+))?", part) or \
            re.fullmatch(r"(-?\d+)()()", part)
        if not m:
            raise CardbaseError(tr("dask.sweep.bad_values", text=part))
        digits = len(str(MAX_VALUE))  # more digits than this is out of bounds, unread
        if any(len(g.lstrip("-").lstrip("0")) > digits or abs(int(g)) > MAX_VALUE for g in (m[1], m[2]) if g):
            raise CardbaseError(tr("limits.value_too_big", text=part if len(part) <= 40 else part[:40] + "…",
                                        max=number(MAX_VALUE)))
        lo = int(m[1])
        hi = int(m[2]) if m[2] else lo
        step_text = (m[3] or "1").lstrip("0") or "0"
        step = int(step_text) if len(step_text) <= digits else 2 * MAX_VALUE + 1  # past the whole span
        if m[2] and (step < 1 or hi < lo):
            raise CardbaseError(tr("dask.sweep.bad_range", text=part))
        spans.append((lo, hi, step))
        count += (hi - lo) // step + 1
    if count > MAX_VALUES:
        raise CardbaseError(tr("dask.sweep.too_many", count=number(count), max=MAX_VALUES))
    return [v for lo, hi, step in spans for v in range(lo, hi + 1, step)]


def _find(cards: Sequence[CardDef], ref: str, where: str) -> CardDef:
    key = ref.strip().casefold()
    for c in cards:
        if c.ref.casefold() == key:
            return c
    named = [c for c in cards if c.name.casefold() == key]
    if len({c.ref for c in named}) == 1:
        return named[0]
    known = sorted({f"{c.ref} ({c.name})" for c in cards})
    raise NotFoundError(tr("dask.sweep.unknown_card", ref=ref, where=where,
                           known=", ".join(known[:40]) + (" …" if len(known) > 40 else "")))


def _changed(card: CardDef, field: str, value: int) -> CardDef:
    """The card with ``field`` set to ``value`` (``value``, ``score`` or a stats figure)."""
    if field == "value":
        return dataclasses.replace(card, value=value)
    if field == "score":
        return dataclasses.replace(card, effect=_SCORE.sub(lambda m: f"{m[1]}{value:+d}", card.effect or "", count=1))
    stats = tuple((k, value if k == field else v) for k, v in card.stats)
    return dataclasses.replace(card, stats=stats)


def _check_field(card: CardDef, field: str, fields: Sequence[str], *, box: bool) -> None:
    stat_names = [k for k, v in card.stats if isinstance(v, int) and not isinstance(v, bool)] if box else []
    allowed = list(fields) + stat_names
    if field not in allowed:
        raise CardbaseError(tr("dask.sweep.unknown_field", field=field, card=card.name,
                               fields=", ".join(allowed)))
    if field == "score" and not _SCORE.match(card.effect or ""):
        raise CardbaseError(tr("dask.sweep.no_score", card=card.name, effect=card.effect or "—"))


def _variant_deck(deck: Sequence[CardDef], card: CardDef, field: str, value: int) -> tuple[CardDef, ...]:
    if field == "copies":
        kept = [c for c in deck if c.ref != card.ref]
        return tuple(kept + [card] * value)
    new = _changed(card, field, value)
    return tuple(new if c.ref == card.ref else c for c in deck)


def _crossing(points: Sequence[dict[str, Any]]) -> float | None:
    """The value where ``win_rate`` crosses 0.5, by linear interpolation; None if it never does."""
    pts = [(p["value"], p["win_rate"]) for p in points if p.get("win_rate") is not None]
    for (v0, w0), (v1, w1) in itertools.pairwise(pts):
        if w0 == 0.5:
            return float(v0)
        if (w0 - 0.5) * (w1 - 0.5) < 0:
            return v0 + (0.5 - w0) * (v1 - v0) / (w1 - w0)
    if pts and pts[-1][1] == 0.5:
        return float(pts[-1][0])
    return None


def _mean_ci(xs: Sequence[float]) -> tuple[float, list[float]]:
    n = len(xs)
    m = sum(xs) / n
    var = sum((x - m) ** 2 for x in xs) / (n - 1) if n > 1 else 0.0
    half = 1.96 * math.sqrt(var / n)
    return m, [m - half, m + half]


def sweep(deck: Sequence[CardDef] | None = None, *, card: str, field: str = "value",
          values: Sequence[int] | str, against: Sequence[CardDef] | None = None, game: str | None = None,
          cards: Sequence[CardDef] | None = None, games: int = 1000, seed: int = 0,
          bots: Sequence[str] | None = None, players: int | None = None,
          options: dict[str, Any] | None = None, executor: Any = None, scheduler: str | None = None,
          workers: int | None = None, progress: Progress | None = None,
          stalemate_rounds: int | None = None, deck_name: str = "deck", measures_games: int = 0,
          skill_games: int = 0, search_games: int = 0, outcome_games: int = 0) -> dict[str, Any]:
    """Sweep ``field`` of ``card`` over ``values``; ``{"points": [...], "crossing": …, …}``.

    NesPanini: give ``deck`` (and ``against`` for head-to-head, else goldfish). A box game: give
    ``game`` (its code) and ``cards`` (the box). Where chunks run: ``executor``, else the Dask
    cluster ``scheduler`` (or ``CARDBASE_DASK_SCHEDULER``), else local processes (``workers``;
    one process for small runs).
    """
    vals = parse_values(values) if isinstance(values, str) else [int(v) for v in values]
    if not vals:
        raise CardbaseError(tr("dask.sweep.bad_values", text=str(values)))
    if len(vals) > MAX_VALUES:
        raise CardbaseError(tr("dask.sweep.too_many", count=len(vals), max=MAX_VALUES))
    # every game of every value is kept until the report: one limit for the whole sweep (limits.py)
    raise_problems(games_problems(games, runs=len(vals), unit="limits.unit.values")
                   + (copies_problems(vals) if field == "copies" else []))
    if game is not None:
        plan = _box_plan(game, cards or (), card, field, vals, games, seed, bots, players, options)
    else:
        if deck is None:
            raise CardbaseError(tr("dask.sweep.no_deck"))
        plan = _nespanini_plan(deck, card, field, vals, against, games, seed, bots,
                               stalemate_rounds, deck_name, options)
    fn, per_value_args, n, finish, head, variants = plan
    from .cluster import scheduler_address

    if executor is not None:
        res = _run(fn, per_value_args, n, finish, head, vals, executor, progress, workers)
    elif scheduler_address(scheduler):
        with open_executor(scheduler) as ex:
            res = _run(fn, per_value_args, n, finish, head, vals, ex, progress, workers)
    else:
        total = n * len(vals) * (2 if fn.__name__ == "run_duel_chunk" else 1)
        jobs = workers if workers is not None else (os.cpu_count() or 1)
        if jobs > 1 and total >= 4000:
            with ProcessPoolExecutor(max_workers=jobs) as pool:
                res = _run(fn, per_value_args, n, finish, head, vals, pool, progress, jobs)
        else:
            res = _run(fn, per_value_args, n, finish, head, vals, None, progress, workers)
    if measures_games:
        from .measures import measures

        cap = res["games"]  # at most the sweep's games a value, for every count of the measures
        for point, built in zip(res["points"], variants):
            point["measures"] = measures(built, games=min(measures_games, cap), seed=seed, bots=res["bots"],
                                         skill_games=min(skill_games, cap), search_games=min(search_games, cap),
                                         outcome_games=min(outcome_games, cap),
                                         code=res.get("game") or "nespanini")
    return res


def _run(fn: Callable[..., list], per_value_args: list[tuple], n: int, finish: Callable[[list], dict],
         head: dict[str, Any], vals: list[int], executor: Any, progress: Progress | None,
         workers: int | None) -> dict[str, Any]:
    if executor is None:
        per_value = max(1, n // 500)
    else:
        per_value = max(1, -(-parallelism(executor, workers) * 4 // len(vals)))
    spans_one = chunks(n, per_value)
    spans, args, owner = [], [], []
    for k, a in enumerate(per_value_args):
        for s in spans_one:
            spans.append(s)
            args.append(a)
            owner.append(k)
    scale = 2 if fn.__name__ == "run_duel_chunk" else 1  # a duel chunk plays two games a seed
    parts = run_chunks(fn, spans, args, executor, progress=progress, total=n * len(vals) * scale,
                       weights=[(b - a) * scale for a, b in spans])
    rows: list[list] = [[] for _ in vals]
    for k, part in zip(owner, parts):
        rows[k].extend(part)
    points = [{"value": v, **finish(r)} for v, r in zip(vals, rows)]
    return {**head, "values": vals, "points": points, "crossing": _crossing(points)}


def _nespanini_plan(deck, card, field, vals, against, games, seed, bots, stalemate_rounds, deck_name,
                    options=None):
    from cardbase.games.nespanini import HAND_SIZE, STALEMATE_ROUNDS

    from .batch import options_key, run_duel_chunk, run_goldfish_chunk

    opts = options_key(options)  # NesPanini Game options (--rule: rulings R1, R9, R10)

    deck_t = tuple(deck)
    target = _find(deck_t, card, deck_name)
    _check_field(target, field, NESPANINI_FIELDS, box=False)
    stalemate = STALEMATE_ROUNDS if stalemate_rounds is None else stalemate_rounds
    if field == "copies":
        bad = [v for v in vals if v < 0]
        if bad:
            raise CardbaseError(tr("dask.sweep.negative_copies", values=", ".join(map(str, bad))))
        short = [v for v in vals if len(deck_t) - deck_t.count(target) + v < HAND_SIZE]
        if short:
            raise CardbaseError(tr("dask.sweep.deck_too_small", values=", ".join(map(str, short)),
                                   need=HAND_SIZE))
    bots = list(bots or ["greedy"])
    built = _check_variants(deck_t, against, target, field, vals, stalemate, opts)
    head: dict[str, Any] = {"card": target.ref, "name": target.name, "field": field, "seed": seed,
                            "stalemate_rounds": stalemate}
    if against is None:
        if games < 1:
            raise CardbaseError(tr("engine.error.games_positive", games=games))
        args = [(_variant_deck(deck_t, target, field, v), bots[0], seed, 0, 2_000, stalemate, opts)
                for v in vals]

        def finish(rows: list) -> dict[str, Any]:
            scores = [r[0] for r in rows]
            mean, ci = _mean_ci(scores)
            return {"win_rate": None, "ci95": ci, "mean_score": mean, "games": len(rows)}

        return run_goldfish_chunk, args, games, finish, {**head, "mode": "goldfish", "games": games,
                                                         "bots": bots[:1]}, built
    if games < 2:
        raise CardbaseError(tr("engine.error.duel_games", games=games))
    if len(bots) == 1:
        bots = bots * 2
    against_t = tuple(against)
    args = []
    for v in vals:
        a = _variant_deck(deck_t, target, field, v)
        b = against_t if field == "copies" else _variant_deck(against_t, target, field, v)
        args.append(((a, b), (bots[0], bots[1]), seed, stalemate, opts))

    def finish_duel(rows: list) -> dict[str, Any]:
        n = len(rows)
        wins = sum(1 for r in rows if r[3] > r[4])
        ties = sum(1 for r in rows if r[3] == r[4])
        return {"win_rate": wins / n, "ci95": list(wilson(wins, n)),
                "mean_score": sum(r[3] for r in rows) / n, "games": n, "wins": wins, "ties": ties,
                "points_rate": (wins + ties / 2) / n,
                "mean_margin": sum(r[3] - r[4] for r in rows) / n}

    pairs = games // 2
    return run_duel_chunk, args, pairs, finish_duel, {**head, "mode": "duel", "games": pairs * 2,
                                                      "bots": bots[:2]}, built


def _check_variants(deck_t, against, target, field, vals, stalemate, opts=()) -> list[list]:
    """Every variant's game is built before the first game: all the bad values at once. Returns
    each value's games (alone; against a deck, both seat orders) for the measures."""
    from .batch import _game

    problems = []
    built = []
    for v in vals:
        a = _variant_deck(deck_t, target, field, v)
        decks = (a,) if against is None else (a, tuple(against) if field == "copies"
                                              else _variant_deck(tuple(against), target, field, v))
        orders = [decks] if against is None else [decks, decks[::-1]]  # both seat orders
        try:
            built.append([_game(d, stalemate, opts) for d in orders])
        except CardbaseError as exc:
            problems.append(tr("dask.sweep.bad_variant", value=v, error=str(exc)))
    if problems:
        raise CardbaseError("\n".join(problems))
    return built


def _box_plan(code, cards, card, field, vals, games, seed, bots, players, options):
    from cardbase.games import registry

    from .games import _game, report, run_chunk

    spec = registry.playable(code)
    if spec.material != "box":
        raise CardbaseError(tr("games.decks_needed", game=code))
    cards_t = tuple(cards)
    if not cards_t:
        raise CardbaseError(tr("games.no_cards", game=code))
    target = _find(cards_t, card, spec.code)
    _check_field(target, field, BOX_FIELDS, box=True)
    if field == "copies" and any(v < 0 for v in vals):
        raise CardbaseError(tr("dask.sweep.negative_copies",
                               values=", ".join(str(v) for v in vals if v < 0)))
    players, bots = registry.seat_bots(spec, players, bots, games)
    opts = tuple(sorted((options or {}).items()))
    draft = registry.draft_of(spec.code)  # a draft's workers get its text, not its path
    args = []
    problems = []
    built = []
    for v in vals:
        new = (dataclasses.replace(target, copies=v) if field == "copies" else _changed(target, field, v))
        box = tuple(new if c.ref == target.ref else c for c in cards_t)
        try:
            built.append(_game(spec.code, box, players, opts, draft))  # every variant checked before the first game
        except CardbaseError as exc:
            problems.append(tr("dask.sweep.bad_variant", value=v, error=str(exc)))
        args.append((spec.code, box, players, tuple(bots), seed, opts, draft))
    if problems:
        raise CardbaseError("\n".join(problems))

    def finish(records: list) -> dict[str, Any]:
        rep = report(spec.code, players, seed, bots, records, cards_t)
        row = next((c for c in rep.cards if c["ref"] == target.ref), None)
        seats = [{"seat": s["seat"], "win_rate": s["win_rate"]} for s in rep.seats]
        base = {"games": rep.games, "ties": rep.ties, "mean_turns": rep.mean_turns, "seats": seats}
        if row is not None:
            held = [r.returns[p] for r in records for p in range(players) if target.ref in r.held[p]]
            return {"win_rate": row["win_rate_held"], "ci95": row["ci95_held"],
                    "mean_score": sum(held) / len(held) if held else None, "basis": "held",
                    "games_held": row["games_held"], **base}
        first = rep.seats[0]
        return {"win_rate": first["win_rate"], "ci95": first["ci95"],
                "mean_score": sum(r.returns[0] for r in records) / len(records), "basis": "seat1", **base}

    from cardbase.games.rulings import in_force

    head = {"game": spec.code, "card": target.ref, "name": target.name, "field": field, "seed": seed,
            "mode": "game", "games": games, "players": players, "bots": bots,
            "rulings": in_force(spec.code, options)}
    return run_chunk, args, games, finish, head, built
