"""The games cardbase can play, registered in one place (the model is OpenSpiel's ``GameType``).

Each entry says what a game is — players range, teams, how chance and hidden information are
handled, what its material is — and how to build a playable game from the cards of the database.
The command line (``cardbase games list``, ``cardbase sim game``) and the Playtest page read this
registry; none of them names a game in an ``if``.

Chance is *sampled* in every engine: a state owns a seeded ``random.Random`` and draws from it
(shuffles, deals, random answers), so a seed replays a game and ``resample(player, rng)`` re-deals
what that player cannot see for search bots. Simultaneous choices become sequential moves whose
results the observation hides until everyone has chosen.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from cardbase.domain import CardDef
from cardbase.errors import CardbaseError
from cardbase.i18n import tr


@dataclass(slots=True, frozen=True)
class GameSpec:
    code: str  # the game's code in the database (games.toml)
    min_players: int
    max_players: int
    material: str  # "box": the edition's cards with their copies; "decks": one deck a player
    teams: bool = False
    chance: str = "sampled"
    information: str = "imperfect"
    utility: str = "zero_sum"  # "zero_sum", "general_sum" or "teams"
    sequential: bool = True
    bots: tuple[str, ...] = ("random", "greedy")
    # the player count of a batch when none is given (None: min_players)
    default_players: int | None = None
    # box games: cards (one edition) + players + options -> a Game whose new_state(seed) deals
    build: Callable[..., Any] | None = field(default=None, compare=False)
    # a game described as data (data/rules/<code>.toml): the file, and whether it brings its own cards
    own_cards: bool = False
    rules_file: str | None = None
    title: str | None = None  # the name shown for a game that is not in the database (its rules file's)
    # the game's package (cardbase.games.<code>): it registers its greedy, play-out and own bots
    package: str | None = None

    @property
    def engine(self) -> bool:
        return self.build is not None

    @property
    def policies(self) -> Any:
        """The game's greedy choice, fast play-out and own bots (:class:`cardbase.games.frame.Policies`,
        empty for a game written as data: the generic bots play it)."""
        from cardbase.games import frame

        if self.package is None:
            return frame.Policies()
        importlib.import_module(self.package)  # its __init__ registers the policies
        return frame.package_policies(self.package)

    @property
    def greedy(self) -> Callable[[Any], int] | None:
        return self.policies.greedy

    @property
    def playout(self) -> Callable[..., Any] | None:
        return self.policies.playout


# The most cards a box game's engine is given, copies counted, checked before the box is built
# (a card may have up to a million copies: OVERKILL with every card at that many ran out of memory
# building its box, 15 en un tour's random bots took minutes a game). 15 en un tour flips its whole
# box in a turn and offers one move a face-down card, so a game costs about the square of the box.
MAX_BOX_CARDS = 10_000
MAX_BOX_CARDS_OF = {"pushluck": 1_000}


def check_box(code: str, cards: Sequence[CardDef]) -> None:
    """Refuse, before building it, a box larger than its engine takes (copies counted)."""
    limit = MAX_BOX_CARDS_OF.get(code, MAX_BOX_CARDS)
    total = sum(max(int(getattr(c, "copies", 1) or 0), 0) for c in cards)
    if total > limit:
        biggest = max(cards, key=lambda c: getattr(c, "copies", 1) or 0)
        raise CardbaseError(tr("games.box_too_big", game=code, cards=_spaced(total),
                               limit=_spaced(limit), ref=getattr(biggest, "ref", "") or biggest.name,
                               copies=_spaced(int(biggest.copies))))


def _spaced(n: int) -> str:
    return f"{n:,}".replace(",", " ")


def _overkill(cards: Sequence[CardDef], players: int, **options: Any) -> Any:
    check_box("overkill", cards)
    from cardbase.games.overkill.material import box_from_cards
    from cardbase.games.overkill.rules import Rules
    from cardbase.games.overkill.state import Game

    return Game(box_from_cards(cards), Rules(**options))


def _ctterror(cards: Sequence[CardDef], players: int, **options: Any) -> Any:
    check_box("ctterror", cards)
    from cardbase.games.ctterror.material import box_from_cards
    from cardbase.games.ctterror.rules import Rules
    from cardbase.games.ctterror.state import Game

    unknown = sorted(set(options) - set(Rules.__dataclass_fields__))
    if unknown:
        raise CardbaseError(tr("ctterror.rules.bad", options=", ".join(unknown)))
    return Game(box_from_cards(cards), players, Rules(**options))


def _overseers(cards: Sequence[CardDef], players: int, **options: Any) -> Any:
    check_box("overseers", cards)
    from cardbase.games.overseers.material import box_from_cards
    from cardbase.games.overseers.rules import Rules
    from cardbase.games.overseers.state import Game

    known = set(Rules.__dataclass_fields__)
    unknown = sorted(set(options) - known)
    if unknown:
        raise CardbaseError(tr("overseers.rules.bad", options=", ".join(unknown)))
    rules = Rules(**options)
    return Game(box_from_cards(cards, rules.vol_keyword), players, rules)


def _pushluck(cards: Sequence[CardDef], players: int, **options: Any) -> Any:
    check_box("pushluck", cards)
    from cardbase.games.pushluck.material import box_from_cards
    from cardbase.games.pushluck.rules import Rules
    from cardbase.games.pushluck.state import Game

    return Game(box_from_cards(cards), Rules(**options), players)


def _nespanini(decks: Sequence[Sequence[CardDef]], players: int, **options: Any) -> Any:
    from cardbase.games.nespanini.state import Game

    return Game([list(d) for d in decks], **options)


REGISTRY: dict[str, GameSpec] = {
    spec.code: spec for spec in (
        GameSpec("nespanini", 1, 2, "decks", bots=("random", "greedy", "mc", "ismcts"), build=_nespanini,
                 package="cardbase.games.nespanini"),
        GameSpec("overkill", 2, 2, "box", bots=("random", "greedy", "mc", "ismcts"), build=_overkill,
                 package="cardbase.games.overkill"),
        GameSpec("pushluck", 1, 6, "box", information="perfect", utility="general_sum",
                 bots=("random", "greedy", "optimal"), build=_pushluck, default_players=2,
                 package="cardbase.games.pushluck"),
        GameSpec("ctterror", 2, 8, "box", teams=True, utility="teams",
                 bots=("random", "greedy", "mc", "ismcts"), build=_ctterror,
                 package="cardbase.games.ctterror"),
        GameSpec("overseers", 3, 6, "box", utility="general_sum",
                 bots=("random", "greedy", "belief", "mc", "ismcts"), build=_overseers,
                 package="cardbase.games.overseers"),
    )
}


def _add_rules_games() -> None:
    """Games written in the rules language (``cardbase.games.rulesdata``), after the hand-written."""
    from cardbase.games.rulesdata.register import rules_specs

    for spec in rules_specs(set(REGISTRY), GameSpec, check_box):
        REGISTRY[spec.code] = spec


_add_rules_games()


# code -> (the draft played in this run under that code, what reports say of it): :func:`drafted`
_DRAFTED: dict[str, tuple[Any, dict[str, Any]]] = {}


@contextmanager
def drafted(path: Path | str) -> Iterator[dict[str, Any]]:
    """The rules file ``path`` (anywhere: a draft) made a game of the registry for the ``with``
    block, under its code; yields what reports say of it: ``{"path", "code", "replaces"}``.

    A file that does not pass the checker raises its problems, every one located, as ``cardbase
    games check`` shows them. A draft whose code is a game written as data (``data/rules/``) takes
    its place for the block only (``replaces``: that file); the code of a hand-written engine is
    refused (its rulings and figures are the engine's, not the file's). Worker processes build the
    game from the draft's text (:func:`draft_of`, :func:`draft_game`), not from the path."""
    from cardbase.games.rulesdata import register

    draft, rules = register.read_draft(path)
    code = rules.code
    current = REGISTRY.get(code)
    if current is not None and current.rules_file is None:
        raise CardbaseError(tr("games.draft.engine_clash", file=draft.path, code=code))
    shipped = register.rules_file_of(code)
    info = {"path": draft.path, "code": code, "title": rules.name,
            "replaces": str(shipped) if shipped is not None else None}
    REGISTRY[code] = register.spec_of(rules, GameSpec, partial(register.build_draft, draft, check_box),
                                      draft.path)
    before_rules = register.set_draft_rules(code, rules)
    before_draft = _DRAFTED.get(code)
    _DRAFTED[code] = (draft, info)
    try:
        yield info
    finally:
        if current is None:
            REGISTRY.pop(code, None)
        else:
            REGISTRY[code] = current
        register.set_draft_rules(code, before_rules)
        if before_draft is None:
            _DRAFTED.pop(code, None)
        else:
            _DRAFTED[code] = before_draft


