"""Greedy play at speed: whole games where every player follows the greedy policy.

:func:`play_greedy` makes exactly the moves of

    while not state.is_terminal():
        state.apply_action(state.greedy_action())

(the tests compare scores, final hands, discard piles, histories and event logs on thousands of
games of every starter deck), but a step-2 discard of a card without a Défausse effect — most
turns — is looked up in the greedy choice cache with a key built from zone codes kept up to date
turn by turn (:mod:`.scoring`), and applied inline: no legal-action list, no zone scan, no legality
check. A Défausse effect made of one ``draw``, ``look``, ``recover`` or ``swap`` action (every
effect of the starter decks but ``force_discard``, ``bury`` and ``reveal``) is resolved inline the
same way; other effects go through the general engine.

Choices of an effect: a card to take (looked at, or from a discard pile) is chosen as
:func:`.policy.best_take` does, from its per-card cache, with no cache of whole offers (they vary
too much to repeat: measured faster); the other choices come from the greedy choice cache, a miss
computed by :func:`.policy.greedy_miss` without building the key again. When no score rule counts cards in the
hand (``ScoreModel.hand_free``: maree-et-crypte), a hand scores the sum of its cards' points, each
memoised on (card, the features it reads): the card put under the deck is the first of least
points, a look / recover offer is ranked by ``pts(card) - min(least in hand, pts(card))``, and a
missed discard choice is computed from points, never from whole-hand scores.
"""

from __future__ import annotations

from cardbase.games.effects.resolve import BOTTOM, COV_EFFECT, GIVE, PICK, RECOVER, SWAP, TAKE, apply_decision, held_cards
from .policy import _best_after_add, _credits, best_removal, best_take, greedy_action, greedy_miss
from .state import COV_DEF_OCC, COV_DEF_USED, COV_LEG, COV_STEP, TERMINAL, TURN_LIMIT, State


def _codes(state: State) -> list[int]:
    """Each player's zone code, not clamped (what the clamp cache is keyed on)."""
    t = state.table
    m = t.model
    dv, ov, kv = m.dv, m.ov, m.kv
    n = state.n
    out = []
    for p in range(n):
        c = sum([dv[x] for x in state.discards[p]]) if t.reads_discards else 0
        if t.reads_opponent and n == 2:
            c += sum([ov[x] for x in state.discards[1 - p]])
        if t.reads_deck:
            c += sum([kv[x] for x in state.decks[p]])
        out.append(c)
    return out


def _simple_effects(table) -> tuple[tuple | None, ...]:
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


def _take_by_points(hand: list[int], offer, code: int, size: int, model, value) -> int:
    """:func:`.policy.best_take` without a swap when no score rule counts hand cards: a hand
    scores the sum of its cards' points, so taking card ``c`` and then losing the card of least
    points leaves ``P + pts(c) - min(m, pts(c))`` (``P``, ``m``: total and least points of the
    hand); the first of the best offers wins, as there."""
    get = model.points_cache.get
    reads = model.reads
    total, least = 0, None
    for j in hand:
        v = get((j, code & reads[j]))
        if v is None:
            v = model.points(j, value[j], code)
        total += v
        if least is None or v < least:
            least = v
    best, best_v = offer[0], None
    for a in offer:
        k = a % size
        v = get((k, code & reads[k]))
        if v is None:
            v = model.points(k, value[k], code)
        after = total + v - (v if least is None or v < least else least)
        if best_v is None or after > best_v:
            best, best_v = a, after
    return best


def _swap_by_points(hand: list[int], offer, code: int, size: int, model, value, leg) -> int:
    """:func:`.policy.best_take` of a Swap when no score rule counts hand cards: taking ``k`` then
    sending a non-Légendaire hand card ``r`` (not of ``k``'s kind) to the own discard pile leaves
    ``points(hand, c) - pts(r, c) + pts(k, c)`` at ``c = code + dv[r]``; the best over ``r``,
    minus infinity when there is none, ranks ``k`` (the first of the best offers wins)."""
    get = model.points_cache.get
    reads, dv = model.reads, model.dv
    gives = []  # per kind r that can be given: (r, its code, hand points less its own)
    for r in sorted({k for k in hand if not leg[k]}):
        c = code + dv[r]
        total = 0
        for j in hand:
            v = get((j, c & reads[j]))
            if v is None:
                v = model.points(j, value[j], c)
            total += v
        v = get((r, c & reads[r]))
        if v is None:
            v = model.points(r, value[r], c)
        gives.append((r, c, total - v))
    best, best_v = offer[0], None
    for a in offer:
        k = a % size
        after = float("-inf")
        for r, c, rest in gives:
            if r == k:
                continue
            v = get((k, c & reads[k]))
            if v is None:
                v = model.points(k, value[k], c)
            if rest + v > after:
                after = rest + v
        if best_v is None or after > best_v:
            best, best_v = a, after
    return best


