"""Reading cards, on a SQLAlchemy session or on the read-only snapshot of the SQLite default.

The functions here take a ``source``: a session (``db.session_scope``), or a
:class:`~cardbase.storage.readonly.ReadOnlyDB` given by :func:`cardbase.storage.readonly.read`
when nothing but reading is left to do. Each asks the same questions both ways, side by side —
SQLAlchemy clauses on a session (SQLAlchemy loaded then), SQLite text on the snapshot — and turns
the rows into the same values: :func:`card_to_dict` and :func:`to_card_def` are the one copy both
paths use, so that a command prints the same bytes either way (``tests/test_readonly.py``).
:mod:`cardbase.catalog.cards` re-exports them.

This module and what it imports at its top stay free of SQLAlchemy, SQLModel and pydantic: the
commands that only read (``cards search``, ``cards show``, ``sim game``) start without them.

    from cardbase.catalog import reads
    from cardbase.storage.readonly import read

    cards = read(lambda source: reads.card_dicts(source, query="c:rouge k:foule"))
    defs = read(lambda source: reads.card_defs(source, game="overkill", for_print=False))
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from cardbase.catalog.fields import declared_fields, field_values
from cardbase.domain import CardDef
from cardbase.errors import NotFoundError
from cardbase.i18n import tr
from cardbase.storage.readonly import CardRow, EditionRow, GameRow, ReadOnlyDB, in_marks
from cardbase.text import card_ref, fold, parse_card_ref

if TYPE_CHECKING:  # pragma: no cover
    from sqlmodel import Session

    from cardbase.storage.models import Card, Edition, Game

__all__ = ["CARD_DICT_KEYS", "card_defs", "card_dicts", "card_rows", "card_to_dict", "decks_using_card",
           "facet_rows", "fill_print_tables", "get_card", "get_edition", "get_game", "to_card_def"]


# --------------------------------------------------------------------------- values

def _is_text(value: str) -> bool:
    """Whether ``value`` is storable text: no lone surrogate (undecodable bytes on a command line)."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _printable(value: str) -> str:
    return value.encode("utf-8", "backslashreplace").decode("utf-8")


def card_to_dict(card: Card | CardRow, edition: Edition | EditionRow, game: Game | GameRow
                 ) -> dict[str, Any]:
    return {
        "id": card.id,
        "game": game.code,
        "edition": edition.code,
        "number": card.number,
        "ref": card_ref(edition.code, card.number),
        "numbering": f"{card.number}/{edition.set_size}",
        "name": card.name,
        "value": card.value,
        "colour": card.colour,
        "banner": card.banner,
        "rarity": card.rarity,
        "type": card.card_type,
        "keywords": list(card.keywords or []),
        "effect": card.effect,
        "effect_text": card.effect_text,
        "flavour": card.flavour,
        "art": card.art,
        "copies": card.copies,
        "stats": dict(card.stats or {}),
        "sample": card.sample,
        "version": card.version,
        **_declared_values(game, card),
    }


# The keys card_to_dict always gives; a game's declared fields come after them, by name.
CARD_DICT_KEYS = frozenset((
    "id", "game", "edition", "number", "ref", "numbering", "name", "value", "colour", "banner",
    "rarity", "type", "keywords", "effect", "effect_text", "flavour", "art", "copies", "stats",
    "sample", "version"))


def _declared_values(game: Game | GameRow, card: Card | CardRow) -> dict[str, Any]:
    """The card's declared fields by name (see cardbase.catalog.gamesdata); none for a game without."""
    if not game.fields:
        return {}
    return field_values(game, card.stats)


def to_card_def(card: Card | CardRow, edition: Edition | EditionRow, game: Game | GameRow) -> CardDef:
    return CardDef(
        id=card.id or 0,
        game=game.code,
        edition=edition.code,
        number=card.number,
        set_size=edition.set_size,
        name=card.name,
        value=card.value,
        colour=card.colour,
        banner=card.banner,
        rarity=card.rarity,
        card_type=card.card_type,
        keywords=tuple(card.keywords or ()),
        effect=card.effect,
        effect_text=card.effect_text,
        flavour=card.flavour,
        art=card.art,
        copies=card.copies,
        stats=tuple(sorted((card.stats or {}).items())),
        sample=card.sample,
        version=card.version,
    )


def fill_print_tables(games: Iterable[Game | GameRow]) -> None:
    """Tell printing each game's chosen template and its declared fields' labels
    (:mod:`cardbase.catalog.printinfo`), for cards about to be printed."""
    from cardbase.catalog.printinfo import GAME_TEMPLATES, STAT_LABELS

    for g in {g.code: g for g in games}.values():
        if g.template:
            GAME_TEMPLATES[g.code] = g.template
        else:
            GAME_TEMPLATES.pop(g.code, None)
        # and its declared fields' labels, printed in the language of the print
        STAT_LABELS[g.code] = {d.name: {"fr": d.label, "en": d.label_en} for d in declared_fields(g)}


# --------------------------------------------------------------------------- lookups

