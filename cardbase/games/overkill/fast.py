"""OVERKILL's greedy play at speed: the same decisions as :func:`.bots.greedy_action`, faster.

:func:`greedy_action` is the greedy heuristic of :mod:`.bots` written for speed: the player's
picture of the round (its line sums, the opponent's face-up sums, the cards it has not seen) is
built from bit masks of the box instead of a view object, the estimates are inlined, and the
per-card estimates of one more card are memoised per game on everything they depend on. It reads
exactly what the reference reads (never a hidden card) and returns the same action: the tests
compare both on every decision of thousands of games.

:func:`play_greedy` plays a state with it for both players, in place, to the end of the game or of a
round, in one call of :func:`_run` (a loop over the rounds), where the choice is inlined in the round's loop and
each player's picture is kept up to date instead of rebuilt. Draws, stands and the Helpers'
answers are applied inline (no legal-action list, no legality check: the greedy choice is legal);
atouts, the end of a round and the deal go through the general engine, so the chance draws, the
history, the event log, the rule coverage and every slot of the state are the same as those of
``while not s.is_terminal(): s.apply_action(greedy_action(s))``.

Floats: every estimate is computed by the reference's formula on the same numbers (sums of card
values and halves, exact in a float), so each is the same to the last bit. A draw's mean estimate
is summed by chunks of cards in C; when it comes within :data:`_CLOSE` of the bar it is summed
again one card at a time in ascending card order, the reference's float sum, so no decision can
turn on the order of a sum. An estimate is in [-1, 1] and so is a mean of estimates (float
rounding keeps the order), so what the bounds decide is not computed: with ``1.0 - now`` within
the margin no Challenger, line atout or Gifter can be chosen (they are not weighed), and with the
draw's bar outside [-1, 1] the answer is known without the mean.
"""

from __future__ import annotations

from bisect import bisect_right
from math import floor, tanh
from operator import itemgetter

from .rules import (
    BET,
    GIFTER,
    HELPERS,
    INITIAL_OBJECTIVE,
    OBJECTIVE,
    OVERSEER,
    PATCHER,
    REMOVER,
    RETRACER,
    REWINDER,
    SAVER,
    SNAKE_EYE,
    SPY,
    SWITCHER,
    YOINKER,
)
from .state import DRAW, PASS, PLAY, TERMINAL, State, sample

MARGIN = 0.15  # the same as .bots.MARGIN
# A mean estimate this close to the bar is summed again in the reference's order: the sum of at
# most 72 estimates in [-1, 1] in another order differs from it by less than 1.2e-12
_CLOSE = 1e-9
_LINE = (PATCHER, SAVER, SWITCHER, YOINKER, REWINDER)


class _Halves(dict):
    """``total`` → the average of ``count`` cards of sum ``total`` to the half point, as the
    reference rounds it, filled as totals come up."""

    def __init__(self, count: int) -> None:
        super().__init__()
        self.count = count

    def __missing__(self, total: int) -> float:
        value = self[total] = round(2 * total / self.count) / 2
        return value


