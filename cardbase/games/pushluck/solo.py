"""The solo expectation of 15 en un tour with unlimited reshuffles (ruling PL12), exactly.

A solo turn is an optimal stopping problem with non-negative rewards: the turn's points when the
player stops, nothing after an unprotected Perdre tout. Its value is finite or infinite depending
on one full pass (``s`` = probability of surviving it, ``M`` = product of the multipliers,
``ρ = s M``, ``H = E[points a pass adds ; it survives] > 0``):

- ``s = 1`` or ``ρ > 1``: **unbounded**. Committing to ``N`` full passes from 0 then stopping is
  worth ``E_N = ρ E_{N-1} + s^{N-1} H`` (a pass started with ``P`` ends with ``M P + A``; the
  ``N``-th pass must survive the ``N - 1`` before it); with ``s = 1`` it is ``N H``, with ``ρ > 1``
  it is at least ``ρ^{N-1} H``: both grow without end.
- ``s = 0``: no pass is ever completed; the value with no reshuffle is exact.
- otherwise (``0 < s < 1``, ``ρ ≤ 1``): **finite**, and computed exactly by :class:`Unlimited`.

The exact value (``Unlimited``). Write ``E(x)`` for the value at the end of a full pass holding ``x``
points (stop, or reshuffle and go on) and ``T`` for one pass of optimal play: ``T E (x) = max(x,
Pass_E(x))``. ``V*`` is the smallest function above "stop" with ``T V* ≤ V*`` (an excessive
majorant), and the capped values (at most ``K`` reshuffles) rise to it.

1. *Slope.* For large ``x`` only multipliers matter: ``f(a)`` = the best expected multiplier of one
   pass when finishing it is worth ``a`` per point (stopping inside it: the multiplier so far).
   ``α`` is the least ``a ≥ 1`` with ``f(a) ≤ a``; a pass policy ``π`` with ``d_π < 1`` attains it
   (found by iteration, then checked exactly). Playing ``π`` in every pass is worth exactly
   ``α x + b_π`` (a linear equation).
2. *Intercept.* For an end value ``L_b(x) = max(x, α x + b)``, ``T L_b`` ends with the line
   ``α x + φ(b)``; ``φ`` is convex piecewise linear in ``b`` with slopes ``≤ s < 1``, so it has one
   fixed point ``b*``, found exactly.
3. *Upper bound.* Let ``X`` be the last breakpoint of ``T L_{b*}``: for ``x ≥ X``, ``T L_{b*} =
   L_{b*}``. Define ``U = L_{b*}`` on ``[X, ∞)`` and, below ``X``, on the integers (points are
   whole numbers), by backward induction ``U(x) = max(x, Pass_U(x))`` — a pass that survives ends
   strictly higher (PL11), so it only needs ``U`` above ``x``. Then ``T U = U ≥ stop``: ``U`` is an
   excessive majorant and ``V* ≤ U``.
4. *Lower bound.* The policy "optimal below ``X``; above it, for ``n`` passes the decisions of
   ``T L_{b*}``, then ``π`` for ever" is worth at least ``U − s^n (b* − b_π)`` (each pass reaches
   its end with probability at most ``s``): ``V* ≥ U − s^n (b* − b_π)`` for every ``n``.

Hence ``V* = U`` exactly; the solo value of a round is ``Pass_U(0)`` (a turn starts with a flip).
The optimal solo bot plays that policy with ``n = TAIL_PASSES``; its shortfall is at most
``s^n (b* − b_π)`` (reported).
"""

from __future__ import annotations

from fractions import Fraction
from math import ceil
from typing import TYPE_CHECKING, Any

from .rules import ADD, MUL, PROTECTION
from .convex import _STOP, Convex, _at, _breaks, _deep, _env, _sum

if TYPE_CHECKING:
    from .solver import Solver