def draft_of(code: str) -> Any:
    """The draft played under ``code`` in this run (None: the registered game), as worker
    processes get it: its path and text (:func:`draft_game`)."""
    hit = _DRAFTED.get(code)
    return hit[0] if hit is not None else None


def draft_info(code: str) -> dict[str, Any] | None:
    """What a report says of the draft played under ``code`` (None: the registered game)."""
    hit = _DRAFTED.get(code)
    return dict(hit[1]) if hit is not None else None


def draft_game(draft: Any, cards: Sequence[CardDef], players: int, **options: Any) -> Any:
    """The game of a draft's text, built in any process: the game ``drafted`` registers."""
    from cardbase.games.rulesdata.register import build_draft

    return build_draft(draft, check_box, cards, players, **options)


def get(code: str) -> GameSpec:
    spec = REGISTRY.get(code.strip().lower())
    if spec is None:
        _refuse_broken_rules_file(code.strip().lower())
        raise CardbaseError(tr("games.unknown", game=code, known=", ".join(sorted(REGISTRY))))
    return spec


def _refuse_broken_rules_file(code: str) -> None:
    """A game whose rules file exists but does not pass the checker (left out of the registry):
    its problems, rather than « unknown game »."""
    from cardbase.games.rulesdata.language import RulesFileError, load_rules
    from cardbase.games.rulesdata.register import rules_file_of

    path = rules_file_of(code)
    if path is None:
        return
    try:
        load_rules(path)
    except RulesFileError as e:
        raise CardbaseError(tr("games.rules_file_broken", game=code, file=str(path)), e.problems) from None