class _Tables:
    """Per game: card values and colours, bits, per-atout kinds, per-chunk tables of the box's
    cards, and the memos of the estimates (bounded)."""

    __slots__ = (
        "atout_cov",
        "atouts",
        "bits",
        "by_colour",
        "cards",
        "chunks",
        "colour",
        "colour_mask",
        "figure",
        "full",
        "half",
        "helper",
        "helper_effect",
        "kinds",
        "skim",
        "legal_kind",
        "line_code",
        "memo",
        "mode",
        "n",
        "others",
        "over",
        "passive",
        "positive",
        "rank",
        "rows",
        "under",
        "value",
        "value_mask",
    )

    def __init__(self, game) -> None:
        self.value = game.value
        self.colour = game.colour
        self.n = game.n_numbers
        self.bits = [1 << k for k in range(len(game.value))]
        self.mode = game.rules.points
        self.under = self.mode == "lines_under"
        self.figure = [a.figure for a in game.atouts]
        self.atout_cov, self.legal_kind = game.atout_cov, game.legal_kind
        self.atouts = game.atouts
        self.full = (1 << self.n) - 1
        self.memo: dict = {}
        # the average of ``count`` cards of sum ``total`` to the half, half[count][total]: the
        # value a player gives a face-down card, from the unseen cards of its colour
        # (with no negative value, as plain lists over every total the cards can reach: a list is
        # read faster than a dict)
        if all(v >= 0 for v in self.value[: self.n]):
            most = sum(self.value[: self.n])
            self.half = [[round(2 * total / count) / 2 for total in range(most + 1)] if count else []
                         for count in range(self.n + 1)]
        else:
            self.half = [_Halves(count) for count in range(self.n + 1)]
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
        # the kinds when no estimate can beat the one as things stand by the margin: Challenger,
        # line atouts and Gifter (gains of the form estimate - now, at most 1.0 - now) are skipped
        self.skim = [7 if kind in (1, 2, 3) else kind for kind in kinds]
        # the box's cards in chunks of 9 bits: per chunk value, its cards and per-colour sums
        self.chunks = []
        for start in range(0, self.n, 9):
            width = min(9, self.n - start)
            cards, stats, getters = [], [], []
            for m in range(1 << width):
                ks = tuple(start + i for i in range(width) if m >> i & 1)
                cards.append(ks)
                st = [0, 0, 0, 0]  # red sum, red count, black sum, black count
                for k in ks:
                    st[2 * self.colour[k]] += self.value[k]
                    st[2 * self.colour[k] + 1] += 1
                stats.append(tuple(st))
                # the cards' estimates as a tuple (a lone card with the 0.0 after the last card)
                getters.append(itemgetter(*ks) if len(ks) > 1 else itemgetter(ks[0], self.n)
                               if ks else None)
            self.chunks.append((start, (1 << width) - 1, cards, stats, getters))
        self.helper = [kind == 0 for kind in kinds]
        # the number cards' values by colour when the box lists every red card before the black
        # ones and each colour by value (as the data does): a draw's estimates are then built a
        # colour at a time
        numbers = self.colour[: self.n]
        by_colour = ([self.value[k] for k in range(self.n) if not numbers[k]],
                     [self.value[k] for k in range(self.n) if numbers[k]])
        self.by_colour = by_colour if numbers == sorted(numbers) and all(
            values == sorted(values) for values in by_colour) else None
        self.rows: dict = {}
        self.positive = all(v > 0 for v in self.value[: self.n])
        self.over: dict = {}
        self.helper_effect = [a.effect if a.cls == HELPERS else None for a in game.atouts]
        self.passive = [a.passive for a in game.atouts]
        # per line atout, what its use needs (State._usable): 1 Yoinker, 2 Mistake Patcher,
        # 3 Switcher, 4 Rewinder, 5 Saver
        codes = {YOINKER: 1, PATCHER: 2, SWITCHER: 3, REWINDER: 4, SAVER: 5}
        self.line_code = [codes.get(a.effect, 0) for a in game.atouts]
        # Retracer's list in the order of its cards (value, then colour); Overseer's other values
        self.cards = game.cards
        self.rank = [2 * v + c for v, c in zip(game.value, game.colour)]
        self.others = {v: [x for x in game.distinct_values if x != v] for v in set(game.value)}


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
    return _run(s, t, (m0, m1, u0, u1, d0, d1, a0, a1, pool_mask))


def play_greedy(s: State, horizon: int | None = None) -> State:
    """Play ``s`` with the greedy heuristic for both players, in place: to the end of the game,
    or to the end of round ``horizon``. The same moves, chance draws and log as the general loop."""
    stop = s.rules.max_rounds + 1 if horizon is None else horizon
    t = _tables(s.game)
    if s.player != TERMINAL and s.round <= stop:
        _run(s, t, None, stop)
    return s


def _averages(t: _Tables, pool_mask: int) -> tuple[float, float]:
    """The value the player gives an opponent's face-down card of each colour: the average of the
    unseen cards of that colour (``pool_mask``) to the half, 0 when none is left."""
    rs = rc = bs = bc = 0
    for start, width, _, stats, _ in t.chunks:
        st = stats[pool_mask >> start & width]
        rs += st[0]
        rc += st[1]
        bs += st[2]
        bc += st[3]
    return (round(2 * rs / rc) / 2 if rc else 0.0, round(2 * bs / bc) / 2 if bc else 0.0)


def _each(t: _Tables, key: tuple) -> list[float]:
    """Per number card, the player's estimate once that card joins their line (``key``: their line
    sums, the opponent's overkills and points, the objective), memoised."""
    m0, m1, op_ok, op_pts, obj = key
    if t.under and t.by_colour is not None:
        # lines under the objective, the box's cards by colour and by value: per colour, the cards
        # over what the line may take (the last ones) overkill it (one estimate for all), under it
        # the estimate grows with the card (a row of estimates memoised on where it starts)
        each = []
        rows = t.rows
        for c, mc, mo in ((0, m0, m1), (1, m1, m0)):
            values = t.by_colour[c]
            over_o = mo > obj
            pts_o = 0 if over_o else mo
            ok = 1 + over_o
            if ok != op_ok:
                e_over = 1.0 if ok < op_ok else -1.0
            else:
                e_over = tanh((pts_o - op_pts) / 4.0)
            cut = bisect_right(values, obj - mc)
            if over_o != op_ok:
                each += [1.0 if over_o < op_ok else -1.0] * cut
            else:
                base = mc + pts_o - op_pts
                row = rows.get((c, base))
                if row is None:
                    if len(rows) > 20_000:
                        rows.clear()
                    row = rows[c, base] = [tanh((base + v) / 4.0) for v in values]
                each += row[:cut]
            each += [e_over] * (len(values) - cut)
    else:
        value, colour, n, mode = t.value, t.colour, t.n, t.mode
        under = t.under
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
    each.append(0.0)  # after the last card (a lone card's getter reads it)
    memo = t.memo
    if len(memo) > 200_000:
        memo.clear()
    memo[key] = each
    return each