TAIL_PASSES = 8  # passes of the tail's decisions before the slope policy π (the bot's n)
MAX_X = 5000  # the largest threshold X solved (the integer induction below X)


class NoExactSolo(Exception):
    """The exact construction does not apply (a check failed); the caller reports the bounds."""


def _pass_fn(s: Solver, terminal: Convex) -> dict[tuple, tuple[Convex, Convex]]:
    """(value, going on) as exact functions of the points, at every state of one pass, when the
    end of the pass is worth ``terminal``."""
    memo: dict[tuple, tuple[Convex, Convex]] = {}

    def fn(rem: tuple[int, ...], sh: int) -> tuple[Convex, Convex]:
        key = (rem, sh)
        got = memo.get(key)
        if got is not None:
            return got
        if not any(rem):
            out = (terminal, terminal)
        else:
            terms: list[tuple[Fraction, Convex]] = []
            for cnt, total, kind, fig, r2 in s.moves(rem):
                w = Fraction(cnt, total)
                if kind == ADD:
                    f = fn(r2, sh)[0]
                    terms.append((w, _env([(a, a * fig + b) for a, b in f])))
                elif kind == MUL:
                    f = fn(r2, sh)[0]
                    terms.append((w, _env([(a * fig, b) for a, b in f])))
                elif kind == PROTECTION:
                    terms.append((w, fn(r2, sh + 1)[0]))
                elif sh:
                    terms.append((w, fn(r2, sh - 1)[0]))
            cont = _sum(terms) if terms else ((Fraction(0), Fraction(0)),)
            out = (_env(_STOP + cont), cont)
        memo[key] = out
        return out

    with _deep():
        fn(s.full, 0)
    return memo


def _end_value(alpha: Fraction, b: Fraction) -> Convex:
    return _env([(Fraction(1), Fraction(0)), (alpha, b)])


def _T(s: Solver, terminal: Convex) -> tuple[Convex, dict]:
    """T E: at the end of a pass, stop or play one more pass (whose first card is flipped)."""
    memo = _pass_fn(s, terminal)
    return _env(_STOP + memo[(s.full, 0)][1]), memo


def _slope(s: Solver, a: Any, tol: float = 0.0) -> tuple[Any, dict]:
    """f(a) and the pass policy attaining it (stop on ties): node -> go on?"""
    memo: dict[tuple, Any] = {}
    policy: dict[tuple, bool] = {}

    def g(rem: tuple[int, ...], sh: int, root: bool = False) -> Any:
        if not any(rem):
            return a
        key = (rem, sh)
        if not root and key in memo:
            return memo[key]
        go = 0 * a
        for cnt, total, kind, fig, r2 in s.moves(rem):
            w = Fraction(cnt, total) if isinstance(a, Fraction) else cnt / total
            if kind == ADD:
                go += w * g(r2, sh)
            elif kind == MUL:
                go += w * fig * g(r2, sh)
            elif kind == PROTECTION:
                go += w * g(r2, sh + 1)
            elif sh:
                go += w * g(r2, sh - 1)
        if root:
            return go
        policy[key] = go > 1 + tol
        memo[key] = go if policy[key] else 1 + 0 * a
        return memo[key]

    root = g(s.full, 0, root=True)
    policy[("root",)] = root > 1 + tol
    return max(1 + 0 * a, root), policy


