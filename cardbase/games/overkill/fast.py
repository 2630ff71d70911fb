"""OVERKILL's greedy play at speed: the same decisions as :func:`.bots.greedy_action`, faster.

:func:`greedy_action` is the greedy heuristic of :mod:`.bots` written for speed: the player's
picture of the round (its line sums, the opponent's face-up sums, the cards it has not seen) is
built from bit masks of the box instead of a view object, the estimates are inlined, and the
average over the possible next cards is memoised per game on everything it depends on (the
unseen cards come from per-chunk tables of the box's bit masks). It reads
exactly what the reference reads (never a hidden card) and returns the same action: the tests
compare both on every decision of thousands of games.

:func:`play_greedy` plays a state with it for both players, in place, to the end of the game or of a
round, applying a draw or a stand inline (no legal-action list, no legality check: the greedy
choice is legal) and everything else — atouts, the end of a round, the deal — through the general
engine, so the chance draws, the history, the event log and the scores are the same as those of
``while not s.is_terminal(): s.apply_action(greedy_action(s))``.
"""

from __future__ import annotations

from math import tanh

from .rules import (
    BET,
    GIFTER,
    HELPERS,
    INITIAL_OBJECTIVE,
    OBJECTIVE,
    OVERSEER,
    PATCHER,
    REMOVER,
    REWINDER,
    SAVER,
    SNAKE_EYE,
    SPY,
    SWITCHER,
    YOINKER,
)
from .state import DRAW, PASS, PLAY, TERMINAL, State

MARGIN = 0.15  # the same as .bots.MARGIN
_LINE = (PATCHER, SAVER, SWITCHER, YOINKER, REWINDER)


class _Tables:
    """Per game: card values and colours, bits, and the memo of draw averages."""

    __slots__ = (
        "atouts",
        "bits",
        "chunks",
        "colour",
        "colour_mask",
        "full",
        "helper",
        "kinds",
        "memo",
        "mode",
        "n",
        "value",
        "value_mask",
    )

    def __init__(self, game) -> None:
        self.value = game.value
        self.colour = game.colour
        self.n = game.n_numbers
        self.bits = [1 << k for k in range(len(game.value))]
        self.mode = game.rules.points
        self.atouts = game.atouts
        self.full = (1 << self.n) - 1
        self.memo: dict = {}
        # the number cards by colour and by value, as bit masks (what a Helper's answer keeps)
        self.colour_mask = [0, 0]
        self.value_mask: dict[int, int] = {}
        for k in range(self.n):
            self.colour_mask[self.colour[k]] |= 1 << k
            self.value_mask[self.value[k]] = self.value_mask.get(self.value[k], 0) | 1 << k
        # per atout: 0 helper, 1 objective, 2 line effect, 3 gifter, 4 remover, 5 bet, 6 other
        kinds = []
        for a in game.atouts:
            e = a.effect
            kinds.append(0 if a.cls == HELPERS else 1 if e == OBJECTIVE else 2 if e in _LINE
                         else 3 if e == GIFTER else 4 if e == REMOVER else 5 if e == BET else 6)
        self.kinds = kinds
        # the box's cards in chunks of 9 bits: per chunk value, its cards and per-colour sums
        self.chunks = []
        for start in range(0, self.n, 9):
            width = min(9, self.n - start)
            cards, stats = [], []
            for m in range(1 << width):
                ks = tuple(start + i for i in range(width) if m >> i & 1)
                cards.append(ks)
                st = [0, 0, 0, 0]  # red sum, red count, black sum, black count
                for k in ks:
                    st[2 * self.colour[k]] += self.value[k]
                    st[2 * self.colour[k] + 1] += 1
                stats.append(tuple(st))
            self.chunks.append((start, (1 << width) - 1, cards, stats))
        self.helper = [kind == 0 for kind in kinds]


def _tables(game) -> _Tables:
    t = getattr(game, "_fast", None)
    if t is None:
        t = game._fast = _Tables(game)
    return t


def _points(mode: str, a, b, obj):
    if mode == "all":
        return a + b
    if mode == "best_line":
        under = [x for x in (a, b) if x <= obj]
        return max(under, default=0)
    return sum([x for x in (a, b) if x <= obj])