def _mean(chunks: list, cand: int, each: list[float]) -> float:
    """The mean of ``each`` over the cards of ``cand``, summed one card at a time in ascending card
    order (the reference's float sum, to the last bit)."""
    total = 0.0
    count = 0
    for bit0, width, chunk, _, _ in chunks:
        cards = chunk[cand >> bit0 & width]
        count += len(cards)
        for k in cards:
            total += each[k]
    return total / count


def _line_gains(t: _Tables, e: int, base: int, mine: list, theirs: list, my_dealt: list,
                their_dealt: list, keep_rule: int, m0: int, m1: int, u0: int, u1: int, d0: bool,
                d1: bool, a0: float, a1: float, obj: int, now: float, best: int,
                best_gain: float) -> tuple[int, float]:
    """The best of ``best`` and the plays of a line atout (``e``: :attr:`_Tables.line_code`) on
    each colour it may act on (OK8), by their gain over ``now`` (first best kept)."""
    value = t.value
    under = t.under
    o0 = u0 + a0
    o1 = u1 + a1
    objf = obj + 0.0
    for c in (0, 1):
        ml, tl = mine[c], theirs[c]
        n0, n1, p0, p1 = m0, m1, o0, o1
        if e == 1:  # Yoinker: the opponent's last drawn card leaves
            if len(tl) <= their_dealt[c]:
                continue
            if c:
                p1 -= value[tl[-1]]
            else:
                p0 -= value[tl[-1]]
        elif e == 2:  # Mistake Patcher: the player's last drawn card leaves
            if len(ml) <= my_dealt[c]:
                continue
            if c:
                n1 -= value[ml[-1]]
            else:
                n0 -= value[ml[-1]]
        elif e == 3:  # Switcher: the last drawn cards change sides
            if len(ml) <= my_dealt[c] or len(tl) <= their_dealt[c]:
                continue
            delta = value[tl[-1]] - value[ml[-1]]
            if c:
                n1 += delta
                p1 -= delta
            else:
                n0 += delta
                p0 -= delta
        elif e == 4:  # Rewinder: the opponent's line keeps its dealt cards (OK8)
            keep = their_dealt[c]
            if keep > keep_rule:
                keep = keep_rule
            if len(tl) <= keep:
                continue
            fd = d1 if c else d0
            kept = 0
            for x in tl[:keep][1 if fd else 0:]:
                kept += value[x]
            nv = ((a1 if c else a0) if fd and keep else 0) + kept
            if c:
                p1 = nv
            else:
                p0 = nv
        else:  # Saver: the player's line keeps its dealt cards (OK8)
            keep = my_dealt[c]
            if keep > keep_rule:
                keep = keep_rule
            if len(ml) <= keep:
                continue
            kept = 0
            for x in ml[:keep]:
                kept += value[x]
            if c:
                n1 = kept
            else:
                n0 = kept
        if n0 > obj:  # each side's overkills and points by branches (as in _run)
            if n1 > obj:
                my_ok, my_pts = 2, 0
            else:
                my_ok, my_pts = 1, n1
        elif n1 > obj:
            my_ok, my_pts = 1, n0
        else:
            my_ok, my_pts = 0, n0 + n1
        if p0 > objf:
            if p1 > objf:
                op_ok, op_pts = 2, 0
            else:
                op_ok, op_pts = 1, p1
        elif p1 > objf:
            op_ok, op_pts = 1, p0
        else:
            op_ok, op_pts = 0, p0 + p1
        if my_ok != op_ok:
            gain = (1.0 if my_ok < op_ok else -1.0) - now
        elif under:
            gain = tanh((my_pts - op_pts) / 4.0) - now
        else:
            gain = tanh((_points(t.mode, n0, n1, obj) - _points(t.mode, p0, p1, obj)) / 4.0) - now
        if gain > best_gain:
            best, best_gain = base + c, gain
    return best, best_gain


def _gains(s: State, t: _Tables, k: int, kind: int, p: int, obj: int, m0: int, m1: int, o0: float,
           o1: float, pool_mask: int, now: float, best: int, best_gain: float) -> tuple[int, float]:
    """The best of ``best`` and the plays of Gifter or Remover (atout ``k``) by their gain over
    ``now``, in the reference's order (first best kept)."""
    mode, atouts = t.mode, t.atouts
    _est = _estimate_under if t.under else _estimate_any
    q = 1 - p
    base = PLAY + 8 * k
    if kind == 3:
        if s.pile and (not t.positive or _gift_may_pay(t, pool_mask, o0, o1, obj, now, best_gain)):
            gain = _gift(t, pool_mask, m0, m1, o0, o1, obj) - now
            if gain > best_gain:
                best, best_gain = base, gain
    else:  # kind 4, Remover
        objectives = s.objectives
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
    return best, best_gain


