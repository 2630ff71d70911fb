"""15 en un tour, solo with unlimited reshuffles (ruling PL12): the exact value against separately
written computations (one pass by brute force over the cards, value iteration, the capped values)
and against simulation of the optimal solo bot."""

from __future__ import annotations

import bisect
import itertools
import statistics
from fractions import Fraction
from functools import cache

import pytest

from cardbase.games.pushluck.bots import OptimalBot
from cardbase.games.pushluck.material import parse_box
from cardbase.games.pushluck.rules import Rules
from cardbase.games.pushluck.solo import TAIL_PASSES
from cardbase.games.pushluck.solver import Solver, solve
from cardbase.games.pushluck.state import Game

DEFAULT = "+3,+5,x2,protection,perdre-tout"
PLUS_ONE = "+1,+3,x2,protection,perdre-tout"
SHRINKING = "+1,+3,x2,protection,perdre-tout,perdre-tout,protection"  # rho = 2/3, slope 10/9


def _cards(text: str) -> tuple[tuple[str, int], ...]:
    """The box as (kind, figure) per card, read here without the solver's grouping."""
    out = []
    for tok in text.split(","):
        if tok.startswith("+"):
            out.append(("add", int(tok[1:])))
        elif tok.startswith("x"):
            out.append(("mul", int(tok[1:])))
        else:
            out.append((tok, 0))
    return tuple(out)


def _one_pass(text: str, end_value, exact: bool = True):
    """Brute force of one pass over the set of face-down card positions: the best value of a
    pass started with p points (its first card flipped), a finished pass worth end_value."""
    cards = _cards(text)
    n = len(cards)
    one = Fraction(1) if exact else 1.0

    @cache
    def go(p, down: frozenset, shields: int):
        if not down:
            return end_value(p)
        acc = 0 * one
        for i in down:
            kind, fig = cards[i]
            rest = down - {i}
            if kind == "add":
                v = best(p + fig, rest, shields)
            elif kind == "mul":
                v = best(p * fig, rest, shields)
            elif kind == "protection":
                v = best(p, rest, shields + 1)
            elif shields:
                v = best(p, rest, shields - 1)
            else:
                v = 0 * one
            acc += v * one / len(down)
        return acc

    def best(p, down, shields):
        return max(p * one, go(p, down, shields)) if down else end_value(p)

    return lambda p: go(p, frozenset(range(n)), 0), go


def test_the_default_box_is_worth_24_points_a_round_not_unbounded_pl12() -> None:
    data = solve(parse_box(DEFAULT), players=1, reshuffles=3)
    solo = data["solo"]
    assert solo["status"] == "exact" and solo["expected_points_per_round_exact"] == "24"
    assert solo["error_bound"] == 0.0 and solo["unlimited"]["slope"] == "2"
    assert solo["unlimited"]["attained"] is False  # rho = 1: approached, never attained
    # U(x) = max(x, 2x + 24) at the end of a pass is a fixed point of one pass of optimal play,
    # checked by brute force over the cards (not the solver's functions of P)
    u = lambda p: max(Fraction(p), 2 * p + 24)
    start, _ = _one_pass(DEFAULT, u)
    assert start(0) == 24
    for p in range(1, 60):
        assert max(Fraction(p), start(p)) == u(p)


def test_the_capped_values_rise_towards_the_exact_value_pl12() -> None:
    s = Solver(parse_box(DEFAULT))
    vals = s.solo(7).values
    assert vals[3] == Fraction(1183, 72)
    assert all(a < b < 24 for a, b in itertools.pairwise(vals))
    gaps = [24 - v for v in vals]
    assert all(g2 < g1 for g1, g2 in itertools.pairwise(gaps))
    # committing to N passes is worth E_N = rho E_{N-1} + s^(N-1) H: bounded (2H = 12 here),
    # which is what the old recurrence, without s^(N-1), got wrong
    st = s.pass_stats()
    e = Fraction(0)
    for n in range(1, 40):
        e = st["rho"] * e + st["survive"] ** (n - 1) * st["H"]
    assert e < 12 and 12 - e < Fraction(1, 10**9)


def test_plus_one_reading_is_worth_12_points() -> None:
    u = Solver(parse_box(PLUS_ONE)).unlimited()
    assert u.start == 12 and u.alpha == 2 and u.b_star == 12


def test_a_shrinking_box_matches_value_iteration_written_apart_pl12() -> None:
    exact = Solver(parse_box(SHRINKING)).unlimited()
    assert exact.stats["rho"] == Fraction(2, 3) and exact.alpha == Fraction(10, 9)
    a, b = float(exact.alpha), float(exact.b_star)

    def iterate(cap: int, tail) -> float:
        """Value iteration on the integers; a finished pass above ``cap`` points is worth
        ``tail`` (stopping: a lower bound; the proof's line: an upper bound)."""
        end = {p: tail(p) for p in range(4 * cap)}
        for _level in range(16):
            table = dict(end)
            start, _ = _one_pass(SHRINKING, lambda p, t=table: t.get(p, tail(p)), exact=False)
            end = {p: max(float(p), start(p)) if p <= cap else tail(p) for p in range(4 * cap)}
        return start(0)

    lows = [iterate(cap, float) for cap in (40, 120)]
    high = iterate(40, lambda p: max(p, a * p + b))
    assert lows[0] < lows[1] < float(exact.start)
    assert abs(high - float(exact.start)) < 1e-9


