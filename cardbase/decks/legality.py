"""Legality: the one deck checker (:func:`check_deck`): size, copies, the game's deck rules.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from cardbase.errors import Problem
from cardbase.i18n import tr
from cardbase.text import fold

from .lists import MAX_COUNT, DeckList, Legality, ResolvedDeck, ResolvedEntry, n_cards, n_copies
from .resolve import _as_resolved

if TYPE_CHECKING:  # pragma: no cover
    from sqlmodel import Session

    from cardbase.storage.models import Game
    from cardbase.storage.readonly import ReadOnlyDB

# --------------------------------------------------------------------------- legality


def copy_limit_for(game: Game, keywords: Iterable[str]) -> int:
    """Copies of one card name a deck of ``game`` may hold, given the card's keywords."""
    limit = game.copy_limit if game.copy_limit is not None else MAX_COUNT
    overrides = {fold(k): v for k, v in (game.keyword_limits or {}).items()}
    for kw in keywords:
        if fold(kw) in overrides:
            limit = max(limit, overrides[fold(kw)])
    return limit


def check_deck(session: Session | ReadOnlyDB, deck: DeckList | ResolvedDeck | Sequence[Any],
               game: str | Game | None = None) -> Legality:
    """Check a deck against its game's rules; return every problem with a fix.

    Rules (as data on :class:`Game`): exactly ``deck_size`` cards; at most ``copy_limit`` copies of a
    card name across editions, raised by ``keyword_limits`` (NesPanini: Foule → 4); every line must
    name exactly one card of the game.
    """
    resolved = _as_resolved(session, deck, game)
    problems = list(resolved.problems)
    count = resolved.count
    g = resolved.game
    if g is None:
        if not any(p.code == "unknown-game" for p in problems):
            problems.append(Problem(
                "unknown-game", tr("decks.check.no_game"), tr("decks.check.no_game_fix"),
                resolved.source))
        return Legality(False, count, problems)
    if g.deck_size is None:
        problems.append(Problem(
            "no-deck-rules", tr("decks.check.no_deck_rules", game=g.name),
            tr("decks.check.no_deck_rules_fix"), resolved.source))
        return Legality(False, count, problems)

    by_name: dict[str, list[ResolvedEntry]] = {}
    for e in resolved.entries:
        by_name.setdefault(e.card.name_key or fold(e.card.name), []).append(e)
    groups = [(group[0].card.name, sum(e.count for e in group),
               {fold(k) for e in group for k in (e.card.keywords or [])},
               sorted(ln for e in group for ln in e.lines)) for group in by_name.values()]
    problems.extend(_rule_problems(g, count, groups, resolved.source))
    return Legality(not problems, count, problems)


def check_card_defs(cards: Sequence[Any], game: Game, *, source: str = "<deck>") -> Legality:
    """:func:`check_deck` of a deck given as one card (a ``CardDef``: name, keywords) per copy,
    against the deck rules of ``game`` (any object with ``name``, ``deck_size``, ``copy_limit``,
    ``keyword_limits``): the size and the copies per card name, with the same messages. Used by
    the playtest batches, whose decks need no database (``--edition``)."""
    if game.deck_size is None:
        return Legality(True, len(cards), [])
    by_name: dict[str, list[Any]] = {}
    for c in cards:
        by_name.setdefault(fold(c.name), []).append(c)
    groups = [(group[0].name, len(group), {fold(k) for c in group for k in (c.keywords or ())}, [])
              for group in by_name.values()]
    problems = _rule_problems(game, len(cards), groups, source)
    return Legality(not problems, len(cards), problems)


def _rule_problems(g: Any, count: int, groups: Iterable[tuple[str, int, set[str], list[int]]],
                   source: str) -> list[Problem]:
    """The size and copy-limit problems of a deck: ``groups`` holds per card name (name, copies,
    folded keywords, deck-list lines)."""
    problems: list[Problem] = []
    if count != g.deck_size:
        diff = count - g.deck_size
        fix = (tr("decks.check.remove", cards=n_cards(diff)) if diff > 0
               else tr("decks.check.add", cards=n_cards(-diff)))
        problems.append(Problem(
            "deck-size",
            tr("decks.check.deck_size", cards=n_cards(count), game=g.name, size=g.deck_size),
            fix, source))
    overrides = {fold(k): v for k, v in (g.keyword_limits or {}).items()}
    base = g.copy_limit
    for name, copies, keywords, lines in groups:
        limit = copy_limit_for(g, keywords)
        if copies <= limit:
            continue
        granted = [k for k in keywords if k in overrides and overrides[k] == limit]
        fix = tr("decks.check.lower", name=name, copies=n_copies(limit))
        if not granted and base is not None:
            better = [(v, k) for k, v in overrides.items() if v > limit]
            if better:
                v, k = max(better)
                fix = tr("decks.check.lower_or_pick", name=name, copies=n_copies(limit),
                         keyword=k.capitalize(), more=n_copies(v))
        where = source
        if len(lines) == 1:
            where = tr("decks.where.line", source=source, line=lines[0])
        elif lines:
            where = tr("decks.where.lines", source=source, lines=", ".join(map(str, lines)))
        if granted:
            message = tr("decks.check.too_many_granted", name=name, times=copies, limit=limit,
                         keywords=", ".join(sorted(k.capitalize() for k in granted)))
        else:
            message = tr("decks.check.too_many", name=name, times=copies, limit=limit)
        problems.append(Problem("too-many-copies", message, fix, where))
    return problems
