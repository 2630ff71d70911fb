"""SQLModel tables. Multi-game from the start: every card belongs to an edition of a game.

Derived ``*_key`` columns hold the folded (accent-free, lower-case) forms used by search, so that a
query runs in SQL on SQLite and PostgreSQL alike. They are always written by ``catalog``; never set
them by hand.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from sqlalchemy import JSON, Column, Text, UniqueConstraint
from sqlmodel import Field, SQLModel


def _now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


class Game(SQLModel, table=True):
    __tablename__ = "game"

    id: int | None = Field(default=None, primary_key=True)
    code: str = Field(index=True, unique=True, max_length=40)
    name: str = Field(max_length=120)
    min_players: int | None = None
    max_players: int | None = None
    # Deck rules as data. deck_size None: the game has no constructed decks.
    deck_size: int | None = None
    copy_limit: int | None = None
    keyword_limits: dict[str, int] = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))
    rules_file: str | None = Field(default=None, max_length=200)
    description: str | None = Field(default=None, sa_column=Column(Text))
    # Card template used to print the game's cards (a name in card_templates/); None: by game code.
    template: str | None = Field(default=None, max_length=80)
    # The game's declared card fields, in order: [{"name": "damage", "type": "int", "min": 0}, …]
    # (see cardbase.catalog.gamesdata). Their values are stored in Card.stats under their names.
    fields: list[dict[str, Any]] = Field(default_factory=list, sa_column=Column(JSON, nullable=False))
    version: int = 1
    # Seed identity: the key of the data/ entry this row was seeded from (None: made by a user).
    # It never changes, so the row keeps its identity when its code or name does (cardbase.catalog.seed).
    origin: str | None = Field(default=None, max_length=200, unique=True, index=True)


class Edition(SQLModel, table=True):
    __tablename__ = "edition"

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id", index=True)
    code: str = Field(index=True, unique=True, max_length=20)
    name: str = Field(max_length=120)
    release_date: dt.date | None = None
    set_size: int = 0
    symbol: str | None = Field(default=None, max_length=40)
    description: str | None = Field(default=None, sa_column=Column(Text))
    sample: bool = False  # the edition's figures are sample data
    version: int = 1
    # Seed identity: the key of the data/ entry this row was seeded from (None: made by a user).
    # It never changes, so the row keeps its identity when its code or name does (cardbase.catalog.seed).
    origin: str | None = Field(default=None, max_length=200, unique=True, index=True)


class Card(SQLModel, table=True):
    __tablename__ = "card"
    __table_args__ = (UniqueConstraint("edition_id", "number", name="uq_card_edition_number"),)

    id: int | None = Field(default=None, primary_key=True)
    edition_id: int = Field(foreign_key="edition.id", index=True)
    number: int
    name: str = Field(max_length=120)
    value: int | None = None
    colour: str | None = Field(default=None, max_length=40)
    banner: str | None = Field(default=None, max_length=80)
    rarity: str | None = Field(default=None, max_length=40)
    card_type: str | None = Field(default=None, max_length=80)
    keywords: list[str] = Field(default_factory=list, sa_column=Column(JSON, nullable=False))
    effect: str | None = Field(default=None, sa_column=Column(Text))
    effect_text: str | None = Field(default=None, sa_column=Column(Text))
    flavour: str | None = Field(default=None, sa_column=Column(Text))
    art: str | None = Field(default=None, max_length=300)
    copies: int = 1
    stats: dict[str, Any] = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))
    sample: bool = False
    version: int = 1
    updated_at: dt.datetime = Field(default_factory=_now)
    # Seed identity: the key of the data/ entry this row was seeded from (None: made by a user).
    # It never changes, so the row keeps its identity when its code or name does (cardbase.catalog.seed).
    origin: str | None = Field(default=None, max_length=200, unique=True, index=True)

    # Derived search keys (folded), maintained by catalog.
    name_key: str = Field(default="", index=True, max_length=120)
    text_key: str = Field(default="", sa_column=Column(Text, nullable=False, default=""))
    colour_key: str = Field(default="", index=True, max_length=40)
    banner_key: str = Field(default="", max_length=80)
    rarity_key: str = Field(default="", max_length=40)
    type_key: str = Field(default="", max_length=80)
    keywords_key: str = Field(default="", max_length=300)  # "|foule|defausse|"


class Deck(SQLModel, table=True):
    __tablename__ = "deck"
    __table_args__ = (UniqueConstraint("game_id", "name", name="uq_deck_game_name"),)

    id: int | None = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="game.id", index=True)
    name: str = Field(max_length=120)
    description: str | None = Field(default=None, sa_column=Column(Text))
    version: int = 1
    created_at: dt.datetime = Field(default_factory=_now)
    updated_at: dt.datetime = Field(default_factory=_now)
    # Seed identity: the key of the data/ entry this row was seeded from (None: made by a user).
    # It never changes, so the row keeps its identity when its code or name does (cardbase.catalog.seed).
    origin: str | None = Field(default=None, max_length=200, unique=True, index=True)


class DeckEntry(SQLModel, table=True):
    __tablename__ = "deck_entry"
    __table_args__ = (UniqueConstraint("deck_id", "card_id", name="uq_deck_entry_card"),)

    id: int | None = Field(default=None, primary_key=True)
    deck_id: int = Field(foreign_key="deck.id", index=True)
    card_id: int = Field(foreign_key="card.id", index=True)
    count: int = 1


class DeckVersion(SQLModel, table=True):
    """Every save of a deck keeps the list it replaced, as self-contained text and entries."""

    __tablename__ = "deck_version"
    __table_args__ = (UniqueConstraint("deck_id", "number", name="uq_deck_version_number"),)

    id: int | None = Field(default=None, primary_key=True)
    deck_id: int = Field(foreign_key="deck.id", index=True)
    number: int
    saved_at: dt.datetime = Field(default_factory=_now)
    note: str | None = Field(default=None, max_length=300)
    # [{"card_id": 1, "ref": "NP1-001", "name": "...", "count": 2}, ...]
    entries: list[dict[str, Any]] = Field(default_factory=list, sa_column=Column(JSON, nullable=False))


class StickerColour(SQLModel, table=True):
    """Colour → tactile symbol table of the Overseers sticker code; users may add rows."""

    __tablename__ = "sticker_colour"

    id: int | None = Field(default=None, primary_key=True)
    colour: str = Field(index=True, unique=True, max_length=40)  # canonical colour key
    symbol: str = Field(max_length=60)  # canonical symbol key, e.g. "coeur"
    label: str | None = Field(default=None, max_length=120)  # as the rules write it


class SeedItem(SQLModel, table=True):
    """What was brought in from ``data/``: one row an entry (a game, an edition header, a card, a
    starter deck, a sticker colour), and one ``kind="data"`` row saying the database was seeded.

    ``data_hash`` is the digest of the entry as ``data/`` held it when it was brought in,
    ``db_hash`` the digest of the row it became, right then: comparing them with today's digests
    tells what changed in ``data/`` since and what a user changed. A row whose ``origin`` no table
    holds any more was deleted by a user (see :mod:`cardbase.catalog.seed`).
    """

    __tablename__ = "seed_item"
    __table_args__ = (UniqueConstraint("kind", "origin", name="uq_seed_item_kind_origin"),)

    id: int | None = Field(default=None, primary_key=True)
    kind: str = Field(max_length=20)
    origin: str = Field(max_length=200)
    data_hash: str | None = Field(default=None, max_length=64)
    db_hash: str | None = Field(default=None, max_length=64)
    pulled_at: dt.datetime = Field(default_factory=_now)