def _store(cache: dict, key, choice: int) -> None:
    if len(cache) > 500_000:  # as policy.greedy_miss
        cache.clear()
    cache[key] = choice


def _remove_by_points(hand: list[int], code: int, model, value, leg, fns, credit) -> int | None:
    """:func:`.policy.best_removal` of a card going to the own discard pile (a step-2 discard
    with ``credit``, a Swap's given card without) when no score rule counts hand cards: the hand
    left scores the hand's points at the new code less the card's. None when it does not apply
    (only Légendaire cards, or no card with score rules: the caller asks the policy)."""
    for k in hand:
        if fns[k] is not None:
            break
    else:
        return None
    legal = sorted({k for k in hand if not leg[k]})
    if not legal:
        return None
    get = model.points_cache.get
    reads, dv = model.reads, model.dv
    sums: dict[int, int] = {}
    best, best_v = legal[0], None
    for k in legal:
        c = code + dv[k]
        total = sums.get(c)
        if total is None:
            total = 0
            for j in hand:
                v = get((j, c & reads[j]))
                if v is None:
                    v = model.points(j, value[j], c)
                total += v
            sums[c] = total
        v = get((k, c & reads[k]))
        if v is None:
            v = model.points(k, value[k], c)
        v = total - v
        if credit:
            v += credit[k]
        if best_v is None or v > best_v:
            best, best_v = k, v
    return best


