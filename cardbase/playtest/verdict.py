"""The verdict of each reading of ``cardbase sim rulings``: which figures it moves, seats *and*
measures of a good game, each judged by a paired test, the whole batch corrected for its many tests.

Every reading is played on the same deals as the default rulings (game ``i`` dealt from the same
seed), so each figure is compared game by game:

* a side's wins (a seat, a team; NesPanini's deck and first player): the mean of the paired
  per-game differences (1 won, 0 not) — :func:`cardbase.playtest.stats.paired_delta`;
* each measure with an interval (:func:`cardbase.playtest.measures.game_series`): game length
  (turns), the first player's win, the winner behind at mid-game (comeback) and the gap made up,
  lead changes, how early the winner was known, decisions a game — the mean of the per-game
  differences over the games where the measure counts under both readings (a first player's win
  counts in a game somebody won under both readings, a comeback's gap in a game won from behind
  under both).

The test is the same for all: the paired mean difference over its standard error, two-sided,
normal approximation (a z test on the paired differences; at least two pairs, else no test). Two
mirrored sides (two seats, two teams: one wins what the other loses) are one question, as before.

**Multiple comparisons.** A batch asks many questions — its sides and its measures under every
reading — and some would pass the 5 % level by chance alone (four seats and seven measures under
two readings: 22 tests, about one of them « significant » when no reading changes anything). Every
test of the batch is therefore corrected together by Holm's step-down method (Holm 1979): the
p-values sorted, the ``j``-th smallest compared with 5 % / (m − j + 1), stopping at the first that
fails — the chance that a batch names any figure a reading does not really move stays under 5 %, and
Holm is never less powerful than Bonferroni (its first step *is* Bonferroni). A figure equal in
every game under both readings (a reading the bots never brought into play) cannot pass any level
and is left out of the count (Tarone 1990: a test that cannot reach the level need not be paid
for); ``correction`` gives ``tests`` (counted) and ``unchanged`` (left out). Each test keeps its raw
``p`` and its ``p_holm`` (Holm's adjusted p-value); a figure *moves* when ``p_holm`` ≤ 5 %. A reading
has an effect when a side or a measure moves; « pas d'effet démontré » only when none does.
"""

from __future__ import annotations

from collections.abc import Sequence
from statistics import NormalDist
from typing import Any

from cardbase.i18n import fmt_num, fmt_pct, translate

from .stats import Z95, paired_delta

LEVEL = 0.05
TEST = "paired"  # the mean of the paired per-game differences, z test (normal approximation)
CORRECTION = "holm"

# The measures judged, in the order a verdict names them: the key of the series
# (measures.game_series), where the measures dict keeps the figure and its interval, how it is
# written (a rate or a number with so many decimals).
MEASURES: tuple[tuple[str, tuple[str, str, str], str, int], ...] = (
    ("length", ("length", "mean", "ci95"), "num", 1),
    ("first", ("first_player", "rate", "ci95"), "pct", 1),
    ("comebacks", ("comebacks", "rate", "ci95"), "pct", 1),
    ("comeback_gap", ("comebacks", "mean_gap", "gap_ci95"), "num", 1),
    ("leads", ("lead_changes", "mean", "ci95"), "num", 2),
    ("decisive", ("decisiveness", "mean", "ci95"), "pct", 1),
    ("decisions", ("decisions", "per_game", "ci95"), "num", 1),
)


def p_value(delta: float, ci: Sequence[float]) -> float:
    """The two-sided p-value of ``delta`` whose 95 % (normal) interval is ``ci``; a difference
    without spread (every pair differs alike) is certain: 0 when it is not 0, else 1."""
    half = (ci[1] - ci[0]) / 2
    if half <= 0:
        return 0.0 if delta != 0 else 1.0
    z = abs(delta) / (half / Z95)
    return min(1.0, 2 * (1 - NormalDist().cdf(z)))


def paired_test(before: Sequence[float | None], after: Sequence[float | None]) -> dict[str, Any] | None:
    """The paired test of one figure game by game, over the games where it counts under both
    readings (None where it does not): ``pairs``, ``mean`` (of after − before), ``ci95`` and
    ``p``; None under two pairs."""
    pairs = [(a, b) for a, b in zip(before, after, strict=False) if a is not None and b is not None]
    if len(pairs) < 2:
        return None
    mean, ci = paired_delta([a for a, _ in pairs], [b for _, b in pairs])
    return {"pairs": len(pairs), "mean": mean, "ci95": ci, "p": p_value(mean, ci)}


