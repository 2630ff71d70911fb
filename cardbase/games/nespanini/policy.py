"""The greedy NesPanini policy: best immediate score, with a small credit for Défausse effects.

It only reads what the acting player can see (their hand, the discard piles, the cards an effect
showed them), never the order of a deck or the opponent's hand.

* Step-2 discard: keep the 5 cards that score most *now* (score effects are evaluated with the
  discarded card already in the discard pile), plus ``discard_credit`` of the discarded card.
* Put a card under the deck / give a card / discard for the opponent's effect: the same rule on
  the chooser's hand.
* Take a card (looked at, or from a discard pile): the card whose best following hand scores most.

Ties go to the lowest card index, so the policy is deterministic.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from cardbase.games.effects.resolve import BOTTOM, FORCE, GIVE, PICK, RECOVER, TAKE

if TYPE_CHECKING:
    from .cards import CardTable
    from .state import State


def action_credit(action: Any, duel: bool) -> float:
    """A rough worth, in points, of resolving one Défausse action."""
    kind = type(action).__name__
    if kind == "Draw":
        return 0.3 * action.n
    if kind == "Look":
        return 0.3 * action.n
    if kind in ("Recover", "Swap"):
        return 1.0
    if kind == "ForceDiscard":
        return 0.5 * action.n if duel else 0.0
    if kind == "Reveal":
        return 0.1 if duel else 0.0
    return 0.0


def discard_credits(table: CardTable, duel: bool) -> tuple[float, ...]:
    return tuple(sum(action_credit(a, duel) for a in acts) for acts in table.on_discard)


def _credits(state: State) -> tuple[float, ...]:
    game = state.game
    cache = getattr(game, "_credits", None)
    if cache is None:
        cache = discard_credits(state.table, state.n == 2)
        game._credits = cache  # type: ignore[attr-defined]
    return cache


def best_removal(state: State, player: int, hand: list[int], candidates: list[int], *,
                 to_discards: bool, credit: tuple[float, ...] | None = None,
                 code: int | None = None) -> int:
    """The candidate whose removal from ``hand`` leaves the best score (lowest index on ties).

    ``to_discards``: the removed card goes to ``player``'s discard pile (and may count there).
    ``code``: ``player``'s zone code if the caller has it.
    """
    t = state.table
    fns = t.iscore
    value = t.value
    for k in hand:
        if fns[k] is not None:
            break
    else:
        best, best_v = candidates[0], None
        for k in candidates:
            v = -value[k] + (credit[k] if credit else 0.0)
            if best_v is None or v > best_v:
                best, best_v = k, v
        return best
    if code is None:
        code = state.zone_code(player)
    dv = t.model.dv
    score = state.score_sorted
    info_get, score_get = t.hand_info.get, t.score_cache.get
    full = sorted(hand)
    best, best_v = candidates[0], None
    for k in candidates:
        i = full.index(k)
        h = tuple(full[:i] + full[i + 1:])
        c = code + dv[k] if to_discards else code
        # score_sorted(h, c), its two cache lookups inline
        info = info_get(h)
        if info is None:
            v = score(h, c)
        elif info[1] < 0:
            v = info[0]
        else:
            v = score_get((h, c & info[1]))
            if v is None:
                v = score(h, c)
        if credit:
            v += credit[k]
        if best_v is None or v > best_v:
            best, best_v = k, v
    return best


def _best_after_add(state: State, hand: list[int], card: int, code: int, *,
                    give_to_discards: bool = False, only_non_legendary: bool = False) -> float:
    """Best score of ``hand + card`` minus one card (the one that would go away next)."""
    t = state.table
    leg = t.legendary
    dv = t.model.dv
    full = sorted(hand + [card])
    score = state.score_sorted
    info_get, score_get = t.hand_info.get, t.score_cache.get
    best = None
    prev = -1
    for i, r in enumerate(full):
        if r == prev:
            continue
        prev = r
        if only_non_legendary and (leg[r] or r == card):
            continue
        h = tuple(full[:i] + full[i + 1:])
        c = code + dv[r] if give_to_discards else code
        info = info_get(h)  # score_sorted(h, c), its two cache lookups inline
        if info is None:
            v = score(h, c)
        elif info[1] < 0:
            v = info[0]
        else:
            v = score_get((h, c & info[1]))
            if v is None:
                v = score(h, c)
        if best is None or v > best:
            best = v
    return float("-inf") if best is None else best


def decision_key(decision: tuple | None) -> Any:
    """What of a pending decision the greedy choice depends on (None at a step-2 discard)."""
    if decision is None:
        return None
    tag = decision[0]
    if tag == BOTTOM:
        return BOTTOM
    if tag == GIVE or tag == FORCE:
        return GIVE  # both: the best card of the hand to send to one's own discard pile
    if tag == TAKE:
        return (TAKE, tuple(sorted(set(decision[4]))))
    return (PICK, decision[4], decision[3])


def greedy_action(state: State) -> int:
    """The greedy choice of the player to act (see the module text).

    The choice depends only on what :func:`decision_key` keeps of the pending decision, the
    multiset of the hand and the features read by the cards in play (the hand and the cards
    offered), so it is memoised per card table under that key (see :mod:`.scoring`).
    """
    t = state.table
    p = state.player
    hand = state.hands[p]
    d = state.decision
    code = fields = 0
    if t.has_iscore:
        code = state.zone_code(p)
        reads = t.model.reads
        for k in hand:
            fields |= reads[k]
        if d is not None and (d[0] == TAKE or d[0] == PICK):
            size = t.size
            for a in (d[4] if d[0] == TAKE else d[3]):
                fields |= reads[a % size]
    key = (decision_key(d), tuple(sorted(hand)), code & fields, state.n)
    hit = t.choice_cache.get(key)
    if hit is not None:
        return hit
    return greedy_miss(state, key, code)


def greedy_miss(state: State, key: Any, code: int) -> int:
    """:func:`greedy_action` once its cache lookup missed: ``key`` is the cache key it built and
    ``code`` the player's clamped zone code (0 without score rules). Computes and stores."""
    legal = state.legal_actions()
    hit = legal[0] if len(legal) == 1 else _greedy(state, legal, code)
    cache = state.table.choice_cache
    if len(cache) > 500_000:
        cache.clear()
    cache[key] = hit
    return hit


