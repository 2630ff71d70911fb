"""Resolution of Défausse effects: the actions of :mod:`cardbase.games.effects.ast` as game steps.

When a card with Défausse actions is discarded at step 2, its actions are queued and resolved in
order. An action that needs a choice stops the resolution with a pending *decision*; the chooser
(the owner, or the opponent for ``ForceDiscard``) answers with an integer action through
``State.apply_action``, like any other move. When the queue is empty the turn ends.

Decision tuples (immutable, so ``State.clone`` shares them):

* ``(BOTTOM, chooser, owner, remaining)`` — put a card of the hand under the deck;
* ``(TAKE, chooser, owner, remaining, looked, then_bottom)`` — take a looked-at card into the hand;
* ``(PICK, chooser, owner, candidates, mode)`` — take a card from a discard pile
  (mode ``RECOVER`` then one BOTTOM; mode ``SWAP`` then GIVE);
* ``(GIVE, chooser, owner, held)`` — the hand card a ``Swap`` sends to the discard pile;
* ``(FORCE, chooser, owner, remaining, total)`` — the opponent discards a card (no trigger).

Actions are card kinds (0..K-1). A card taken from a discard pile is ``kind + K * pile`` where
pile 0 is the owner's own pile and pile 1 the opponent's (at a table of more than two, pile ``d`` is
the pile of the seat ``d`` places after the owner).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from cardbase.i18n import tr

if TYPE_CHECKING:
    from cardbase.games.nespanini.state import State

# rule coverage (State.cov): the Défausse action kinds, each with two counters after the five of
# step 2 (resolved, changed something)
EFFECT_KINDS = ("Draw", "Look", "Recover", "Swap", "ForceDiscard", "Reveal", "Bury")
COV_EFFECT = {k: 5 + 2 * i for i, k in enumerate(EFFECT_KINDS)}

BOTTOM, TAKE, PICK, GIVE, FORCE = "bottom", "take", "pick", "give", "force"
RECOVER, SWAP = "recover", "swap"



def decision_label(tag: str) -> str:
    """What the chooser of a pending decision is asked to do, in the current language."""
    return tr(f"engine.decision.{tag}")


def _name(action: Any) -> str:
    return type(action).__name__


def start_effect(state: State, owner: int, source: int) -> None:
    """Queue the Défausse actions of ``source`` (just discarded by ``owner``) and resolve them."""
    actions = state.table.on_discard[source]
    if state.events is not None:
        state.events.append(("effect", owner, source))
    state.queue = [(owner, source, a) for a in actions] + state.queue
    _resolve(state, owner)


def _resolve(state: State, owner: int) -> None:
    """Run queued actions until one needs a choice or the queue is empty (then end the turn)."""
    while state.decision is None:
        if not state.queue:
            state.player = owner  # the turn belongs to the effect's owner
            state._end_turn()
            return
        owner, source, action = state.queue.pop(0)
        _run(state, owner, source, action)
    state.player = state.decision[1]


def _others(state: State, owner: int) -> int | None:
    """The opponent an effect names: the other player; at a table of more than two (a game written
    as data, docs/rules-language.md), the next seat in seat order."""
    return None if state.n == 1 else (owner + 1) % state.n


def _run(state: State, owner: int, source: int, action: Any) -> None:
    kind = _name(action)
    ev = state.events
    deck = state.decks[owner]
    hand = state.hands[owner]
    leg = state.table.legendary
    cov = state.cov
    slot = COV_EFFECT[kind]
    cov[slot] += 1  # rule coverage: resolved; slot + 1 below: it changed something
    if kind == "Draw":
        m = min(action.n, len(deck))
        for _ in range(m):
            k = deck.pop()
            hand.append(k)
            if ev is not None:
                ev.append(("draw", owner, k))
        if m:
            cov[slot + 1] += 1
            state.decision = (BOTTOM, owner, owner, m)
    elif kind == "Look":
        m = min(action.n, len(deck))
        if m:
            cov[slot + 1] += 1
        looked = tuple(deck[len(deck) - 1 - i] for i in range(m))  # top first
        del deck[len(deck) - m:]
        t = min(action.take, m)
        if ev is not None:
            ev.append(("look", owner, looked))
        if t:
            state.decision = (TAKE, owner, owner, t, looked, t)
        else:
            _under(state, owner, looked)
    elif kind == "Recover" or kind == "Swap":
        cands = _candidates(state, owner, source, action)
        if not cands:
            return
        if kind == "Swap" and not any(not leg[k] for k in hand):
            return
        cov[slot + 1] += 1
        state.decision = (PICK, owner, owner, cands, RECOVER if kind == "Recover" else SWAP)
    elif kind == "ForceDiscard":
        opp = _others(state, owner)
        if opp is None:
            return  # goldfish: no opponent (ruling R7)
        # the card's text: « votre adversaire défausse 1 carte non Légendaire de son choix, puis
        # en pioche autant » — the discard happens even when their deck cannot give the cards
        # back (they draw what it holds: ruling R3)
        d = min(action.n, sum(1 for k in state.hands[opp] if not leg[k]))
        if d:
            cov[slot + 1] += 1
            state.decision = (FORCE, opp, owner, d, d)
    elif kind == "Reveal":
        opp = _others(state, owner)
        if opp is None:
            return
        if action.target == "hand":
            cov[slot + 1] += 1
            state.revealed[opp] = list(state.hands[opp])
            if ev is not None:
                ev.append(("reveal", owner, tuple(state.hands[opp])))
        elif state.decks[opp]:
            cov[slot + 1] += 1
            if ev is not None:
                ev.append(("reveal-top", owner, state.decks[opp][-1]))
    elif kind == "Bury":
        target = owner
        if action.opponent:
            target = _others(state, owner)
            if target is None:
                return
        tdeck = state.decks[target]
        m = min(action.n, len(tdeck))
        if m:
            cov[slot + 1] += 1
        moved = []
        for _ in range(m):
            k = tdeck.pop()
            if leg[k]:
                moved.append(k)
            else:
                state.discards[target].append(k)
                if ev is not None:
                    ev.append(("bury", target, k))
        for k in moved:
            tdeck.insert(0, k)
    else:  # pragma: no cover - the parser only builds the known actions
        raise ValueError(f"unknown Défausse action {kind}")


def _under(state: State, player: int, cards: tuple[int, ...] | list[int]) -> None:
    """Put ``cards`` under ``player``'s deck one by one (the last ends lowest)."""
    deck = state.decks[player]
    for k in cards:
        deck.insert(0, k)


