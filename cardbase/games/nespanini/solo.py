"""Greedy goldfish at speed: :func:`play_solo` plays a one-player game to its end exactly as

    while not state.is_terminal():
        state.apply_action(state.greedy_action())

does (same moves, log, zones and rule coverage: the tests and ``benchmarks/bench_engine.py
--before`` compare them on thousands of seeded games of every starter deck), for :func:`.fast.play_greedy`.

What it keeps up to date move by move instead of reading the zones again:

* the hand as a **multiset code**: ``sum(W[k] for k in hand)``, ``W[k] = 1 << (bits * k)``, where
  ``bits`` holds more than the cards of the game (effects move cards, never make them, so no count
  overflows into the next kind's field); the discard pile the same way;
* the pile's unclamped zone code ``raw`` (:mod:`.scoring`), clamped only when a choice is computed.

Every greedy choice depends on the hand's multiset and on the fields of the clamped zone code that
the hand's cards read (the policy's own cache keys, :func:`.policy.greedy_action`); clamping works
field by field, so it is a function of ``raw & those fields``. Each choice is memoised per hand code
under that: a step-2 discard as a *plan* (the kind, its codes, its Défausse action resolved inline,
its rule-coverage counts, in one memo under the hand code and ``raw`` & the fields, and again under
the hand code and ``raw`` for a one-lookup hit), a card
put under the deck or given by a Swap as a kind, a recover / swap offer under the pile's code. A
card taken from a Look or a recover is worth the best score of the hand it makes less one card, so
its worth is memoised under that hand (every hand and card making it share it), and after a Look the
card that hand puts under the deck comes from the same scores; a Swap's worth is memoised per card
(as :func:`.policy.best_take`'s cache). A recover's or a swap's whole resolution (the card picked,
the card put under the deck or given) is memoised under the hand, the pile and the card resolved. A
miss asks the policy's cache, or computes the choice as the general fast path does
(:func:`.fast.play_greedy`). Memo keys are single integers (codes side by side), one object to
reach in memory rather than a tuple and its items.
When no score rule counts hand cards (``ScoreModel.hand_free``) a hand scores the sum of its cards'
points: choices come from each kind's points at the zone code (:func:`_points_at`) — the same
integers summed and compared in the same order as :func:`.fast._remove_by_points`,
``_take_by_points`` and ``_swap_by_points``; a step-2 miss ranks the discards from the points of
the hand's field-reading cards, memoised under those cards alone (:func:`_removal_by_points`); the
card put under the deck is the first kind of the zone code's points order whose count field in the
hand code is not zero (the first kind of least points in the hand, no call per card).

The turn, the Cimetière peak and the step-2 coverage counts live in local variables between two
moves of the general engine (an effect this path does not resolve, a Légendaire hand under R4).
"""

from __future__ import annotations

from cardbase.games.effects.resolve import BOTTOM, COV_EFFECT, GIVE, apply_decision, held_cards

from .policy import _best_after_add, _credits, greedy_action, greedy_miss
from .state import COV_DEF_OCC, COV_DEF_USED, COV_LEG, COV_STEP, TERMINAL, TURN_LIMIT, State

_DRAW, _LOOK = COV_EFFECT["Draw"], COV_EFFECT["Look"]
_RECOVER, _SWAP = COV_EFFECT["Recover"], COV_EFFECT["Swap"]
_CACHE_LIMIT = 500_000  # entries of one choice cache before it starts again (as policy.greedy_miss)
_COV_SHIFT = 21  # the three step-2 coverage counts packed in one integer (at most TURN_LIMIT each)
_COV_MASK = (1 << _COV_SHIFT) - 1


def simple_effects(table) -> tuple[tuple | None, ...]:
    """Per kind, the lone Défausse action resolved inline: (0, n) ``draw n``, (1, n, take)
    ``look n take t``, (2, mask, piles, is_swap) ``recover`` / ``swap`` (mask: which kinds the
    filter lets through; piles: 0 own discard pile, 1 the opponent's)."""
    out = []
    for acts in table.on_discard:
        simple = None
        if len(acts) == 1:
            act = acts[0]
            name = type(act).__name__
            if name == "Draw":
                simple = (0, act.n)
            elif name == "Look":
                simple = (1, act.n, act.take)
            elif name in ("Recover", "Swap"):
                zone = str(act.zone)
                piles = tuple(i for i, zones in enumerate(
                    (("discards", "cimetiere"), ("opponent_discards", "cimetiere"))) if zone in zones)
                mask = tuple(bool(act.filter.matches(c)) for c in table.defs)
                simple = (2, mask, piles, name == "Swap")
        out.append(simple)
    return tuple(out)


