"""Overseers' greedy heuristic: it reads only what its player sees.

- draft: the card worth most to its own character; discard and give: the one worth least;
- placement: the cards worth most go face down (a strong top row draws the votes);
- vote: the other player whose visible top row is worth most (ties: the nearest on its left —
  every tie-break counts seats from the bot's own, so no seat number is favoured);
- judgment (OV20): it estimates each other player's score from what it sees: the top row, a
  face-down card it looked at with a spy power, and for every other face-down card the mean worth
  (to that player) of the cards it cannot see that are worth at least the best card of that
  player's top row — players put their best cards face down, as this bot does, so a face-down
  card is one of the cards that player would have hidden. It admits (discarding its cheapest
  cards) when its score beats every estimate, else it denies;
- Leader's calls: accuse, among the tied, the other player with the strongest top row; penalise
  a greedy player who is not itself; among tied Vol counts, choose itself, else the nearest;
  name as successor the nearest tied player who is not itself (its never-led status, OV11, is a
  tie-break worth keeping);
- steal: the victim whose cheapest card is worth most to the thief; spy: the strongest top row;
- character choice (variant): the character whose colour bonuses are largest.
"""

from __future__ import annotations

from .state import (
    ADMIT,
    CHARACTER,
    CHOOSE,
    DENY,
    DISCARD,
    GIVE,
    P_CHARACTER,
    P_DISCARD,
    P_DRAFT,
    P_GIVE,
    P_JUDGE,
    P_PENALTY,
    P_PLACE,
    P_SHED,
    P_SPY,
    P_SUCCESSOR,
    P_TAKE,
    P_THIEF_TIE,
    P_VICTIM,
    P_VOTE,
    P_VOTE_TIE,
    PENALIZE,
    PICK,
    PLACE,
    SHED,
    SPARE,
    SPY_ON,
    TAKE,
    VICTIM,
    VOTE,
    K,
    State,
)


def _top_worth(s: State, q: int) -> int:
    worth = s.game.worth[s.chars[q]]
    return sum(worth[k] for k in s.top[q])


def _others(s: State, p: int) -> list[int]:
    """The other seats clockwise from ``p``'s left: ties go to the nearest (no seat is favoured)."""
    return [(p + i) % s.n for i in range(1, s.n)]


def _first(s: State, p: int, seats) -> int:
    return min(seats, key=lambda q: (q - p) % s.n)


def _unseen(s: State, p: int) -> list[int]:
    """The game's cards ``p`` cannot see: not its own, not on a top row, not a card it looked at,
    not a discard card it knows."""
    seen = set(s.cards_of(p))
    for q in range(s.n):
        seen.update(s.top[q])
    for _, k in s.peeks[p]:
        seen.add(k)
    seen.update(s.known_discard[p])
    return [k for k in s.cards if k not in seen]


def estimate(s: State, p: int, q: int, unseen: list[int] | None = None) -> float:
    """``p``'s estimate of ``q``'s score at the reveal (OV20), from what ``p`` sees.

    Each face-down card of ``q`` that ``p`` has not looked at is valued at the mean worth to ``q``
    of the cards ``p`` cannot see that are at least as good as the best card of ``q``'s top row: a
    player hides their best cards, so a face-down card is drawn among the cards ``q`` would have
    hidden, given the top row it showed (the best shown card's worth when nothing qualifies)."""
    if unseen is None:
        unseen = _unseen(s, p)
    worth = s.game.worth[s.chars[q]]
    looked = [k for r, k in s.peeks[p] if r == q and k in s.bottom[q]]
    top = [worth[k] for k in s.top[q]]
    floor = max(top) if top else 0
    hidden = len(s.bottom[q]) - len(looked)
    pool = [worth[k] for k in unseen if worth[k] >= floor] or [floor]
    return sum(top) + sum(worth[k] for k in looked) + hidden * sum(pool) / len(pool)