def test_the_optimal_solo_bot_scores_the_exact_value_within_its_interval() -> None:
    box = "+3,+5,protection,perdre-tout"  # rho = 1/2: the policy attains the value (11/2)
    g = Game(parse_box(box), Rules(solo_rounds=1), players=1)
    assert g.solver().unlimited().start == Fraction(11, 2)
    bot = OptimalBot()
    xs = []
    for seed in range(6000):
        st = g.new_state(seed, log=False)
        while not st.is_terminal():
            st.apply_action(bot.step(st))
        xs.append(st.returns()[0])
    mean, se = statistics.mean(xs), statistics.pstdev(xs) / len(xs) ** 0.5
    assert abs(mean - 5.5) < 4 * se


def test_the_bot_plays_the_unlimited_policy_then_its_slope_policy() -> None:
    g = Game(parse_box(DEFAULT), Rules(solo_rounds=1), players=1)
    u = g.solver().unlimited()
    bot = OptimalBot()
    # a capped bot (3 reshuffles) stops at the end of the 4th pass; the unlimited one goes on
    capped = OptimalBot(solo_reshuffles=3)
    for seed in range(400):
        st = g.new_state(seed, log=False)
        while not st.is_terminal():
            if st.full and st.reshuffles == 3:
                assert capped.step(st) == 0 and bot.step(st) == 1
                break
            st.apply_action(bot.step(st))
    # after TAIL_PASSES finished passes it plays the slope policy: stop after an unprotected x2
    assert u.pi is not None and TAIL_PASSES >= 1
    full = g.solver().full
    rem = tuple(c - (k == "mul") for c, k in zip(full, g.solver().kinds))
    assert u.decide(100, rem, 0, TAIL_PASSES) is False
    assert u.decide(100, rem, 0, 0) is True


def test_unbounded_only_where_every_further_pass_pays() -> None:
    box = "+3,+5,x2,x2,protection,perdre-tout,perdre-tout,protection"  # rho = 4/3
    data = solve(parse_box(box), players=1)
    assert data["solo"]["status"] == "unbounded" and data["solo"]["unlimited"] is None
    st = Solver(parse_box(box)).pass_stats()
    e, es = Fraction(0), []
    for n in range(1, 30):
        e = st["rho"] * e + st["survive"] ** (n - 1) * st["H"]
        es.append(e)
    assert es[-1] > 1000 and all(b > a for a, b in itertools.pairwise(es))


@pytest.mark.parametrize("box", [SHRINKING, "+3,+5,protection,perdre-tout", "+1,x2,protection,perdre-tout",
                                 "+2,+3,x3,protection,perdre-tout,perdre-tout,protection"])
def test_the_upper_function_is_a_fixed_point_by_brute_force_pl12(box: str) -> None:
    """Step 3 of the proof, checked by the brute-force pass over the cards: U = T U at every
    score, and the round's value is one pass of U from 0."""
    u = Solver(parse_box(box)).unlimited()
    start, _ = _one_pass(box, u.end_value)
    assert start(0) == u.start
    for p in range(1, 3 * u.X + 10):
        assert max(Fraction(p), start(p)) == u.end_value(p)


# ---------------------------------------------------------------- capped values, written apart
#
# The value of a solo turn with at most K reshuffles, as a function of the turn's points P, is
# convex and piecewise linear (a maximum and averages of affine functions of P, composed with
# P + v and m P). Below, each such function is a list of breakpoints with exact values and a last
# slope, computed over the cards one by one (no grouping of copies, no pass statistics): an
# independent computation of the capped values the solver's lower bound rests on (PL12, step 4).


class _Convex:
    __slots__ = ("m", "xs", "ys")

    def __init__(self, xs, ys, m) -> None:
        self.xs, self.ys, self.m = xs, ys, m

    def __call__(self, x):
        xs, ys = self.xs, self.ys
        if x >= xs[-1]:
            return ys[-1] + self.m * (x - xs[-1])
        i = bisect.bisect_right(xs, x) - 1
        return ys[i] + (ys[i + 1] - ys[i]) * (x - xs[i]) / (xs[i + 1] - xs[i])


def _convex(xs, m, f) -> _Convex:
    ys = [f(x) for x in xs]
    keep_x, keep_y = [xs[0]], [ys[0]]
    for i in range(1, len(xs)):  # drop breakpoints where the slope does not change
        keep_x.append(xs[i])
        keep_y.append(ys[i])
        if len(keep_x) >= 3:
            (x0, x1, x2), (y0, y1, y2) = keep_x[-3:], keep_y[-3:]
            if (y1 - y0) * (x2 - x1) == (y2 - y1) * (x1 - x0):
                del keep_x[-2], keep_y[-2]
    if len(keep_x) >= 2 and keep_y[-1] - keep_y[-2] == m * (keep_x[-1] - keep_x[-2]):
        del keep_x[-1], keep_y[-1]
    return _Convex(keep_x, keep_y, m)