def game_simple_effects(game, table) -> tuple[tuple | None, ...]:
    """:func:`simple_effects` of ``game``'s table, computed once per game."""
    simple = getattr(game, "_simple_effects", None)
    if simple is None:
        simple = game._simple_effects = simple_effects(table)
    return simple


class _Solo:
    """The tables of :func:`play_solo` for one game and one multiset width ``bits``."""

    __slots__ = ("above", "bits", "cands", "credits", "ctx", "diffs", "fixed", "game", "hands", "info",
                 "kinds", "model",
                 "picks", "plans", "points", "points_raw", "shift", "step", "steps", "swap", "table", "take",
                 "top", "used", "w", "zeros")

    def __init__(self, state: State, bits: int) -> None:
        game = self.game = state.game
        table = self.table = state.table
        model = self.model = table.model
        self.credits = _credits(state)
        self.bits = bits
        size = table.size
        self.w = w = tuple(1 << (bits * k) for k in range(size))  # a kind's unit in a code
        # a card offered, above the hand's fields: (hand code | top[k], ...) keys its worth
        self.top = tuple((k + 1) << (bits * size) for k in range(size))
        # memo keys are single integers (one object to reach, not a tuple and its items): a hand
        # code takes the low ``shift`` bits, a pile code or a zone code sits above it (``above``
        # over a hand code with a card on top), a kind resolved above both codes (``kinds``)
        self.shift = shift = bits * size
        self.above = shift + size.bit_length()
        self.kinds = tuple(k << (2 * shift) for k in range(size))
        # the count fields of the non-Légendaire kinds: a hand code without any is all Légendaire
        nonleg = sum(((1 << bits) - 1) << (bits * k) for k in range(size) if not table.legendary[k])
        # per kind discarded at step 2 and coverage bits (1 a Défausse card in hand, 2 one
        # discarded, 4 a Légendaire card in hand): the plan (kind, its unit in the codes, its
        # zone-code contribution, its Défausse action resolved inline — () without one, None when
        # State.apply_action plays it: a Légendaire card under R4, or another effect —, the
        # coverage counts packed as _COV_SHIFT-bit fields)
        simple = game_simple_effects(game, table)
        dv = model.dv
        plans = []
        for k, (leg, has, s) in enumerate(zip(table.legendary, table.has_discard_effect, simple)):
            eff = None if (leg or (has and s is None)) else (s if has else ())
            for b in range(8):
                occ = b & 1
                used = occ & (b >> 1)
                plans.append((k, w[k], dv[k], eff,
                              occ | (used << _COV_SHIFT) | (((b >> 2) & 1) << 2 * _COV_SHIFT)))
        self.plans = tuple(plans)
        self.used = tuple(2 if f & 1 else 0 for f in table.flags)  # coverage bit 2 of a kind
        self.zeros = (0,) * size  # no credit
        # per hand code (_hand): the zone-code fields its cards' score rules read, then its
        # choices under its unclamped zone code & those fields: kinds put under the deck, kinds
        # given by a Swap (step-2 plans: self.steps); the clamped code & the fields is a function of that
        # key (clamping works field by field), and the policy's choices are functions of it
        self.hands: dict = {}
        self.step: dict = {}  # hand code | unclamped zone code << shift -> the step-2 plan
        # hand code | (unclamped zone code & the hand's fields) << shift -> the step-2 plan
        self.steps: dict = {}
        self.info: dict = {}  # hand code -> _hand_info
        self.take: dict = {}  # code of the hand with the card | raw & fields << shift -> its worth
        self.swap: dict = {}  # hand code | top[card] | raw & fields << above -> a Swap's worth
        self.points: dict = {}  # zone code -> (points per kind, the kinds by points)
        self.points_raw: dict = {}  # unclamped code -> points[its clamped code]
        self.cands: dict = {}  # discard pile code | kinds[resolved] -> its recover / swap offer
        # hand code | pile code << shift | kinds[resolved] -> a recover's (card picked, card put under
        # the deck), a swap's (card picked, card given), () when nothing is picked: every choice of
        # the resolution is a function of the hand and the pile (the zone code is the pile's)
        self.picks: dict = {}
        # when no score rule counts hand cards: per kind, its points when it reads no field of
        # the zone code (the same at every code), None when it reads some; and the memo of
        # _removal_by_points (None: not used, a score is not an integer)
        self.fixed: tuple[int | None, ...] | None = None
        self.diffs: dict = {}
        if model.hand_free:
            at0 = tuple(model.points(k, table.value[k], 0) for k in range(size))
            if all(type(v) is int for v in at0):
                self.fixed = tuple(None if model.reads[k] else at0[k] for k in range(size))
        # State._end_turn's checks (rulings R1, R10, R6): below this Cimetière size and this
        # turn, only the peak (R10) may end a game (_end_checks makes them all)
        cim_end = game.end_at if game.by_cimetiere else 1 << 30
        turn_check = min(game.rules_turns if (game.by_turns or game.unreachable) else TURN_LIMIT,
                         TURN_LIMIT)
        # the count field of each kind in a hand code, and the units as a list (see _points_at)
        fm = tuple(((1 << bits) - 1) << (bits * k) for k in range(size))
        self.ctx = (list(w), self.step.get, self.hands.get, self.points_raw.get, self.cands.get,
                    self.picks.get, nonleg, dv, model.hand_free, cim_end, game.stall_turns,
                    turn_check, shift, self.kinds, fm)


