"""Batches of NesPanini games: goldfish, head-to-head, round robin and the bot ladder.

Game *i* of a batch with seed *s* is dealt from ``game_seed(s, i)`` and its bots are seeded from it
too, so every game is reproducible on its own. Work is cut into chunks of consecutive games and
handed to any ``concurrent.futures``-style executor (an object with ``submit`` returning futures:
local processes, or a Dask cluster through :class:`cardbase.playtest.cluster.DaskExecutor`);
results are put back in game order, so they are identical whatever the executor (docs/cluster.md).

Every report counts how its games ended (``ended_by``: one count per ending of
:data:`cardbase.games.nespanini.ENDINGS`, adding up to the games; ruling R10 of docs/rulings/nespanini.md):
figures from games that did not end by the Cimetière are to be read with care.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pandas is loaded by the functions that build tables (start-up of sim game)
    import pandas as pd

from cardbase.games.bots import make_bot, oracle_search
from cardbase.domain import CardDef
from cardbase.errors import CardbaseError
from cardbase.games.nespanini import (
    ENDINGS,
    STALEMATE_ROUNDS,
    CardTable,
    Game,
    blank_card,
    play_greedy,
)
from cardbase.i18n import tr

from . import coverage as rule_coverage
from .cluster import chunks, game_seed, parallelism, run_chunks
from .stats import bradley_terry, percentile, wilson

Progress = Callable[[int, int], None]
PERCENTILES = (5, 10, 25, 50, 75, 90, 95)
PARALLEL_FROM = 4000  # batches smaller than this run in the calling process by default


# ----------------------------------------------------------------------------- workers

_GAMES: dict[tuple, Game] = {}

Options = tuple[tuple[str, Any], ...]  # the rulings' options of a batch, as sorted (name, value) pairs


def options_key(rules: dict[str, Any] | None) -> Options:
    """``rules`` (the keywords of ``Game`` set by ``--rule``: rulings R1, R9, R10) as a hashable,
    picklable key; a ``pool`` list becomes a tuple."""
    out = []
    for k, v in sorted((rules or {}).items()):
        out.append((k, tuple(v) if isinstance(v, list) else v))
    return tuple(out)


def _game(decks: tuple[tuple[CardDef, ...], ...], stalemate_rounds: int = STALEMATE_ROUNDS,
          options: Options = ()) -> Game:
    key = (decks, stalemate_rounds, options)
    g = _GAMES.get(key)
    if g is None:
        if len(_GAMES) > 64:
            _GAMES.clear()
        kw = dict(options)
        kw.setdefault("stalemate_rounds", stalemate_rounds)
        g = _GAMES[key] = Game([list(d) for d in decks], **kw)
    return g


def rules_in_force(stalemate_rounds: int, options: Options) -> dict[str, Any]:
    """The options of the batch's rulings, as ``Game`` takes them (the pool left out)."""
    kw = {k: v for k, v in options if k != "pool"}
    kw.setdefault("stalemate_rounds", stalemate_rounds)
    return kw


def _illegal_summary(illegal: dict[str, list[str]] | None) -> dict[str, Any]:
    """Report keys of the decks played although illegal (``--allow-illegal``)."""
    illegal = {k: list(v) for k, v in (illegal or {}).items() if v}
    return {"illegal": bool(illegal), "illegal_decks": illegal}


def _coverage(counts: Iterable[dict | None], games: int) -> dict[str, Any]:
    """JSON ``coverage`` and ``coverage_warnings`` of a batch (cardbase.playtest.coverage)."""
    total = rule_coverage.merge(counts)
    return {"coverage": rule_coverage.as_json("nespanini", total, games),
            "coverage_warnings": rule_coverage.warnings("nespanini", total)}


def ended_counts(reasons: Iterable[str]) -> dict[str, int]:
    """How games ended: a count for every ending (zeros included), adding up to the games."""
    c = Counter(reasons)
    out = {e: c.pop(e, 0) for e in ENDINGS}
    out.update(c)  # an ending this list does not know yet still counts
    return out


def not_by_cimetiere(ended_by: dict[str, int]) -> int:
    """Games of a report that did not end as the rules say: neither by the Cimetière nor, under
    ruling R1's other readings, after 5 turns each."""
    return sum(v for k, v in ended_by.items() if k not in ("cimetiere", "turns"))


