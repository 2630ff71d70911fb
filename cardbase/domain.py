"""Plain, immutable card and deck values handed to the engines, the renderer and the UI.

They are built once from the database (``catalog.card_defs``) and never touch it again, so a game
runs with no I/O and can be pickled to another process.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from cardbase.text import card_ref, fold


@dataclass(slots=True, frozen=True)
class CardDef:
    id: int
    game: str  # game code, e.g. "nespanini"
    edition: str  # edition code, e.g. "NP1"
    number: int
    set_size: int
    name: str
    value: int | None = None
    colour: str | None = None  # canonical colour key, e.g. "rouge"
    banner: str | None = None  # fanion / family
    rarity: str | None = None
    card_type: str | None = None
    keywords: tuple[str, ...] = ()  # as printed: ("Foule", "Défausse")
    effect: str | None = None  # effect language source (NesPanini)
    effect_text: str | None = None  # printed text
    flavour: str | None = None
    art: str | None = None
    copies: int = 1  # copies in the physical game (CT vs Terror has 7 Helmets…)
    stats: tuple[tuple[str, int | str], ...] = ()  # game-specific figures: damage, armour…
    sample: bool = False  # values invented as sample data, to be replaced by the designer
    version: int = 1
    keyword_keys: frozenset[str] = field(default=frozenset(), compare=False)

    def __post_init__(self) -> None:
        if not self.keyword_keys and self.keywords:
            object.__setattr__(self, "keyword_keys", frozenset(fold(k) for k in self.keywords))

    @property
    def ref(self) -> str:
        return card_ref(self.edition, self.number)

    @property
    def numbering(self) -> str:
        return f"{self.number}/{self.set_size}"

    def has_keyword(self, keyword: str) -> bool:
        return fold(keyword) in self.keyword_keys

    def stat(self, name: str, default: int | str | None = None) -> int | str | None:
        for key, val in self.stats:
            if key == name:
                return val
        return default