def play_greedy(state: State) -> State:
    """Play ``state`` to its end with the greedy policy for every player, in place; returns it."""
    t = state.table
    if not t.has_iscore or state.queue:
        return _play_plain(state)
    if state.n == 1 and not t.reads_deck and not state.revealed[0]:
        return _play_solo(state)
    game = state.game
    simple = getattr(game, "_simple_effects", None)
    if simple is None:
        simple = game._simple_effects = _simple_effects(t)  # type: ignore[attr-defined]
    if t.reads_deck:  # cards going under the deck would change the codes: no inline effects
        simple = (None,) * t.size
    model = t.model
    clamp_get = model.clamp_cache.get
    clamp = model.clamp
    dv, ov, kv = model.dv, model.ov, model.kv
    reads = model.reads
    hand_free = model.hand_free
    points, points_get, value = model.points, model.points_cache.get, t.value
    credits = _credits(state)
    reads_deck = t.reads_deck
    leg = t.legendary
    effect = t.has_discard_effect
    cache_get = t.choice_cache.get
    size = t.size
    n = state.n
    end_at = game.end_at
    stall, unreachable, rules_turns = game.stall_turns, game.unreachable, game.rules_turns
    by_cimetiere, by_turns = game.by_cimetiere, game.by_turns  # ruling R1
    flags = t.flags
    cov = state.cov  # rule coverage, counted as State.apply_action and effects._run count
    cov_effect = (COV_EFFECT["Draw"], COV_EFFECT["Look"], COV_EFFECT["Recover"])
    cov_swap = COV_EFFECT["Swap"]
    hands, decks, discards = state.hands, state.decks, state.discards
    leave = state.leave_hand  # the one way out of a hand (keeps the revealed record)
    history = state.history
    ev = state.events
    codes: list[int] = []
    stale = True
    while True:
        p = state.player
        if p == TERMINAL:
            return state
        if state.decision is not None:
            a = greedy_action(state)
            history.append(a)
            apply_decision(state, a, check=False)
            stale = True
            continue
        if stale:  # an effect moved cards: read the codes again
            codes = _codes(state)
            stale = False
        hand = hands[p]
        raw = codes[p]
        code = clamp_get(raw)
        if code is None:
            code = clamp(raw) if raw else 0
        fields = fl = 0
        for k in hand:
            fields |= reads[k]
            fl |= flags[k]
        key = (None, tuple(sorted(hand)), code & fields, n)
        a = cache_get(key)
        if a is None:
            if hand_free:
                a = _remove_by_points(hand, code, model, value, leg, t.iscore, credits)
            if a is None:
                a = greedy_miss(state, key, code)
            else:
                _store(t.choice_cache, key, a)
        eff = simple[a] if effect[a] else None
        if (effect[a] and eff is None) or leg[a]:
            state.apply_action(a)
            stale = True
            continue
        # a step-2 discard, then the end of the turn and the next draw (State._end_turn)
        cov[COV_STEP] += 1
        if fl & 1:
            cov[COV_DEF_OCC] += 1
            if flags[a] & 1:
                cov[COV_DEF_USED] += 1
        if fl & 2:
            cov[COV_LEG] += 1
        history.append(a)
        leave(p, a)
        discards[p].append(a)
        raw += dv[a]
        codes[p] = raw
        if n == 2:
            codes[1 - p] += ov[a]
        if ev is not None:
            ev.append(("discard", p, a))
        if eff is not None:
            # a lone draw / look / recover / swap: resolved here as effects.py does, choices
            # from the same cache, zone codes kept up to date
            if ev is not None:
                ev.append(("effect", p, a))
            deck = decks[p]
            code = clamp_get(raw)
            if code is None:
                code = clamp(raw) if raw else 0
            bottom = 0
            m = min(len(deck), eff[1]) if eff[0] < 2 else 0
            slot = cov_swap if (eff[0] == 2 and eff[3]) else cov_effect[eff[0]]
            cov[slot] += 1
            if m:
                cov[slot + 1] += 1
            if eff[0] == 2:  # recover / swap: a card from a discard pile (effects._candidates)
                _, mask, piles, is_swap = eff
                cands = set()
                for pile in piles:
                    if pile == 1 and n == 1:
                        continue
                    skip = a if pile == 0 else -1  # the card being resolved is never picked
                    for k in (discards[p] if pile == 0 else discards[1 - p]):
                        if k == skip:
                            skip = -1
                        elif mask[k]:
                            cands.add(k + size * pile)
                if cands and not (is_swap and all(leg[k] for k in hand)):
                    cov[slot + 1] += 1
                    cands = tuple(sorted(cands))
                    mode = SWAP if is_swap else RECOVER
                    state.decision = (PICK, p, p, cands, mode)
                    # what policy._greedy computes; offers vary too much to cache them whole
                    if len(cands) == 1:
                        c = cands[0]
                    elif hand_free:
                        c = (_swap_by_points(hand, cands, code, size, model, value, leg)
                             if is_swap else _take_by_points(hand, cands, code, size, model, value))
                    else:
                        c = best_take(state, hand, cands, code, is_swap)
                    history.append(c)
                    kind = c % size
                    if c < size:
                        discards[p].remove(kind)
                        raw -= dv[kind]
                        if n == 2:
                            codes[1 - p] -= ov[kind]
                        src = p
                    else:
                        src = 1 - p
                        discards[src].remove(kind)
                        raw -= ov[kind]
                        codes[src] -= dv[kind]
                    codes[p] = raw
                    if ev is not None:
                        ev.append(("pick", p, kind, src))
                    code = clamp_get(raw)
                    if code is None:
                        code = clamp(raw) if raw else 0
                    if not is_swap:
                        hand.append(kind)
                        bottom = 1
                    else:
                        state.decision = (GIVE, p, p, kind)
                        fields = 0
                        for k in hand:
                            fields |= reads[k]
                        key = (GIVE, tuple(sorted(hand)), code & fields, n)
                        g = cache_get(key)
                        if g is None:
                            if hand_free:
                                g = _remove_by_points(hand, code, model, value, leg, t.iscore,
                                                      None)
                            if g is None:
                                g = greedy_miss(state, key, code)
                            else:
                                _store(t.choice_cache, key, g)
                        history.append(g)
                        leave(p, g)
                        discards[p].append(g)
                        hand.append(kind)
                        raw += dv[g]
                        codes[p] = raw
                        if n == 2:
                            codes[1 - p] += ov[g]
                        if ev is not None:
                            ev.append(("give", p, g))
            elif eff[0] == 0:  # draw
                for _ in range(m):
                    k = deck.pop()
                    hand.append(k)
                    if ev is not None:
                        ev.append(("draw", p, k))
                bottom = m
            else:  # look (even of nothing: the log says so)
                looked = [deck[len(deck) - 1 - i] for i in range(m)]
                del deck[len(deck) - m:]
                take = min(m, eff[2])
                if ev is not None:
                    ev.append(("look", p, tuple(looked)))
                if take:
                    remaining = take
                    while True:
                        state.decision = (TAKE, p, p, remaining, tuple(looked), take)
                        offer = sorted(set(looked))  # the legal actions, as policy._greedy sees
                        if len(offer) == 1:
                            c = offer[0]
                        elif hand_free:
                            c = _take_by_points(hand, offer, code, size, model, value)
                        else:
                            c = best_take(state, hand, offer, code, False)
                        history.append(c)
                        looked.remove(c)
                        hand.append(c)
                        if ev is not None:
                            ev.append(("take", p, c))
                        if remaining > 1 and looked:
                            remaining -= 1
                            continue
                        break
                    bottom = take
                for k in looked:
                    deck.insert(0, k)
            for i in range(bottom, 0, -1):
                state.decision = (BOTTOM, p, p, i)
                if hand_free:
                    # score(hand - k) = score(hand) - points(k): the greedy card is the first
                    # (lowest index) of least points, no cache of whole hands needed
                    c = best_v = -1
                    for k in sorted(set(hand)):
                        v = points_get((k, code & reads[k]))
                        if v is None:
                            v = points(k, value[k], code)
                        if c < 0 or v < best_v:
                            c, best_v = k, v
                    history.append(c)
                    leave(p, c)
                    deck.insert(0, c)
                    if ev is not None:
                        ev.append(("bottom", p, c))
                    continue
                fields = 0
                for k in hand:
                    fields |= reads[k]
                key = (BOTTOM, tuple(sorted(hand)), code & fields, n)
                c = cache_get(key)
                if c is None:
                    c = greedy_miss(state, key, code)
                history.append(c)
                leave(p, c)
                deck.insert(0, c)
                if ev is not None:
                    ev.append(("bottom", p, c))
            state.decision = None
        # State._end_turn: rulings R1, R10, R6
        turn = state.turn = state.turn + 1
        cim = len(discards[0]) if n == 1 else len(discards[0]) + len(discards[1])
        if cim >= end_at and by_cimetiere:
            state._finish("cimetiere")
            return state
        if by_turns and turn >= rules_turns:
            state._finish("turns")
            return state
        if unreachable and turn >= rules_turns:
            state._finish("unreachable")
            return state
        if cim > state.peak:
            state.peak = cim
            state.peak_turn = turn
        elif stall and turn - state.peak_turn >= stall:
            state._finish("stalled")
            return state
        if turn >= TURN_LIMIT:
            state._finish("turn-limit")
            return state
        if n == 2:
            p = 1 - p
            state.player = p
        deck = decks[p]
        if not deck:
            state._finish("empty-deck")
            return state
        k = deck.pop()
        hands[p].append(k)
        if reads_deck:
            codes[p] -= kv[k]
        if ev is not None:
            ev.append(("draw", p, k))


