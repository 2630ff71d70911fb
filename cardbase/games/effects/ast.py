"""The NesPanini effect language as data: frozen values the engine interprets.

An effect is stored with its card as source text (``Card.effect``), parsed by
:func:`cardbase.games.effects.parse_effect` into an :class:`Effect`:

* ``Effect.score`` — end-of-game modifiers: each :class:`ScoreRule` adds a bonus or a malus to
  the card's base value while the card is one of the scored cards of its owner's hand;
* ``Effect.on_discard`` — the actions of the keyword **Défausse**, resolved in order when the card
  is discarded in step 2 of its owner's turn.

Vocabulary of the actions (see docs/effects.md for the full reference). Three rules hold for all:

1. **Hands keep their size.** Every action leaves both hands with as many cards as before it,
   so each hand still holds 5 cards at the end of the game — except ``ForceDiscard`` on an
   opponent whose deck is too short to draw back what they discarded (NesPanini ruling R3).
2. **Légendaire cards never go to a discard pile.** An action that moves cards from a hand or a
   deck to a discard pile never moves a Légendaire card there (who chooses cannot pick one; a
   Légendaire card met on a deck goes under that deck instead).
3. **The card being resolved** is already in its owner's discard pile (step 2 put it there) and can
   never be picked by its own actions (``Recover``/``Swap`` skip it).

Every choice is made by the player named in the action's documentation; if there is nothing to
choose from, that part of the action does nothing. How each action changes the number of cards in
the Cimetière (the end condition is "10 cards") is stated on each class.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING

from cardbase.text import fold

if TYPE_CHECKING:
    from cardbase.domain import CardDef


# --------------------------------------------------------------------------- zones

class Zone(StrEnum):
    """Where cards are counted. The value is also the attribute name on the engine's zones object."""

    HAND = "hand"  # the owner's hand (it contains the scored card itself)
    DISCARDS = "discards"  # the owner's discard pile
    OPPONENT_DISCARDS = "opponent_discards"  # the opponent's discard pile
    CIMETIERE = "cimetiere"  # both discard piles together
    DECK = "deck"  # the owner's remaining deck


#: zones a card can be taken from by Recover / Swap
PILE_ZONES = (Zone.DISCARDS, Zone.OPPONENT_DISCARDS, Zone.CIMETIERE)


@functools.lru_cache(maxsize=8192)
def folded(text: str | None) -> str:
    """``fold`` with a cache: card names and banners are folded once, not at every match."""
    return fold(text)


# --------------------------------------------------------------------------- filters

ATTRIBUTES = ("colour", "banner", "keyword", "name")


@dataclass(slots=True, frozen=True)
class AttrTerm:
    """``colour = rouge``, ``banner in ("Brigade", "Marée")``, ``keyword != foule``, ``name = "X"``.

    ``values`` are kept as written (colours and keywords are stored folded by the parser);
    a card matches when its attribute (folded) is one of ``values`` (folded), or — with
    ``negated`` — is none of them. For ``keyword`` the card matches when it has one of the
    keywords (``negated``: has none of them).
    """

    attr: str  # one of ATTRIBUTES
    values: tuple[str, ...]
    negated: bool = False
    keys: frozenset[str] = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "keys", frozenset(fold(v) for v in self.values))

    def matches(self, card: CardDef) -> bool:
        attr = self.attr
        if attr == "keyword":
            hit = not self.keys.isdisjoint(card.keyword_keys)
        elif attr == "colour":
            hit = folded(card.colour) in self.keys
        elif attr == "banner":
            hit = folded(card.banner) in self.keys
        else:
            hit = folded(card.name) in self.keys
        return hit != self.negated


@dataclass(slots=True, frozen=True)
class ValueTerm:
    """``value >= 2``, ``value <= 4``, ``value = 3``, ``value in 2..5`` (bounds included).

    A card with no value never matches.
    """

    min: int | None = None
    max: int | None = None

    def matches(self, card: CardDef) -> bool:
        v = card.value
        if v is None:
            return False
        return (self.min is None or v >= self.min) and (self.max is None or v <= self.max)


Term = AttrTerm | ValueTerm


@dataclass(slots=True, frozen=True)
class Filter:
    """A conjunction of terms; the empty filter matches every card.

    ``other`` ("autre") means "apart from this card": when counting in the hand, the card whose
    score is computed is not counted (one copy is removed, the other copies still count). It has
    no effect in the other zones, where the scored card never is. ``matches`` ignores ``other``:
    the counting code applies it.
    """

    terms: tuple[Term, ...] = ()
    other: bool = False

    def matches(self, card: CardDef) -> bool:
        for term in self.terms:
            if not term.matches(card):
                return False
        return True

    @property
    def is_empty(self) -> bool:
        return not self.terms and not self.other


# --------------------------------------------------------------------------- score rules

COUNT_KINDS = ("cards", "colours")
COMPARISONS = (">=", "<=", "=", "!=", ">", "<")


@dataclass(slots=True, frozen=True)
class Count:
    """A number read from the game: ``kind`` "cards" counts the cards of ``zone`` matching
    ``filter``; "colours" counts the distinct colours among them (cards with no colour ignored)."""

    kind: str  # "cards" | "colours"
    zone: Zone
    filter: Filter = Filter()


@dataclass(slots=True, frozen=True)
class Comparison:
    """``count(hand where colour = bleu) >= 3``: true when ``count <op> value``."""

    count: Count
    op: str  # one of COMPARISONS
    value: int