def _solo(state: State, bits: int) -> _Solo:
    game = state.game
    tables = getattr(game, "_solo", None)
    if tables is None:
        tables = game._solo = {}
    out = tables.get(bits)
    if out is None:
        out = tables[bits] = _Solo(state, bits)
    return out


def _store(cache: dict, key, value) -> None:
    if len(cache) > _CACHE_LIMIT:
        cache.clear()
    cache[key] = value


def _points_at(solo: _Solo, code: int) -> tuple[list[int], tuple[int, ...]]:
    """Every kind's points at zone code ``code`` (:meth:`.scoring.ScoreModel.points`: the values
    of its cache; a list, whose ``__getitem__`` is a plain method where a tuple's is a wrapper
    that packs its argument), and the kinds in the order (points, kind): the card a hand puts
    under the deck is the first of them in the hand (the first kind of least points)."""
    hit = solo.points.get(code)
    if hit is not None:
        return hit
    value, points = solo.table.value, solo.model.points
    size = len(value)
    pts = [points(k, value[k], code) for k in range(size)]
    out = (pts, tuple(sorted(range(size), key=lambda k: (pts[k], k))))
    _store(solo.points, code, out)
    return out


def _hand(solo: _Solo, hand: list[int], hk: int) -> tuple:
    """The entry of ``hand`` (code ``hk``) in ``solo.hands``, made: (the fields, the kinds put
    under the deck, the kinds given)."""
    reads = solo.model.reads
    fields = 0
    for k in hand:
        fields |= reads[k]
    out = (fields, {}, {})
    if len(solo.hands) > _CACHE_LIMIT // 3:  # an entry holds two dictionaries
        solo.hands.clear()
    solo.hands[hk] = out
    return out


def _code(solo: _Solo, raw: int) -> int:
    """The clamped zone code of the unclamped ``raw`` (:meth:`.scoring.ScoreModel.clamp`)."""
    model = solo.model
    code = model.clamp_cache.get(raw)
    if code is None:
        code = model.clamp(raw) if raw else 0
    return code


def _points_raw(solo: _Solo, raw: int) -> tuple[list[int], tuple[int, ...]]:
    """:func:`_points_at` the clamped code of ``raw``, memoised under ``raw``."""
    out = _points_at(solo, _code(solo, raw))
    _store(solo.points_raw, raw, out)
    return out


def _hand_info(solo: _Solo, hand: list[int], hk: int) -> tuple:
    """(the non-Légendaire kinds of ``hand``, sorted; its cards' flags; some card has score rules;
    when the points are integers read from tables (``_Solo.fixed``): the code of its cards
    that read fields and the points of the others, which :func:`_removal_by_points` reads; the
    zone-code fields its cards read; its cards that read fields, in the hand's order)."""
    info = solo.info.get(hk)
    if info is None:
        t = solo.table
        leg, flags, fns, reads = t.legendary, t.flags, t.iscore, solo.model.reads
        fl = fields = 0
        rules = False
        for k in hand:
            fl |= flags[k]
            fields |= reads[k]
            if fns[k] is not None:
                rules = True
        rk = rest = None
        reading: list[int] = []
        fixed = solo.fixed
        if fixed is not None:
            w = solo.w
            rk = rest = 0
            for j in hand:
                p = fixed[j]
                if p is None:
                    rk += w[j]
                    reading.append(j)
                else:
                    rest += p
        info = (tuple(sorted({k for k in hand if not leg[k]})), fl, rules, rk, rest, fields,
                reading)
        _store(solo.info, hk, info)
    return info


