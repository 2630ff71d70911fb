"""Each ruling's weight (``cardbase sim rulings``): the same games under every reading of a ruling.

The batch is played once with the default rulings (the *baseline*) and once for each alternative
value of each weighed ruling (the contested ones, or those named), on the same seeds: game ``i`` of
every variant is dealt from the same seed as game ``i`` of the baseline. A variant's effect on a
side (a seat, or a team in a team game) is the mean of the paired per-game differences of its wins
(1 won, 0 not), with a 95 % interval from their spread (normal approximation; pairing removes the
deal's own variance, so the interval is narrower than comparing two independent batches). Two
seats or two teams are one question (their differences mirror each other); a duel's deck and first
player are two. With ``measures_games``, the measures of a good game (length, first player,
comebacks, lead changes…) are taken under every reading on the same deals and compared game by
game too. Every test of the batch — every side and every measure under every reading — is then
corrected together (Holm), and a variant is *significant* when some side or some measure moves
(:mod:`cardbase.playtest.verdict`, which also words the verdict). The rows keep their plain 95 %
intervals. Variants are ranked by the largest absolute difference of a side's win rate.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from cardbase.domain import CardDef
from cardbase.games import registry
from cardbase.games.rulings import Ruling, contested, in_force
from cardbase.playtest.stats import Z95, paired_delta, wilson
from cardbase.playtest.verdict import judge


def questions(sides: int, *, mirrored: bool = True) -> int:
    """How many independent questions ``sides`` differences ask: two mirrored sides (two seats, two
    teams: one wins what the other loses) ask one."""
    return 1 if mirrored and sides <= 2 else max(1, sides)


def beyond_chance(delta: float, ci: Sequence[float], tests: int) -> bool:
    """Whether ``delta`` is away from 0 at the 5 % level over ``tests`` questions (Bonferroni): its
    95 % interval ``ci`` widened to the level 5 % / ``tests``. (A reading's verdict corrects every
    test of the batch together, Holm's step-down — :mod:`cardbase.playtest.verdict` — whose
    first step is this Bonferroni.)"""
    from statistics import NormalDist

    half = (ci[1] - ci[0]) / 2
    if half <= 0:
        return delta != 0
    z = NormalDist().inv_cdf(1 - 0.025 / tests)
    return abs(delta) > half * z / Z95


TOP_CARDS = 5

Progress = Callable[[int, int], None]


def _sides(records: Sequence[Any], players: int) -> list[tuple[str, list[int]]]:
    """The sides whose wins are compared: each team of a team game, else each seat."""
    teams = records[0].teams if records and records[0].teams else ()
    if teams:
        return [(name, [p for p, t in enumerate(teams) if t == name]) for name in sorted(set(teams))]
    return [(str(p + 1), [p]) for p in range(players)]


def _wins(records: Sequence[Any], seats: Sequence[int]) -> list[int]:
    return [1 if any(r.returns[p] > 0 for p in seats) else 0 for r in records]


def _side_rows(records: Sequence[Any], players: int) -> list[dict[str, Any]]:
    n = len(records)
    rows = []
    for name, seats in _sides(records, players):
        wins = _wins(records, seats)
        lo, hi = wilson(sum(wins), n)
        mean_return = sum(sum(r.returns[p] for p in seats) / len(seats) for r in records) / n if n else 0.0
        rows.append({"side": name, "seats": [p + 1 for p in seats], "wins": sum(wins),
                     "win_rate": sum(wins) / n if n else 0.0, "ci95": [lo, hi], "mean_return": mean_return})
    return rows


def _card_moves(base: Any, other: Any) -> list[dict[str, Any]]:
    """The cards whose win rate when held moves most between two reports (a rules file's game: a
    card is held by the seats that took it at least once; its take rate moves beside it)."""
    before = {c["ref"]: c for c in base.cards}
    moves = []
    for c in other.cards:
        b = before.get(c["ref"])
        if b is None or not b["games_held"] or not c["games_held"]:
            continue
        move = {"ref": c["ref"], "name": c["name"], "win_rate_held": c["win_rate_held"],
                "delta": c["win_rate_held"] - b["win_rate_held"]}
        if "take_rate" in c and "take_rate" in b:  # a rules file's game: how often the bots took it
            move.update({"take_rate": c["take_rate"], "take_delta": c["take_rate"] - b["take_rate"]})
        moves.append(move)
    moves.sort(key=lambda m: -abs(m["delta"]))
    return moves[:TOP_CARDS]


def same_games(base: Sequence[Any], other: Sequence[Any]) -> tuple[int, int] | tuple[None, None]:
    """How many games of a reading were the very games of the default readings (the same seeds):
    the same moves *and* the same outcome — all of them says the bots never brought the reading into
    play, a finding on the bots, not on the rule; and how many were played move for move alike but
    ended with other returns — a reading of the scoring changes the outcome without changing a move,
    so it *was* brought into play. ``(None, None)`` when the game keeps no moves."""
    if not base or any(r.moves is None for r in base) or any(r.moves is None for r in other):
        return None, None
    same = other_outcome = 0
    for a, b in zip(base, other, strict=True):
        if a.moves == b.moves:
            if tuple(a.returns) == tuple(b.returns):
                same += 1
            else:
                other_outcome += 1
    return same, other_outcome


def _measured(build: Any, games: int, seed: int, bots: Sequence[str], code: str) -> dict[str, Any]:
    """``{"measures": …}`` of the game ``build()`` makes (a reading's), or nothing (``games`` 0)."""
    if not games:
        return {}
    from .measures import measures

    return {"measures": measures(build(), games=games, seed=seed, bots=list(bots), code=code, series=True)}


def weigh(code: str, cards: Sequence[CardDef], *, players: int | None = None,
          bots: Sequence[str] | None = None, games: int = 1000, seed: int = 0,
          only: Sequence[str] | None = None, workers: int | None = None, executor: Any = None,
          progress: Progress | None = None, measures_games: int = 0) -> dict[str, Any]:
    """The weight of each contested ruling (or of those in ``only``) of the box game ``code``;
    ``measures_games``: the measures of a good game under every reading too (``measures``), on
    the same seed — at most ``games`` games a reading."""
    from cardbase.playtest.games import simulate

    spec = registry.playable(code)
    players, bots = registry.seat_bots(spec, players, bots, games)
    weighed: list[Ruling] = contested(code, only)
    runs = [(r, v) for r in weighed for v in r.variants()]
    total = games * (1 + len(runs))
    done = [0]

    def step(offset: int) -> Progress | None:
        if progress is None:
            return None

        def update(k: int, _n: int) -> None:
            progress(offset + k, total)

        return update

    base_rep, base_recs = simulate(code, cards, players=players, bots=bots, games=games, seed=seed,
                                   workers=workers, executor=executor, progress=step(0))
    done[0] = games
    base_sides = _side_rows(base_recs, players)
    base_wins = {name: _wins(base_recs, seats) for name, seats in _sides(base_recs, players)}
    variants = []
    for ruling, value in runs:
        rep, recs = simulate(code, cards, players=players, bots=bots, games=games, seed=seed,
                             workers=workers, executor=executor, options={ruling.option: value},
                             progress=step(done[0]))
        done[0] += games
        sides = _side_rows(recs, players)
        biggest = 0.0
        tests = questions(len(sides))
        for row, (name, seats) in zip(sides, _sides(recs, players), strict=True):
            delta, ci = paired_delta(base_wins.get(name, [0] * games), _wins(recs, seats))
            row["delta"] = delta
            row["delta_ci95"] = ci
            biggest = max(biggest, abs(delta))
        variants.append({
            "ruling": ruling.code, "title": ruling.title_in(), "option": ruling.option,
            "value": value, "default": ruling.default, "contested": ruling.contested,
            "seats": sides, "delta": biggest, "questions": tests,
            **dict(zip(("same_games", "same_moves_other_outcome"), same_games(base_recs, recs), strict=True)),
            "mean_rounds": rep.mean_rounds, "delta_rounds": rep.mean_rounds - base_rep.mean_rounds,
            "ties": rep.ties, "ended_by": rep.ended_by, "cards": _card_moves(base_rep, rep),
            **_measured(lambda o={ruling.option: value}: spec.build(tuple(cards), players, **o),
                        min(measures_games, games), seed, bots, code)})
    variants.sort(key=lambda v: (-v["delta"], v["ruling"], str(v["value"])))
    if progress is not None:
        progress(total, total)
    return judge({"game": code, "players": players, "games": games, "seed": seed, "bots": list(bots),
                  "teams": bool(base_recs and base_recs[0].teams),
                  "baseline": {"seats": base_sides, "mean_rounds": base_rep.mean_rounds, "ties": base_rep.ties,
                               "ended_by": base_rep.ended_by, "rulings": base_rep.rulings,
                               **_measured(lambda: spec.build(tuple(cards), players), min(measures_games, games),
                                           seed, bots, code)},
                  "weighed": [r.code for r in weighed], "variants": variants})


def _duel_sides(rec: Any, names: Sequence[str]) -> list[tuple[str, list[int]]]:
    """NesPanini's sides: deck A (a win: A scored more) and the first player, game by game."""
    rec = rec.sort_values(["pair", "swapped"])
    a_won = [1 if r == 1 else 0 for r in rec["result"]]
    first_won = [1 if (f == 0 and r == 1) or (f == 1 and r == -1) else 0
                 for f, r in zip(rec["first"], rec["result"], strict=True)]
    return [(names[0], a_won), ("first", first_won)]


def weigh_duel(deck_a: Sequence[CardDef], deck_b: Sequence[CardDef], *, names: tuple[str, str],
               bots: tuple[str, str] = ("greedy", "greedy"), games: int = 1000, seed: int = 0,
               only: Sequence[str] | None = None, stalemate_rounds: int | None = None,
               pool: Sequence[CardDef] | None = None, workers: int | None = None, executor: Any = None,
               progress: Progress | None = None, measures_games: int = 0) -> dict[str, Any]:
    """NesPanini's contested rulings weighed on one duel (deck A against deck B, every deal played
    from both seats): deck A's win rate and the first player's, with the paired differences;
    ``measures_games``: the measures of a good game under every reading too (both seat orders)."""
    from cardbase.games.nespanini import STALEMATE_ROUNDS
    from cardbase.playtest.batch import duel, measured_games

    weighed: list[Ruling] = contested("nespanini", only)
    runs = [(r, v) for r in weighed for v in r.variants()]
    total = (games // 2) * (1 + len(runs))
    rounds = STALEMATE_ROUNDS if stalemate_rounds is None else stalemate_rounds

    def step(offset: int) -> Progress | None:
        if progress is None:
            return None
        return lambda k, _n: progress(offset + k, total)

    def rules_of(options: dict[str, Any]) -> dict[str, Any]:
        rules = {k: v for k, v in options.items() if k != "stalemate_rounds"}
        if rules.get("deck_lists") == "hidden":
            rules["pool"] = list(pool or [])
        return rules

    def play(options: dict[str, Any], offset: int) -> Any:
        return duel(deck_a, deck_b, games=games, bots=bots, seed=seed, names=names, workers=workers,
                    executor=executor, progress=step(offset), stalemate_rounds=options.get("stalemate_rounds", rounds),
                    rules=rules_of(options) or None)

    def measured(options: dict[str, Any]) -> dict[str, Any]:
        return _measured(lambda: measured_games([deck_a, deck_b], both_orders=True, rules=rules_of(options),
                                                stalemate_rounds=options.get("stalemate_rounds", rounds)),
                         min(measures_games, games), seed, bots, "nespanini")

    def sides(rep: Any) -> list[dict[str, Any]]:
        n = len(rep.records)
        out = []
        for name, won in _duel_sides(rep.records, names):
            lo, hi = wilson(sum(won), n)
            out.append({"side": name, "seats": [], "wins": sum(won), "win_rate": sum(won) / n if n else 0.0,
                        "ci95": [lo, hi], "mean_return": None})
        return out

    base = play({}, 0)
    base_won = dict(_duel_sides(base.records, names))
    variants = []
    for i, (ruling, value) in enumerate(runs, start=1):
        rep = play({ruling.option: value}, i * (games // 2))
        rows = sides(rep)
        biggest = 0.0
        tests = questions(len(rows), mirrored=False)  # deck A and the first player: two questions
        for row, (name, won) in zip(rows, _duel_sides(rep.records, names), strict=True):
            delta, ci = paired_delta(base_won[name], won)
            row["delta"], row["delta_ci95"] = delta, ci
            biggest = max(biggest, abs(delta))
        variants.append({
            "ruling": ruling.code, "title": ruling.title_in(), "option": ruling.option, "value": value,
            "default": ruling.default, "contested": ruling.contested, "seats": rows, "delta": biggest,
            "questions": tests, "mean_rounds": float(rep.records["turns"].mean()),
            "delta_rounds": float(rep.records["turns"].mean() - base.records["turns"].mean()),
            "ties": rep.summary["ties"], "ended_by": rep.summary["ended_by"], "cards": [],
            **measured({ruling.option: value})})
    variants.sort(key=lambda v: (-v["delta"], v["ruling"], str(v["value"])))
    if progress is not None:
        progress(total, total)
    return judge({"game": "nespanini", "players": 2, "games": base.summary["games"], "seed": seed,
                  "bots": list(bots), "decks": list(names), "teams": False,
                  "baseline": {"seats": sides(base), "mean_rounds": float(base.records["turns"].mean()),
                               "ties": base.summary["ties"], "ended_by": base.summary["ended_by"],
                               "rulings": in_force("nespanini", {"stalemate_rounds": rounds}), **measured({})},
                  "weighed": [r.code for r in weighed], "variants": variants})