def get_game(source: Session | ReadOnlyDB, code: str) -> Game | GameRow:
    """A game by code (any case, accents); unknown: a message naming the known codes."""
    if not isinstance(source, ReadOnlyDB):
        from cardbase.catalog.gamesdata import get_game as full

        return full(source, code)
    found = source.games("game.code = ?", [fold(code)])
    if not found:
        codes = ", ".join(row[0] for row in source.rows("SELECT game.code FROM game"))
        raise NotFoundError(tr("catalog.no_game", code=code, codes=codes))
    return found[0]


def get_edition(source: Session | ReadOnlyDB, code: str) -> Edition | EditionRow:
    """An edition by code (any case); unknown: a message naming the known codes."""
    if isinstance(source, ReadOnlyDB):
        found = source.editions("upper(edition.code) = ?", [code.upper()])
        edition = found[0] if found else None
    else:
        from sqlalchemy import func
        from sqlmodel import select

        from cardbase.storage.models import Edition

        edition = source.exec(select(Edition).where(func.upper(Edition.code) == code.upper())).first()
    if edition is None:
        if isinstance(source, ReadOnlyDB):
            codes = ", ".join(row[0] for row in source.rows(
                "SELECT edition.code FROM edition ORDER BY edition.code"))
        else:
            codes = ", ".join(source.exec(select(Edition.code).order_by(Edition.code)).all())
        raise NotFoundError(tr("catalog.no_edition", code=code, codes=codes))
    return edition


def get_card(source: Session | ReadOnlyDB, ref: str | int) -> Card | CardRow:
    """A card by id, by collector ref (``NP1-012``) or by exact (folded) name."""
    if isinstance(ref, str) and not _is_text(ref):
        raise NotFoundError(tr("catalog.no_card_named", name=_printable(ref)))
    find = _CardFinder(source)
    if isinstance(ref, int) or (isinstance(ref, str) and ref.isascii() and ref.isdigit()):
        card = find.by_id(int(ref)) if int(ref) < 2**63 else None
        if card is None:
            raise NotFoundError(tr("catalog.no_card_id", id=ref))
        return card
    parsed = parse_card_ref(ref)
    if parsed:
        code, number = parsed
        card = find.by_ref(code, number)
        if card is None:
            raise NotFoundError(tr("catalog.no_card_number", ref=ref, code=code, number=number))
        return card
    cards = find.by_name_key(fold(ref))
    if not cards:
        raise NotFoundError(tr("catalog.no_card_named", name=ref))
    if len(cards) > 1:
        refs = ", ".join(card_ref(find.edition_code(c.edition_id), c.number) for c in cards)
        raise NotFoundError(tr("catalog.many_cards_named", count=len(cards), name=ref, refs=refs))
    return cards[0]


class _CardFinder:
    """The queries of :func:`get_card`, on a session or on the read-only snapshot."""

    def __init__(self, source: Session | ReadOnlyDB) -> None:
        self.source = source
        self.snapshot = isinstance(source, ReadOnlyDB)

    def by_id(self, card_id: int) -> Card | CardRow | None:
        if self.snapshot:
            found = self.source.cards("card.id = ?", [card_id])
            return found[0] if found else None
        from cardbase.storage.models import Card

        return self.source.get(Card, card_id)

    def by_ref(self, code: str, number: int) -> Card | CardRow | None:
        if self.snapshot:
            found = self.source.cards("upper(edition.code) = ? AND card.number = ?", [code, number],
                                      join_edition=True)
            return found[0] if found else None
        from sqlalchemy import func
        from sqlmodel import select

        from cardbase.storage.models import Card, Edition

        return self.source.exec(
            select(Card).join(Edition).where(func.upper(Edition.code) == code, Card.number == number)
        ).first()

    def by_name_key(self, key: str) -> list[Card | CardRow]:
        if self.snapshot:
            return self.source.cards("card.name_key = ?", [key])
        from sqlmodel import select

        from cardbase.storage.models import Card

        return list(self.source.exec(select(Card).where(Card.name_key == key)).all())

    def edition_code(self, edition_id: int) -> str:
        if self.snapshot:
            return self.source.editions("edition.id = ?", [edition_id])[0].code
        from cardbase.storage.models import Edition

        return self.source.get(Edition, edition_id).code


# --------------------------------------------------------------------------- cards

def card_rows(source: Session | ReadOnlyDB, *, query: str | None = None, edition: str | None = None,
              game: str | None = None, ids: Iterable[int] | None = None, limit: int | None = None
              ) -> list[tuple[Any, Any, Any]]:
    """Cards with their edition and game, filtered in SQL, ordered by game, edition, number."""
    if not isinstance(source, ReadOnlyDB):
        return _session_card_rows(source, query=query, edition=edition, game=game, ids=ids, limit=limit)
    where: list[str] = []
    params: list[Any] = []
    if query and query.strip():
        from cardbase.catalog.search import check_values, declared_keys, parse_query, to_sqlite

        node = parse_query(query, declared_keys(source))
        check_values(source, node, query)
        clause, values = to_sqlite(node)
        where.append(clause)
        params += values
    if edition:
        where.append("edition.id = ?")
        params.append(get_edition(source, edition).id)
    if game:
        where.append("game.id = ?")
        params.append(get_game(source, game).id)
    if ids is not None:
        wanted = list(ids)
        where.append(f"card.id IN ({in_marks(len(wanted))})")
        params += wanted
    return source.card_rows(" AND ".join(where), params,
                            order="game.code, edition.code, card.number", limit=limit or None)