def _play(game: Game, seed: int, bots: Sequence[str]) -> Any:
    s = game.new_state(seed, log=False)
    if all(b == "greedy" for b in bots):
        return play_greedy(s)
    players = [make_bot(b, seed=seed + 101 * (q + 1)) for q, b in enumerate(bots)]
    while s.player != -4:
        s.apply_action(players[s.player].step(s))
    return s


def run_goldfish_chunk(start: int, stop: int, deck: tuple[CardDef, ...], bot: str, seed: int,
                       oracle_games: int = 0, oracle_nodes: int = 5_000,
                       stalemate_rounds: int = STALEMATE_ROUNDS, options: Options = ()) -> list[tuple]:
    """Games ``start..stop-1``: (score, hand kinds, discard kinds, points per hand card, oracle,
    turns, ending, rule coverage)."""
    game = _game((deck,), stalemate_rounds, options)
    out = []
    for i in range(start, stop):
        gs = game_seed(seed, i)
        s = _play(game, gs, (bot,))
        pts = s.card_points(0)
        orc = None
        if i < oracle_games:
            r = oracle_search(game.new_state(gs, log=False), max_nodes=oracle_nodes)
            orc = (r.score, r.exact)
        out.append((sum(pts), tuple(s.hands[0]), tuple(s.discards[0]), pts, orc, s.turn, s.ended_by,
                    s.coverage()))
    return out


def run_swap_chunk(start: int, stop: int, deck: tuple[CardDef, ...], bot: str,
                   seed: int, stalemate_rounds: int = STALEMATE_ROUNDS,
                   options: Options = ()) -> list[tuple[int, ...]]:
    """Swap test, games ``start..stop-1``: per game, the score of each variant of ``deck`` where
    one distinct card (in card-table order) is replaced by a blank card of value 0.

    The variants share one card table (the deck's cards, then the blank card), so they share its
    score and choice caches, and every card keeps its index: the greedy tie-breaks are the same as
    in the deck's own games.
    """
    key = ("swap", deck, stalemate_rounds, options)
    variants = _SWAPS.get(key)
    if variants is None:
        blank = blank_card()
        pool = list(dict(options).get("pool") or ()) if dict(options).get("deck_lists") == "hidden" else []
        table = CardTable.build(list(deck) + [blank] + pool)  # R9 hidden: the pool after the deck
        kinds = sorted({table.kind(c) for c in deck})
        kw = rules_in_force(stalemate_rounds, options)
        variants = [Game([[blank if table.kind(c) == k else c for c in deck]], table=table, **kw)
                    for k in kinds]
        if len(_SWAPS) > 16:
            _SWAPS.clear()
        _SWAPS[key] = variants
    out = []
    for i in range(start, stop):
        gs = game_seed(seed, i)
        out.append(tuple(_play(g, gs, (bot,)).score(0) for g in variants))
    return out


_SWAPS: dict[tuple, list[Game]] = {}


def run_duel_chunk(start: int, stop: int, decks: tuple[tuple[CardDef, ...], tuple[CardDef, ...]],
                   bots: tuple[str, str], seed: int,
                   stalemate_rounds: int = STALEMATE_ROUNDS, options: Options = ()) -> list[tuple]:
    """Pairs ``start..stop-1``; each pair is two games on the same seed with seats swapped.

    Returns (pair, swapped, first player, score of deck A, score of deck B, ending, turns, rule
    coverage).
    """
    ga = _game(decks, stalemate_rounds, options)
    gb = _game((decks[1], decks[0]), stalemate_rounds, options)
    out = []
    for i in range(start, stop):
        gs = game_seed(seed, i)
        s = _play(ga, gs, bots)
        a, b = s.score(0), s.score(1)
        out.append((i, False, s.first_player, a, b, s.ended_by, s.turn, s.coverage()))
        s = _play(gb, gs, (bots[1], bots[0]))
        a, b = s.score(1), s.score(0)
        # first player as seen from deck A = 0
        out.append((i, True, 1 - s.first_player, a, b, s.ended_by, s.turn, s.coverage()))
    return out


def _chunks(n: int, parts: int) -> list[tuple[int, int]]:
    return chunks(n, parts)