@dataclass(slots=True, frozen=True)
class ScoreRule:
    """One end-of-game modifier; the card's score is its value plus the sum of its rules.

    * ``per`` None: the rule is worth ``amount``;
    * ``per`` a Count: worth ``amount × n`` where n = the count, capped at ``cap`` when set;
    * ``conditions``: all must hold, otherwise the rule is worth 0.
    """

    amount: int
    per: Count | None = None
    cap: int | None = None
    conditions: tuple[Comparison, ...] = ()


# --------------------------------------------------------------------------- actions (Défausse)

@dataclass(slots=True, frozen=True)
class Draw:
    """``draw N`` — « Piochez N cartes, puis placez N cartes de votre main sous votre deck. »

    The owner draws the top ``n`` cards of their deck (all of them if it has fewer, m drawn), then
    chooses m cards of their hand (any cards, Légendaire included, the drawn ones included) and
    puts them under their deck one by one in the order chosen (the last chosen ends lowest).
    Nothing is discarded. Cimetière: unchanged.
    """

    n: int


@dataclass(slots=True, frozen=True)
class Look:
    """``look N take K`` (1 ≤ K < N) — « Regardez les N premières cartes de votre deck, prenez-en K
    en main, puis placez sous votre deck les autres et K cartes de votre main. »

    The owner looks at the top ``n`` cards of their deck (all if fewer: m = min(n, deck)), chooses
    t = min(take, m) of them and puts them into their hand; the m − t others go under the deck in
    their original order; then the owner chooses t cards of their hand (any, Légendaire included)
    and puts them under the deck after those, in the order chosen. Cimetière: unchanged.
    """

    n: int
    take: int


@dataclass(slots=True, frozen=True)
class Recover:
    """``recover ZONE [where FILTER]`` — « Prenez une (autre) carte … de ZONE en main, puis placez
    une carte de votre main sous votre deck. »

    ``zone`` is one of PILE_ZONES (discards = the owner's pile, opponent_discards, cimetiere = both).
    The owner chooses a card of that zone matching ``filter``, other than the card being resolved,
    puts it into their hand, then chooses a card of their hand (any) and puts it under their deck.
    If no card matches, nothing happens. Cimetière: one card fewer when a card was taken — the game
    lasts one turn longer.
    """

    zone: Zone
    filter: Filter = Filter()


@dataclass(slots=True, frozen=True)
class Swap:
    """``swap ZONE [where FILTER]`` — « Échangez une carte non Légendaire de votre main avec une
    (autre) carte … de ZONE : la vôtre va dans votre défausse. »

    The owner chooses a non-Légendaire card of their hand and a card of ``zone`` matching
    ``filter`` other than the card being resolved; the hand card goes to the owner's discard pile,
    the chosen card into the owner's hand. If either choice is impossible, nothing happens.
    Cimetière: unchanged (one card leaves, one arrives).
    """

    zone: Zone
    filter: Filter = Filter()


@dataclass(slots=True, frozen=True)
class ForceDiscard:
    """``force_discard N`` — « Votre adversaire défausse N cartes de son choix (sauf Légendaire),
    puis en pioche autant. »

    The opponent chooses d = min(n, their non-Légendaire cards in hand) cards of their hand, puts
    them in their discard pile (their Défausse effects do NOT trigger: it is not step 2), then
    draws d cards — as many as their deck holds: on an empty deck the discard still happens and
    the hand shrinks (NesPanini ruling R3). Cimetière: d cards more — the game ends sooner.
    """

    n: int


@dataclass(slots=True, frozen=True)
class Reveal:
    """``reveal hand`` — « Votre adversaire vous montre sa main. »
    ``reveal top`` — « Votre adversaire vous montre la première carte de son deck. »

    Information only: the owner sees the opponent's hand (or the top card of the opponent's deck,
    nothing if it is empty) as it is at that moment. Cimetière: unchanged.
    """

    target: str  # "hand" | "top"


@dataclass(slots=True, frozen=True)
class Bury:
    """``bury N`` / ``bury N opponent`` — « Placez les N premières cartes de votre deck (du deck
    adverse) dans votre défausse (sa défausse) ; une carte Légendaire va sous le deck. »

    Takes the top ``n`` cards of the owner's deck (of the opponent's with ``opponent``; all of them
    if fewer), one at a time from the top: a non-Légendaire card goes to that deck owner's discard
    pile, a Légendaire card goes under that deck (it is not taken again by the same action).
    No one chooses. Défausse effects of buried cards do not trigger. Cimetière: one card more for
    each card buried — the game ends sooner.
    """

    n: int
    opponent: bool = False


Action = Draw | Look | Recover | Swap | ForceDiscard | Reveal | Bury
ACTION_TYPES = (Draw, Look, Recover, Swap, ForceDiscard, Reveal, Bury)
REVEAL_TARGETS = ("hand", "top")


# --------------------------------------------------------------------------- effect

@dataclass(slots=True, frozen=True)
class Effect:
    """The whole effect of a card: end-of-game score rules and Défausse actions (either may be empty)."""

    score: tuple[ScoreRule, ...] = ()
    on_discard: tuple[Action, ...] = ()

    @property
    def is_empty(self) -> bool:
        return not self.score and not self.on_discard


EMPTY_EFFECT = Effect()