def _estimate_any(mode: str, m0, m1, o0, o1, obj) -> float:
    my_ok = (m0 > obj) + (m1 > obj)
    op_ok = (o0 > obj) + (o1 > obj)
    if my_ok != op_ok:
        return 1.0 if my_ok < op_ok else -1.0
    return tanh((_points(mode, m0, m1, obj) - _points(mode, o0, o1, obj)) / 4.0)


def _estimate_under(mode: str, m0, m1, o0, o1, obj) -> float:
    """:func:`_estimate_any` for the default points mode (lines under the objective), inlined."""
    my_ok = (m0 > obj) + (m1 > obj)
    op_ok = (o0 > obj) + (o1 > obj)
    if my_ok != op_ok:
        return 1.0 if my_ok < op_ok else -1.0
    return tanh(((m0 if m0 <= obj else 0) + (m1 if m1 <= obj else 0)
                 - ((o0 if o0 <= obj else 0) + (o1 if o1 <= obj else 0))) / 4.0)


def greedy_action(s: State) -> int:
    """The greedy choice of the player to act: the same as :func:`.bots.greedy_action`."""
    t = _tables(s.game)
    value, bits = t.value, t.bits
    p = s.player
    q = 1 - p
    objectives = s.objectives
    obj = objectives[-1][1] if objectives else INITIAL_OBJECTIVE
    mine_r, mine_b = s.lines[p]
    theirs_r, theirs_b = s.lines[q]
    seen = 0
    for k in s.removed:
        seen |= bits[k]
    m0 = 0
    for k in mine_r:
        m0 += value[k]
        seen |= bits[k]
    m1 = 0
    for k in mine_b:
        m1 += value[k]
        seen |= bits[k]
    down = s.down[q]
    d0 = down[0] and bool(theirs_r)
    d1 = down[1] and bool(theirs_b)
    u0 = 0
    for k in (theirs_r[1:] if d0 else theirs_r):
        u0 += value[k]
        seen |= bits[k]
    u1 = 0
    for k in (theirs_b[1:] if d1 else theirs_b):
        u1 += value[k]
        seen |= bits[k]
    pool_mask = t.full & ~seen
    if d0 or d1:
        a0, a1 = _averages(t, pool_mask)
        if not d0:
            a0 = 0.0
        if not d1:
            a1 = 0.0
    else:
        a0 = a1 = 0.0
    return _decide(s, t, p, obj, m0, m1, u0, u1, d0, d1, a0, a1, pool_mask)


def _averages(t: _Tables, pool_mask: int) -> tuple[float, float]:
    """The value the player gives an opponent's face-down card of each colour: the average of the
    unseen cards of that colour (``pool_mask``) to the half, 0 when none is left."""
    rs = rc = bs = bc = 0
    for start, width, _, stats in t.chunks:
        st = stats[pool_mask >> start & width]
        rs += st[0]
        rc += st[1]
        bs += st[2]
        bc += st[3]
    return (round(2 * rs / rc) / 2 if rc else 0.0, round(2 * bs / bc) / 2 if bc else 0.0)