def _map(fn: Callable[..., list], args: list[tuple], n: int, *, executor: Any, progress: Progress | None,
         workers: int | None) -> list:
    """Run ``fn(start, stop, *a)`` over chunks of ``range(n)``; results in order.

    ``executor``: any executor (local processes, :class:`cardbase.playtest.cluster.DaskExecutor`);
    None runs large batches on a pool of local processes and small ones here."""
    own = None
    if executor is None and n >= PARALLEL_FROM and (workers or os.cpu_count() or 1) > 1:
        own = executor = ProcessPoolExecutor(max_workers=workers or os.cpu_count())
    try:
        if executor is None:
            spans = _chunks(n, max(1, n // 500))
        else:
            spans = _chunks(n, max(4, parallelism(executor, workers) * 4))
        parts = run_chunks(fn, spans, args[0], executor, progress=progress, total=n)
        return [row for part in parts for row in part]
    finally:
        if own is not None:
            own.shutdown()


# ----------------------------------------------------------------------------- goldfish


@dataclass(slots=True)
class GoldfishReport:
    games: int
    bot: str
    seed: int
    records: pd.DataFrame  # one row a game
    cards: pd.DataFrame  # one row a distinct card
    summary: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {**self.summary, "cards": self.cards.to_dict(orient="records")}

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False, default=_json_default)


def _json_default(o: Any) -> Any:
    if hasattr(o, "item"):
        return o.item()
    raise TypeError(f"not JSON serialisable: {type(o).__name__}")


def goldfish(deck: Sequence[CardDef], *, games: int = 1000, bot: str = "greedy", seed: int = 0,
             executor: Any = None, workers: int | None = None, oracle_games: int = 30,
             swap_games: int | None = 100, thresholds: Iterable[int] | None = None,
             progress: Progress | None = None,
             stalemate_rounds: int = STALEMATE_ROUNDS, rules: dict[str, Any] | None = None,
             illegal: dict[str, list[str]] | None = None) -> GoldfishReport:
    """Play ``games`` goldfish games of ``deck`` with ``bot`` and sum them up.

    ``oracle_games``: how many of the games also get the clairvoyant oracle's score (it is slow);
    ``swap_games``: games per card for the swap test, played on the seeds of the first games
    (None or 0: no swap test); ``stalemate_rounds``: ruling R10 (0: off); ``rules``: other
    options of ``Game`` (rulings R1, R9: ``--rule``); ``illegal``: the deck's legality problems
    when it is played although illegal (``--allow-illegal``), said in the report.
    Cards that goldfish cannot judge (ruling R7) are marked: ``goldfish_judged`` False and
    ``goldfish_blind`` the reasons (:func:`cardbase.games.nespanini.analysis.goldfish_blind`).
    """
    import pandas as pd  # loaded by the batches that build tables only

    from cardbase.games.nespanini.analysis import goldfish_blind

    if games <= 0:
        raise CardbaseError(tr("engine.error.games_positive", games=games))
    deck_t = tuple(deck)
    options = options_key(rules)
    game = _game((deck_t,), stalemate_rounds, options)
    table = game.table
    oracle_games = min(oracle_games, games)
    rows = _map(run_goldfish_chunk, [(deck_t, bot, seed, oracle_games, 2_000, stalemate_rounds, options)],
                games, executor=executor, progress=progress, workers=workers)
    names = [c.name for c in table.defs]
    scores = [r[0] for r in rows]
    rec = pd.DataFrame({
        "game": range(games),
        "seed": [game_seed(seed, i) for i in range(games)],
        "score": scores,
        "hand": [[names[k] for k in r[1]] for r in rows],
        "discarded": [[names[k] for k in r[2]] for r in rows],
        "oracle": [r[4][0] if r[4] else None for r in rows],
        "oracle_exact": [r[4][1] if r[4] else None for r in rows],
        "turns": [r[5] for r in rows],
        "ended_by": [r[6] for r in rows],
    })
    srt = sorted(scores)
    mean = sum(scores) / games
    std = (sum((x - mean) ** 2 for x in scores) / games) ** 0.5
    lo, hi = srt[0], srt[-1]
    thresholds = list(thresholds) if thresholds is not None else list(range(lo, hi + 1))
    p_at_least = {str(x): sum(1 for v in scores if v >= x) / games for x in thresholds}
    gaps = [r[4][0] - r[0] for r in rows if r[4]]
    exact = sum(1 for r in rows if r[4] and r[4][1])
    # per-card figures
    copies = Counter(table.kind(c) for c in deck_t)
    kept, disc, points = Counter(), Counter(), Counter()
    for r in rows:
        for k in set(r[1]):
            kept[k] += 1
        for k in set(r[2]):
            disc[k] += 1
        for k, pt in zip(r[1], r[3]):
            points[k] += pt
    swap = {}
    if swap_games:
        # every card's variant is played on the seeds of the first n_swap games, in one batch
        n_swap = min(swap_games, games)
        base = sum(scores[:n_swap]) / n_swap
        swap_rows = _map(run_swap_chunk, [(deck_t, bot, seed, stalemate_rounds, options)], n_swap,
                         executor=executor, progress=None, workers=workers)
        kinds = sorted(copies)
        for j, k in enumerate(kinds):
            swap[k] = sum(r[j] for r in swap_rows) / n_swap - base
    blind = {k: goldfish_blind(table.defs[k]) for k in copies}
    cards = pd.DataFrame([{
        "card": names[k],
        "ref": table.defs[k].ref,
        "copies": copies[k],
        "value": table.value[k],
        "kept_rate": kept[k] / games,
        "discarded_rate": disc[k] / games,
        "avg_points": points[k] / games,
        "swap_delta": swap.get(k),
        "goldfish_judged": not blind[k],  # ruling R7: False when goldfish cannot see what it does
        "goldfish_blind": list(blind[k]),
    } for k in sorted(copies, key=lambda k: (-copies[k], names[k]))])
    summary = {
        "games": games,
        "bot": bot,
        "seed": seed,
        "mean": mean,
        "std": std,
        "min": lo,
        "max": hi,
        "percentiles": {str(q): percentile(srt, q) for q in PERCENTILES},
        "p_at_least": p_at_least,
        "oracle_games": len(gaps),
        "oracle_exact": exact,
        "oracle_mean_gap": (sum(gaps) / len(gaps)) if gaps else None,
        "ended_by": ended_counts(r[6] for r in rows),
        "stalemate_rounds": stalemate_rounds,
        "rules": rules_in_force(stalemate_rounds, options),
        "not_judged": [names[k] for k in sorted(copies, key=lambda k: names[k]) if blind[k]],
        **_illegal_summary(illegal),
        **_coverage((r[7] for r in rows), games),
    }
    return GoldfishReport(games, bot, seed, rec, cards, summary)


# ----------------------------------------------------------------------------- head-to-head


@dataclass(slots=True)
class DuelReport:
    games: int
    records: pd.DataFrame
    summary: dict[str, Any]

    def to_dict(self) -> dict[str, Any]:
        return dict(self.summary)

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False, default=_json_default)