def _removal_by_points(solo: _Solo, hand: list[int], info: tuple, raw: int, credit,
                       masked: int) -> int:
    """:func:`.fast._remove_by_points` from the points tables (``info``: the hand's
    :func:`_hand_info`, some card with score rules and non-Légendaire kinds; ``raw``: the
    unclamped zone code, ``masked`` it & the fields the hand's cards read): the same integers
    compared in the same order, so the same card.

    Removing ``k`` leaves ``total(c) - pts(k, c)`` at ``c = code + dv[k]``; the cards that read no
    field score the same at every code (``_Solo.fixed``), so that is ``diff[k] + rest`` with
    ``rest`` their points and ``diff[k]`` the rest of the hand's points less ``pts(k, c)`` — a
    function of the cards that read fields and ``masked``, memoised under them (``_Solo.diffs``):
    hands differing in their other cards share it. Integers, so the sum is the same whatever the
    order; with a score that is not an integer, computed per hand as before."""
    legal, _, _, rk, rest, _, reading = info
    fixed = solo.fixed
    code = None
    if fixed is not None:  # then it was when info was made: rk and rest are set
        key = rk | masked << solo.shift
        diffs = solo.diffs
        diff = diffs.get(key)
        if diff is None:
            if len(diffs) > _CACHE_LIMIT:
                diffs.clear()
            diff = diffs[key] = [None] * len(fixed)
        if not credit:
            credit = solo.zeros
        best, best_v = legal[0], None
        for k in legal:
            v = diff[k]
            if v is None:
                if code is None:
                    code = _code(solo, raw)
                v = _diff(solo, reading, k, code)
                if v is None:
                    break
                diff[k] = v
            v = v + rest + credit[k]
            if best_v is None or v > best_v:
                best, best_v = k, v
        else:
            return best
    if code is None:
        code = _code(solo, raw)
    dv = solo.model.dv
    get = solo.points.get
    sums: dict[int, int] = {}  # the hand's points at each zone code
    best, best_v = legal[0], None
    for k in legal:
        c = code + dv[k]
        pts = get(c)
        if pts is None:
            pts = _points_at(solo, c)
        pts = pts[0]
        total = sums.get(c)
        if total is None:
            total = sums[c] = sum(map(pts.__getitem__, hand))
        v = total - pts[k]
        if credit:
            v += credit[k]
        if best_v is None or v > best_v:
            best, best_v = k, v
    return best


def _diff(solo: _Solo, reading: list[int], k: int, code: int) -> int | None:
    """The points at ``c = code + dv[k]`` of the hand's cards that read fields (``reading``),
    less ``pts(k, c)``. None, and no more such memos for this game, when one is not an integer."""
    c = code + solo.model.dv[k]
    pts = solo.points.get(c)
    if pts is None:
        pts = _points_at(solo, c)
    pts = pts[0]
    v = sum(map(pts.__getitem__, reading)) - pts[k]
    if type(v) is not int:
        solo.fixed = None
        return None
    return v


def _take_from_points(pts: list[int], hand: list[int], offer) -> int:
    """:func:`.fast._take_by_points` on own cards (offer entries are kinds): taking ``k`` then
    losing the card of least points gains ``pts(k) - least`` when positive, nothing otherwise, so
    the first card of most points wins if it beats the least of the hand, else the first offer."""
    if not hand:
        return offer[0]
    best = max(offer, key=pts.__getitem__)  # the first of the most points
    return best if pts[best] > min(map(pts.__getitem__, hand)) else offer[0]


def _take_worths(state: State, solo: _Solo, hand: list[int], hk: int, code: int, offer,
                 swap: bool) -> dict[int, float]:
    """Per card of ``offer``, the worth :func:`.policy.best_take` gives taking it (its per-card
    cache, or computed as there); a Swap's, when no score rule counts hand cards, as
    :func:`.fast._swap_by_points` ranks it, from the points tables."""
    model = solo.model
    out: dict[int, float] = {}
    if swap and model.hand_free:
        dv = model.dv
        gives = []
        for r in _hand_info(solo, hand, hk)[0]:
            pts = _points_at(solo, code + dv[r])[0]
            gives.append((r, pts, sum(map(pts.__getitem__, hand)) - pts[r]))
        for k in offer:
            after = float("-inf")
            for r, pts, rest in gives:
                if r == k:
                    continue
                v = pts[k]
                if rest + v > after:
                    after = rest + v
            out[k] = after
        return out
    reads = model.reads
    hs = tuple(sorted(hand))
    fields = 0
    for k in hand:
        fields |= reads[k]
    cache = solo.table.add_cache
    for k in offer:
        key = (hs, k, code & (fields | reads[k]), swap)
        v = cache.get(key)
        if v is None:
            v = _best_after_add(state, hand, k, code, give_to_discards=swap,
                                only_non_legendary=swap)
            _store(cache, key, v)
        out[k] = v
    return out