def _evaluate(s: Solver, policy: dict[tuple, bool]) -> tuple[Fraction, Fraction, Fraction,
                                                              Fraction, Fraction]:
    """One pass of a fixed policy: (c, d, l, h, m) with value(y) = (c + d a) y + l + a h + m b
    when finishing the pass is worth ``a y + b``."""
    one, zero = Fraction(1), Fraction(0)
    memo: dict[tuple, tuple] = {}

    def e(rem: tuple[int, ...], sh: int, root: bool = False) -> tuple:
        if not any(rem):
            return (zero, one, zero, zero, one)
        key = (rem, sh)
        if not root:
            if key in memo:
                return memo[key]
            if not policy[key]:
                return (one, zero, zero, zero, zero)
        acc = [zero] * 5
        for cnt, total, kind, fig, r2 in s.moves(rem):
            w = Fraction(cnt, total)
            if kind == ADD:
                c, d, ll, h, m = e(r2, sh)
                x = (c, d, ll + c * fig, h + d * fig, m)
            elif kind == MUL:
                c, d, ll, h, m = e(r2, sh)
                x = (c * fig, d * fig, ll, h, m)
            elif kind == PROTECTION:
                x = e(r2, sh + 1)
            elif sh:
                x = e(r2, sh - 1)
            else:
                continue
            for i in range(5):
                acc[i] += w * x[i]
        out = tuple(acc)
        if not root:
            memo[key] = out
        return out

    with _deep():
        return e(s.full, 0, root=True)