def duel(deck_a: Sequence[CardDef], deck_b: Sequence[CardDef], *, games: int = 1000,
         bots: tuple[str, str] = ("greedy", "greedy"), seed: int = 0, executor: Any = None,
         workers: int | None = None, names: tuple[str, str] = ("A", "B"),
         progress: Progress | None = None, stalemate_rounds: int = STALEMATE_ROUNDS,
         rules: dict[str, Any] | None = None,
         illegal: dict[str, list[str]] | None = None) -> DuelReport:
    """Head-to-head of deck A (with ``bots[0]``) against deck B (``bots[1]``).

    ``games`` is the number of games, played as games/2 pairs: each seed once with A in seat 1 and
    once with the seats swapped. Figures are from A's side. First-player and seat figures are
    over decided games (a tie is no one's win: ruling R5), with the ties beside them.
    ``rules``/``illegal``: as :func:`goldfish`.
    """
    import pandas as pd  # loaded by the batches that build tables only

    if games < 2:
        raise CardbaseError(tr("engine.error.duel_games", games=games))
    pairs = games // 2
    options = options_key(rules)
    rows = _map(run_duel_chunk,
                [((tuple(deck_a), tuple(deck_b)), tuple(bots), seed, stalemate_rounds, options)],
                pairs, executor=executor, progress=progress, workers=workers)
    cov = [r[7] for r in rows]
    rows = [r[:7] for r in rows]
    rec = pd.DataFrame(rows, columns=["pair", "swapped", "first", "score_a", "score_b", "ended_by", "turns"])
    rec.insert(1, "seed", [game_seed(seed, p) for p in rec["pair"]])
    rec["margin"] = rec["score_a"] - rec["score_b"]
    rec["result"] = (rec["margin"] > 0).astype(int) - (rec["margin"] < 0).astype(int)
    n = len(rec)
    wins = int((rec["result"] == 1).sum())
    ties = int((rec["result"] == 0).sum())
    losses = n - wins - ties
    first_won = int((((rec["first"] == 0) & (rec["result"] == 1))
                     | ((rec["first"] == 1) & (rec["result"] == -1))).sum())
    decided = n - ties
    first_lost = decided - first_won
    summary = {
        "games": n,
        "decks": list(names),
        "bots": list(bots),
        "seed": seed,
        "wins": wins,
        "ties": ties,
        "losses": losses,
        "win_rate": wins / n,
        "ci95": list(wilson(wins, n)),
        "points_rate": (wins + ties / 2) / n,
        "points_ci95": list(wilson(wins + ties / 2, n)),
        # over all games (a tie counts as a game the first player did not win): kept for old readers
        "first_player_win_rate": first_won / n,
        "first_player_win_rate_decided": (first_won / decided) if decided else None,
        # the interval of the decided-games rate (ties are no one's win, ruling R5)
        "first_player_ci95": list(wilson(first_won, decided)),
        "first_player": {"wins": first_won, "losses": first_lost, "ties": ties, "decided": decided,
                         "win_rate": (first_won / decided) if decided else None,
                         "ci95": list(wilson(first_won, decided))},
        "seats": {seat: _record(rec[rec["first"] == (0 if seat == "first" else 1)]["result"])
                  for seat in ("first", "second")},
        "mean_margin": float(rec["margin"].mean()),
        "mean_score_a": float(rec["score_a"].mean()),
        "mean_score_b": float(rec["score_b"].mean()),
        "ended_by": ended_counts(rec["ended_by"]),
        "stalemate_rounds": stalemate_rounds,
        "rules": rules_in_force(stalemate_rounds, options),
        **_illegal_summary(illegal),
        **_coverage(cov, n),
    }
    return DuelReport(n, rec, summary)


