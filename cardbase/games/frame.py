"""The frame every engine fits in: one illegal-action error, one replay, and each game's policies.

A game package registers, in its ``__init__``, what the generic machinery needs from it beyond the
state protocol (see :mod:`cardbase.games.bots.base`): its greedy choice, its fast greedy play-out,
its own bots and the figures it adds to a batch report. The state never imports its bots: the bots,
the registry (:class:`cardbase.games.registry.GameSpec`) and the batch runner ask the frame, which
finds the policies of a state or a game by the package that defines its class. Importing any
module of a game package runs that package's ``__init__`` first, so a state unpickled in a worker
process finds its policies too.

Each game also gives its numbered rulings as :class:`Ruling` values (its ``rulings.py``; read by
:mod:`cardbase.games.rulings`). This module imports nothing of cardbase but the kernel (errors,
i18n): games, bots and the registry may all import it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from cardbase.errors import CardbaseError
from cardbase.i18n import current_language


class IllegalActionError(CardbaseError):
    """An action that is not legal in this state (every game raises this one)."""


@dataclass(slots=True, frozen=True)
class Ruling:
    """One numbered ruling of a game.

    ``title`` and ``text`` are ``{"fr": …, "en": …}``. ``allowed``: the values the option takes
    (an enumeration); empty for a number, which is then bounded by ``bounds`` (inclusive).
    ``alternatives``: the values ``sim rulings`` plays besides the default (default: every
    allowed value but the default)."""

    code: str
    title: dict[str, str]
    text: dict[str, str]
    option: str | None = None
    default: Any = None
    allowed: tuple[Any, ...] = ()
    bounds: tuple[int, int] | None = None
    contested: bool = False
    alternatives: tuple[Any, ...] = ()

    def variants(self) -> tuple[Any, ...]:
        """The values other than the default that weigh this ruling."""
        if self.alternatives:
            return tuple(v for v in self.alternatives if v != self.default)
        return tuple(v for v in self.allowed if v != self.default)

    def title_in(self, lang: str | None = None) -> str:
        lang = lang or current_language()
        return self.title.get(lang) or self.title.get("fr") or self.code

    def text_in(self, lang: str | None = None) -> str:
        lang = lang or current_language()
        return self.text.get(lang) or self.text.get("fr") or ""

    def as_dict(self, lang: str | None = None) -> dict[str, Any]:
        return {"code": self.code, "title": self.title_in(lang), "text": self.text_in(lang),
                "option": self.option, "default": self.default, "allowed": list(self.allowed),
                "bounds": list(self.bounds) if self.bounds else None, "contested": self.contested,
                "alternatives": list(self.variants()) if self.option else []}


@dataclass(frozen=True, slots=True)
class Policies:
    """What a game package gives the frame; every field is optional.

    ``greedy(state) -> action``: the game's greedy heuristic for the seat to act (the ``greedy``
    bot; search play-outs; the modelled opponents of ISMCTS).
    ``playout(state, horizon=None) -> state``: a fast greedy play-out in place, making exactly the
    moves of repeated ``greedy`` (to the end, or to the horizon mark of ``state.search_horizon()``).
    ``bot(game, name, seed) -> bot | None``: the game's own bots by name (``None``: a generic one).
    ``analytics(game, records) -> dict`` and ``analytics_text(game, figures) -> list[str]``: the
    game's own figures of a batch report and their lines in the current language.
    """

    greedy: Callable[[Any], int] | None = None
    playout: Callable[..., Any] | None = None
    bot: Callable[[Any, str, int | None], Any] | None = None
    analytics: Callable[[Any, Sequence[Any]], dict[str, Any]] | None = None
    analytics_text: Callable[[Any, dict[str, Any]], list[str]] | None = None


_POLICIES: dict[str, Policies] = {}
_NONE = Policies()


def register(package: str, **policies: Any) -> None:
    """Give the frame the policies of the game package ``package`` (its ``__name__``)."""
    _POLICIES[package] = Policies(**policies)
    _BY_TYPE.clear()


def _package(obj: Any) -> str:
    module = type(obj).__module__
    while module and module not in _POLICIES:
        module = module.rpartition(".")[0]
    return module


def package_policies(package: str) -> Policies:
    """The policies the game package ``package`` registered (empty when it registered none)."""
    return _POLICIES.get(package, _NONE)


_BY_TYPE: dict[type, Policies] = {}


def policies_of(obj: Any) -> Policies:
    """The policies of the game package that defines the class of ``obj`` (a state or a game)."""
    kind = type(obj)
    found = _BY_TYPE.get(kind)
    if found is None:
        found = _POLICIES.get(_package(obj), _NONE)
        if found is not _NONE:
            _BY_TYPE[kind] = found
    return found


def greedy_of(state: Any) -> Callable[[Any], int] | None:
    """The game's greedy choice for ``state``, or ``None`` when the game has none."""
    return policies_of(state).greedy


def greedy(state: Any) -> int:
    """The game's greedy action for the seat to act in ``state``."""
    g = policies_of(state).greedy
    if g is None:
        raise CardbaseError(f"no greedy policy for {type(state).__module__}")
    return g(state)


def play_greedy(state: Any, horizon: Any = None) -> Any:
    """Play ``state`` greedily in place (the game's fast play-out when it has one), to the end or
    to ``horizon``; returns the state."""
    pol = policies_of(state)
    if pol.playout is not None:
        return pol.playout(state) if horizon is None else pol.playout(state, horizon)
    if pol.greedy is None:
        raise CardbaseError(f"no greedy policy for {type(state).__module__}")
    if horizon is None:
        while not state.is_terminal():
            state.apply_action(pol.greedy(state))
    else:
        while not state.is_terminal() and state.horizon_utilities(horizon) is None:
            state.apply_action(pol.greedy(state))
    return state


def own_bot(game: Any, name: str, seed: int | None = None) -> Any:
    """The game's own bot called ``name``, or ``None`` (the generic bots then play)."""
    make = policies_of(game).bot
    return None if make is None else make(game, name, seed)


def analytics(game: Any, records: Sequence[Any]) -> dict[str, Any]:
    """The game's own figures of a batch (empty when it adds none)."""
    fn = policies_of(game).analytics
    return {} if fn is None else fn(game, records)


def analytics_text(game: Any, figures: dict[str, Any]) -> list[str]:
    fn = policies_of(game).analytics_text
    return [] if fn is None else fn(game, figures)


def replay(game: Any, seed: int, actions: Sequence[int]) -> Any:
    """Play ``actions`` from the deal of ``seed``; the result has the same event log (any game)."""
    s = game.new_state(seed)
    for a in actions:
        s.apply_action(a)
    return s