def _take(state: State, solo: _Solo, hand: list[int], hk: int, raw: int, offer,
          swap: bool, looked: bool = False) -> int:
    """The card :func:`.policy.best_take` takes among ``offer`` (own kinds, sorted): the first of
    the greatest worth. A Swap's worth is memoised under ``(hk | top[card], raw & the fields the
    hand and the card read)``, as the policy's per-card cache. Any other take's worth is the best
    score of the hand with the card, less one card (:func:`.policy._best_after_add`): a function
    of that hand alone, memoised under ``(its code, raw & its fields)`` so that every hand and card
    making the same hand share it. ``looked``: a Look's take, after which the hand puts a card
    under the deck at the same zone code — the card :func:`.policy.best_removal` picks, computed
    with the worth, goes to the new hand's entry (see :func:`_after_add`)."""
    reads = solo.model.reads
    he = solo.hands.get(hk)
    if he is None:
        he = _hand(solo, hand, hk)
    fields = he[0]
    best, best_v = offer[0], None
    if swap:
        get = solo.swap.get
        top = solo.top
        above = solo.above
        worths = None
        for k in offer:
            key = hk | top[k] | (raw & (fields | reads[k])) << above
            v = get(key)
            if v is None:
                if worths is None:
                    worths = _take_worths(state, solo, hand, hk, _code(solo, raw), offer, True)
                v = worths[k]
                _store(solo.swap, key, v)
            if best_v is None or v > best_v:
                best, best_v = k, v
        return best
    get = solo.take.get
    w = solo.w
    shift = solo.shift
    for k in offer:
        key = hk + w[k] | (raw & (fields | reads[k])) << shift
        v = get(key)
        if v is None:
            v = _after_add(state, solo, hand, hk + w[k], k, raw, key, looked)
        if best_v is None or v > best_v:
            best, best_v = k, v
    return best


def _after_add(state: State, solo: _Solo, hand: list[int], sk: int, card: int, raw: int,
               key: int, looked: bool) -> float:
    """The worth of taking ``card`` into ``hand`` (``sk``: the code of the hand with it): the best
    score of that hand less one card, as :func:`.policy._best_after_add` (its per-card cache
    asked first); stored under ``key``. After a Look's take (``looked``) the same scores give the
    card that hand puts under the deck, as :func:`.policy.best_removal` picks it (the first of
    the best score left; by least value when no card of the hand has score rules), stored in
    the hand's entry when missing there."""
    t = solo.table
    code = _code(solo, raw)
    reads = solo.model.reads
    fields = 0
    for k in hand:
        fields |= reads[k]
    hs = tuple(sorted(hand))
    cache_key = (hs, card, code & (fields | reads[card]), False)
    v = t.add_cache.get(cache_key)
    se = None
    if looked:
        se = solo.hands.get(sk)
        masked = raw & (fields | reads[card])
        if se is not None and masked in se[1]:
            looked = False  # the card put under the deck is known already
    if v is None or looked:
        full = sorted(hand + [card])
        fns, value = t.iscore, t.value
        rules = False
        for k in full:
            if fns[k] is not None:
                rules = True
                break
        score = state.score_sorted
        info_get, score_get = t.hand_info.get, t.score_cache.get
        best = choice = choice_v = None
        prev = -1
        for i, r in enumerate(full):
            if r == prev:
                continue
            prev = r
            h = tuple(full[:i] + full[i + 1:])
            info = info_get(h)  # score_sorted(h, code), its two cache lookups inline
            if info is None:
                s = score(h, code)
            elif info[1] < 0:
                s = info[0]
            else:
                s = score_get((h, code & info[1]))
                if s is None:
                    s = score(h, code)
            if best is None or s > best:
                best = s
            c = s if rules else -value[r]
            if choice_v is None or c > choice_v:
                choice, choice_v = r, c
        if v is None:
            v = best
            _store(t.add_cache, cache_key, v)
        if looked:
            if se is None:
                se = _hand(solo, full, sk)
            se[1][masked] = choice
    _store(solo.take, key, v)
    return v