class Unlimited:
    """The exact optimal solo value with unlimited reshuffles and its policy (see the module)."""

    def __init__(self, solver: Solver) -> None:
        self.s = solver
        st = solver.pass_stats()
        self.stats = st
        s_, rho = st["survive"], st["rho"]
        if solver.stop_at_target:  # PL6 (stop_at_target): a turn stops at the target, so the
            # states below it are all there is: plain backward induction, exact and finite
            self.alpha, self.b_pi, self.b_star, self.pi = Fraction(1), Fraction(0), Fraction(0), None
            self.tail, self.tail_memo, self.X = _STOP, {}, solver.target
            self.memo = {}
            with _deep():
                for p in range(self.X - 1, -1, -1):
                    self.value(p, solver.full, 0)
                self.start = self.value(0, solver.full, 0, first=True)[0]
            self.shortfall = Fraction(0)
            return
        if s_ == 1 or rho > 1:
            raise NoExactSolo("unbounded")
        if s_ == 0:
            raise NoExactSolo("no full pass")
        with _deep():
            self._slope_step()
            self._intercept_step()
            self._threshold()

    # 1. slope α and the slope policy π
    def _slope_step(self) -> None:
        s = self.s
        a = 1.0
        for _ in range(20000):
            nxt = _slope(s, a)[0]
            if abs(nxt - a) <= 1e-15 * max(1.0, a):
                a = nxt
                break
            a = nxt
        _, pol = _slope(s, a, tol=1e-9)
        if not pol[("root",)]:  # never reshuffling is optimal for large scores: V = x there
            alpha, b_pi = Fraction(1), Fraction(0)
            self.pi: dict[tuple, bool] | None = None
        else:
            c, d, ll, h, m = _evaluate(s, pol)
            if d >= 1:
                raise NoExactSolo("slope policy")
            alpha = c / (1 - d)
            b_pi = (ll + alpha * h) / (1 - m)
            self.pi = pol
        if _slope(s, alpha)[0] != alpha and not (alpha == 1 and _slope(s, alpha)[0] <= 1):
            raise NoExactSolo("slope check")
        self.alpha, self.b_pi = alpha, b_pi

    def _phi(self, b: Fraction) -> Fraction:
        t, _ = _T(self.s, _end_value(self.alpha, b))
        a, icpt = t[-1]
        if a != self.alpha:
            raise NoExactSolo("intercept slope")
        return icpt

    # 2. the intercept b*: the fixed point of φ (convex piecewise linear, slopes ≤ s < 1)
    def _intercept_step(self) -> None:
        b = self.b_pi
        for _ in range(200):
            fb = self._phi(b)
            if fb == b:
                break
            delta = Fraction(1, 10**9)
            r = (self._phi(b + delta) - fb) / delta
            nb = (fb - r * b) / (1 - r)  # the fixed point of the piece of φ at b
            b = max(nb, fb)  # φ is convex: never below the plain iteration
        else:
            raise NoExactSolo("intercept")
        self.b_star = b

    # 3. the threshold X and the integer backward induction below it
    def _threshold(self) -> None:
        s = self.s
        self.tail = _end_value(self.alpha, self.b_star)
        t, self.tail_memo = _T(s, self.tail)
        if t[-1] != (self.alpha, self.b_star):
            raise NoExactSolo("tail")
        br = _breaks(t)
        last = br[-1] if br else Fraction(0)
        # T L = L on [X, ∞): from the last breakpoint on, T L is its last line, which is L there
        lb = _breaks(self.tail)
        x = max([Fraction(0), last, *lb])
        self.X = max(1, ceil(x))
        if self.X > MAX_X:
            raise NoExactSolo("threshold")
        self.memo: dict[tuple, tuple[Fraction, bool]] = {}
        for p in range(self.X - 1, -1, -1):  # increasing passes: fill from the top
            self.value(p, s.full, 0)
        self.start = self.value(0, s.full, 0, first=True)[0]
        self.shortfall = (self.b_star - self.b_pi) * self.stats["survive"] ** TAIL_PASSES

    def end_value(self, p: int) -> Fraction:
        """U at the end of a full pass holding ``p`` points (stop or reshuffle)."""
        if p >= self.X:
            return Fraction(p) if self.s.stop_at_target else _at(self.tail, p)
        return max(Fraction(p), self.value(p, self.s.full, 0, first=True)[0])

    def value(self, p: int, rem: tuple[int, ...], sh: int, first: bool = False
              ) -> tuple[Fraction, bool]:
        """(U, go on?) in the middle of a pass; ``first``: the pass's first card, no stop."""
        if not any(rem):
            e = self.end_value(p)
            return e, e > p
        if p >= self.X and self.s.stop_at_target:
            return Fraction(p), False  # the turn has stopped at the target
        if p >= self.X:
            _v, cont = self.tail_memo[(rem, sh)]
            c = _at(cont, p)
            return (c, True) if (first or c > p) else (Fraction(p), False)
        key = (p, rem, sh, first)
        got = self.memo.get(key)
        if got is not None:
            return got
        acc = Fraction(0)
        for cnt, total, kind, fig, r2 in self.s.moves(rem):
            w = Fraction(cnt, total)
            if kind == ADD:
                v = self.value(p + fig, r2, sh)[0]
            elif kind == MUL:
                v = self.value(p * fig, r2, sh)[0]
            elif kind == PROTECTION:
                v = self.value(p, r2, sh + 1)[0]
            elif sh:
                v = self.value(p, r2, sh - 1)[0]
            else:
                continue
            acc += w * v
        out = (acc, True) if (first or acc > p) else (Fraction(p), False)
        self.memo[key] = out
        return out

    def decide(self, p: int, rem: tuple[int, ...], sh: int, tail_passes: int = 0,
               first: bool = False) -> bool:
        """Go on (flip, or reshuffle at the end of a pass)? ``tail_passes``: passes already
        finished at ``X`` points or more in this turn (after ``TAIL_PASSES`` of them, ``π``)."""
        if p >= self.X and self.s.stop_at_target:
            return False
        if p >= self.X and tail_passes >= TAIL_PASSES:
            if self.pi is None:
                return False
            if not any(rem):
                return True
            return True if first else self.pi.get((rem, sh), True)
        with _deep():
            return self.value(p, rem, sh, first)[1]

    def table(self, p_max: int = 40) -> list[dict[str, Any]]:
        """For each face-down set and Protection count, the points at which to go on."""
        from .convex import _pass_states, _ranges

        rows = []
        top = max(p_max, self.X)
        for rem, sh in _pass_states(self.s):
            go = [p for p in range(top + 1) if self.decide(p, rem, sh)]
            rows.append({"reshuffles_left": None, "face_down": self.s.describe(rem),
                         "protection": sh, "go_on": _ranges(go, top)})
        return rows
