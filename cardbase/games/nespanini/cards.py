"""The card table of one game: every distinct card gets a small integer, its figures precomputed.

The engine's hot path only touches integers and tuples indexed by them; the :class:`CardDef`
values are looked up only to show a card, to evaluate a score effect or to build an observation.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from cardbase.domain import CardDef
from cardbase.errors import EffectError
from cardbase.i18n import tr

LEGENDARY = "legendaire"
DISCARD_KEYWORD = "defausse"

ScoreFn = Callable[[CardDef, Any], int]


def _effect_parts(card: CardDef) -> tuple[Any, ScoreFn | None, tuple[Any, ...]]:
    """Compile a card's effect source: (effect, score function or None, Défausse actions)."""
    if not card.effect or not card.effect.strip():
        return None, None, ()
    try:
        from cardbase.games.effects import compile_score, parse_effect
    except ImportError as exc:  # pragma: no cover - the effect language ships with cardbase
        raise EffectError(tr("engine.error.effect_language", card=card.name, error=exc)) from None
    try:
        effect = parse_effect(card.effect)
    except EffectError as exc:
        raise EffectError(tr("engine.error.effect_card", card=card.name, ref=card.ref, error=exc)) from None
    score = compile_score(effect) if getattr(effect, "score", None) else None
    actions = tuple(getattr(effect, "on_discard", ()) or ())
    return effect, score, actions


@dataclass(slots=True, frozen=True)
class CardTable:
    """Distinct cards of a game, indexed 0..K-1, with per-card figures as tuples."""

    defs: tuple[CardDef, ...]
    value: tuple[int, ...]
    legendary: tuple[bool, ...]
    score_fn: tuple[ScoreFn | None, ...]
    on_discard: tuple[tuple[Any, ...], ...]
    has_discard_effect: tuple[bool, ...]
    index: dict[CardDef, int]
    iscore: tuple[Any, ...] = ()  # score rules on card indices (see .scoring), None if none
    model: Any = None  # the compiled :class:`.scoring.ScoreModel`
    reads_discards: bool = False  # some score rule counts in the own discards / Cimetière
    reads_opponent: bool = False  # … in the opponent's discards / Cimetière
    reads_deck: bool = False  # … in the deck
    has_iscore: bool = False  # some card has score rules
    # per kind, for rule coverage (State.coverage): 1 a Défausse card that step 2 may discard,
    # 2 a Légendaire card
    flags: tuple[int, ...] = ()
    effect_kinds: frozenset[str] = frozenset()  # names of the Défausse actions of the table's cards
    score_cache: dict = field(default_factory=dict, compare=False, repr=False)
    choice_cache: dict = field(default_factory=dict, compare=False, repr=False)
    hand_info: dict = field(default_factory=dict, compare=False, repr=False)
    add_cache: dict = field(default_factory=dict, compare=False, repr=False)
    points_cache: dict = field(default_factory=dict, compare=False, repr=False)

    @property
    def size(self) -> int:
        return len(self.defs)

    @property
    def any_score_effect(self) -> bool:
        return any(f is not None for f in self.score_fn)


    def kind(self, card: CardDef) -> int:
        return self.index[card]

    def kinds(self, cards: Sequence[CardDef]) -> list[int]:
        return [self.index[c] for c in cards]

    @classmethod
    def build(cls, cards: Sequence[CardDef], *, compile_effects: bool = True) -> CardTable:
        """Build the table of the distinct cards among ``cards`` (order of first appearance)."""
        seen: dict[CardDef, int] = {}
        for c in cards:
            if c not in seen:
                seen[c] = len(seen)
        defs = tuple(seen)
        from .scoring import compile_model

        values, legendary, score_fns, on_discard, has_effect = [], [], [], [], []
        effects = []
        for c in defs:
            values.append(int(c.value or 0))
            legendary.append(LEGENDARY in c.keyword_keys)
            effect, score, actions = _effect_parts(c) if compile_effects else (None, None, ())
            effects.append(effect if score is not None else None)
            score_fns.append(score)
            # Défausse triggers only on cards that carry the keyword (rules, « Index des mots-clés »:
            # « Si une carte avec ce mot-clé est défaussée lors de l'étape 2 … son effet se
            # déclenche »): a ``defausse:`` part on a card without the keyword never fires.
            if DISCARD_KEYWORD not in c.keyword_keys:
                actions = ()
            on_discard.append(actions)
            has_effect.append(bool(actions))
        model = compile_model(effects, defs)
        return cls(
            defs=defs,
            value=tuple(values),
            legendary=tuple(legendary),
            score_fn=tuple(score_fns),
            on_discard=tuple(on_discard),
            has_discard_effect=tuple(has_effect),
            index=seen,
            iscore=model.rules,
            model=model,
            reads_discards=model.reads_discards,
            reads_opponent=model.reads_opponent,
            reads_deck=model.reads_deck,
            has_iscore=any(f is not None for f in model.rules),
            flags=tuple((2 if leg else (1 if DISCARD_KEYWORD in c.keyword_keys else 0))
                        for c, leg in zip(defs, legendary)),
            effect_kinds=frozenset(type(a).__name__ for acts in on_discard for a in acts),
        )


def blank_card(*, name: str = "Carte blanche", id: int = -1) -> CardDef:
    """A card of value 0 with no colour, keyword or effect (used by the swap test)."""
    return CardDef(id=id, game="nespanini", edition="BLANK", number=0, set_size=0, name=name, value=0)