def greedy_action(s: State) -> int:
    p = s.player
    ph = s.phase
    game = s.game
    if ph == P_DRAFT:  # the most valuable card; among equals the lowest number
        worth = game.worth[s.chars[p]]
        best, best_v = -1, -1
        for k in s.hands[p]:
            v = worth[k]
            if v > best_v or (v == best_v and k < best):
                best, best_v = k, v
        return PICK * K + best
    if ph == P_DISCARD:
        worth = game.worth[s.chars[p]]
        best, best_v = -1, 1 << 30
        for k in s.kept[p]:
            v = worth[k]
            if v < best_v or (v == best_v and k < best):
                best, best_v = k, v
        return DISCARD * K + best
    if ph == P_VOTE:
        best, best_v = -1, -1
        for q in _others(s, p):
            v = _top_worth(s, q)
            if v > best_v:
                best, best_v = q, v
        return VOTE * K + best
    if ph == P_PLACE:
        worth = game.worth[s.chars[p]]
        cards = sorted(s.kept[p])
        down = sorted(range(len(cards)), key=lambda i: (-worth[cards[i]], i))[:s.character(p).bottom]
        return PLACE * K + sum(1 << i for i in down)
    if ph == P_JUDGE:
        return ADMIT if _believes_best(s, p) else DENY
    if ph == P_SHED:
        worth = game.worth[s.chars[p]]
        return SHED * K + min(sorted(s.cards_of(p)), key=lambda k: worth[k])
    if ph == P_TAKE:
        worth = game.worth[s.chars[p]]
        return TAKE * K + max(sorted(s.discard), key=lambda k: worth[k])
    if ph == P_GIVE:
        worth = game.worth[s.chars[p]]
        return GIVE * K + min(sorted(s.cards_of(p)), key=lambda k: worth[k])
    if ph == P_VICTIM:  # OV9: a stolen card is worth its printed value to the thief
        worth = game.value if s.rules.stolen_value == "printed" else game.worth[s.chars[p]]
        best, best_v = -1, -1
        for q in _others(s, p):
            cards = s.cards_of(q)
            if cards:
                v = min(worth[k] for k in cards)
                if v > best_v:
                    best, best_v = q, v
        return VICTIM * K + best
    if ph == P_VOTE_TIE:
        others = [q for q in _others(s, p) if q in s.offered] or [p]
        return CHOOSE * K + max(others, key=lambda q: (_top_worth(s, q), -((q - p) % s.n)))
    if ph == P_THIEF_TIE:
        return CHOOSE * K + (p if p in s.offered else _first(s, p, s.offered))
    if ph == P_SUCCESSOR:
        others = [q for q in s.offered if q != p]
        return CHOOSE * K + (_first(s, p, others) if others else p)
    if ph == P_PENALTY:
        return SPARE if s.accused == p else PENALIZE
    if ph == P_SPY:
        targets = [q for q in _others(s, p) if s.bottom[q]]
        return SPY_ON * K + max(targets, key=lambda q: (_top_worth(s, q), -((q - p) % s.n)))
    if ph == P_CHARACTER:
        chars = game.characters
        return CHARACTER * K + max(sorted(s.offered), key=lambda c: sum(chars[c].bonus))
    return s.legal_actions()[0]


def _believes_best(s: State, p: int) -> bool:
    """Does ``p``'s score beat its estimate of every other player's (OV20)?"""
    mine = s.score(p)
    unseen = _unseen(s, p)
    return all(estimate(s, p, q, unseen) < mine for q in range(s.n) if q != p)


class GreedyBot:
    """Overseers' greedy heuristic as a bot."""

    name = "greedy"

    def step(self, state: State) -> int:
        return greedy_action(state)


# ------------------------------------------------------------------ the belief bot (OV18)

SEARCHED = (P_VOTE, P_JUDGE, P_PENALTY, P_SPY, P_VICTIM, P_TAKE, P_SHED, P_GIVE, P_PLACE)


class BeliefBot:
    """Determinized search over worlds consistent with what passed in the draft (OV18).

    The draft, the discard and the Leader's seat-naming calls are played as the greedy bot plays
    them. For the decisions where hidden cards matter (placement, spy, vote, judgment, penalty,
    discards and gifts, the steal's victim, the take), the bot deals ``samples`` worlds with
    ``state.resample(player, rng)`` — the hidden cards only where its knowledge allows — tries
    every legal action in each (the same worlds for every action), plays the rest of the round
    greedily and keeps the action with the best mean margin: its total minus the best other
    total once the round is counted (the game's end included, a win being worth a bonus).
    """

    name = "belief"

    def __init__(self, samples: int = 12, seed: int | None = None) -> None:
        import random

        self.samples = samples
        self.rng = random.Random(seed)

    def step(self, state: State) -> int:
        if state.phase not in SEARCHED:
            return greedy_action(state)
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        p = state.player
        rnd = state.round
        worlds = [state.resample(p, self.rng) for _ in range(self.samples)]
        best, best_v = legal[0], None
        for a in legal:
            total = 0.0
            for w in worlds:
                s = w.clone()
                s.apply_action(a)
                while s.round == rnd and not s.is_terminal():
                    s.apply_action(greedy_action(s))
                total += _margin(s, p)
            if best_v is None or total > best_v:
                best, best_v = a, total
        return best


def _margin(s: State, p: int) -> float:
    others = max(s.totals[q] for q in range(s.n) if q != p)
    bonus = 0.0
    if s.is_terminal():
        bonus = 20.0 if p in s.winners else -20.0
    return s.totals[p] - others + bonus