def _greedy(state: State, legal: list[int], code: int) -> int:
    p = state.player
    hand = state.hands[p]
    d = state.decision
    if d is None:
        return best_removal(state, p, hand, legal, to_discards=True, credit=_credits(state),
                            code=code)
    tag = d[0]
    if tag in (BOTTOM,):
        return best_removal(state, p, hand, legal, to_discards=False, code=code)
    if tag in (GIVE, FORCE):
        return best_removal(state, p, hand, legal, to_discards=True, code=code)
    swap = not (tag == TAKE or d[4] == RECOVER)  # a Swap: then a non-Légendaire hand card goes
    return best_take(state, hand, legal, code, swap)


def best_take(state: State, hand: list[int], legal: Sequence[int], code: int, swap: bool) -> int:
    """The card to take among ``legal`` (looked-at cards, or discard-pile picks encoded as in
    :mod:`cardbase.games.effects.resolve`): the one whose best following hand scores most, the first on ties.
    ``swap``: a Swap, after which a non-Légendaire hand card goes to the discard pile."""
    # each candidate's worth is memoised on its own (hand, card, the features the hand and the
    # card read), so offers that share cards share the work
    t = state.table
    size = t.size
    reads = t.model.reads
    hs = tuple(sorted(hand))
    fields = 0
    for k in hand:
        fields |= reads[k]
    cache = t.add_cache
    best, best_v = legal[0], None
    for a in legal:
        k = a % size
        key = (hs, k, code & (fields | reads[k]), swap)
        v = cache.get(key)
        if v is None:
            v = _best_after_add(state, hand, k, code, give_to_discards=swap,
                                only_non_legendary=swap)
            if len(cache) > 500_000:
                cache.clear()
            cache[key] = v
        if best_v is None or v > best_v:
            best, best_v = a, v
    return best