def _decide(s: State, t: _Tables, p: int, obj: int, m0: int, m1: int, u0: int, u1: int,
            d0: bool, d1: bool, a0: float, a1: float, pool_mask: int) -> int:
    """The greedy choice from the player's picture of the round: its line sums ``m0``, ``m1``, the
    opponent's face-up sums ``u0``, ``u1``, their face-down cards ``d0``, ``d1`` valued ``a0``,
    ``a1``, and the cards it has not seen (``pool_mask``)."""
    value, mode = t.value, t.mode
    q = 1 - p
    objectives = s.objectives
    mine_r, mine_b = s.lines[p]
    theirs_r, theirs_b = s.lines[q]
    o0 = u0 + a0
    o1 = u1 + a1
    op_ok = (o0 > obj) + (o1 > obj)
    my_ok = (m0 > obj) + (m1 > obj)
    under = mode == "lines_under"
    if under:
        op_pts = (o0 if o0 <= obj else 0) + (o1 if o1 <= obj else 0)
        my_pts = (m0 if m0 <= obj else 0) + (m1 if m1 <= obj else 0)
    else:
        op_pts = _points(mode, o0, o1, obj)
        my_pts = _points(mode, m0, m1, obj)
    if my_ok != op_ok:
        now = 1.0 if my_ok < op_ok else -1.0
    else:
        now = tanh((my_pts - op_pts) / 4.0)
    hand = s.hands[p]
    timer = s.timers[p]
    if hand:
        kinds, atouts = t.kinds, t.atouts
        _est = _estimate_under if under else _estimate_any
        best, best_gain = -1, MARGIN
        for k in sorted(set(hand)):
            kind = kinds[k]
            base = PLAY + 8 * k
            if kind == 0:
                if timer > 3:
                    return base
                continue
            if kind == 1:
                gain = _est(mode, m0, m1, o0, o1, atouts[k].figure) - now
                if gain > best_gain:
                    best, best_gain = base, gain
            elif kind == 2:
                e = atouts[k].effect
                keep_rule = s.rules.reset_keeps
                mine = (mine_r, mine_b)
                theirs = (theirs_r, theirs_b)
                my_dealt, their_dealt = s.dealt[p], s.dealt[q]
                for c in (0, 1):
                    ml, tl = mine[c], theirs[c]
                    # OK8: State._colour_ok, inlined
                    if e == YOINKER:
                        ok = len(tl) > their_dealt[c]
                    elif e == REWINDER:
                        keep = min(keep_rule, their_dealt[c])
                        ok = len(tl) > keep
                    elif e == SAVER:
                        keep = min(keep_rule, my_dealt[c])
                        ok = len(ml) > keep
                    elif e == PATCHER:
                        ok = len(ml) > my_dealt[c]
                    else:
                        ok = len(ml) > my_dealt[c] and len(tl) > their_dealt[c]
                    if not ok:
                        continue
                    n0, n1, p0, p1 = m0, m1, o0, o1
                    if e == PATCHER:
                        if c:
                            n1 -= value[ml[-1]]
                        else:
                            n0 -= value[ml[-1]]
                    elif e == SAVER:
                        kept = 0
                        for x in ml[:keep]:
                            kept += value[x]
                        if c:
                            n1 = kept
                        else:
                            n0 = kept
                    elif e == SWITCHER:
                        delta = value[tl[-1]] - value[ml[-1]]
                        if c:
                            n1 += delta
                            p1 = u1 + a1
                            p1 -= delta
                        else:
                            n0 += delta
                            p0 = u0 + a0
                            p0 -= delta
                    elif e == YOINKER:
                        if c:
                            p1 -= value[tl[-1]]
                        else:
                            p0 -= value[tl[-1]]
                    else:  # REWINDER
                        fd = (d1 if c else d0)
                        kept_v = 0
                        for x in tl[:keep][1 if fd else 0:]:
                            kept_v += value[x]
                        nv = ((a1 if c else a0) if fd and keep else 0) + kept_v
                        if c:
                            p1 = nv
                        else:
                            p0 = nv
                    gain = _est(mode, n0, n1, p0, p1, obj) - now
                    if gain > best_gain:
                        best, best_gain = base + c, gain
            elif kind == 3:
                if s.pile:
                    gain = _after_draw(t, pool_mask, m0, m1, o0, o1, obj, True) - now
                    if gain > best_gain:
                        best, best_gain = base, gain
            elif kind == 4:
                for i, target in enumerate(s.active[q]):
                    ta = atouts[target]
                    if ta.effect == OBJECTIVE and objectives and objectives[-1][0] == target:
                        prev = objectives[-2][1] if len(objectives) > 1 else INITIAL_OBJECTIVE
                        gain = _est(mode, m0, m1, o0, o1, prev) - now
                    elif ta.effect == BET:
                        gain = -ta.figure * now / max(s.stake(), 1)
                    else:
                        gain = 0.05 if ta.cls == HELPERS else 0.0
                    if gain > best_gain:
                        best, best_gain = base + i, gain
        if best >= 0:
            return best
        for k in sorted(set(hand)):
            if kinds[k] == 5:
                f = atouts[k].figure
                if (f > 0 and now > 0.3) or (f < 0 and now < -0.3):
                    return PLAY + 8 * k
    if not s.pile or timer <= 1:
        return PASS
    if s.passes == 1 and now > 0:
        return PASS
    cand = pool_mask
    info = s.info[p]
    if info:
        if SNAKE_EYE in info:
            cand &= t.colour_mask[info[SNAKE_EYE]]
        if OVERSEER in info:
            vm = t.value_mask
            keep = 0
            for v in info[OVERSEER]:
                keep |= vm.get(v, 0)
            cand &= keep
        if SPY in info:
            vm = t.value_mask
            keep = 0
            for v in info["_spy_values"]:
                keep |= vm.get(v, 0)
            cand &= keep if info[SPY] else ~keep
        if not cand:
            cand = pool_mask
    # the choice after the mean estimate of one more card among ``cand``
    return _draw_or_pass(t, (m0, m1, op_ok, op_pts, obj, cand), now)