def playable(code: str) -> GameSpec:
    spec = get(code)
    if not spec.engine:
        engines = ", ".join(c for c, s in sorted(REGISTRY.items()) if s.engine)
        raise CardbaseError(tr("games.no_engine", game=code, engines=engines))
    return spec


def check_players(spec: GameSpec, players: int) -> None:
    if not spec.min_players <= players <= spec.max_players:
        raise CardbaseError(tr("games.bad_players", game=spec.code, players=players,
                               min=spec.min_players, max=spec.max_players))


def check_bots(spec: GameSpec, bots: Sequence[str]) -> None:
    bad = [b for b in bots if b not in spec.bots]
    if bad:
        raise CardbaseError(tr("games.bad_bots", bots=", ".join(bad), game=spec.code,
                               known=", ".join(spec.bots)))


def seat_bots(spec: GameSpec, players: int | None, bots: Sequence[str] | None, games: int) -> tuple[int, list[str]]:
    """The checked set-up of a batch of ``games`` games: the player count (default: the game's
    ``default_players``, else its minimum) and one bot per seat (one bot name is every seat's;
    default greedy)."""
    count = players or spec.default_players or spec.min_players
    check_players(spec, count)
    names = list(bots or ["greedy"])
    if len(names) == 1:
        names = names * count
    if len(names) != count:
        raise CardbaseError(tr("games.bad_bot_count", count=len(names), players=count))
    check_bots(spec, names)
    if games < 1:
        raise CardbaseError(tr("games.bad_count", games=games))
    return count, names