def _cands(solo: _Solo, discards: list[int], a: int, eff, key: int) -> tuple[int, ...]:
    """The kinds a recover / swap of ``a`` (``eff``: its inline form) may take from the own
    discard pile: every kind its filter lets through, but one copy of ``a`` (the card being
    resolved is never picked), sorted (effects._candidates); stored under ``key``."""
    _, mask, piles, _ = eff
    cands = set()
    if 0 in piles:
        skip = a
        for k in discards:
            if k == skip:
                skip = -1
            elif mask[k]:
                cands.add(k)
    out = tuple(sorted(cands))
    _store(solo.cands, key, out)
    return out


def _step(state: State, solo: _Solo, hand: list[int], hk: int, raw: int, key: int) -> tuple:
    """The step-2 plan of a solo hand at the unclamped zone code ``raw``, from ``solo.steps``
    (under the hand code and ``raw`` & the hand's fields) or computed as :func:`.fast.play_greedy`
    makes the choice; stored under ``key``."""
    info = solo.info.get(hk)
    if info is None:
        info = _hand_info(solo, hand, hk)
    legal, fl, rules, _, _, fields, _ = info
    masked = raw & fields
    mkey = hk | masked << solo.shift
    steps = solo.steps
    plan = steps.get(mkey)
    if plan is None:
        if rules and legal and solo.model.hand_free:
            a = _removal_by_points(solo, hand, info, raw, solo.credits, masked)
        else:
            code = _code(solo, raw)
            policy_key = (None, tuple(sorted(hand)), code & fields, 1)
            a = solo.table.choice_cache.get(policy_key)
            if a is None:
                a = greedy_miss(state, policy_key, code)
        v = a * 8  # the plan's index (see _Solo.plans)
        if fl & 1:
            v |= 1 | solo.used[a]
        if fl & 2:
            v |= 4
        plan = solo.plans[v]
        if len(steps) > _CACHE_LIMIT:
            steps.clear()
        steps[mkey] = plan
    step = solo.step
    if len(step) > _CACHE_LIMIT:
        step.clear()
    step[key] = plan
    return plan


def _give_miss(state: State, solo: _Solo, hand: list[int], hk: int, he: tuple, raw: int,
               held: int) -> int:
    """The hand card a Swap sends to the discard pile (``held``: the card it took)."""
    info = _hand_info(solo, hand, hk)
    legal, _, rules, _, _, _, _ = info
    if solo.model.hand_free and rules and legal:
        g = _removal_by_points(solo, hand, info, raw, None, raw & he[0])
    else:
        code = _code(solo, raw)
        g = _policy_miss(state, hand, code & he[0], code, (GIVE, 0, 0, held))
    he[2][raw & he[0]] = g
    return g


def _bottom_miss(state: State, solo: _Solo, hand: list[int], he: tuple, raw: int,
                 remaining: int) -> int:
    """The hand card put under the deck (``remaining`` of the effect's still to go)."""
    code = _code(solo, raw)
    c = _policy_miss(state, hand, code & he[0], code, (BOTTOM, 0, 0, remaining))
    he[1][raw & he[0]] = c
    return c


def _policy_miss(state: State, hand: list[int], masked: int, code: int, decision: tuple) -> int:
    """A bottom or give choice (``decision`` pending) from the policy's cache (``masked``: the
    zone code & the hand's fields) or computed by it."""
    policy_key = (decision[0], tuple(sorted(hand)), masked, 1)
    c = state.table.choice_cache.get(policy_key)
    if c is None:
        state.decision = decision  # what the policy reads, pending while it chooses
        c = greedy_miss(state, policy_key, code)
        state.decision = None
    return c


def _end_checks(game, turn: int, cim: int, peak: int, peak_turn: int) -> tuple[str, int, int]:
    """State._end_turn's checks in its order (rulings R1, R10, R6), once the Cimetière is full or
    the turn rules may apply: (the ending or "", the peak, its turn)."""
    if cim >= game.end_at and game.by_cimetiere:
        return "cimetiere", peak, peak_turn
    if game.by_turns and turn >= game.rules_turns:
        return "turns", peak, peak_turn
    if game.unreachable and turn >= game.rules_turns:
        return "unreachable", peak, peak_turn
    if cim > peak:
        peak, peak_turn = cim, turn
    elif game.stall_turns and turn - peak_turn >= game.stall_turns:
        return "stalled", peak, peak_turn
    if turn >= TURN_LIMIT:
        return "turn-limit", peak, peak_turn
    return "", peak, peak_turn