def _gift_may_pay(t: _Tables, cand: int, o0: float, o1: float, obj: int, now: float,
                  best_gain: float) -> bool:
    """May Gifter's gain beat ``best_gain``? With cards of positive values, a card that does not
    overkill the opponent's line only adds to their points: the estimate after it is at most
    ``now``; after one that does, at most 1. The gain is then at most the share of those cards
    times ``1 - now``: below ``best_gain`` by more than a float's error, Gifter is not weighed."""
    over = t.over
    high0 = over.get((0, floor(obj - o0)))
    if high0 is None:
        high0 = _over(t, 0, floor(obj - o0))
    high1 = over.get((1, floor(obj - o1)))
    if high1 is None:
        high1 = _over(t, 1, floor(obj - o1))
    return (cand & (high0 | high1)).bit_count() * (1.0 - now) / cand.bit_count() > best_gain - _CLOSE


def _over(t: _Tables, c: int, room: int) -> int:
    """The number cards of colour ``c`` of a value over ``room``, as a bit mask (memoised)."""
    mask = 0
    for k in range(t.n):
        if t.colour[k] == c and t.value[k] > room:
            mask |= 1 << k
    if len(t.over) > 10_000:
        t.over.clear()
    t.over[c, room] = mask
    return mask


def _gift(t: _Tables, cand: int, m0, m1, o0, o1, obj) -> float:
    """Gifter: the mean estimate after one of the ``cand`` cards (a bit mask) joins the opponent's
    line of its colour, summed in ascending card order (memoised)."""
    key = (cand, m0, m1, o0, o1, obj, True)
    memo = t.memo
    v = memo.get(key)
    if v is not None:
        return v
    value, colour, mode = t.value, t.colour, t.mode
    if not cand:
        v = (_estimate_under if t.under else _estimate_any)(mode, m0, m1, o0, o1, obj)
    elif t.under:  # _estimate_under, inlined: the player's side is the same for every card
        my_ok = (m0 > obj) + (m1 > obj)
        my_pts = (m0 if m0 <= obj else 0) + (m1 if m1 <= obj else 0)
        total = 0.0
        for start, width, chunk, _, _ in t.chunks:
            for k in chunk[cand >> start & width]:
                if colour[k]:
                    p0, p1 = o0, o1 + value[k]
                else:
                    p0, p1 = o0 + value[k], o1
                op_ok = (p0 > obj) + (p1 > obj)
                if my_ok != op_ok:
                    total += 1.0 if my_ok < op_ok else -1.0
                else:
                    total += tanh((my_pts - ((p0 if p0 <= obj else 0) + (p1 if p1 <= obj else 0))) / 4.0)
        v = total / cand.bit_count()
    else:
        total = 0.0
        for start, width, chunk, _, _ in t.chunks:
            for k in chunk[cand >> start & width]:
                if colour[k]:
                    total += _estimate_any(mode, m0, m1, o0, o1 + value[k], obj)
                else:
                    total += _estimate_any(mode, m0, m1, o0 + value[k], o1, obj)
        v = total / cand.bit_count()
    if len(memo) > 200_000:
        memo.clear()
    memo[key] = v
    return v


def _count(s: State, t: _Tables) -> tuple:
    """What the play-out keeps up to date in a round, counted from the state: the four line sums,
    the pile as a bit mask with its sum and count per colour, each player's face-down cards (-1
    for none) and their bit mask, each player's Helpers in play (their effects), the objective."""
    value, bits = t.value, t.bits
    card_value = value.__getitem__
    (red0, black0), (red1, black1) = s.lines
    (down_r0, down_b0), (down_r1, down_b1) = s.down
    sums = [[sum(map(card_value, red0)), sum(map(card_value, black0))],
            [sum(map(card_value, red1)), sum(map(card_value, black1))]]
    fr0 = red0[0] if down_r0 and red0 else -1
    fb0 = black0[0] if down_b0 and black0 else -1
    fr1 = red1[0] if down_r1 and red1 else -1
    fb1 = black1[0] if down_b1 and black1 else -1
    fdn = [(fr0, fb0), (fr1, fb1)]
    fmask = [(bits[fr0] if fr0 >= 0 else 0) | (bits[fb0] if fb0 >= 0 else 0),
             (bits[fr1] if fr1 >= 0 else 0) | (bits[fb1] if fb1 >= 0 else 0)]
    pile_mask = sum(map(bits.__getitem__, s.pile))  # distinct cards: their bits add up to the mask
    prs = prc = pbs = pbc = 0
    for start, width, _, stats, _ in t.chunks:
        rs, rc, bs, bc = stats[pile_mask >> start & width]
        prs += rs
        prc += rc
        pbs += bs
        pbc += bc
    effects = t.helper_effect
    active0, active1 = s.active
    helpers = [[effects[k] for k in active0 if effects[k] is not None] if active0 else [],
               [effects[k] for k in active1 if effects[k] is not None] if active1 else []]
    objectives = s.objectives
    obj = objectives[-1][1] if objectives else INITIAL_OBJECTIVE
    return sums, pile_mask, prs, prc, pbs, pbc, fdn, fmask, helpers, obj