def holm(ps: Sequence[float]) -> list[float]:
    """Holm's adjusted p-values of ``ps`` (in their order): the ``j``-th smallest times
    (m − j + 1), made non-decreasing, at most 1. A test passes at level α when its adjusted
    p-value is ≤ α — the same as Holm's step-down procedure."""
    m = len(ps)
    order = sorted(range(m), key=lambda i: ps[i])
    out = [1.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * ps[i]))
        out[i] = running
    return out


def _figure(m: dict[str, Any], path: tuple[str, str, str]) -> tuple[float | None, list[float] | None]:
    block = m.get(path[0]) or {}
    return block.get(path[1]), block.get(path[2])


def _seat_tests(v: dict[str, Any]) -> list[tuple[list[dict[str, Any]], float]]:
    """The questions a reading's sides ask: each side alone, or — two mirrored sides — one
    question for both (the smaller p, as the seat verdict always took « some side »)."""
    for side in v["seats"]:
        side["p"] = p_value(side["delta"], side["delta_ci95"])
    sides = v["seats"]
    if v.get("questions", len(sides)) < len(sides):
        return [(sides, min(s["p"] for s in sides))]
    return [([s], s["p"]) for s in sides]


def judge(res: dict[str, Any], level: float = LEVEL) -> dict[str, Any]:
    """Judge every reading of a ``sim rulings`` result in place: each side gets ``p``, ``p_holm``
    and ``significant``; each reading ``measure_tests`` (every measure tested: ``measure``,
    ``before``, ``after`` with the reading's 95 % interval ``ci95``, the paired ``pairs``,
    ``paired_delta``, ``paired_ci95``, ``p``, ``p_holm``, ``significant``), ``seats_significant``,
    ``measures_moved`` (the measures it moves) and ``significant`` (a side or a measure moves);
    the result gets ``correction`` (the test, the method, the level, how many tests were counted,
    ``tests``, and how many left out as equal in every game, ``unchanged``). The
    per-game series the tests used are dropped from the measures."""
    base_m = res["baseline"].get("measures") or {}
    base_series = base_m.pop("series", None) or {}
    tests: list[tuple[float, Any]] = []  # (p, what to mark)
    for v in res["variants"]:
        for sides, p in _seat_tests(v):
            still = all(s["delta"] == 0 and s["delta_ci95"][0] == s["delta_ci95"][1] for s in sides)
            tests.append((p, ("seats", sides, still)))
        v["measure_tests"] = []
        m = v.get("measures") or {}
        series = m.pop("series", None) or {}
        for key, path, _kind, _digits in MEASURES:
            if key not in series or key not in base_series:
                continue
            t = paired_test(base_series[key], series[key])
            before, _ = _figure(base_m, path)
            after, ci = _figure(m, path)
            if t is None or before is None or after is None:
                continue
            row = {"measure": key, "before": before, "after": after, "ci95": ci, "pairs": t["pairs"],
                   "paired_delta": t["mean"], "paired_ci95": t["ci95"], "p": t["p"]}
            v["measure_tests"].append(row)
            still = t["mean"] == 0 and t["ci95"][0] == t["ci95"][1]
            tests.append((t["p"], ("measure", row, still)))
    # a figure equal in every game under both readings cannot pass any level: it asks no question
    # and does not count among the batch's tests (Tarone 1990) — a reading the bots never brought
    # into play does not dilute the others'
    asked = [(p, what) for p, what in tests if not what[2]]
    for _p, (kind, what, _still) in tests:
        for row in what if kind == "seats" else [what]:
            row["p_holm"], row["significant"] = 1.0, False
    for (_p, (kind, what, _still)), padj in zip(asked, holm([p for p, _ in asked]), strict=True):
        for row in what if kind == "seats" else [what]:
            row["p_holm"] = padj
            row["significant"] = padj <= level
    for v in res["variants"]:
        v["seats_significant"] = any(s.get("significant") for s in v["seats"])
        v["measures_moved"] = [t["measure"] for t in v["measure_tests"] if t["significant"]]
        v["significant"] = v["seats_significant"] or bool(v["measures_moved"])
    res["correction"] = {"test": TEST, "method": CORRECTION, "level": level, "tests": len(asked),
                         "unchanged": len(tests) - len(asked)}
    return res