def _candidates(state: State, owner: int, source: int, action: Any) -> tuple[int, ...]:
    zone = str(action.zone)
    flt = action.filter
    defs = state.table.defs
    size = state.table.size
    out: set[int] = set()
    piles = []
    if zone in ("discards", "cimetiere"):
        piles.append(0)
    if zone in ("opponent_discards", "cimetiere"):
        piles.extend(range(1, state.n))  # each other player's pile, by its distance from the owner
    for pile in piles:
        cards = list(state.discards[(owner + pile) % state.n])
        if pile == 0 and source in cards:
            cards.remove(source)  # the card being resolved is never picked
        for k in cards:
            if flt.matches(defs[k]):
                out.add(k + size * pile)
    return tuple(sorted(out))


# ---------------------------------------------------------------------------- queries


def decision_actions(state: State) -> list[int]:
    d = state.decision
    assert d is not None
    tag, chooser = d[0], d[1]
    hand = state.hands[chooser]
    leg = state.table.legendary
    if tag == BOTTOM:
        return sorted(set(hand))
    if tag == TAKE:
        return sorted(set(d[4]))
    if tag == PICK:
        return list(d[3])
    if tag in (GIVE, FORCE):
        return sorted({k for k in hand if not leg[k]})
    raise AssertionError(tag)


def decision_view(state: State, player: int) -> tuple[str, tuple[int, ...]]:
    d = state.decision
    assert d is not None
    if d[1] != player:
        return "waiting", ()
    if d[0] == TAKE:
        return TAKE, tuple(d[4])
    if d[0] == PICK:
        size = state.table.size
        return PICK, tuple(a % size for a in d[3])
    return d[0], ()


def decision_action_to_string(state: State, action: int) -> str:
    d = state.decision
    assert d is not None
    size = state.table.size
    name = state.table.defs[action % size].name
    if d[0] == PICK:
        return tr("engine.action.pick_own" if action // size == 0 else "engine.action.pick_opponent",
                  card=name)
    return tr(f"engine.action.{d[0]}", card=name)


# ---------------------------------------------------------------------------- answers


def apply_decision(state: State, action: int, *, check: bool = True) -> None:
    """Answer the pending decision with ``action`` (``check=False``: the caller knows it is legal)."""
    d = state.decision
    assert d is not None
    if check and action not in decision_actions(state):
        from cardbase.games.frame import IllegalActionError  # imported only when it is raised

        raise IllegalActionError(tr(
            "engine.error.illegal_choice", action=action, decision=decision_label(d[0]),
            legal=" ; ".join(decision_action_to_string(state, a) for a in decision_actions(state))))
    tag, chooser, owner = d[0], d[1], d[2]
    ev = state.events
    hand = state.hands[chooser]
    state.decision = None
    if tag == BOTTOM:
        state.leave_hand(chooser, action)
        state.decks[chooser].insert(0, action)
        if ev is not None:
            ev.append(("bottom", chooser, action))
        if d[3] > 1:
            state.decision = (BOTTOM, chooser, owner, d[3] - 1)
    elif tag == TAKE:
        remaining, looked, then_bottom = d[3], list(d[4]), d[5]
        looked.remove(action)
        hand.append(action)
        if ev is not None:
            ev.append(("take", chooser, action))
        if remaining > 1 and looked:
            state.decision = (TAKE, chooser, owner, remaining - 1, tuple(looked), then_bottom)
        else:
            _under(state, chooser, looked)
            state.decision = (BOTTOM, chooser, owner, then_bottom)
    elif tag == PICK:
        size = state.table.size
        kind, pile = action % size, action // size
        src_player = (owner + pile) % state.n
        state.discards[src_player].remove(kind)
        if ev is not None:
            ev.append(("pick", chooser, kind, src_player))
        if d[4] == RECOVER:
            hand.append(kind)
            state.decision = (BOTTOM, chooser, owner, 1)
        else:
            state.decision = (GIVE, chooser, owner, kind)
    elif tag == GIVE:
        state.leave_hand(chooser, action)
        state.discards[chooser].append(action)
        hand.append(d[3])
        if ev is not None:
            ev.append(("give", chooser, action))
    elif tag == FORCE:
        state.leave_hand(chooser, action)
        state.discards[chooser].append(action)
        if ev is not None:
            ev.append(("forced", chooser, action))
        if d[3] > 1:
            state.decision = (FORCE, chooser, owner, d[3] - 1, d[4])
        else:
            deck = state.decks[chooser]
            for _ in range(min(d[4], len(deck))):  # R3: as many as the deck holds
                k = deck.pop()
                hand.append(k)
                if ev is not None:
                    ev.append(("draw", chooser, k))
    _resolve(state, owner)


def held_cards(state: State) -> list[int]:
    """Cards out of every zone while a choice is pending (looked at, or taken by a Swap)."""
    d = state.decision
    if d is None:
        return []
    if d[0] == TAKE:
        return list(d[4])
    if d[0] == GIVE:
        return [d[3]]
    return []