def _run(s: State, t: _Tables, picture: tuple | None = None, stop: int = 0) -> int:
    """Play greedily to the end of the game or of round ``stop``, a round at a time (each next
    round is dealt by the general engine); or, given the ``picture`` of the player to act (:func:`greedy_action`), return their
    choice and change nothing.

    The greedy choice is :func:`.bots.greedy_action`'s, inlined: the player's line sums, the
    opponent's face-up sums and face-down cards valued at the average of the unseen cards of
    their colour, each atout's gain over the estimate as things stand, then draw or stand by the
    mean estimate after one more card. In a play-out each player's picture of the round is kept up
    to date instead of rebuilt at every decision: the line sums and the pile (a bit mask, its sums
    per colour) change with a draw, and are counted again after an atout that moves cards; the
    cards a player has not seen are the pile and the opponent's face-down cards. A draw or a stand
    is applied inline (no legal-action list, no legality check: the greedy choice is legal), and
    so are the Helpers' answers; atouts and the end of a round go through the general engine.

    Rule coverage (``State._count_occasions``) is counted at the end of the round where it can be:
    every decision is an occasion to stand, and one to draw until the pile is empty (it only
    shrinks in a round); an atout legal whatever the table is an occasion at each of its owner's
    decisions until it is played. The other atouts in hand are checked at each decision."""
    value, colour, bits = t.value, t.colour, t.bits
    kinds, skim, figure, under, mode = t.kinds, t.skim, t.figure, t.under, t.mode
    passive, helper, line_code, half = t.passive, t.helper, t.line_code, t.half
    chunks, memo, close = t.chunks, t.memo, _CLOSE
    two = len(chunks) == 2
    if two:
        (_, low_width, _, _, low_getters), (high_start, _, _, _, high_getters) = chunks
    legal_kind, at = t.legal_kind, t.atout_cov
    while True:  # per round: in a play-out, on to the next round until ``stop``
        lines, pile, hands, active, timers, info = s.lines, s.pile, s.hands, s.active, s.timers, s.info
        passes, player = s.passes, s.player
        if picture is None:
            history, events, cov = s.history, s.events, s.cov
            dealt, keep_rule = s.dealt, s.rules.reset_keeps
            turns = s.turns
            sums, pile_mask, prs, prc, pbs, pbc, fdn, fmask, helpers, obj = _count(s, t)
            start = len(history)
            empty_from = -1 if pile else start  # the first decision with an empty pile
            # each decision spends one unit of its player's timer (OK3): their decisions so far
            timer_at = timers[:]
            in_hand = [sorted(hands[0]), sorted(hands[1])]  # the reference's sorted(set(hand))
            # per hand, the atouts legal only at times (rule coverage checks them at each decision)
            # and the first Helper (-1: none), which the greedy player plays while time allows
            checked = [[], []]
            first_helper = [-1, -1]
            for who in (0, 1):
                for k in in_hand[who]:
                    if legal_kind[k]:
                        checked[who].append(k)
                    elif helper[k] and first_helper[who] < 0:
                        first_helper[who] = k
        else:  # one decision: the hand of the player to act
            objectives = s.objectives
            obj = objectives[-1][1] if objectives else INITIAL_OBJECTIVE
            in_hand = [[], []]
            in_hand[player] = sorted(hands[player])
            first_helper = [-1, -1]
            first_helper[player] = next((k for k in in_hand[player] if helper[k]), -1)
        fit = [True] * len(kinds)  # per line atout: has it a line to act on (checked each decision)
        while True:
            p = player
            q = 1 - p
            hand = in_hand[p]
            timer = timers[p]
            if picture is None:
                for k in checked[p]:  # rule coverage: is this atout legal now? (State._usable)
                    lk = legal_kind[k]
                    if lk == 1:
                        ok = pile
                    elif lk == 2:
                        ok = active[q]
                    else:  # a line atout: a line it may act on (OK8)
                        e = line_code[k]
                        if e < 3:  # Yoinker, Mistake Patcher: a drawn card
                            who = q if e == 1 else p
                            line, d = lines[who], dealt[who]
                            ok = len(line[0]) > d[0] or len(line[1]) > d[1]
                        elif e == 3:  # Switcher: a drawn card on both sides of a colour
                            mine_l, md, theirs_l, td = lines[p], dealt[p], lines[q], dealt[q]
                            ok = ((len(mine_l[0]) > md[0] and len(theirs_l[0]) > td[0])
                                  or (len(mine_l[1]) > md[1] and len(theirs_l[1]) > td[1]))
                        else:  # Rewinder, Saver: a card beyond those a reset keeps
                            who = q if e == 4 else p
                            line, d = lines[who], dealt[who]
                            # (a card beyond min(keep_rule, dealt), without calling min)
                            ok = (len(line[0]) > (d[0] if d[0] < keep_rule else keep_rule)
                                  or len(line[1]) > (d[1] if d[1] < keep_rule else keep_rule))
                        fit[k] = ok  # with no line to act on, it is not weighed
                    if ok:
                        cov[at[k]] += 1
            if first_helper[p] >= 0 and timer > 3:  # a Helper first: information is free
                a = PLAY + 8 * first_helper[p]
            else:
                # ---------------------------------------------------------------- the player's picture
                if picture is None:
                    mine = sums[p]
                    m0 = mine[0]
                    m1 = mine[1]
                    u0, u1 = sums[q]
                    fr, fb = fdn[q]
                    d0 = fr >= 0
                    if d0:
                        x = value[fr]
                        u0 -= x
                        a0 = half[prc + 1][prs + x]
                    else:
                        a0 = 0.0
                    d1 = fb >= 0
                    if d1:
                        x = value[fb]
                        u1 -= x
                        a1 = half[pbc + 1][pbs + x]
                    else:
                        a1 = 0.0
                    pool_mask = pile_mask | fmask[q]
                else:
                    m0, m1, u0, u1, d0, d1, a0, a1, pool_mask = picture
                # ---------------------------------------------------------------- the greedy choice
                o0 = u0 + a0
                o1 = u1 + a1
                if under:  # the overkills and points of each side, by branches (no bool sums)
                    objf = obj + 0.0  # float against float: the interpreter's fast comparison
                    if o0 > objf:
                        if o1 > objf:
                            op_ok, op_pts = 2, 0
                        else:
                            op_ok, op_pts = 1, o1
                    elif o1 > objf:
                        op_ok, op_pts = 1, o0
                    else:
                        op_ok, op_pts = 0, o0 + o1
                    if m0 > obj:
                        if m1 > obj:
                            my_ok, my_pts = 2, 0
                        else:
                            my_ok, my_pts = 1, m1
                    elif m1 > obj:
                        my_ok, my_pts = 1, m0
                    else:
                        my_ok, my_pts = 0, m0 + m1
                    if my_ok != op_ok:
                        now = 1.0 if my_ok < op_ok else -1.0
                    else:
                        now = tanh((my_pts - op_pts) / 4.0)
                else:
                    op_ok = (o0 > obj) + (o1 > obj)
                    my_ok = (m0 > obj) + (m1 > obj)
                    op_pts = _points(mode, o0, o1, obj)
                    if my_ok != op_ok:
                        now = 1.0 if my_ok < op_ok else -1.0
                    else:
                        now = tanh((_points(mode, m0, m1, obj) - op_pts) / 4.0)
                a = -1
                if hand:
                    best, best_gain = -1, MARGIN
                    bets = False  # a Negociater in hand
                    # an estimate is at most 1.0, so a gain "estimate - now" at most 1.0 - now (in
                    # floats too: rounding keeps the order): when that is within the margin, only
                    # the Helpers, Remover and the bets are weighed (:attr:`_Tables.skim`)
                    look = skim if 1.0 - now <= MARGIN else kinds
                    for k in hand:
                        kind = look[k]
                        if kind == 0:  # a Helper: information is free
                            if timer > 3:
                                a = PLAY + 8 * k
                                break
                            continue
                        if kind == 1:  # a Challenger: the estimate under its objective
                            f = figure[k]
                            ff = f + 0.0  # the same branches as the estimate as things stand
                            if o0 > ff:
                                if o1 > ff:
                                    op_f, op_fp = 2, 0
                                else:
                                    op_f, op_fp = 1, o1
                            elif o1 > ff:
                                op_f, op_fp = 1, o0
                            else:
                                op_f, op_fp = 0, o0 + o1
                            if m0 > f:
                                if m1 > f:
                                    my_f, my_fp = 2, 0
                                else:
                                    my_f, my_fp = 1, m1
                            elif m1 > f:
                                my_f, my_fp = 1, m0
                            else:
                                my_f, my_fp = 0, m0 + m1
                            if my_f != op_f:
                                gain = (1.0 if my_f < op_f else -1.0) - now
                            elif under:
                                gain = tanh((my_fp - op_fp) / 4.0) - now
                            else:
                                gain = tanh((_points(mode, m0, m1, f) - _points(mode, o0, o1, f)) / 4.0) - now
                            if gain > best_gain:
                                best, best_gain = PLAY + 8 * k, gain
                        elif kind == 2:
                            if fit[k]:
                                best, best_gain = _line_gains(
                                    t, line_code[k], PLAY + 8 * k, lines[p], lines[q], s.dealt[p],
                                    s.dealt[q], s.rules.reset_keeps, m0, m1, u0, u1, d0, d1, a0, a1, obj,
                                    now, best, best_gain)
                        elif kind < 5:
                            best, best_gain = _gains(s, t, k, kind, p, obj, m0, m1, o0, o1, pool_mask,
                                                     now, best, best_gain)
                        elif kind < 7:
                            bets = True
                    else:
                        if best >= 0:
                            a = best
                        elif bets:
                            for k in hand:
                                if kinds[k] == 5:  # a Negociater when the estimate is clearly for or against
                                    f = figure[k]
                                    if (f > 0 and now > 0.3) or (f < 0 and now < -0.3):
                                        a = PLAY + 8 * k
                                        break
                if a < 0:
                    need = now + (-0.1 if now <= 0.0 else 0.05)
                    if not pile or timer <= 1 or (passes == 1 and now > 0.0):
                        a = PASS
                    # the mean estimate after one more card is a mean of estimates in [-1, 1], so
                    # in [-1, 1] (in floats too: rounding keeps the order): with the bar outside
                    # that range the answer is known without the sum
                    elif need >= 1.0:
                        a = PASS
                    elif need < -1.0:
                        a = DRAW
                    else:
                        cand = pool_mask
                        answers = info[p]
                        if answers:  # what the Helpers said about the next card narrows it
                            if SNAKE_EYE in answers:
                                cand &= t.colour_mask[answers[SNAKE_EYE]]
                            if OVERSEER in answers:
                                vm = t.value_mask
                                keep = 0
                                for v in answers[OVERSEER]:
                                    keep |= vm.get(v, 0)
                                cand &= keep
                            if SPY in answers:
                                vm = t.value_mask
                                keep = 0
                                for v in answers["_spy_values"]:
                                    keep |= vm.get(v, 0)
                                cand &= keep if answers[SPY] else ~keep
                            if not cand:
                                cand = pool_mask
                        # the mean estimate after one more card among ``cand``: each card's estimate
                        # from a table memoised on what it depends on, summed in ascending card order
                        # (as the reference does)
                        key = (m0, m1, op_ok, op_pts, obj)
                        each = memo.get(key)
                        if each is None:
                            each = _each(t, key)
                        if two:  # the box's cards in two chunks (up to 18 cards), unrolled
                            m = cand & low_width
                            total = sum(low_getters[m](each)) if m else 0.0
                            m = cand >> high_start
                            if m:
                                total += sum(high_getters[m](each))
                        else:
                            total = 0.0
                            for bit0, width, _, _, getters in chunks:
                                m = cand >> bit0 & width
                                if m:
                                    total += sum(getters[m](each))
                        mean = total / cand.bit_count()
                        if -close < mean - need < close:
                            # too close to call summed by chunks (the sums of a float list differ by
                            # ~1e-13 at most with the order): the reference's order decides
                            mean = _mean(chunks, cand, each)
                        a = DRAW if mean > need else PASS
            if picture is not None:
                return a
            # ---------------------------------------------------------------- the move
            history.append(a)
            timers[p] -= 1
            if a == DRAW:
                passes = 0
                k = pile.pop()
                if not pile:
                    empty_from = len(history)
                pile_mask ^= bits[k]
                x = value[k]
                if colour[k]:
                    lines[p][1].append(k)
                    pbs -= x
                    pbc -= 1
                    m1 += x
                    mine[1] = m1
                else:
                    lines[p][0].append(k)
                    prs -= x
                    prc -= 1
                    m0 += x
                    mine[0] = m0
                if info[0] or info[1]:  # OK12: the answers about this card are over
                    for answers in info:
                        if answers:  # all but Retracer's (NEXT_CARD_ANSWERS)
                            listed = answers.get(RETRACER)
                            answers.clear()
                            if listed is not None:
                                answers[RETRACER] = listed
                if events is not None:
                    events.append(("draw", p, k))
                if m0 > obj and m1 > obj:  # only the drawer's lines changed
                    end = "overkill"
                    break
            elif a == PASS:
                passes += 1
                if events is not None:
                    events.append(("pass", p))
                if passes >= 2:
                    end = "passes"
                    break
            else:  # an atout: State.apply_action without the legality check
                k, choice = divmod(a - PLAY, 8)
                cov[at[k] + 1] += 1
                hand.remove(k)
                if helper[k]:
                    first_helper[p] = next((x for x in hand if helper[x]), -1)
                if legal_kind[k]:
                    checked[p].remove(k)
                else:
                    cov[at[k]] += timer_at[p] - timers[p]
                if helper[k]:  # State._play of a Helper, inline: in play, it answers at once
                    hands[p].remove(k)
                    if events is not None:
                        events.append(("atout", p, k, choice))
                    active[p].append(k)
                    effect = t.helper_effect[k]
                    _answers(s, t, p, (effect,), info[p])  # added to the turn's answers
                    helpers[p].append(effect)
                else:
                    s._play(p, k, choice)
                if passive[k]:  # in play: the lines and the pile are the same
                    if kinds[k] != 1:  # nor the objective: no overkill
                        if timers[p] <= 0:
                            end = "timer"
                            q = p
                            break
                        continue
                    objectives = s.objectives
                    obj = objectives[-1][1] if objectives else INITIAL_OBJECTIVE
                elif kinds[k] == 4:  # Remover: a passive atout of the opponent left play
                    effects = t.helper_effect
                    helpers[q] = [effects[x] for x in active[q] if effects[x] is not None]
                    objectives = s.objectives
                    obj = objectives[-1][1] if objectives else INITIAL_OBJECTIVE
                else:  # cards moved: count the lines and the pile again
                    sums, pile_mask, prs, prc, pbs, pbc, fdn, fmask, helpers, obj = _count(s, t)
                    if not pile and empty_from < 0:
                        empty_from = len(history)
                if ((sums[0][0] > obj and sums[0][1] > obj)
                        or (sums[1][0] > obj and sums[1][1] > obj)):
                    end = "overkill"
                    break
                # OK4: playing an atout does not end the turn (the turn's answers hold, OK12)
                if timers[p] <= 0:
                    end = "timer"
                    q = p
                    break
                continue
            # a new turn of the opponent (State._next_player): an empty timer ends the round; their
            # Helpers in play answer again, else the answers are empty
            if timers[q] <= 0:
                end = "timer"
                break
            if helpers[q]:
                _answers(s, t, q, helpers[q])
            elif info[q]:
                info[q] = {}
            player = q
        # the end of the round: the rule coverage counted at its end, then State's own ending
        done = len(history)
        cov[2] += done - start
        played = history[start:]
        draws, stands = played.count(DRAW), played.count(PASS)
        cov[1] += draws
        cov[3] += stands
        cov[0] += (done if empty_from < 0 else empty_from) - start
        for who in (0, 1):
            for k in hands[who]:
                if not legal_kind[k]:
                    cov[at[k]] += timer_at[who] - timers[who]
        s.passes, s.turns = passes, turns + draws + stands  # the decisions that passed the turn
        if end == "timer":
            s._next_player(q)  # the player out of time gets both 99s (OK3)
        else:
            s._end_round(end)
        if s.player == TERMINAL or s.round > stop:
            return a


