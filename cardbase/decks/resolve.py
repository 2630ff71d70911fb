"""Resolution: a deck list matched against the database's cards (:func:`resolve_deck`), with
suggestions for the names it does not know.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from cardbase.errors import NotFoundError, Problem
from cardbase.i18n import tr
from cardbase.storage.readonly import ReadOnlyDB, in_marks
from cardbase.text import card_ref, fold, parse_card_ref

from .lists import DeckLine, DeckList, ResolvedDeck, ResolvedEntry, _at, _or, _shown, _storable

if TYPE_CHECKING:  # pragma: no cover
    from sqlmodel import Session

    from cardbase.storage.models import Card, Edition, Game

# Every function that reads takes a SQLAlchemy session or the read-only snapshot of the SQLite
# default (cardbase.storage.readonly): the same queries, written twice, give the same rows.


def _games(session: Session | ReadOnlyDB) -> list[Game]:
    if isinstance(session, ReadOnlyDB):
        return session.games()
    from sqlmodel import select

    from cardbase.storage.models import Game

    return list(session.exec(select(Game)).all())


def _editions(session: Session | ReadOnlyDB) -> list[Edition]:
    if isinstance(session, ReadOnlyDB):
        return session.editions()
    from sqlmodel import select

    from cardbase.storage.models import Edition

    return list(session.exec(select(Edition)).all())


def _game_with_code(session: Session | ReadOnlyDB, code: str) -> Game | None:
    if isinstance(session, ReadOnlyDB):
        found = session.games("game.code = ?", [code])
        return found[0] if found else None
    from sqlmodel import select

    from cardbase.storage.models import Game

    return session.exec(select(Game).where(Game.code == code)).first()


def _cards_named(session: Session | ReadOnlyDB, keys: list[str], wanted: dict[int, set[int]]) -> list[Card]:
    """The cards whose folded name is one of ``keys`` or whose number ``wanted`` holds for their
    edition, by edition and number."""
    if isinstance(session, ReadOnlyDB):
        conditions: list[str] = []
        params: list[Any] = []
        for i in range(0, len(keys), 500):
            conditions.append(f"card.name_key IN ({in_marks(len(keys[i:i + 500]))})")
            params += keys[i:i + 500]
        for edition_id, numbers in wanted.items():
            conditions.append(f"(card.edition_id = ? AND card.number IN ({in_marks(len(numbers))}))")
            params += [edition_id, *sorted(numbers)]
        if not conditions:
            return []
        return session.cards(" OR ".join(conditions), params, order="card.edition_id, card.number")
    from sqlalchemy import and_, or_
    from sqlmodel import select

    from cardbase.storage.models import Card

    clauses = [Card.name_key.in_(keys[i:i + 500]) for i in range(0, len(keys), 500)]
    for edition_id, numbers in wanted.items():
        clauses.append(and_(Card.edition_id == edition_id, Card.number.in_(sorted(numbers))))
    if not clauses:
        return []
    return list(session.exec(
        select(Card).where(or_(*clauses)).order_by(Card.edition_id, Card.number)).all())

# --------------------------------------------------------------------------- resolution

@dataclass(slots=True)
class _Catalog:
    """The cards a resolution needs, loaded once per call."""

    games: dict[int, Game]
    editions: dict[int, Edition]
    by_code: dict[str, Edition]
    cards: list[Card]
    by_key: dict[str, list[Card]]
    by_ref: dict[tuple[str, int], Card]

    def game_of(self, card: Card) -> Game:
        return self.games[self.editions[card.edition_id].game_id]


def _load_catalog(session: Session | ReadOnlyDB, keys: Iterable[str] = (),
                  refs: Iterable[tuple[str, int]] = ()) -> _Catalog:
    """Games and editions, and only the cards named by ``keys`` (folded names) or ``refs``."""
    games = {g.id: g for g in _games(session)}
    editions = {e.id: e for e in _editions(session)}
    by_code = {e.code.upper(): e for e in editions.values()}
    keys = sorted(set(keys))
    wanted: dict[int, set[int]] = {}
    for code, number in refs:
        ed = by_code.get(code.upper())
        if ed is not None:
            wanted.setdefault(ed.id, set()).add(number)
    cards = _cards_named(session, keys, wanted)
    by_key: dict[str, list[Card]] = {}
    by_ref: dict[tuple[str, int], Card] = {}
    for c in cards:
        by_key.setdefault(c.name_key or fold(c.name), []).append(c)
        by_ref[(editions[c.edition_id].code.upper(), c.number)] = c
    return _Catalog(games, editions, by_code, cards, by_key, by_ref)


def _names_of_game(session: Session | ReadOnlyDB, game: Game | None) -> dict[str, str]:
    """Folded name → printed name of every card of ``game`` (all games when None)."""
    if isinstance(session, ReadOnlyDB):
        sql, params = "SELECT card.name_key, card.name FROM card", []
        if game is not None:
            sql += " JOIN edition ON edition.id = card.edition_id WHERE edition.game_id = ?"
            params.append(game.id)
        rows = session.rows(sql + " ORDER BY card.edition_id, card.number", params)
    else:
        from sqlmodel import select

        from cardbase.storage.models import Card, Edition

        query = select(Card.name_key, Card.name).order_by(Card.edition_id, Card.number)
        if game is not None:
            query = query.join(Edition, Edition.id == Card.edition_id).where(
                Edition.game_id == game.id)
        rows = session.exec(query).all()
    out: dict[str, str] = {}
    for key, name in rows:
        out.setdefault(key or fold(name), name)
    return out


def get_game(session: Session | ReadOnlyDB, game: str | Game | None) -> Game | None:
    if not isinstance(game, str):  # None, or a game already read
        return game
    if not _storable(game):
        return None
    found = _game_with_code(session, fold(game))
    if found is None:
        found = _game_with_code(session, game)
    return found


def _require_game(session: Session | ReadOnlyDB, game: str | Game) -> Game:
    found = get_game(session, game)
    if found is None:
        codes = ", ".join(sorted(g.code for g in _games(session)))
        raise NotFoundError(tr("decks.resolve.unknown_game_known", game=_shown(game),
                               codes=codes or tr("decks.word.none")))
    return found


def _suggest(key: str, candidates: Iterable[str], names: dict[str, str]) -> list[str]:
    close = difflib.get_close_matches(key, list(candidates), n=3, cutoff=0.6)
    if not close:  # a typed prefix ("bouffon") often names a longer card
        close = [c for c in candidates if c.startswith(key) or key in c][:3] if len(key) >= 4 else []
    return [names[c] for c in close]


def resolve_deck(session: Session | ReadOnlyDB, deck_list: DeckList, *, game: str | Game | None = None
                 ) -> ResolvedDeck:
    """Match every line of ``deck_list`` to one card of the database.

    The game is ``game`` if given, else the list's ``# game:``, else the one game every named card
    belongs to. Names match accent- and case-insensitively; a name printed in several editions of
    the game resolves to its first printing (copies are counted by name anyway). Problems:
    ``unknown-card`` (with suggestions), ``unknown-ref``, ``wrong-game``, ``ambiguous-card``,
    ``unknown-game``.
    """
    cat = _load_catalog(session, (fold(ln.text) for ln in deck_list.lines if not ln.ref),
                        (ln.ref for ln in deck_list.lines if ln.ref))
    problems: list[Problem] = []
    target: Game | None = None
    requested = game if game is not None else deck_list.game
    if requested is not None:
        target = get_game(session, requested)
        if target is None:
            codes = ", ".join(sorted(g.code for g in cat.games.values()))
            problems.append(Problem(
                "unknown-game", tr("decks.resolve.unknown_game", game=_shown(str(requested))),
                tr("decks.resolve.use_one_of", codes=codes) if codes
                else tr("decks.resolve.create_game_first"),
                f"{deck_list.source}"))
            return ResolvedDeck(None, (), tuple(problems), deck_list.count, deck_list.name,
                                deck_list.description, deck_list.source)

    if target is None:  # infer from the cards
        seen: set[int] = set()
        for ln in deck_list.lines:
            if ln.ref:
                card = cat.by_ref.get(ln.ref)
                if card is not None:
                    seen.add(cat.game_of(card).id)
            else:
                gids = {cat.game_of(c).id for c in cat.by_key.get(fold(ln.text), [])}
                if len(gids) == 1:
                    seen |= gids
        if len(seen) == 1:
            target = cat.games[seen.pop()]

    game_keys: dict[str, str] | None = None  # loaded on the first unknown name

    found: dict[int, list[Any]] = {}
    order: list[int] = []
    for ln in deck_list.lines:
        where = _at(deck_list.source, ln.line, ln.column)
        card: Card | None = None
        if ln.ref:
            ref = card_ref(*ln.ref)
            card = cat.by_ref.get(ln.ref)
            if card is None:
                edition = cat.by_code.get(ln.ref[0])
                if edition is None:
                    fix = tr("decks.resolve.no_edition_fix", codes=", ".join(sorted(cat.by_code)))
                    msg = tr("decks.resolve.no_edition", edition=ln.ref[0], text=ln.text)
                else:
                    fix = tr("decks.resolve.no_number_fix", edition=edition.code,
                             size=edition.set_size)
                    msg = tr("decks.resolve.no_number", ref=ref, edition=edition.code)
                problems.append(Problem("unknown-ref", msg, fix, where))
                continue
        else:
            key = fold(ln.text)
            candidates = cat.by_key.get(key, [])
            in_game = [c for c in candidates if target is None or cat.game_of(c).id == target.id]
            if in_game:
                games = {cat.game_of(c).id for c in in_game}
                if len(games) > 1:
                    names = ", ".join(sorted(cat.games[g].code for g in games))
                    problems.append(Problem(
                        "ambiguous-card", tr("decks.resolve.ambiguous", text=ln.text, games=names),
                        tr("decks.resolve.ambiguous_fix"), where))
                    continue
                card = in_game[0]
            elif candidates:
                other = sorted({cat.game_of(c).code for c in candidates})
                problems.append(Problem(
                    "wrong-game",
                    tr("decks.resolve.wrong_game", text=ln.text, games=", ".join(other),
                       game=target.code),
                    tr("decks.resolve.wrong_game_fix", game=target.name), where))
                continue
            else:
                if game_keys is None:
                    game_keys = _names_of_game(session, target)
                sugg = _suggest(key, game_keys.keys(), game_keys)
                fix = (tr("decks.resolve.did_you_mean", names=_or(f"« {s} »" for s in sugg))
                       if sugg else tr("decks.resolve.check_spelling"))
                problems.append(Problem(
                    "unknown-card", tr("decks.resolve.unknown_card", text=ln.text), fix, where))
                continue
        if target is not None and cat.game_of(card).id != target.id:
            problems.append(Problem(
                "wrong-game",
                tr("decks.resolve.wrong_game_named", text=ln.text, name=card.name,
                   games=cat.game_of(card).code, game=target.code),
                tr("decks.resolve.wrong_game_fix", game=target.name), where))
            continue
        if card.id not in found:
            found[card.id] = [card, 0, []]
            order.append(card.id)
        found[card.id][1] += ln.count
        found[card.id][2].append(ln.line)

    entries = tuple(
        ResolvedEntry(found[i][0], found[i][1], cat.editions[found[i][0].edition_id].code,
                      tuple(found[i][2]))
        for i in order
    )
    return ResolvedDeck(target, entries, tuple(problems), deck_list.count, deck_list.name,
                        deck_list.description, deck_list.source)


def _as_resolved(session: Session | ReadOnlyDB, deck: DeckList | ResolvedDeck | Sequence[Any],
                 game: str | Game | None) -> ResolvedDeck:
    """Any accepted deck form as a :class:`ResolvedDeck` for ``game`` (or the deck's own game)."""
    if isinstance(deck, DeckList):
        return resolve_deck(session, deck, game=game)
    if isinstance(deck, ResolvedDeck):
        if game is None:
            return deck
        target = get_game(session, game)
        if deck.game is not None and target is not None and target.id == deck.game.id:
            return deck
        return resolve_deck(session, _to_deck_list(deck), game=game)
    # a sequence of ResolvedEntry or (Card, count): re-read through collector references
    editions = {e.id: e.code for e in _editions(session)}
    lines: list[DeckLine] = []
    for i, item in enumerate(deck, start=1):
        if isinstance(item, ResolvedEntry):
            card, count = item.card, item.count
        else:
            card, count = item
        ref = (editions[card.edition_id].upper(), card.number)
        lines.append(DeckLine(i, int(count), card_ref(*ref), 1, ref))
    return resolve_deck(session, DeckList(tuple(lines)), game=game)


def _to_deck_list(deck: ResolvedDeck) -> DeckList:
    lines = tuple(
        DeckLine(i + 1, e.count, e.ref, 1, parse_card_ref(e.ref)) for i, e in enumerate(deck.entries)
    )
    return DeckList(lines, deck.name, deck.game.code if deck.game else None, deck.description,
                    deck.source)