def _play_plain(state: State) -> State:
    """Greedy play for card tables without score rules (values and Défausse credits only)."""
    credits = _credits(state)
    leg = state.table.legendary
    while state.player != TERMINAL:
        if state.decision is None:
            hand = state.hands[state.player]
            legal = sorted({k for k in hand if not leg[k]})
            if legal:
                a = best_removal(state, state.player, hand, legal, to_discards=True,
                                 credit=credits)
                state.apply_action(a)
                continue
        state.apply_action(greedy_action(state))
    return state


class _SoloTables:
    """Per game and multiset width, the tables of :func:`_play_solo`: the choice caches keyed on
    ``(hand multiset code, clamped zone code)`` and, when no score rule counts hand cards, each
    kind's points per zone code."""

    __slots__ = ("bottom", "cands", "fields", "give", "nonleg", "plans", "points", "step", "swap",
                 "take", "top", "w")

    def __init__(self, table, bits: int, simple) -> None:
        self.w = tuple(1 << (bits * k) for k in range(table.size))  # a kind's unit in the code
        # a card offered, above the hand's code: (hand code | top[k], zone code) keys its worth
        self.top = tuple((k + 1) << (bits * table.size) for k in range(table.size))
        # the count fields of the non-Légendaire kinds: a hand code without any is all Légendaire
        self.nonleg = sum(((1 << bits) - 1) << (bits * k)
                          for k in range(table.size) if not table.legendary[k])
        self.cands: dict = {}  # (discard pile code, kind resolved) -> its recover / swap offer
        # per kind discarded at step 2 and rule-coverage bits (1 a Défausse card in hand, 2 one
        # discarded, 4 a Légendaire card in hand): the plan (kind, its unit in the hand code, its
        # zone-code contribution, its Défausse action resolved inline — () without one, None
        # when State.apply_action plays it: a Légendaire card under R4 or another effect —,
        # the three coverage counts)
        dv = table.model.dv
        plans = []
        for k, (leg, has, s) in enumerate(zip(table.legendary, table.has_discard_effect, simple)):
            eff = None if (leg or (has and s is None)) else (s if has else ())
            for bits_ in range(8):
                occ = bits_ & 1
                plans.append((k, self.w[k], dv[k], eff, occ, occ & (bits_ >> 1), (bits_ >> 2) & 1))
        self.plans = tuple(plans)
        # the choices are keyed on (hand code, zone code & the fields the hand's cards read)
        self.fields: dict = {}  # hand code -> the bit fields its cards' score rules read
        self.step: dict = {}  # -> the plan of the step-2 discard (see plans)
        self.bottom: dict = {}  # -> kind put under the deck
        self.give: dict = {}  # -> kind a Swap sends to the discard pile
        self.points: dict = {}  # zone code -> (points per kind, rank per kind)
        self.take: dict = {}  # -> worth of taking a card (policy.best_take)
        self.swap: dict = {}  # -> the same for a Swap