def _draw_or_pass(t: _Tables, key: tuple, now: float) -> int:
    """Draw or stand: the mean estimate after one more card among ``cand``, each card's estimate
    from a table memoised on what it depends on, summed in ascending card order (as the
    reference does), against the estimate ``now``."""
    m0, m1, op_ok, op_pts, obj, cand = key
    value, colour, n, mode = t.value, t.colour, t.n, t.mode
    under = mode == "lines_under"
    key = (m0, m1, op_ok, op_pts, obj)
    memo = t.memo
    each = memo.get(key)
    if each is None:
        each = []
        for k in range(n):
            if colour[k]:
                n0, n1 = m0, m1 + value[k]
            else:
                n0, n1 = m0 + value[k], m1
            ok = (n0 > obj) + (n1 > obj)
            if ok != op_ok:
                each.append(1.0 if ok < op_ok else -1.0)
            elif under:
                each.append(tanh(((n0 if n0 <= obj else 0) + (n1 if n1 <= obj else 0) - op_pts) / 4.0))
            else:
                each.append(tanh((_points(mode, n0, n1, obj) - op_pts) / 4.0))
        if len(memo) > 200_000:
            memo.clear()
        memo[key] = each
    total = 0.0
    count = 0
    for start, width, chunk, _ in t.chunks:
        cards = chunk[cand >> start & width]
        count += len(cards)
        for k in cards:
            total += each[k]
    draw = total / count
    need = -0.1 if now <= 0 else 0.05
    return DRAW if draw > now + need else PASS


def _after_draw(t: _Tables, cand: int, m0, m1, o0, o1, obj, for_opponent: bool) -> float:
    """The mean estimate after one of the ``cand`` cards (a bit mask) joins a line (memoised)."""
    key = (cand, m0, m1, o0, o1, obj, for_opponent)
    memo = t.memo
    v = memo.get(key)
    if v is not None:
        return v
    value, colour, mode = t.value, t.colour, t.mode
    _estimate = _estimate_under if mode == "lines_under" else _estimate_any
    if not cand:
        v = _estimate(mode, m0, m1, o0, o1, obj)
    else:
        total = 0.0
        count = 0
        for k in range(t.n):
            if cand >> k & 1:
                count += 1
                x = value[k]
                if for_opponent:
                    if colour[k]:
                        total += _estimate(mode, m0, m1, o0, o1 + x, obj)
                    else:
                        total += _estimate(mode, m0, m1, o0 + x, o1, obj)
                elif colour[k]:
                    total += _estimate(mode, m0, m1 + x, o0, o1, obj)
                else:
                    total += _estimate(mode, m0 + x, m1, o0, o1, obj)
        v = total / count
    if len(memo) > 200_000:
        memo.clear()
    memo[key] = v
    return v