def _line(a, b) -> _Convex:
    return _Convex([Fraction(0)], [Fraction(b)], Fraction(a))


def _stop_or(f: _Convex) -> _Convex:
    """max(P, f(P)): the breakpoints of f and where f crosses the diagonal."""
    xs = set(f.xs)
    ends = sorted(xs) + [max(xs) + 1]
    for a, b in itertools.pairwise(ends):
        da, db = f(a) - a, f(b) - b
        if da * db < 0:
            xs.add(a + (b - a) * da / (da - db))
    last = max(f.xs)
    gap = f(last) - last
    if gap > 0 and f.m < 1:
        xs.add(last + gap / (1 - f.m))
    return _convex(sorted(xs), max(f.m, Fraction(1)), lambda x: max(f(x), x))


def _capped_values(text: str, most: int) -> list[Fraction]:
    cards = _cards(text)
    everything = frozenset(range(len(cards)))

    @cache
    def choose(k: int, down: frozenset, shields: int) -> _Convex:
        if not down:  # a full pass: stop, or (reshuffles left) a new pass
            return _stop_or(flip(k - 1, everything, 0)) if k else _line(1, 0)
        return _stop_or(flip(k, down, shields))

    @cache
    def flip(k: int, down: frozenset, shields: int) -> _Convex:
        parts = []
        for i in down:
            kind, fig = cards[i]
            after = choose(k, down - {i}, shields + (kind == "protection"))
            if kind == "add":
                parts.append(_convex([Fraction(0)] + [x - fig for x in after.xs if x > fig], after.m,
                                     lambda x, g=after, v=fig: g(x + v)))
            elif kind == "mul":
                parts.append(_Convex([x / fig for x in after.xs], list(after.ys), after.m * fig))
            elif kind == "perdre-tout":
                parts.append(choose(k, down - {i}, shields - 1) if shields else _line(0, 0))
            else:
                parts.append(after)
        xs = sorted({x for g in parts for x in g.xs})
        return _convex(xs, sum(g.m for g in parts) / len(parts),
                       lambda x: sum(g(x) for g in parts) / len(parts))

    return [flip(k, everything, 0)(Fraction(0)) for k in range(most + 1)]


def test_the_capped_values_written_apart_rise_to_the_exact_value_pl12() -> None:
    """The capped values (at most K reshuffles) of the default box, computed apart over the cards,
    are the solver's, rise with K and stay under 24; with the brute-force fixed point above (an
    upper bound of 24), they pin the unlimited value: 21.92 <= V* <= 24 at K = 8, closer as K
    grows (22.75 at K = 10, 23.65 at K = 15, 23.90 at K = 20 by the same code)."""
    mine = _capped_values(DEFAULT, 8)
    assert mine == Solver(parse_box(DEFAULT)).solo(8).values
    assert mine[3] == Fraction(1183, 72)
    assert all(a < b < 24 for a, b in itertools.pairwise(mine))
    assert mine[8] > Fraction(2192, 100)
    gaps = [24 - v for v in mine]
    assert all(g2 < Fraction(9, 10) * g1 for g1, g2 in itertools.pairwise(gaps[2:]))
    plus_one = _capped_values(PLUS_ONE, 6)
    assert plus_one == Solver(parse_box(PLUS_ONE)).solo(6).values and plus_one[-1] < 12


def test_stop_at_target_solo_value_by_brute_force_pl6_pl12() -> None:
    """PL6 `stop_at_target`: a turn is over at 15, so the points stay under 15 + the largest
    card and every pass adds a point: a plain recursion over the cards, no cap on reshuffles,
    gives the exact solo value (37913/4800 for the default box), the solver's."""
    cards = _cards(DEFAULT)
    every = frozenset(range(len(cards)))

    @cache
    def choose(p: int, down: frozenset, shields: int) -> Fraction:
        if p >= 15:
            return Fraction(p)
        return max(Fraction(p), flip(p, down or every, shields if down else 0))

    @cache
    def flip(p: int, down: frozenset, shields: int) -> Fraction:
        total = Fraction(0)
        for i in down:
            kind, fig = cards[i]
            rest = down - {i}
            if kind == "add":
                total += choose(p + fig, rest, shields)
            elif kind == "mul":
                total += choose(p * fig, rest, shields)
            elif kind == "protection":
                total += choose(p, rest, shields + 1)
            elif shields:
                total += choose(p, rest, shields - 1)
        return total / len(down)

    value = flip(0, every, 0)
    assert value == Fraction(37913, 4800)
    data = solve(parse_box(DEFAULT), players=1, stop_at_target=True)
    assert data["solo"]["expected_points_per_round_exact"] == str(value)