def _record(results: pd.Series) -> dict[str, Any]:
    """Deck A's record in some games (results +1/0/-1): win rate and interval over decided games."""
    wins = int((results == 1).sum())
    losses = int((results == -1).sum())
    decided = wins + losses
    return {"games": len(results), "wins": wins, "ties": int((results == 0).sum()),
            "losses": losses, "decided": decided,
            "win_rate": (wins / decided) if decided else None, "ci95": list(wilson(wins, decided))}


def save_records(df: pd.DataFrame, path: Path | str) -> None:
    """Per-game records as JSON lines."""
    Path(path).write_text(df.to_json(orient="records", lines=True, force_ascii=False), encoding="utf-8")


# ----------------------------------------------------------------------------- round robin


@dataclass(slots=True)
class RoundRobinReport:
    matrix: pd.DataFrame  # win rate of the row deck against the column deck
    ratings: pd.DataFrame  # one row a deck: rating, points rate
    duels: dict[tuple[str, str], DuelReport]
    ended_by: dict[str, int] = field(default_factory=dict)  # over every game of every pair
    legality: dict[str, Any] = field(default_factory=dict)  # illegal, illegal_decks

    def to_dict(self) -> dict[str, Any]:
        import pandas as pd  # loaded by the batches that build tables only

        return {
            **self.legality,
            "matrix": {r: {c: (None if pd.isna(v) else float(v)) for c, v in row.items()}
                       for r, row in self.matrix.iterrows()},
            "ratings": self.ratings.to_dict(orient="records"),
            "games": sum(self.ended_by.values()),
            "ended_by": dict(self.ended_by),
            **_coverage(({k: [v["occasions"], v["used"]] for k, v in rep.summary["coverage"].items()}
                         for rep in self.duels.values()), sum(self.ended_by.values())),
        }


