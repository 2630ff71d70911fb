"""Decks for playtests, resolved through the database: what the command line and the app call.

A deck reference is, in this order:

0. an ``int``: the id of a saved deck (what the app keeps);
1. the path of a deck-list file (parsed by :func:`cardbase.decks.read_deck_file` and resolved
   against the database's cards by :func:`cardbase.decks.resolve_deck`);
2. the name of a saved deck (accents and case do not matter when only one deck matches);
3. the slug of a starter deck (the file name under ``data/decks`` without ``.txt``, e.g.
   ``braises-ardentes``): the saved deck of the same name if the database has it, else the file
   resolved against the database.

Anything else is a :class:`~cardbase.errors.NotFoundError` naming the saved decks and the
starter slugs. A deck that names unknown cards is a :class:`~cardbase.errors.DeckListError` with
every bad line. Resolving accepts a deck that is not legal (the engine only needs 5 cards); the
batch commands then check it (:func:`batch_legality`): refused unless ``--allow-illegal``, and
said in the report when played.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlmodel import Session

from cardbase import decks
from cardbase.catalog import cards as catalog
from cardbase.domain import CardDef
from cardbase.errors import DeckListError, NotFoundError
from cardbase.i18n import tr
from cardbase.storage.models import Deck
from cardbase.text import fold

from .cards import starter_decks

GAME = "nespanini"


@dataclass(slots=True, frozen=True)
class PlaytestDeck:
    """A deck ready for the engine: its name, where it came from and one CardDef per copy."""

    name: str
    source: str  # "file", "saved" or "starter"
    cards: tuple[CardDef, ...]


def resolved_deck_defs(session: Session, resolved: decks.ResolvedDeck, *,
                       where: str | None = None) -> tuple[CardDef, ...]:
    """The CardDefs of a deck resolved by :mod:`cardbase.decks`, one per copy, in list order.

    Lines that matched no card, or a deck of another game, are a :class:`DeckListError`.
    """
    where = where or tr("engine.deck.the_deck")
    if resolved.problems:
        raise DeckListError(tr("engine.deck.lines_unmatched", where=where, count=len(resolved.problems)),
                            list(resolved.problems))
    if resolved.game is not None and resolved.game.code != GAME:
        raise DeckListError(tr("engine.deck.wrong_game", where=where, game=resolved.game.code,
                               playtest=GAME))
    counts: dict[int, int] = {}
    for e in resolved.entries:
        counts[e.card.id] = counts.get(e.card.id, 0) + e.count
    by_id = {c.id: c for c in catalog.card_defs(session, ids=list(counts))}
    return tuple(by_id[i] for i, n in counts.items() for _ in range(n))


def _saved(session: Session, name: str) -> Deck | None:
    """The saved NesPanini deck called ``name`` (exactly, else the only one equal when folded)."""
    saved = decks.list_decks(session, game=GAME)
    exact = [d for d in saved if d.name == name]
    if len(exact) == 1:
        return exact[0]
    folded = [d for d in saved if fold(d.name) == fold(name)]
    return folded[0] if len(folded) == 1 else None


def resolve_playtest_deck(session: Session, deck_ref: str | int) -> PlaytestDeck:
    """The deck ``deck_ref`` names: a deck-list file, a saved deck or a starter slug; an ``int``
    is the id of a saved deck."""
    if isinstance(deck_ref, int):
        saved = session.get(Deck, deck_ref)
        if saved is None:
            raise NotFoundError(tr("engine.deck.no_saved_id", id=deck_ref))
        resolved = decks.deck_entries(session, saved)
        return PlaytestDeck(saved.name, "saved",
                            resolved_deck_defs(session, resolved, where=tr("engine.deck.saved", name=saved.name)))
    ref = deck_ref.strip()
    path = Path(ref)
    if ref and path.is_file():
        resolved = decks.resolve_deck(session, decks.read_deck_file(path), game=GAME)
        return PlaytestDeck(resolved.name or path.stem, "file", resolved_deck_defs(session, resolved, where=str(path)))
    deck = _saved(session, ref)
    if deck is not None:
        resolved = decks.deck_entries(session, deck)
        return PlaytestDeck(deck.name, "saved",
                            resolved_deck_defs(session, resolved, where=tr("engine.deck.saved", name=deck.name)))
    starters = starter_decks()
    if ref in starters:
        listed = decks.read_deck_file(starters[ref])
        deck = _saved(session, listed.name) if listed.name else None
        if deck is not None:
            resolved = decks.deck_entries(session, deck)
        else:
            resolved = decks.resolve_deck(session, listed, game=GAME)
        return PlaytestDeck(ref, "starter",
                            resolved_deck_defs(session, resolved, where=tr("engine.deck.starter", name=ref)))
    names = [d.name for d in decks.list_decks(session, game=GAME)]
    raise NotFoundError(tr("engine.deck.no_deck", ref=repr(deck_ref),
                           saved=", ".join(names) or tr("engine.deck.none_saved"),
                           starters=", ".join(starters) or tr("engine.sim.none")))


def deck_defs_from_db(session: Session, deck_ref: str | int) -> list[CardDef]:
    """The cards of the deck ``deck_ref`` (see :func:`resolve_playtest_deck`), one per copy."""
    return list(resolve_playtest_deck(session, deck_ref).cards)


# ----------------------------------------------------------------------------- legality of batches


def deck_rules(session: Session | None = None) -> Any:
    """NesPanini's deck rules (20 cards, 2 copies, Foule 4): the database's game when a session is
    given and knows it, else the game of ``data/games.toml`` (``--edition`` batches, no database)."""
    import tomllib

    from cardbase.storage.models import Game

    if session is not None:
        found = decks.get_game(session, GAME)
        if found is not None:
            return found
    path = Path(__file__).resolve().parents[2] / "data" / "games.toml"
    with path.open("rb") as fh:
        raw = next(g for g in tomllib.load(fh)["games"] if g["code"] == GAME)
    return Game(code=GAME, name=raw["name"], deck_size=raw.get("deck_size"),
                copy_limit=raw.get("copy_limit"), keyword_limits=dict(raw.get("keyword_limits") or {}))


def batch_legality(named: dict[str, Any], *, allow_illegal: bool = False,
                   rules: Any = None) -> dict[str, list[str]]:
    """Check the decks of a batch (name → one CardDef per copy) with the deck-legality code of
    :mod:`cardbase.decks`. An illegal deck refuses the batch — a :class:`ValidationError` (exit 2)
    listing every problem of every deck — unless ``allow_illegal``; then the problems are returned
    (name → lines) for the report to say them."""
    from cardbase.errors import ValidationError

    rules = rules if rules is not None else deck_rules()
    found: dict[str, list[str]] = {}
    problems = []
    for name, cards in named.items():
        legality = decks.check_card_defs(list(cards), rules, source=name)
        if not legality.legal:
            found[name] = [str(p) for p in legality.problems]
            problems.extend(legality.problems)
    if problems and not allow_illegal:
        raise ValidationError(tr("nespanini.batch.illegal", count=len(found),
                                 decks=", ".join(found)), problems)
    return found