def _solo_tables(game, t, bits: int, simple) -> _SoloTables:
    tables = getattr(game, "_solo_tables", None)
    if tables is None:
        tables = game._solo_tables = {}  # type: ignore[attr-defined]
    out = tables.get(bits)
    if out is None:
        out = tables[bits] = _SoloTables(t, bits, simple)
    return out


def _solo_store(cache: dict, key, value: int) -> None:
    if len(cache) > 500_000:  # as policy.greedy_miss
        cache.clear()
    cache[key] = value


def _points_at(solo: _SoloTables, model, value, code: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Every kind's points at zone code ``code`` (:meth:`.scoring.ScoreModel.points`, the
    values its cache gives), and each kind's rank in the order (points, kind): the card a hand
    puts under the deck is the one of least rank."""
    hit = solo.points.get(code)
    if hit is not None:
        return hit
    pts = tuple(model.points(k, value[k], code) for k in range(len(value)))
    rank = [0] * len(value)
    for i, k in enumerate(sorted(range(len(value)), key=lambda k: (pts[k], k))):
        rank[k] = i
    out = (pts, tuple(rank))
    if len(solo.points) > 100_000:
        solo.points.clear()
    solo.points[code] = out
    return out


def _removal_by_points(solo: _SoloTables, hand: list[int], code: int, model, value, leg, fns,
                       credit) -> int | None:
    """:func:`_remove_by_points` from the points tables: the same sums of the same integers,
    the same comparisons."""
    for k in hand:
        if fns[k] is not None:
            break
    else:
        return None
    legal = sorted({k for k in hand if not leg[k]})
    if not legal:
        return None
    dv = model.dv
    get = solo.points.get
    sums: dict[int, int] = {}  # the hand's points at each zone code
    best, best_v = legal[0], None
    for k in legal:
        c = code + dv[k]
        pts = get(c)
        if pts is None:
            pts = _points_at(solo, model, value, c)
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


def _take_from_points(pts: tuple[int, ...], hand: list[int], offer) -> int:
    """:func:`_take_by_points` on own cards (offer entries are kinds): taking ``k`` then losing
    the card of least points gains ``pts(k) - least`` when positive, nothing otherwise, so the
    first card of most points wins if it beats the least of the hand, else the first offer."""
    if not hand:
        return offer[0]
    best = max(offer, key=pts.__getitem__)  # the first of the most points
    return best if pts[best] > min(map(pts.__getitem__, hand)) else offer[0]


def _take_worths(state: State, solo: _SoloTables, hand: list[int], code: int, offer,
                 swap: bool) -> dict[int, float]:
    """Per card of ``offer``, the worth :func:`.policy.best_take` gives taking it (its per-card
    cache, or computed as there); a Swap's, when no score rule counts hand cards, as
    :func:`_swap_by_points` ranks it, from the points tables."""
    t = state.table
    model = t.model
    out: dict[int, float] = {}
    if swap and model.hand_free:
        dv, leg, value = model.dv, t.legendary, t.value
        gives = []
        for r in sorted({k for k in hand if not leg[k]}):
            pts = _points_at(solo, model, value, code + dv[r])[0]
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
    cache = t.add_cache
    for k in offer:
        key = (hs, k, code & (fields | reads[k]), swap)
        v = cache.get(key)
        if v is None:
            v = _best_after_add(state, hand, k, code, give_to_discards=swap,
                                only_non_legendary=swap)
            if len(cache) > 500_000:
                cache.clear()
            cache[key] = v
        out[k] = v
    return out


def _solo_take(state: State, solo: _SoloTables, hand: list[int], hk: int, code: int, offer,
               swap: bool) -> int:
    """The card :func:`.policy.best_take` takes among ``offer`` (own kinds, sorted): the first
    of the greatest worth, each worth memoised under ``(hk | top[card], code & the fields the
    hand and the card read)``, as the policy's per-card cache."""
    cache = solo.swap if swap else solo.take
    get = cache.get
    top = solo.top
    reads = state.table.model.reads
    fields = solo.fields.get(hk)
    if fields is None:
        fields = _hand_fields(solo, hand, hk, reads)
    worths = None
    best, best_v = offer[0], None
    for k in offer:
        key = (hk | top[k], code & (fields | reads[k]))
        v = get(key)
        if v is None:
            if worths is None:
                worths = _take_worths(state, solo, hand, code, offer, swap)
            v = worths[k]
            _solo_store(cache, key, v)
        if best_v is None or v > best_v:
            best, best_v = k, v
    return best