def play_solo(state: State) -> State:
    """Play the goldfish ``state`` (one player, no score rule reading the deck, no choice queued)
    to its end with the greedy policy, in place; returns it."""
    hand, deck, discards = state.hands[0], state.decks[0], state.discards[0]
    held = len(held_cards(state)) if state.decision is not None else 0
    bits = (len(hand) + len(deck) + len(discards) + held).bit_length()
    game = state.game
    solo = getattr(game, "_solo_last", None)  # the tables of the game's last play_solo
    if solo is None or solo.bits != bits:
        solo = game._solo_last = _solo(state, bits)
    (W, step_get, hands_get, points_get, cands_get, picks_get, nonleg, dv, hand_free, cim_end,
     stall, turn_check, shift, kinds, fm) = solo.ctx
    cov = state.cov  # rule coverage, counted as State.apply_action and effects._run count
    history = state.history
    ev = state.events
    while True:
        if state.player == TERMINAL:
            return state
        if state.decision is not None:
            a = greedy_action(state)
            history.append(a)
            apply_decision(state, a, check=False)
            continue
        # (again) after the general engine played: codes and counters from the state
        hand, deck, discards = state.hands[0], state.decks[0], state.discards[0]
        hk = sum(map(W.__getitem__, hand))
        if discards:
            dk = sum(map(W.__getitem__, discards))
            raw = sum(map(dv.__getitem__, discards))
        else:
            dk = raw = 0
        turn = turn0 = state.turn
        peak, peak_turn = state.peak, state.peak_turn
        covs = 0  # step-2 coverage counts of the inline turns (see _Solo.plans)
        ending = ""
        while True:
            key = hk | raw << shift
            plan = step_get(key)
            if plan is None:
                plan = _step(state, solo, hand, hk, raw, key)
            a, wa, da, eff, ci = plan
            if eff is None:  # State.apply_action plays it
                break
            # a step-2 discard, then the end of the turn and the next draw (State._end_turn)
            covs += ci
            history.append(a)
            hand.remove(a)
            discards.append(a)
            hk -= wa
            dk += wa
            raw += da
            if ev is not None:
                ev.append(("discard", 0, a))
            if eff:  # a lone draw / look / recover / swap, resolved as effects.py does
                if ev is not None:
                    ev.append(("effect", 0, a))
                op = eff[0]
                bottom = 0
                pkey = None  # a recover's memo key, stored with its card put under the deck
                if op == 0:  # draw
                    cov[_DRAW] += 1
                    m = eff[1]
                    if len(deck) < m:
                        m = len(deck)
                    if m:
                        cov[_DRAW + 1] += 1
                        for _ in range(m):
                            k = deck.pop()
                            hand.append(k)
                            hk += W[k]
                            if ev is not None:
                                ev.append(("draw", 0, k))
                        bottom = m
                elif op == 1:  # look (even of nothing: the log says so)
                    cov[_LOOK] += 1
                    m = eff[1] if eff[1] < len(deck) else len(deck)
                    if m:
                        cov[_LOOK + 1] += 1
                        looked = deck[-m:]
                        looked.reverse()  # the top card first
                        del deck[-m:]
                    else:
                        looked = []
                    take = eff[2] if eff[2] < m else m
                    if ev is not None:
                        ev.append(("look", 0, tuple(looked)))
                    if take:
                        remaining = take
                        while True:
                            offer = sorted(set(looked))  # the legal actions, as the policy sees
                            if len(offer) == 1:
                                c = offer[0]
                            elif hand_free:
                                pts = points_get(raw)
                                if pts is None:
                                    pts = _points_raw(solo, raw)
                                c = _take_from_points(pts[0], hand, offer)
                            else:
                                c = _take(state, solo, hand, hk, raw, offer, False, True)
                            history.append(c)
                            looked.remove(c)
                            hand.append(c)
                            hk += W[c]
                            if ev is not None:
                                ev.append(("take", 0, c))
                            if remaining > 1 and looked:
                                remaining -= 1
                                continue
                            break
                        bottom = take
                    for k in looked:
                        deck.insert(0, k)
                else:  # recover / swap: a card from the own discard pile (effects._candidates)
                    is_swap = eff[3]
                    slot = _SWAP if is_swap else _RECOVER
                    cov[slot] += 1
                    # the whole resolution is a function of the hand, the pile and the card:
                    # memoised, () when nothing is picked
                    pkey = hk | dk << shift | kinds[a]
                    done = picks_get(pkey)
                    if done is not None:
                        if done:
                            cov[slot + 1] += 1
                            c, g = done
                            history.append(c)
                            discards.remove(c)
                            dk -= W[c]
                            raw -= dv[c]
                            if ev is not None:
                                ev.append(("pick", 0, c, 0))
                            history.append(g)
                            hk += W[c] - W[g]
                            if is_swap:
                                hand.remove(g)
                                hand.append(c)
                                discards.append(g)
                                dk += W[g]
                                raw += dv[g]  # the card given counts from the next turn on
                                if ev is not None:
                                    ev.append(("give", 0, g))
                            else:  # then the card put under the deck
                                hand.append(c)
                                hand.remove(g)
                                deck.insert(0, g)
                                if ev is not None:
                                    ev.append(("bottom", 0, g))
                        pkey = None
                    else:
                        key = dk | kinds[a]
                        cands = cands_get(key)
                        if cands is None:
                            cands = _cands(solo, discards, a, eff, key)
                        # a Swap needs a non-Légendaire hand card to give
                        if cands and not (is_swap and not hk & nonleg):
                            cov[slot + 1] += 1
                            if len(cands) == 1:
                                c = cands[0]
                            elif hand_free and not is_swap:
                                pts = points_get(raw)
                                if pts is None:
                                    pts = _points_raw(solo, raw)
                                c = _take_from_points(pts[0], hand, cands)
                            else:
                                c = _take(state, solo, hand, hk, raw, cands, is_swap)
                            picked = c
                            history.append(c)
                            discards.remove(c)
                            dk -= W[c]
                            raw -= dv[c]
                            if ev is not None:
                                ev.append(("pick", 0, c, 0))
                            if not is_swap:
                                hand.append(c)
                                hk += W[c]
                                bottom = 1  # stored with the card put under the deck, below
                            else:
                                he = hands_get(hk)
                                if he is None:
                                    he = _hand(solo, hand, hk)
                                g = he[2].get(raw & he[0])
                                if g is None:
                                    g = _give_miss(state, solo, hand, hk, he, raw, c)
                                history.append(g)
                                hand.remove(g)
                                discards.append(g)
                                hand.append(c)
                                hk += W[c] - W[g]
                                dk += W[g]
                                raw += dv[g]  # the card given counts from the next turn on
                                if ev is not None:
                                    ev.append(("give", 0, g))
                                _store(solo.picks, pkey, (c, g))
                                pkey = None
                        else:
                            _store(solo.picks, pkey, ())
                            pkey = None
                if bottom:
                    if hand_free:
                        # score(hand - k) = score(hand) - points(k): the first kind of least points
                        pts = points_get(raw)
                        if pts is None:
                            pts = _points_raw(solo, raw)
                        order = pts[1]
                        while True:
                            for c in order:  # the first kind of the order in the hand
                                if hk & fm[c]:
                                    break
                            history.append(c)
                            hand.remove(c)
                            deck.insert(0, c)
                            hk -= W[c]
                            if ev is not None:
                                ev.append(("bottom", 0, c))
                            if bottom == 1:
                                break
                            bottom -= 1
                        if pkey is not None:
                            _store(solo.picks, pkey, (picked, c))
                    else:
                        for i in range(bottom, 0, -1):
                            he = hands_get(hk)
                            if he is None:
                                he = _hand(solo, hand, hk)
                            c = he[1].get(raw & he[0])
                            if c is None:
                                c = _bottom_miss(state, solo, hand, he, raw, i)
                            history.append(c)
                            hand.remove(c)
                            deck.insert(0, c)
                            hk -= W[c]
                            if ev is not None:
                                ev.append(("bottom", 0, c))
                        if pkey is not None:
                            _store(solo.picks, pkey, (picked, c))
            # State._end_turn
            turn += 1
            cim = len(discards)
            if cim < cim_end and turn < turn_check:  # then only the peak (R10) may end it
                if cim > peak:
                    peak = cim
                    peak_turn = turn
                elif stall and turn - peak_turn >= stall:
                    ending = "stalled"
                    break
            else:
                ending, peak, peak_turn = _end_checks(game, turn, cim, peak, peak_turn)
                if ending:
                    break
            if not deck:
                ending = "empty-deck"
                break
            k = deck.pop()
            hand.append(k)
            hk += W[k]
            if ev is not None:
                ev.append(("draw", 0, k))
        state.turn, state.peak, state.peak_turn = turn, peak, peak_turn
        cov[COV_STEP] += turn - turn0  # one step-2 discard a turn played here
        cov[COV_DEF_OCC] += covs & _COV_MASK
        cov[COV_DEF_USED] += (covs >> _COV_SHIFT) & _COV_MASK
        cov[COV_LEG] += covs >> 2 * _COV_SHIFT
        if ending:
            state._finish(ending)
            return state
        state.apply_action(a)