def _session_card_rows(session: Session, *, query: str | None, edition: str | None, game: str | None,
                       ids: Iterable[int] | None, limit: int | None) -> list[tuple[Card, Edition, Game]]:
    """:func:`card_rows` on a session: the same filters as SQLAlchemy clauses."""
    from sqlmodel import select

    from cardbase.storage.models import Card, Edition, Game

    stmt = select(Card, Edition, Game).join(Edition, Card.edition_id == Edition.id).join(
        Game, Edition.game_id == Game.id)
    if query and query.strip():
        from cardbase.catalog.search import check_values, declared_keys, parse_query, to_sql

        node = parse_query(query, declared_keys(session))
        check_values(session, node, query)
        stmt = stmt.where(to_sql(node))
    if edition:
        stmt = stmt.where(Edition.id == get_edition(session, edition).id)
    if game:
        stmt = stmt.where(Game.id == get_game(session, game).id)
    if ids is not None:
        stmt = stmt.where(Card.id.in_(list(ids)))
    stmt = stmt.order_by(Game.code, Edition.code, Card.number)
    if limit:
        stmt = stmt.limit(limit)
    return list(session.exec(stmt).all())


def card_dicts(source: Session | ReadOnlyDB, **filters: Any) -> list[dict[str, Any]]:
    """The cards of :func:`card_rows` as dicts (``cards search --json``, ``cards show``)."""
    return [card_to_dict(c, e, g) for c, e, g in card_rows(source, **filters)]


def card_defs(source: Session | ReadOnlyDB, *, for_print: bool = True, **filters: Any) -> list[CardDef]:
    """The cards of :func:`card_rows` as values for engines and the renderer. ``for_print``: also
    tell the printing code each game's template and field labels (:func:`fill_print_tables`)."""
    rows = card_rows(source, **filters)
    if for_print:
        fill_print_tables(g for _, _, g in rows)
    return [to_card_def(c, e, g) for c, e, g in rows]


# --------------------------------------------------------------------------- what the app's cards page lists

def facet_rows(source: Session | ReadOnlyDB, game: str | None = None
               ) -> tuple[list[Game | GameRow], list[tuple[str, str]], list[tuple[Any, Any, Any]]]:
    """What the filters of the app's cards page offer, as stored: every game (by code), every
    edition as ``(edition code, game code)`` (by edition code), and the ``(colour, rarity,
    keywords)`` of every card of ``game`` (of every game when None), keywords decoded, in the order
    the database gives them (the first spelling of a colour met is the one shown)."""
    if isinstance(source, ReadOnlyDB):
        games = source.games(order="game.code")
        editions = [(e, g) for e, g in source.rows(
            "SELECT edition.code, game.code AS code_1 FROM edition JOIN game ON game.id = edition.game_id "
            "ORDER BY edition.code")]
        sql = ("SELECT card.colour, card.rarity, card.keywords FROM card "
               "JOIN edition ON edition.id = card.edition_id JOIN game ON game.id = edition.game_id")
        rows = source.rows(sql + " WHERE game.code = ?", [game]) if game else source.rows(sql)
        return games, editions, [(c, r, source.json(k)) for c, r, k in rows]
    from sqlmodel import select

    from cardbase.storage.models import Card, Edition
    from cardbase.storage.models import Game as GameTable

    games = list(source.exec(select(GameTable).order_by(GameTable.code)).all())
    editions = [(e, g) for e, g in source.exec(
        select(Edition.code, GameTable.code).join(GameTable).order_by(Edition.code)).all()]
    stmt = select(Card.colour, Card.rarity, Card.keywords).join(Edition).join(GameTable)
    if game:
        stmt = stmt.where(GameTable.code == game)
    return games, editions, [(c, r, k) for c, r, k in source.exec(stmt).all()]


def decks_using_card(source: Session | ReadOnlyDB, card_id: int) -> list[str]:
    """The names of the saved decks holding the card, sorted, each once."""
    if isinstance(source, ReadOnlyDB):
        names = [row[0] for row in source.rows(
            "SELECT deck.name FROM deck JOIN deck_entry ON deck_entry.deck_id = deck.id "
            "WHERE deck_entry.card_id = ?", [card_id])]
    else:
        from sqlmodel import select

        from cardbase.storage.models import Deck, DeckEntry

        names = list(source.exec(select(Deck.name).join(DeckEntry, DeckEntry.deck_id == Deck.id)
                                 .where(DeckEntry.card_id == card_id)).all())
    return sorted(set(names))