def play_greedy(s: State, horizon: int | None = None) -> State:
    """Play ``s`` with the greedy heuristic for both players, in place: to the end of the game,
    or to the end of round ``horizon``. The same moves, chance draws and log as the general loop.

    Each player's picture of the round (:func:`greedy_action`) is kept up to date instead of
    rebuilt at every decision: the line sums and the pile's cards (a bit mask) change with a draw,
    and are counted again after an atout or a deal; the cards a player has not seen are the pile
    and the opponent's face-down cards."""
    stop = s.rules.max_rounds + 1 if horizon is None else horizon
    game = s.game
    value, colour = game.value, game.colour
    t = _tables(game)
    bits, helper = t.bits, t.helper
    legal_kind = game.legal_kind
    cov = s.cov
    at = game.atout_cov
    usable = s._usable
    history = s.history
    events = s.events
    lines = None
    sums = pile_mask = None
    while s.player != TERMINAL and s.round <= stop:
        if s.lines is not lines:  # a new round: count its lines and its pile
            lines = s.lines
            sums = [[0, 0], [0, 0]]
            for who in (0, 1):
                for c in (0, 1):
                    total = 0
                    for x in lines[who][c]:
                        total += value[x]
                    sums[who][c] = total
            pile_mask = 0
            for x in s.pile:
                pile_mask |= bits[x]
        p = s.player
        q = 1 - p
        objectives = s.objectives
        obj = objectives[-1][1] if objectives else INITIAL_OBJECTIVE
        # the player's picture: the opponent's face-down cards are unseen, the rest of their
        # lines is face up
        theirs_r, theirs_b = lines[q]
        down = s.down[q]
        d0 = down[0] and bool(theirs_r)
        d1 = down[1] and bool(theirs_b)
        u0, u1 = sums[q]
        pool_mask = pile_mask
        if d0 or d1:
            if d0:
                k = theirs_r[0]
                u0 -= value[k]
                pool_mask |= bits[k]
            if d1:
                k = theirs_b[0]
                u1 -= value[k]
                pool_mask |= bits[k]
            av = _averages(t, pool_mask)
            a0 = av[0] if d0 else 0.0
            a1 = av[1] if d1 else 0.0
        else:
            a0 = a1 = 0.0
        mine = sums[p]
        a = _decide(s, t, p, obj, mine[0], mine[1], u0, u1, d0, d1, a0, a1, pool_mask)
        # rule coverage of the decision (State._count_occasions, inlined)
        if s.pile:
            cov[0] += 1
        cov[2] += 1
        for k in s.hands[p]:
            lk = legal_kind[k]
            if (not lk or (lk == 1 and s.pile) or (lk == 2 and s.active[q])
                    or (lk == 3 and usable(p, k))):
                cov[at[k]] += 1
        if a == DRAW:
            cov[1] += 1
            history.append(a)
            s.timers[p] -= 1
            s.turns += 1
            s.passes = 0
            k = s.pile.pop()
            pile_mask &= ~bits[k]
            c = colour[k]
            lines[p][c].append(k)
            mine[c] += value[k]
            if s.info[0] or s.info[1]:
                s._forget_next_card()  # OK12: the answers about this card are over
            if events is not None:
                events.append(("draw", p, k))
            if (mine[0] > obj) + (mine[1] > obj) >= 2:  # only the drawer's lines changed
                s._end_round("overkill")
                continue
            _hand_to(s, q, helper)
        elif a == PASS:
            cov[3] += 1
            history.append(a)
            s.timers[p] -= 1
            s.turns += 1
            s.passes += 1
            if events is not None:
                events.append(("pass", p))
            if s.passes >= 2:
                s._end_round("passes")
                continue
            _hand_to(s, q, helper)
        else:  # an atout: State.apply_action without the legality check
            history.append(a)
            s.timers[p] -= 1
            k, choice = divmod(a - PLAY, 8)
            cov[at[k] + 1] += 1
            s._play(p, k, choice)
            # the lines and the pile may have changed: count them again
            for who in (0, 1):
                for c in (0, 1):
                    total = 0
                    for x in lines[who][c]:
                        total += value[x]
                    sums[who][c] = total
            pile_mask = 0
            for x in s.pile:
                pile_mask |= bits[x]
            objectives = s.objectives
            obj = objectives[-1][1] if objectives else INITIAL_OBJECTIVE
            if ((sums[0][0] > obj) + (sums[0][1] > obj) >= 2
                    or (sums[1][0] > obj) + (sums[1][1] > obj) >= 2):
                s._end_round("overkill")
                continue
            # OK4: playing an atout does not end the turn (the turn's answers hold, OK12)
            if s.timers[p] <= 0:
                s._next_player(p, turn=False)
            else:
                s.player = p
    return s


def _hand_to(s: State, p: int, helper: list[bool]) -> None:
    """``State._next_player`` (a new turn of ``p``) without a call when nothing happens (no timer
    out, no Helper in play: the Helpers' answer is then empty)."""
    if s.timers[p] <= 0:
        s._next_player(p)
        return
    for k in s.active[p]:
        if helper[k]:
            s._next_player(p)
            return
    s.player = p
    s.info[p] = {}
