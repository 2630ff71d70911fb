"""Exact convex piecewise-linear functions of the points (the solver's values) and the walk over
the states of a pass: the algebra that :mod:`.solver` and :mod:`.solo` share.
"""

from __future__ import annotations

import sys
import threading
from contextlib import contextmanager
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from .rules import LOSE, PROTECTION

if TYPE_CHECKING:
    from .solver import Solver


_DEEP_LOCK = threading.Lock()
_DEEP = [0, 0]  # runs inside _deep, the limit before the first


@contextmanager
def _deep() -> Any:
    """Recursion over passes goes one level per card flipped: give it room. The limit is the
    process's: it is raised by the first run inside and put back by the last one out, so a run in
    another thread (the table's background solver) never has it lowered under its feet."""
    with _DEEP_LOCK:
        if not _DEEP[0]:
            _DEEP[1] = sys.getrecursionlimit()
            sys.setrecursionlimit(max(_DEEP[1], 100_000))
        _DEEP[0] += 1
    try:
        yield
    finally:
        with _DEEP_LOCK:
            _DEEP[0] -= 1
            if not _DEEP[0]:
                sys.setrecursionlimit(_DEEP[1])


Line = tuple[Fraction, Fraction]  # slope, intercept
Convex = tuple[Line, ...]  # the upper envelope of its lines on [0, ∞), slopes increasing
_ZERO: Convex = ((Fraction(0), Fraction(0)),)
_STOP: Convex = ((Fraction(1), Fraction(0)),)  # stopping with P points is worth P


def _env(lines: list[Line] | tuple[Line, ...]) -> Convex:
    """The upper envelope on [0, ∞) of some lines (exact)."""
    best: dict[Fraction, Fraction] = {}
    for a, b in lines:
        if a not in best or b > best[a]:
            best[a] = b
    hull: list[Line] = []
    for a, b in sorted(best.items()):
        while len(hull) >= 2:
            (a1, b1), (a2, b2) = hull[-2], hull[-1]
            if (b1 - b) * (a2 - a1) <= (b1 - b2) * (a - a1):  # the middle line is never on top
                hull.pop()
            else:
                break
        hull.append((a, b))
    while len(hull) >= 2 and hull[0][1] <= hull[1][1]:  # on top only for P < 0
        hull.pop(0)
    return tuple(hull)


def _at(f: Convex, x: Fraction | int) -> Fraction:
    return max(a * x + b for a, b in f)


def _at_many(f: Convex, top: int) -> list[Fraction]:
    """f(0), f(1), … f(top), walking the lines once."""
    br = _breaks(f)
    out, i = [], 0
    for x in range(top + 1):
        while i < len(br) and br[i] <= x:
            i += 1
        a, b = f[i]
        out.append(a * x + b)
    return out


def _breaks(f: Convex) -> list[Fraction]:
    return [(f[i][1] - f[i + 1][1]) / (f[i + 1][0] - f[i][0]) for i in range(len(f) - 1)]


def _sum(terms: list[tuple[Fraction, Convex]]) -> Convex:
    """Σ w·f of convex piecewise-linear functions: one line per piece between all breakpoints.

    Every breakpoint of an envelope is > 0 (``_env``), so on the piece starting at x0 the line of
    ``f`` on top is its line number "breakpoints of f at or below x0"."""
    breaks = [_breaks(f) for _, f in terms]
    starts = [Fraction(0), *sorted({x for b in breaks for x in b})]
    idx = [0] * len(terms)
    out: list[Line] = []
    for x0 in starts:
        a = b = Fraction(0)
        for t, (w, f) in enumerate(terms):
            bt, i = breaks[t], idx[t]
            while i < len(bt) and bt[i] <= x0:
                i += 1
            idx[t] = i
            la, lb = f[i]
            a += w * la
            b += w * lb
        out.append((a, b))
    return _env(out)


def _pass_states(s: Solver) -> list[tuple[tuple[int, ...], int]]:
    """Every (face-down set, Protections left) a pass can reach, the full box first."""
    seen: set[tuple] = set()
    order: list[tuple[tuple[int, ...], int]] = []
    todo = [(s.full, 0)]
    while todo:
        rem, sh = todo.pop(0)
        if (rem, sh) in seen:
            continue
        seen.add((rem, sh))
        order.append((rem, sh))
        for _cnt, _total, kind, _fig, r2 in s.moves(rem):
            if kind == LOSE and not sh:
                continue
            todo.append((r2, sh + (kind == PROTECTION) - (kind == LOSE)))
    return order


def _ranges(values: list[int], top: int) -> list[list[int | None]]:
    """[[lo, hi], …] of consecutive integers; ``hi`` None when the range reaches ``top``."""
    out: list[list[int | None]] = []
    for v in values:
        if out and out[-1][1] == v - 1:
            out[-1][1] = v
        else:
            out.append([v, v])
    for r in out:
        if r[1] == top:
            r[1] = None
    return out