def _solo_cands(solo: _SoloTables, discards: list[int], a: int, eff, key: tuple) -> tuple:
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
    _solo_store(solo.cands, key, out)
    return out


def _hand_fields(solo: _SoloTables, hand: list[int], hk: int, reads) -> int:
    """The bit fields of the zone code that the score rules of ``hand``'s cards read."""
    fields = 0
    for k in hand:
        fields |= reads[k]
    if len(solo.fields) > 500_000:
        solo.fields.clear()
    solo.fields[hk] = fields
    return fields


def _solo_step_miss(state: State, solo: _SoloTables, hand: list[int], key: tuple, code: int,
                    credits) -> tuple:
    """The step-2 choice of a solo hand, as :func:`play_greedy` makes it; its plan (with the
    rule-coverage bits: 1 a Défausse card in hand, 2 one discarded, 4 a Légendaire card in hand)
    is stored under ``key``."""
    t = state.table
    model = t.model
    a = None
    if model.hand_free:
        a = _removal_by_points(solo, hand, code, model, t.value, t.legendary, t.iscore, credits)
    flags = t.flags
    fl = 0
    for k in hand:
        fl |= flags[k]
    if a is None:
        policy_key = (None, tuple(sorted(hand)), key[1], 1)  # key[1]: code & the hand's fields
        a = t.choice_cache.get(policy_key)
        if a is None:
            a = greedy_miss(state, policy_key, code)
    v = a * 8
    if fl & 1:
        v |= 1
        if flags[a] & 1:
            v |= 2
    if fl & 2:
        v |= 4
    plan = solo.plans[v]
    _solo_store(solo.step, key, plan)
    return plan


def _solo_choice_miss(state: State, cache: dict, hand: list[int], key: tuple, code: int,
                      decision: tuple) -> int:
    """A bottom or give choice of a solo hand (``decision`` pending) from the greedy choice
    cache or :func:`.policy.greedy_miss`, stored under ``key`` in ``cache``."""
    c = state.table.choice_cache.get((decision[0], tuple(sorted(hand)), key[1], 1))
    if c is None:
        state.decision = decision  # what the policy reads, pending while it chooses
        c = greedy_miss(state, (decision[0], tuple(sorted(hand)), key[1], 1), code)
        state.decision = None
    _solo_store(cache, key, c)
    return c


