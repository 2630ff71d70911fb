"""The exact solver of 15 en un tour: backward induction over the state of a turn.

A turn's state is ``(P, rem, sh)``: the turn's points so far, the cards still face down (a count
per distinct card of the box) and the Protections not yet spent. Flips are blind (PL1), so the next
card is the kind ``i`` with probability ``rem[i] / sum(rem)``. After a full pass (``rem`` empty)
the player reshuffles (``rem`` full again, ``sh`` back to 0, PL3/PL4) or stops.

The reshuffles are unbounded; how each question stays exact is ruling PL12 of
``docs/rulings/pushluck.md``:

- **Reaching 15.** Every full pass flips a card worth at least one point (PL11), so a pass that
  does not lose raises the points by at least 1 and no state comes back: the states below the
  target form a finite acyclic graph, solved exactly with fractions. Playing for 15 means going on
  below 15 (stopping there is worth the same as losing) and stopping at 15 or more.
- **Seats.** A seat's payoff is a probability (at most 1). At a state where the next flip may be an
  unprotected Perdre tout (probability ``β``, worth ``c`` to the player), going on is worth at most
  ``(1 - β) + β c``; a stop worth at least that is optimal without looking further. Stop values
  tend to 1 as the points grow (a later seat beats a high score only by surviving many passes), so
  the search is finite and its answer exact (floats, for the speed).
- **Solo.** The risk-neutral expectation of a turn with unlimited reshuffles is unbounded only
  when a full pass always survives (``s = 1``) or ``ρ = s · M > 1`` (``M`` the product of the
  multipliers): committing to ``N`` passes is worth ``E_N = ρ E_{N-1} + s^{N-1} H``. Otherwise it
  is finite and :mod:`.solo` computes it exactly (the proof is there and in PL12); the values with
  at most ``K`` reshuffles (:class:`_Solo`) rise to it.
- **Size.** A box with more than ``MAX_PASS_STATES`` states of a pass is refused before the work
  (PL13).
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

from cardbase.errors import CardbaseError
from cardbase.i18n import tr

from .convex import (  # the exact piecewise-linear algebra, shared with .solo
    _STOP,
    _ZERO,
    Convex,
    Line,  # noqa: F401 - the names of the values, kept here too
    _at,
    _at_many,
    _breaks,  # noqa: F401
    _deep,
    _env,
    _pass_states,
    _ranges,
    _sum,
)
from .material import Box, Card
from .rules import ADD, LOSE, MUL, PROTECTION, TARGET

EPS = 1e-12
Vec = tuple[float, ...]


class SolverError(CardbaseError):
    """A question the solver cannot answer for this box or these rules."""


class SolverCancelled(SolverError):
    """The computation was cancelled (the table's « Annuler »): nothing of it is kept."""


def _frac(x: Fraction) -> str:
    return f"{x.numerator}/{x.denominator}" if x.denominator != 1 else str(x.numerator)


class Solver:
    """Exact answers for one box (and the rules' target and tie rule)."""

    def __init__(self, box: Box, target: int = TARGET, tie: str = "first", *,
                 stop_at_target: bool = False, finish_round: bool = True) -> None:
        self.box = box
        self.target = target
        self.tie = tie
        self.stop_at_target = stop_at_target  # PL6 (contested): a turn stops at the target
        self.finish_round = finish_round  # PL14: the later seats of the round still play
        types: list[Card] = []
        counts: list[int] = []
        for c in box.cards:
            key = (c.kind, c.figure)
            for i, t in enumerate(types):
                if (t.kind, t.figure) == key:
                    counts[i] += 1
                    break
            else:
                types.append(c)
                counts.append(1)
        self.types = tuple(types)
        self.full = tuple(counts)
        self.kinds = tuple(t.kind for t in types)
        self.figs = tuple(t.figure for t in types)
        self.lose_idx = tuple(i for i, k in enumerate(self.kinds) if k == LOSE)
        self.n_lose = sum(self.full[i] for i in self.lose_idx)
        self._moves: dict[tuple[int, ...], list[tuple[int, int, str, int, tuple[int, ...]]]] = {}
        self._reach: dict[Any, dict] = {}
        self._tail: tuple[list[int], list[float]] | None = None
        self._tail_cap = 0
        self._seat_cache: dict[int, _Seats] = {}
        self._solo_cache: dict[int, _Solo] = {}
        self._unlimited: Any = None
        self.seat_work = 0  # positions the seats' search has visited (PL13: at most MAX_SEAT_WORK)
        self.seat_players = 0  # the player count the seats' search is answering

    # ------------------------------------------------------------------ basics

    def moves(self, rem: tuple[int, ...]) -> list[tuple[int, int, str, int, tuple[int, ...]]]:
        """(count, total, kind, figure, rem after) for each kind of card still face down."""
        out = self._moves.get(rem)
        if out is None:
            total = sum(rem)
            out = []
            for i, cnt in enumerate(rem):
                if cnt:
                    r2 = rem[:i] + (cnt - 1,) + rem[i + 1:]
                    out.append((cnt, total, self.kinds[i], self.figs[i], r2))
            self._moves[rem] = out
        return out

    def rem_of(self, counts: dict[tuple[str, int], int]) -> tuple[int, ...]:
        """The solver's ``rem`` from face-down counts by (kind, figure)."""
        return tuple(counts.get((k, f), 0) for k, f in zip(self.kinds, self.figs, strict=True))

    def describe(self, rem: tuple[int, ...]) -> str:
        parts = []
        for t, n in zip(self.types, rem, strict=True):
            parts.extend([t.token] * n)
        return ",".join(parts) or "-"

    # ------------------------------------------------------------------ one full pass

    def pass_stats(self) -> dict[str, Fraction]:
        """Survival ``s`` of a full pass, product ``M`` of the multipliers, ``H``, ``ρ = s M``.

        A pass started with ``P`` points and flipped to the end without losing ends with
        ``M P + A`` points (``A`` depends on the order); ``H = E[A ; survive]``.
        """
        memo: dict[tuple, tuple[Fraction, Fraction, int]] = {}

        def f(rem: tuple[int, ...], sh: int) -> tuple[Fraction, Fraction, int]:
            # (S: survival from here, H: E[final additive part ; survive], mu: multipliers left)
            if not any(rem):
                return Fraction(1), Fraction(0), 1
            key = (rem, sh)
            if key in memo:
                return memo[key]
            s = h = Fraction(0)
            mu = 1
            for i, n in enumerate(rem):
                if n and self.kinds[i] == MUL:
                    mu *= self.figs[i] ** n
            for cnt, total, kind, fig, r2 in self.moves(rem):
                w = Fraction(cnt, total)
                if kind == LOSE and not sh:
                    continue
                s2, h2, mu2 = f(r2, sh + (kind == PROTECTION) - (kind == LOSE))
                s += w * s2
                h += w * (h2 + (s2 * mu2 * fig if kind == ADD else 0))
            memo[key] = (s, h, mu)
            return memo[key]

        s, h, mu = f(self.full, 0)
        return {"survive": s, "multiplier": Fraction(mu), "rho": s * mu, "H": h}

    # ------------------------------------------------------------------ reaching a score

    def reach(self, target: int | None = None) -> tuple[Fraction, Fraction]:
        """Exact P(reach ``target`` in one turn) playing for it, and the expected flips of it."""
        with _deep():
            return self._reach_fn(target)(0, self.full, 0)

    def reach_from(self, points: int, rem: tuple[int, ...], shields: int,
                   target: int | None = None) -> tuple[Fraction, Fraction]:
        """The same from the middle of a turn: ``points`` so far, the cards ``rem`` still face down
        (an empty pass means a reshuffle, PL4), ``shields`` Protections unspent — the advice
        « si vous continuez : x % d'atteindre 15 »."""
        with _deep():
            return self._reach_fn(target)(points, rem, shields)

    def _reach_fn(self, target: int | None) -> Any:
        t = self.target if target is None else target
        memo: dict[tuple, tuple[Fraction, Fraction]] = {}
        full = self.full

        def f(p: int, rem: tuple[int, ...], sh: int) -> tuple[Fraction, Fraction]:
            if p >= t:
                return Fraction(1), Fraction(0)
            if not any(rem):
                rem, sh = full, 0  # PL4: reshuffle and go on (stopping below t is worth 0)
            key = (p, rem, sh)
            got = memo.get(key)
            if got is not None:
                return got
            prob = Fraction(0)
            flips = Fraction(1)
            for cnt, total, kind, fig, r2 in self.moves(rem):
                w = Fraction(cnt, total)
                if kind == ADD:
                    r = f(p + fig, r2, sh)
                elif kind == MUL:
                    r = f(p * fig, r2, sh)
                elif kind == PROTECTION:
                    r = f(p, r2, sh + 1)
                elif sh:
                    r = f(p, r2, sh - 1)
                else:
                    continue  # an unprotected Perdre tout: the turn ends with nothing
                prob += w * r[0]
                flips += w * r[1]
            memo[key] = (prob, flips)
            return memo[key]

        return f

    def reach_if_go(self, points: int, rem: tuple[int, ...], shields: int) -> Fraction:
        """P(ending this turn at the target or more) if the player flips one more card (or
        reshuffles, after a full pass) and then plays for the target — also at the target or
        above, where going on risks everything (the advice's second line)."""
        if not any(rem):
            rem, shields = self.full, 0
        f = self._reach_fn(None)
        out = Fraction(0)
        with _deep():
            for cnt, total, kind, fig, r2 in self.moves(rem):
                w = Fraction(cnt, total)
                if kind == ADD:
                    r = f(points + fig, r2, shields)
                elif kind == MUL:
                    r = f(points * fig, r2, shields)
                elif kind == PROTECTION:
                    r = f(points, r2, shields + 1)
                elif shields:
                    r = f(points, r2, shields - 1)
                else:
                    continue
                out += w * r[0]
        return out

    def reach_float(self, target: int) -> float:
        """P(reach ``target``) as a float, for any target, from one forward computation.

        Going on below the target and never stopping follow the same path until the target is
        reached, and the points never go down before a loss: P(reach T) = P(peak >= T), where the
        peak is the points held when the never-stopping player finally loses. The peak's
        distribution is computed forward, pass by pass (start points in increasing order: a pass
        that survives ends strictly higher, PL11), up to a cap doubled when a larger target comes.
        """
        if target <= 0:
            return 1.0
        if self._tail is None or target > self._tail_cap:
            cap = max(64, self._tail_cap * 2)
            while cap < target:
                cap *= 2
            self._tail = self._peak_tail(cap)
            self._tail_cap = cap
        from bisect import bisect_left

        peaks, tail = self._tail
        i = bisect_left(peaks, target)
        return tail[i] if i < len(peaks) else 0.0

    def _peak_tail(self, cap: int) -> tuple[list[int], list[float]]:
        """The peaks that happen, increasing, and for each, P(peak >= it) (peaks at ``cap`` or more
        counted at ``cap``). Sparse: the memory follows the peaks reached, not the size of ``cap``
        (a box with multipliers asks for targets in the millions or more, which a list as long as
        the target would not hold)."""
        import heapq

        mass: dict[int, float] = {}  # mass[x]: P(peak == x), x = cap meaning >= cap
        starts: dict[int, float] = {0: 1.0}
        heap = [0]
        full = self.full
        while heap:
            p0 = heapq.heappop(heap)
            m0 = starts.pop(p0)
            level: dict[tuple, float] = {(p0, full, 0): m0}
            while level:
                nxt: dict[tuple, float] = {}
                for (p, rem, sh), m in level.items():
                    if p >= cap:
                        mass[cap] = mass.get(cap, 0.0) + m
                        continue
                    if not any(rem):
                        if p in starts:
                            starts[p] += m
                        else:
                            starts[p] = m
                            heapq.heappush(heap, p)
                        continue
                    for cnt, total, kind, fig, r2 in self.moves(rem):
                        w = m * cnt / total
                        if kind == ADD:
                            key = (p + fig, r2, sh)
                        elif kind == MUL:
                            key = (p * fig, r2, sh)
                        elif kind == PROTECTION:
                            key = (p, r2, sh + 1)
                        elif sh:
                            key = (p, r2, sh - 1)
                        else:
                            mass[p] = mass.get(p, 0.0) + w  # the loss: the peak is the points held
                            continue
                        nxt[key] = nxt.get(key, 0.0) + w
                level = nxt
        peaks = sorted(mass)
        tail = [0.0] * len(peaks)
        acc = 0.0
        for i in range(len(peaks) - 1, -1, -1):
            acc += mass[peaks[i]]
            tail[i] = acc
        return peaks, tail

    def cross_above(self, v: int) -> float:
        """PL6 with ``stop_at_target``: P(the turn reaches the target with a score above ``v``),
        the score being the points when the target is first reached (the turn stops there)."""
        got = self._reach.get(("cross", v))
        if got is not None:
            return got["p"]
        memo: dict[tuple, float] = {}
        full, t = self.full, self.target

        def f(p: int, rem: tuple[int, ...], sh: int) -> float:
            if p >= t:
                return 1.0 if p > v else 0.0
            if not any(rem):
                rem, sh = full, 0
            key = (p, rem, sh)
            got = memo.get(key)
            if got is not None:
                return got
            out = 0.0
            for cnt, total, kind, fig, r2 in self.moves(rem):
                if kind == ADD:
                    r = f(p + fig, r2, sh)
                elif kind == MUL:
                    r = f(p * fig, r2, sh)
                elif kind == PROTECTION:
                    r = f(p, r2, sh + 1)
                elif sh:
                    r = f(p, r2, sh - 1)
                else:
                    continue
                out += cnt / total * r
            memo[key] = out
            return out

        with _deep():
            p = f(0, full, 0)
        self._reach[("cross", v)] = {"p": p}
        return p

    def reach_float_slow(self, target: int) -> float:
        """P(reach ``target``) by backward induction (floats), to check :meth:`reach_float`."""
        got = self._reach.get(target)
        if got is not None:
            return got["p"]
        memo: dict[tuple, float] = {}
        full = self.full

        def f(p: int, rem: tuple[int, ...], sh: int) -> float:
            if p >= target:
                return 1.0
            if not any(rem):
                rem, sh = full, 0
            key = (p, rem, sh)
            got = memo.get(key)
            if got is not None:
                return got
            out = 0.0
            for cnt, total, kind, fig, r2 in self.moves(rem):
                if kind == ADD:
                    r = f(p + fig, r2, sh)
                elif kind == MUL:
                    r = f(p * fig, r2, sh)
                elif kind == PROTECTION:
                    r = f(p, r2, sh + 1)
                elif sh:
                    r = f(p, r2, sh - 1)
                else:
                    continue
                out += cnt / total * r
            memo[key] = out
            return out

        with _deep():
            p = f(0, full, 0)
        self._reach[target] = {"p": p}
        return p

    # ------------------------------------------------------------------ solo

    def solo(self, reshuffles: int = 3) -> _Solo:
        got = self._solo_cache.get(reshuffles)
        if got is None:
            got = self._solo_cache[reshuffles] = _Solo(self, reshuffles)
        return got

    def unlimited(self) -> Any:
        """The exact solo value and policy with unlimited reshuffles (PL12, :mod:`.solo`);
        raises :class:`.solo.NoExactSolo` where it is unbounded or has no full pass."""
        if self._unlimited is None:
            from .solo import NoExactSolo, Unlimited

            try:
                self._unlimited = Unlimited(self)
            except NoExactSolo as exc:
                self._unlimited = exc
        if isinstance(self._unlimited, Exception):
            raise self._unlimited
        return self._unlimited

    # ------------------------------------------------------------------ seats

    def count_seat_work(self) -> None:
        """One more position visited by the seats' search; past ``MAX_SEAT_WORK`` the search stops
        with a message (PL13): multipliers make the scores to beat grow without a bound known
        beforehand, so the limit is counted as the work goes, memory and time bounded with it."""
        self.seat_work += 1
        if self.seat_work > MAX_SEAT_WORK:
            raise SeatsTooBig(tr("pushluck.solver.seats_too_big", players=self.seat_players,
                                 limit=f"{MAX_SEAT_WORK:,}".replace(",", " ")))

    def seats(self, players: int, cancel: Callable[[], bool] | None = None) -> _Seats:
        """Every seat's optimal play and winning chances (built once per player count). ``cancel``:
        asked now and then while building; when it answers True the build stops with
        :class:`SolverCancelled` and nothing is kept."""
        if players < 2:
            raise SolverError(tr("pushluck.solver.seats_players", players=players))
        if self.tie != "first":
            raise SolverError(tr("pushluck.solver.tie_first", tie=self.tie))
        if not self.n_lose:
            raise SolverError(tr("pushluck.solver.no_lose"))
        got = self._seat_cache.get(players)
        self.seat_players = players
        if got is None:
            self.seat_work = 0  # PL13: each player count's search has its own budget (a stopped
            # search keeps nothing, so the positions of an earlier one are not held any more)
            got = self._seat_cache[players] = _Seats(self, players, cancel)
        return got


class _Solo:
    """Risk-neutral expected points of a solo turn with at most ``K`` reshuffles (exact).

    The value of a state as a function of the turn's points P is convex and piecewise linear
    (stopping is P; an expectation of such functions of P + v or m·P is one; so is a maximum), so
    each (reshuffles left, face-down cards, Protections) has one exact function of P, whatever P.
    """

    def __init__(self, solver: Solver, reshuffles: int) -> None:
        self.s = solver
        self.K = reshuffles
        self.memo: dict[tuple, tuple[Convex, Convex]] = {}
        with _deep():
            self.values = [_at(self.fn(k, solver.full, 0)[0], 0) for k in range(reshuffles + 1)]
        self.stats = solver.pass_stats()

    def fn(self, k: int, rem: tuple[int, ...], sh: int) -> tuple[Convex, Convex]:
        """(value, value of going on) as functions of P, with ``k`` reshuffles left."""
        key = (k, rem, sh)
        got = self.memo.get(key)
        if got is not None:
            return got
        s = self.s
        if not any(rem):
            cont = self.fn(k - 1, s.full, 0)[0] if k > 0 else _ZERO
            out = (_env(_STOP + cont), cont) if k > 0 else (_STOP, _ZERO)
        else:
            terms: list[tuple[Fraction, Convex]] = []
            for cnt, total, kind, fig, r2 in s.moves(rem):
                w = Fraction(cnt, total)
                if kind == ADD:
                    f = self.fn(k, r2, sh)[0]
                    terms.append((w, _env([(a, a * fig + b) for a, b in f])))
                elif kind == MUL:
                    f = self.fn(k, r2, sh)[0]
                    terms.append((w, _env([(a * fig, b) for a, b in f])))
                elif kind == PROTECTION:
                    terms.append((w, self.fn(k, r2, sh + 1)[0]))
                elif sh:
                    terms.append((w, self.fn(k, r2, sh - 1)[0]))
            cont = _sum(terms) if terms else _ZERO
            out = (_env(_STOP + cont), cont)
        self.memo[key] = out
        return out

    def value(self, k: int, p: int, rem: tuple[int, ...], sh: int) -> tuple[Fraction, bool]:
        """(value, go on?) with ``k`` reshuffles left; at the end of a pass 'go on' = reshuffle."""
        with _deep():
            cont = self.fn(k, rem, sh)[1]
        if not any(rem) and k == 0:
            return Fraction(p), False
        c = _at(cont, p)
        return (c, True) if c > p else (Fraction(p), False)

    def decide(self, reshuffles_left: int, p: int, rem: tuple[int, ...], sh: int) -> bool:
        return self.value(max(0, reshuffles_left), p, rem, sh)[1]

    def bound(self) -> dict[str, Any]:
        """The value with unlimited reshuffles (PL12): ``exact`` (finite, computed exactly by
        :mod:`.solo`, or no full pass possible), ``unbounded`` (proven: ``s = 1`` or ``ρ > 1``), or
        ``bounded`` (the exact construction did not apply: the K-capped value and, when ``ρ < 1``,
        a proven upper bound)."""
        st = self.stats
        rho, s = st["rho"], st["survive"]
        vk = self.values[-1]
        if self.s.stop_at_target:  # PL6: a turn stops at the target: finite, exact
            u = self.s.unlimited()
            return {"status": "exact", "value": u.start, "upper": u.start, "reshuffles": None,
                    "unlimited": u}
        if s == 0:
            return {"status": "exact", "value": vk, "upper": vk, "reshuffles": 0}
        if s == 1 or rho > 1:
            return {"status": "unbounded", "value": None, "upper": None}
        from .solo import NoExactSolo

        try:
            u = self.s.unlimited()
        except NoExactSolo:
            u = None
        if u is not None:
            return {"status": "exact", "value": u.start, "upper": u.start, "reshuffles": None,
                    "unlimited": u}
        if rho == 1:
            return {"status": "bounded", "value": vk, "upper": None}
        # any policy's extra value beyond K reshuffles is at most A_max * sum_{k > K} (k+1) rho^k
        adds = sum(c.figure for c in self.s.box.cards if c.kind == ADD)
        a_max = st["multiplier"] * adds
        m = self.K + 1
        tail = a_max * rho ** m * (1 / (1 - rho) ** 2 + Fraction(m) / (1 - rho))
        return {"status": "bounded", "value": vk, "upper": vk + tail}

    def table(self, p_max: int = 40, level: int | None = None) -> list[dict[str, Any]]:
        """For each face-down set and Protection count, the points at which to go on."""
        s = self.s
        k = self.K if level is None else level
        rows = []
        states = _pass_states(s)
        with _deep():
            for rem, sh in states:
                if not any(rem) and k == 0:
                    go: list[int] = []
                else:
                    cont = self.fn(k, rem, sh)[1]
                    go = [p for p, c in zip(range(p_max + 1), _at_many(cont, p_max), strict=True)
                          if c > p]
                rows.append({"reshuffles_left": k, "face_down": s.describe(rem), "protection": sh,
                             "go_on": _ranges(go, p_max)})
        return rows


class _Seats:
    """Every seat's winning probability under optimal play (PL7 tie rule, later seats informed).

    Seat ``j`` plays knowing ``b``, the best score of at least the target made before it in the
    round (``None``: none yet). Its payoff vectors have ``n + 2`` slots: the seats, the current
    leader (the seat that made ``b``), and "nobody reaches the target this round" (for the rounds).
    """

    def __init__(self, solver: Solver, players: int, cancel: Callable[[], bool] | None = None) -> None:
        self.s = solver
        self.n = players
        self.cancel = cancel
        self.t = solver.target
        self.L: dict[tuple[int, int], Vec] = {}
        self.aboves: dict[int, _Problem] = {}
        self.problems: dict[tuple[int, int | None], _Problem] = {}
        n = players
        with _deep():
            # The game's value W is the fixed point of "one round, then W again if nobody made
            # the target": with the policies of a guess w, one round gives r + q w exactly, so
            # W = r / (1 - q) for those policies; solve again until the policies agree.
            w: Vec = (1.0 / n,) * n
            for self.iterations in range(1, 101):
                self._check()
                u0 = self._none_problems(w)[0]
                q = u0[n + 1]
                r = [u0[i] - q * w[i] for i in range(n)]
                new = tuple(x / (1.0 - q) for x in r) if q < 1 else tuple(r)
                done = max(abs(a - b) for a, b in zip(new, w, strict=True)) < 1e-13
                w = new
                if done:
                    break
        self.win = w
        # the policies of the fixed point; slot n + 1: P(nobody reaches the target in a round)
        self.q = self._none_problems(w)[0][n + 1]
        self.cancel = None  # built: nothing more to cancel

    def _check(self) -> None:
        if self.cancel is not None and self.cancel():
            raise SolverCancelled(tr("pushluck.solver.cancelled"))

    # the last seat with a score to beat: go until it is beaten (floats, cached by score)
    def _last(self, v: int) -> Vec:
        n = self.n
        beat = self.s.cross_above(v) if self.s.stop_at_target else self.s.reach_float(v + 1)
        out = [0.0] * (n + 2)
        out[n - 1] = beat
        out[n] = 1.0 - beat
        return tuple(out)

    def Lvec(self, j: int, v: int) -> Vec:
        """Win vector when seat ``j`` is to play and the leader has ``v`` (>= target)."""
        n = self.n
        if j == n:
            return (0.0,) * n + (1.0, 0.0)
        key = (j, v)
        got = self.L.get(key)
        if got is not None:
            return got
        self._check()
        if j == n - 1:
            out = self._last(v)
        else:
            out = self._beat(j, v)
        self.L[key] = out
        return out

    def above(self, j: int) -> _Problem:
        """Seat ``j`` once its points are above the best score, whatever that score was.

        Its decisions there do not depend on the score it beat (every stop is a lead, a loss is
        worth 0 to it): one search per seat serves every best score. Its vectors carry one more
        slot, the probability of losing the turn after all; the old leader's vector fills it in.
        """
        got = self.aboves.get(j)
        if got is None:
            n = self.n

            def payoff(x: int, j: int = j) -> Vec:
                return _lead(self.Lvec(j + 1, x), j, n) + (0.0,)

            got = self.aboves[j] = _Problem(self.s, payoff, (0.0,) * (n + 2) + (1.0,), j, 0.0)
        return got

    def _beat(self, j: int, v: int) -> Vec:
        """Win vector of seat ``j`` (not the last) facing the best score ``v``.

        Up to ``v`` the seat goes on (stopping there is worth what losing is worth to every seat:
        the old leader keeps the lead); above ``v`` it plays :meth:`above`.
        """
        keep = self.Lvec(j + 1, v)
        up = self.above(j)
        full = self.s.full
        moves = self.s.moves
        memo: dict[tuple, Vec] = {}
        size = len(keep)

        auto = self.s.stop_at_target

        def val(p: int, rem: tuple[int, ...], sh: int) -> Vec:
            if auto and p >= self.t:  # PL6 (stop_at_target): the turn stops here
                return _lead(self.Lvec(j + 1, p), j, self.n) if p > v else keep
            if p > v:
                a = up.value(p, rem, sh)[0]
                lost = a[size]
                return tuple(a[i] + lost * keep[i] for i in range(size))
            if not any(rem):
                rem, sh = full, 0
            key = (p, rem, sh)
            got = memo.get(key)
            if got is not None:
                return got
            acc = [0.0] * size
            for cnt, total, kind, fig, r2 in moves(rem):
                w = cnt / total
                if kind == ADD:
                    x = val(p + fig, r2, sh)
                elif kind == MUL:
                    x = val(p * fig, r2, sh)
                elif kind == PROTECTION:
                    x = val(p, r2, sh + 1)
                elif sh:
                    x = val(p, r2, sh - 1)
                else:
                    x = keep
                for i in range(size):
                    acc[i] += w * x[i]
            out = memo[key] = tuple(acc)
            self.s.count_seat_work()
            return out

        return val(0, full, 0)

    def _none_problems(self, w: Vec) -> list[Vec]:
        n, t = self.n, self.t
        u: list[Vec] = [()] * (n + 1)
        u[n] = tuple(w) + (0.0, 1.0)
        for j in range(n - 1, -1, -1):
            nothing = u[j + 1]

            def payoff(x: int, j: int = j, nothing: Vec = nothing) -> Vec:
                if x >= t:
                    if not self.s.finish_round:  # PL14: the game ends at once, seat j wins
                        return tuple(1.0 if i == j else 0.0 for i in range(n + 2))
                    return _lead(self.Lvec(j + 1, x), j, n)
                return nothing

            prob = _Problem(self.s, payoff, nothing, j, nothing[j],
                            cap=t if self.s.stop_at_target else None)
            self.problems[(j, None)] = prob
            u[j] = prob.start()
        return u

    def decide(self, seat: int, best: int | None, p: int, rem: tuple[int, ...], sh: int) -> bool:
        """Go on (flip, or reshuffle after a full pass) in this state?"""
        with _deep():
            if best is None:
                pass  # solved with the fixed point's values
            elif seat == self.n - 1 or p <= best:
                return p <= best  # below the best score: go on; the last seat stops above it
            else:
                return self.above(seat).decide(p, rem, sh)
            return self.problems[(seat, best)].decide(p, rem, sh)

    def chances(self, seat: int, p: int, rem: tuple[int, ...], sh: int) -> tuple[float, float]:
        """(P(seat wins the game) if it stops now, if it goes on — one more card, or a reshuffle
        after a full pass — and then plays optimally), every seat playing optimally, for a seat
        with no score of the round to beat yet (the table's player, seat 1)."""
        with _deep():
            prob = self.problems[(seat, None)]
            return prob.g(p)[seat], prob.go(p, rem, sh)[seat]

    def policy(self, seat: int, best: int | None = None, p_span: int = 40) -> list[dict[str, Any]]:
        """For each face-down set and Protection count, the points at which the seat goes on."""
        s = self.s
        lo = self.t if best is None else best + 1
        rows = []
        for rem, sh in _pass_states(s):
            go = [p for p in range(lo, lo + p_span + 1) if self.decide(seat, best, p, rem, sh)]
            rows.append({"face_down": s.describe(rem), "protection": sh,
                         "go_on": _ranges(go, lo + p_span)})
        return rows

    def stop_from(self, seat: int, best: int | None = None, p_span: int = 200) -> int | None:
        """The least score (>= target, above ``best``) at which the seat stops at a fresh pass."""
        lo = self.t if best is None else best + 1
        for p in range(lo, lo + p_span + 1):
            if not self.decide(seat, best, p, self.s.full, 0):
                return p
        return None


def _lead(vec: Vec, j: int, n: int) -> Vec:
    """Seat ``j`` has just taken the lead: it gets the leader's slot, the old leader nothing."""
    out = list(vec)
    out[j] = vec[n]
    out[n] = 0.0
    return tuple(out)


class _Problem:
    """One seat's stopping problem: a payoff vector per final score, maximise component ``me``."""

    def __init__(self, solver: Solver, payoff: Callable[[int], Vec], bust: Vec, me: int,
                 bust_me: float, cap: int | None = None) -> None:
        self.s = solver
        self.cap = cap  # PL6 (stop_at_target): from these points on, the turn has stopped
        self.payoff = payoff
        self.bust = bust
        self.me = me
        self.c = bust_me
        self.memo: dict[tuple, tuple[Vec, bool]] = {}
        self.pay: dict[int, Vec] = {}

    def g(self, x: int) -> Vec:
        got = self.pay.get(x)
        if got is None:
            got = self.pay[x] = self.payoff(x)
        return got

    def start(self) -> Vec:
        return self.value(0, self.s.full, 0)[0]

    def go(self, p: int, rem: tuple[int, ...], sh: int) -> Vec:
        """The value of going on (one more card, or a reshuffle after a full pass), then playing
        optimally — whether or not going on is the optimal choice."""
        s = self.s
        if self.cap is not None and p >= self.cap:
            return self.g(p)
        if not any(rem):
            rem, sh = s.full, 0
        acc = [0.0] * len(self.bust)
        for cnt, total, kind, fig, r2 in s.moves(rem):
            w = cnt / total
            if kind == ADD:
                v = self.value(p + fig, r2, sh)[0]
            elif kind == MUL:
                v = self.value(p * fig, r2, sh)[0]
            elif kind == PROTECTION:
                v = self.value(p, r2, sh + 1)[0]
            elif sh:
                v = self.value(p, r2, sh - 1)[0]
            else:
                v = self.bust
            for i, x in enumerate(v):
                acc[i] += w * x
        return tuple(acc)

    def decide(self, p: int, rem: tuple[int, ...], sh: int) -> bool:
        return self.value(p, rem, sh)[1]

    def value(self, p: int, rem: tuple[int, ...], sh: int) -> tuple[Vec, bool]:
        key = (p, rem, sh)
        got = self.memo.get(key)
        if got is not None:
            return got
        s, me = self.s, self.me
        if self.cap is not None and p >= self.cap:
            out = (self.g(p), False)
            self.memo[key] = out
            return out
        if not any(rem):
            out = self.value(p, s.full, 0)  # PL4: reshuffle (its value includes stopping)
            self.memo[key] = out
            return out
        stop = self.g(p)
        if not sh:
            lose = sum(rem[i] for i in s.lose_idx)
            if lose:
                beta = lose / sum(rem)
                if stop[me] >= (1.0 - beta) + beta * self.c:  # PL12: going on cannot do better
                    out = (stop, False)
                    self.memo[key] = out
                    return out
        acc = [0.0] * len(stop)
        for cnt, total, kind, fig, r2 in s.moves(rem):
            w = cnt / total
            if kind == ADD:
                v = self.value(p + fig, r2, sh)[0]
            elif kind == MUL:
                v = self.value(p * fig, r2, sh)[0]
            elif kind == PROTECTION:
                v = self.value(p, r2, sh + 1)[0]
            elif sh:
                v = self.value(p, r2, sh - 1)[0]
            else:
                v = self.bust
            for i, x in enumerate(v):
                acc[i] += w * x
        out = (tuple(acc), True) if acc[me] > stop[me] + EPS else (stop, False)
        self.memo[key] = out
        s.count_seat_work()
        return out


# PL13: the solver's work grows with the states of a pass (face-down sets x Protections held);
# beyond these limits an answer takes minutes and gigabytes, so it is refused before any work.
MAX_PASS_STATES = 2000
MAX_CAPPED_WORK = 4000  # pass states x (reshuffles + 1) of the capped solo table
# Positions the seats' search may visit for one box, every player count together: the P15 box
# needs 2,400 at 2 players, 290,000 up to 3 and 5.2 million up to 4 (about 30 s); 5 players would
# take more than a quarter of an hour. Memory stays small (a search keeps its positions only while
# it runs); the limit bounds the time.
MAX_SEAT_WORK = 6_000_000


class SeatsTooBig(SolverError):
    """The seats' search went past ``MAX_SEAT_WORK`` positions."""


def pass_state_count(box: Box) -> int:
    """An upper bound of the states of one pass: Π (copies of a card + 1) x (Protections + 1)."""
    counts: dict[tuple[str, int], int] = {}
    for c in box.cards:
        counts[(c.kind, c.figure)] = counts.get((c.kind, c.figure), 0) + 1
    prot = sum(n for (k, _f), n in counts.items() if k == PROTECTION)
    out = prot + 1
    for n in counts.values():
        out *= n + 1
    return out


def check_size(box: Box, reshuffles: int = 3) -> None:
    """PL13: refuse a box too large for the exact solver, every problem at once, before the work."""
    states = pass_state_count(box)
    problems = []
    if states > MAX_PASS_STATES:
        problems.append(tr("pushluck.solver.too_big", states=states, limit=MAX_PASS_STATES,
                           cards=len(box.cards)))
    elif states * (reshuffles + 1) > MAX_CAPPED_WORK:
        problems.append(tr("pushluck.solver.too_many_reshuffles", states=states, reshuffles=reshuffles,
                           most=max(0, MAX_CAPPED_WORK // states - 1)))
    if problems:
        raise SolverError("\n".join(problems))


def solve(box: Box, *, players: int = 2, target: int = TARGET, reshuffles: int = 3,
          tie: str = "first", stop_at_target: bool = False, finish_round: bool = True
          ) -> dict[str, Any]:
    """Every figure of ``cardbase solve pushluck`` (JSON keys stable, values exact where said).
    ``stop_at_target`` (PL6, contested) and ``finish_round`` (PL14) are the rules' options."""
    check_size(box, reshuffles)
    s = Solver(box, target=target, tie=tie, stop_at_target=stop_at_target,
               finish_round=finish_round)
    p, flips = s.reach()
    st = s.pass_stats()
    # the capped table is of the free reading only: with stop_at_target the value is exact anyway
    solo = None if stop_at_target else s.solo(reshuffles)
    if solo is None:
        u = s.unlimited()
        b = {"status": "exact", "value": u.start, "upper": u.start, "unlimited": u}
    else:
        b = solo.bound()
    out: dict[str, Any] = {
        "box": list(box.tokens),
        "target": target,
        "rules": {"stop_at_target": stop_at_target, "finish_round": finish_round},
        "p_reach_15": float(p),
        "p_reach_15_exact": _frac(p),
        "expected_flips": float(flips),
        "expected_flips_exact": _frac(flips),
        "full_pass": {"survive": _frac(st["survive"]), "multiplier": _frac(st["multiplier"]),
                      "growth": _frac(st["rho"]), "growth_float": float(st["rho"]),
                      "points_added": _frac(st["H"])},
        "solo": {
            "status": b["status"],
            "expected_points_per_round": None if b["value"] is None or b["status"] != "exact"
            else float(b["value"]),
            "expected_points_per_round_exact": None if b["status"] != "exact" else _frac(b["value"]),
            "upper_bound": None if b["upper"] is None else float(b["upper"]),
            "exact_from_reshuffles": b.get("reshuffles"),
            "max_reshuffles": reshuffles,
            "capped_expected_points": None if solo is None else float(solo.values[-1]),
            "capped_expected_points_exact": None if solo is None else _frac(solo.values[-1]),
            "by_reshuffles": [] if solo is None else [float(v) for v in solo.values],
            "policy": [] if solo is None else [row for k in range(reshuffles, -1, -1)
                                               for row in solo.table(level=k)],
            "error_bound": 0.0 if b["status"] == "exact" else None,
            "unlimited": _unlimited_json(b.get("unlimited")),
        },
        "seats": {},
    }
    if players >= 2:
        if not s.n_lose:
            out["seats_error"] = tr("pushluck.solver.no_lose")
        elif tie != "first":
            out["seats_error"] = tr("pushluck.solver.tie_first", tie=tie)
        else:
            for n in range(2, players + 1):
                try:
                    out["seats"][str(n)] = _seats_json(s, n, target)
                except SeatsTooBig as exc:  # PL13: the player counts below keep their answers
                    out["seats_error"] = str(exc)
                    out["seats_limit"] = {"players": n, "positions": MAX_SEAT_WORK}
                    break
    return out


def _seats_json(s: Solver, n: int, target: int) -> dict[str, Any]:
    """One player count's chances and policies (JSON keys stable)."""
    seats = s.seats(n)
    return {
        "win": list(seats.win),
        "advantage_first_seat": seats.win[0] - 1.0 / n,
        "expected_rounds": 1.0 / (1.0 - seats.q) if seats.q < 1 else None,
        "policies": [{"seat": j + 1, "stop_from": seats.stop_from(j),
                      "table": seats.policy(j, None, p_span=25),
                      "stop_from_given_best": {str(v): seats.stop_from(j, v)
                                              for v in range(target, target + 6)}
                      if j < n - 1 else None}
                     for j in range(n)],
    }


def _unlimited_json(u: Any) -> dict[str, Any] | None:
    """The exact unlimited-reshuffle solution (PL12): its value, the proof's numbers, its policy."""
    if u is None:
        return None
    from .solo import TAIL_PASSES

    return {"value": float(u.start), "value_exact": _frac(u.start),
            "attained": bool(u.s.stop_at_target or u.stats["rho"] < 1),
            "slope": _frac(u.alpha), "intercept": _frac(u.b_star),
            "slope_policy_intercept": _frac(u.b_pi), "threshold": u.X,
            "bot_tail_passes": TAIL_PASSES, "bot_shortfall_bound": float(u.shortfall),
            "policy": u.table()}