def _span(a: float, b: float, ci: Sequence[float] | None, kind: str, digits: int, lang: str) -> dict[str, str]:
    out = {"lo": "—", "hi": "—"}
    if kind == "pct":
        out |= {"a": fmt_pct(a, digits, lang=lang), "b": fmt_pct(b, digits, lang=lang)}
        if ci:
            out.update(lo=fmt_pct(ci[0], digits, unit=False, lang=lang), hi=fmt_pct(ci[1], digits, unit=False, lang=lang))
    else:
        out |= {"a": fmt_num(a, digits, lang=lang), "b": fmt_num(b, digits, lang=lang)}
        if ci:
            out.update(lo=fmt_num(ci[0], digits, lang=lang), hi=fmt_num(ci[1], digits, lang=lang))
    return out


def _diff(d: float, ci: Sequence[float], kind: str, digits: int, lang: str) -> str:
    """« , écart +3,2 [+2,4 ; +4,1] »: the paired difference (game by game) and its 95 % interval."""
    if kind == "pct":
        def one(x: float) -> str:
            return fmt_pct(x, digits, signed=True, lang=lang)
    else:
        def one(x: float) -> str:
            return fmt_num(x, digits, signed=True, lang=lang)
    return translate(lang, "rulings.move.diff", d=one(d), lo=one(ci[0]), hi=one(ci[1]))


def moves(v: dict[str, Any], baseline: Sequence[dict[str, Any]], *, teams: bool, lang: str,
          solo: bool = False) -> list[str]:
    """What a judged reading moves, in words: « place 3 25,0 % → 33,0 % [27,1–39,5], écart +8,0 %
    [+2,1 % ; +13,9 %] », « parties 38,0 → 41,2 tours [40,2–42,2], écart +3,2 [+2,4 ; +4,1] » —
    before → after with the reading's 95 % interval, then the paired difference with its own."""
    out = []
    before = {b["side"]: b for b in baseline}
    for side in v["seats"]:
        if not side.get("significant") or side["side"] not in before:
            continue
        name = side["side"]
        key = ("first" if name == "first" else "team" if teams else "seat" if name.isdigit() else "deck")
        out.append(translate(lang, f"rulings.move.{key}", side=name,
                             **_span(before[name]["win_rate"], side["win_rate"], side["ci95"], "pct", 1, lang))
                   + _diff(side["delta"], side["delta_ci95"], "pct", 1, lang))
    kinds = {key: (kind, digits) for key, _path, kind, digits in MEASURES}
    for t in v.get("measure_tests") or []:
        if not t.get("significant"):
            continue
        kind, digits = kinds[t["measure"]]
        key = "decisive_solo" if solo and t["measure"] == "decisive" else t["measure"]
        out.append(translate(lang, f"rulings.move.{key}", **_span(t["before"], t["after"], t["ci95"], kind, digits, lang))
                   + _diff(t["paired_delta"], t["paired_ci95"], kind, digits, lang))
    return out


def verdict_text(v: dict[str, Any], res: dict[str, Any], *, lang: str) -> str:
    """A reading's verdict: « effet démontré : parties 38,0 → 41,2 tours [40,2–42,2], écart +3,2
    [+2,4 ; +4,1] ; vainqueur mené à mi-partie 21,0 % → 56,0 % [46,2–65,3], écart +35,0 % […] »,
    or « pas d'effet démontré » when no side and no measure moves."""
    solo = bool((res["baseline"].get("measures") or {}).get("solo"))
    said = moves(v, res["baseline"]["seats"], teams=bool(res.get("teams")), lang=lang, solo=solo)
    if not v.get("significant") or not said:
        return translate(lang, "rulings.cli.not_significant")
    return translate(lang, "rulings.verdict.moves", moves=translate(lang, "rulings.verdict.sep").join(said))