def _play_solo(state: State) -> State:
    """:func:`play_greedy` of a goldfish game (one player, no score rule reading the deck).

    The same moves, each choice memoised on two integers kept up to date move by move: the
    hand as a multiset code (``bits`` bits per kind, more than the cards of the game, so no count
    overflows) and the clamped zone code of the discard pile. When no score rule counts hand
    cards, choices are made from each kind's points at the zone code (:func:`_points_at`). The
    turn, the Cimetière peak and the step-2 rule coverage are counted in local variables, put
    back in ``state`` before the general engine plays a move and when the game ends."""
    game = state.game
    t = state.table
    simple = getattr(game, "_simple_effects", None)
    if simple is None:
        simple = game._simple_effects = _simple_effects(t)  # type: ignore[attr-defined]
    hand, deck, discards = state.hands[0], state.decks[0], state.discards[0]
    # every count of a kind in the hand is at most the cards of the game (effects move cards,
    # never make them), which ``bits`` bits hold
    cards = len(hand) + len(deck) + len(discards) + len(held_cards(state))
    solo = _solo_tables(game, t, cards.bit_length(), simple)
    W, plans = solo.w, solo.plans
    step_get, bottom_get, give_get = solo.step.get, solo.bottom.get, solo.give.get
    bottoms, gives = solo.bottom, solo.give
    fields_get = solo.fields.get
    points_get = solo.points.get
    cands_get = solo.cands.get
    nonleg = solo.nonleg
    model = t.model
    clamp_get = model.clamp_cache.get
    clamp = model.clamp
    dv = model.dv
    reads = model.reads
    hand_free = model.hand_free
    value = t.value
    credits = _credits(state)
    leg = t.legendary
    fns = t.iscore
    # State._end_turn's checks (rulings R1, R10, R6): the Cimetière size that ends the game, the
    # turn from which the turn rules are read
    cim_end = game.end_at if game.by_cimetiere else cards + 1
    stall, unreachable, rules_turns, by_turns = (game.stall_turns, game.unreachable,
                                                 game.rules_turns, game.by_turns)
    turn_check = min(rules_turns if (by_turns or unreachable) else TURN_LIMIT, TURN_LIMIT)
    cov = state.cov  # rule coverage, counted as State.apply_action and effects._run count
    cov_draw, cov_look = COV_EFFECT["Draw"], COV_EFFECT["Look"]
    cov_recover, cov_swap = COV_EFFECT["Recover"], COV_EFFECT["Swap"]
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
        # (again) after the general engine moved cards: the codes and counters from the state
        hand, deck, discards = state.hands[0], state.decks[0], state.discards[0]
        hk = 0
        for k in hand:
            hk += W[k]
        raw = dk = 0
        for k in discards:
            raw += dv[k]
            dk += W[k]
        code = clamp_get(raw)
        if code is None:
            code = clamp(raw) if raw else 0
        turn, peak, peak_turn = state.turn, state.peak, state.peak_turn
        steps = occ = used = legs = 0  # step-2 rule coverage of the inline turns
        ending = ""
        while True:
            f = fields_get(hk)
            if f is None:
                f = _hand_fields(solo, hand, hk, reads)
            key = (hk, code & f)
            plan = step_get(key)
            if plan is None:
                plan = _solo_step_miss(state, solo, hand, key, code, credits)
            a, wa, da, eff, b_occ, b_used, b_leg = plan
            if eff is None:  # through State.apply_action (R4, or an effect not resolved here)
                break
            # a step-2 discard, then the end of the turn and the next draw (State._end_turn)
            steps += 1
            occ += b_occ
            used += b_used
            legs += b_leg
            history.append(a)
            hand.remove(a)
            discards.append(a)
            hk -= wa
            dk += wa
            if da:
                raw += da
                code = clamp_get(raw)
                if code is None:
                    code = clamp(raw)
            if ev is not None:
                ev.append(("discard", 0, a))
            if eff:
                # a lone draw / look / recover / swap, resolved as effects.py does
                if ev is not None:
                    ev.append(("effect", 0, a))
                op = eff[0]
                bottom = 0
                if op == 0:  # draw
                    cov[cov_draw] += 1
                    m = eff[1] if eff[1] < len(deck) else len(deck)
                    if m:
                        cov[cov_draw + 1] += 1
                        for _ in range(m):
                            k = deck.pop()
                            hand.append(k)
                            hk += W[k]
                            if ev is not None:
                                ev.append(("draw", 0, k))
                        bottom = m
                elif op == 1:  # look (even of nothing: the log says so)
                    cov[cov_look] += 1
                    m = eff[1] if eff[1] < len(deck) else len(deck)
                    if m:
                        cov[cov_look + 1] += 1
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
                            offer = sorted(set(looked))  # the legal actions, as policy._greedy sees
                            if len(offer) == 1:
                                c = offer[0]
                            elif hand_free:
                                pts = points_get(code)
                                if pts is None:
                                    pts = _points_at(solo, model, value, code)
                                c = _take_from_points(pts[0], hand, offer)
                            else:
                                c = _solo_take(state, solo, hand, hk, code, offer, False)
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
                    slot = cov_swap if is_swap else cov_recover
                    cov[slot] += 1
                    key = (dk, a)
                    cands = cands_get(key)
                    if cands is None:
                        cands = _solo_cands(solo, discards, a, eff, key)
                    # a Swap needs a non-Légendaire hand card to give
                    if cands and not (is_swap and not hk & nonleg):
                        cov[slot + 1] += 1
                        if len(cands) == 1:
                            c = cands[0]
                        elif hand_free and not is_swap:
                            pts = points_get(code)
                            if pts is None:
                                pts = _points_at(solo, model, value, code)
                            c = _take_from_points(pts[0], hand, cands)
                        else:
                            c = _solo_take(state, solo, hand, hk, code, cands, is_swap)
                        history.append(c)
                        discards.remove(c)
                        dk -= W[c]
                        d = dv[c]
                        if d:
                            raw -= d
                            code = clamp_get(raw)
                            if code is None:
                                code = clamp(raw) if raw else 0
                        if ev is not None:
                            ev.append(("pick", 0, c, 0))
                        if not is_swap:
                            hand.append(c)
                            hk += W[c]
                            bottom = 1
                        else:
                            f = fields_get(hk)
                            if f is None:
                                f = _hand_fields(solo, hand, hk, reads)
                            key = (hk, code & f)
                            g = give_get(key)
                            if g is None:
                                if hand_free:
                                    g = _removal_by_points(solo, hand, code, model, value, leg,
                                                           fns, None)
                                if g is None:
                                    g = _solo_choice_miss(state, gives, hand, key, code,
                                                          (GIVE, 0, 0, c))
                                else:
                                    _solo_store(gives, key, g)
                            history.append(g)
                            hand.remove(g)
                            discards.append(g)
                            hand.append(c)
                            hk += W[c] - W[g]
                            dk += W[g]
                            d = dv[g]
                            if d:  # the card given counts from the next turn on
                                raw += d
                                code = clamp_get(raw)
                                if code is None:
                                    code = clamp(raw)
                            if ev is not None:
                                ev.append(("give", 0, g))
                if bottom:
                    if hand_free:
                        # score(hand - k) = score(hand) - points(k): the first kind of least points
                        pts = points_get(code)
                        if pts is None:
                            pts = _points_at(solo, model, value, code)
                        rank = pts[1]
                        for _ in range(bottom):
                            c = min(hand, key=rank.__getitem__)
                            history.append(c)
                            hand.remove(c)
                            deck.insert(0, c)
                            hk -= W[c]
                            if ev is not None:
                                ev.append(("bottom", 0, c))
                    else:
                        for i in range(bottom, 0, -1):
                            f = fields_get(hk)
                            if f is None:
                                f = _hand_fields(solo, hand, hk, reads)
                            key = (hk, code & f)
                            c = bottom_get(key)
                            if c is None:
                                c = _solo_choice_miss(state, bottoms, hand, key, code,
                                                      (BOTTOM, 0, 0, i))
                            history.append(c)
                            hand.remove(c)
                            deck.insert(0, c)
                            hk -= W[c]
                            if ev is not None:
                                ev.append(("bottom", 0, c))
            # State._end_turn, in its order
            turn += 1
            cim = len(discards)
            if cim >= cim_end:
                ending = "cimetiere"
                break
            if turn >= turn_check:
                if by_turns and turn >= rules_turns:
                    ending = "turns"
                    break
                if unreachable and turn >= rules_turns:
                    ending = "unreachable"
                    break
            if cim > peak:
                peak = cim
                peak_turn = turn
            elif stall and turn - peak_turn >= stall:
                ending = "stalled"
                break
            if turn >= TURN_LIMIT:
                ending = "turn-limit"
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
        cov[COV_STEP] += steps
        cov[COV_DEF_OCC] += occ
        cov[COV_DEF_USED] += used
        cov[COV_LEG] += legs
        if ending:
            state._finish(ending)
            return state
        state.apply_action(a)