def _answers(s: State, t: _Tables, p: int, helpers, info: dict | None = None) -> None:
    """``State._refresh_info(p)`` at the start of ``p``'s turn with a Helper in play (OK12): the
    same answers from the same draws of the generator; ``helpers``: the effects of their Helpers in
    play, in order. With ``info`` (``p``'s answers of the turn), ``State._refresh_info(p,
    only=…)`` once a Helper is played: its answer added to them (``helpers``: its effect alone)."""
    if info is None:
        info = {}
    pile = s.pile
    if pile:
        top = pile[-1]
        v = t.value[top]
        for effect in helpers:
            if effect == SNAKE_EYE:
                info[SNAKE_EYE] = t.colour[top]
            elif effect == OVERSEER:
                others = t.others[v]
                n = len(others)
                if 2 <= n <= 21:  # state.sample(rng, others, 2), its draws inline
                    getrandbits = s.rng.getrandbits
                    bits = n.bit_length()
                    j = getrandbits(bits)
                    while j >= n:
                        j = getrandbits(bits)
                    n -= 1  # the last value takes the place of the one picked
                    bits = n.bit_length()
                    i = getrandbits(bits)
                    while i >= n:
                        i = getrandbits(bits)
                    info[OVERSEER] = tuple(sorted((v, others[j], others[n] if i == j else others[i])))
                else:
                    picks = sample(s.rng, others, 2 if n >= 2 else n)
                    info[OVERSEER] = tuple(sorted([v, *picks]))
            elif effect == SPY:
                red, black = s.lines[p]
                mine = frozenset(map(t.value.__getitem__, red + black))
                info[SPY] = v in mine
                info["_spy_values"] = mine
    if RETRACER in helpers:
        q = 1 - p
        hidden = pile[:]
        red, black = s.lines[q]
        down_red, down_black = s.down[q]
        if red and down_red:
            hidden.append(red[0])
        if black and down_black:
            hidden.append(black[0])
        hidden.sort(key=t.rank.__getitem__)
        cards = t.cards
        info[RETRACER] = tuple([cards[k] for k in hidden])
    s.info[p] = info