def roundrobin(decks: dict[str, Sequence[CardDef]], *, games: int = 400,
               bots: tuple[str, str] = ("greedy", "greedy"), seed: int = 0, executor: Any = None,
               workers: int | None = None, progress: Progress | None = None,
               stalemate_rounds: int = STALEMATE_ROUNDS, rules: dict[str, Any] | None = None,
               illegal: dict[str, list[str]] | None = None) -> RoundRobinReport:
    """Every pair of decks plays ``games`` games (seats swapped, same seeds)."""
    import pandas as pd  # loaded by the batches that build tables only

    names = list(decks)
    if len(names) < 2:
        raise CardbaseError(tr("engine.error.rr_decks"))
    duels = {}
    pts: dict[tuple[str, str], float] = {}
    matrix = pd.DataFrame(index=names, columns=names, dtype=float)
    pairs = [(a, b) for i, a in enumerate(names) for b in names[i + 1:]]
    for j, (a, b) in enumerate(pairs):
        rep = duel(decks[a], decks[b], games=games, bots=bots, seed=seed, executor=executor,
                   workers=workers, names=(a, b), stalemate_rounds=stalemate_rounds, rules=rules,
                   illegal={k: v for k, v in (illegal or {}).items() if k in (a, b)})
        duels[(a, b)] = rep
        s = rep.summary
        matrix.loc[a, b] = s["win_rate"]
        matrix.loc[b, a] = s["losses"] / s["games"]
        pts[(a, b)] = s["wins"] + s["ties"] / 2
        pts[(b, a)] = s["losses"] + s["ties"] / 2
        if progress:
            progress(j + 1, len(pairs))
    ratings = bradley_terry(names, pts)
    played = {n: sum(v for (a, _), v in pts.items() if a == n) for n in names}
    total = {n: sum(pts[(a, b)] + pts[(b, a)] for (a, b) in pts if a == n) for n in names}
    rdf = pd.DataFrame([{"deck": n, "rating": round(ratings[n], 1),
                         "points_rate": played[n] / total[n] if total[n] else None} for n in names])
    rdf = rdf.sort_values("rating", ascending=False).reset_index(drop=True)
    ended: Counter = Counter()
    for rep in duels.values():
        ended.update(rep.summary["ended_by"])
    return RoundRobinReport(matrix, rdf, duels, ended_counts(ended.elements()),
                            _illegal_summary(illegal))


# ----------------------------------------------------------------------------- measured games


def measured_games(decks: Sequence[Sequence[CardDef]], *, stalemate_rounds: int = STALEMATE_ROUNDS,
                   rules: dict[str, Any] | None = None, both_orders: bool = False) -> list[Game]:
    """The games the measures of a good game (:mod:`cardbase.playtest.measures`) are taken on, the
    batch's rulings in force: one deck alone (goldfish), two decks (a duel, the first deck in seat
    1), or — ``both_orders`` — every pair of the decks in both seat orders (a round robin, a
    sweep against a deck: seat advantage apart from the decks')."""
    options = options_key(rules)
    ds = [tuple(d) for d in decks]
    if len(ds) == 1:
        return [_game((ds[0],), stalemate_rounds, options)]
    if not both_orders:
        return [_game((ds[0], ds[1]), stalemate_rounds, options)]
    return [_game(pair, stalemate_rounds, options)
            for i, a in enumerate(ds) for b in ds[i + 1:] for pair in ((a, b), (b, a))]


# ----------------------------------------------------------------------------- ladder

LADDER = ("random", "greedy", "mc", "ismcts")


def ladder(deck: Sequence[CardDef], *, games: int = 200, seed: int = 0,
           levels: Sequence[str] = LADDER, executor: Any = None, workers: int | None = None,
           progress: Progress | None = None, stalemate_rounds: int = STALEMATE_ROUNDS,
           rules: dict[str, Any] | None = None,
           illegal: dict[str, list[str]] | None = None) -> pd.DataFrame:
    """Each level against the one below on mirror matches (same deck, seats swapped, same seeds).

    One row a rung; its ``ended_by`` column holds the rung's counts of endings."""
    import pandas as pd  # loaded by the batches that build tables only

    rows = []
    for i in range(1, len(levels)):
        hi, lo = levels[i], levels[i - 1]
        rep = duel(deck, deck, games=games, bots=(hi, lo), seed=seed, executor=executor,
                   workers=workers, names=(hi, lo), stalemate_rounds=stalemate_rounds, rules=rules,
                   illegal=illegal)
        s = rep.summary
        rows.append({
            "level": hi, "against": lo, "games": s["games"], "wins": s["wins"], "ties": s["ties"],
            "losses": s["losses"], "win_rate": s["win_rate"], "ci_low": s["ci95"][0],
            "ci_high": s["ci95"][1], "points_rate": s["points_rate"],
            "points_ci_low": s["points_ci95"][0], "points_ci_high": s["points_ci95"][1],
            "mean_margin": s["mean_margin"],
            "beats_lower": s["points_ci95"][0] > 0.5,
            "illegal": s["illegal"],
            "ended_by": s["ended_by"],
        })
        if progress:
            progress(i, len(levels) - 1)
    return pd.DataFrame(rows)
