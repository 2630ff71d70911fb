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

A goldfish game (one player, no score rule reading the deck) goes to :func:`.solo.play_solo`, the
same moves with every choice memoised on integer codes of the hand and the discard pile.
"""

from __future__ import annotations

from cardbase.games.effects.resolve import BOTTOM, COV_EFFECT, GIVE, PICK, RECOVER, SWAP, TAKE, apply_decision
from .policy import _credits, best_removal, best_take, greedy_action, greedy_miss
from .solo import game_simple_effects, play_solo
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
        return play_solo(state)  # goldfish
    game = state.game
    simple = game_simple_effects(game, t)
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
