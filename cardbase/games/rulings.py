"""Rulings as data: every game's numbered rulings, their options, and ``--rule NAME=VALUE``.

Each game package has a module ``rulings`` holding ``RULINGS``, a tuple of :class:`Ruling`, one per
numbered ruling of ``docs/rulings/<game>.md`` (the doc and the tuple say the same thing; a test
checks that every code of the doc is in the tuple). A ruling that a designer may change names the
``option`` it sets — a field of the game's ``Rules`` (or a keyword of NesPanini's ``Game``) — with
its default and the values it may take. A **contested** ruling is one where the text is genuinely
ambiguous: ``cardbase sim rulings`` plays every one of its ``alternatives`` against the default.

Everything here is pure data and parsing: no database, no engine is imported.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from cardbase.errors import CardbaseError, Problem, ValidationError
from cardbase.i18n import current_language, tr


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


def game_rulings(code: str) -> tuple[Ruling, ...]:
    """The rulings of the game ``code`` (empty for a game without an engine module)."""
    try:
        module = importlib.import_module(f"cardbase.games.{code}.rulings")
    except ModuleNotFoundError:  # a game written as data: the [[rulings]] of its rules file
        from cardbase.games.rulesdata.register import file_rulings

        return file_rulings(code) if code.replace("_", "").replace("-", "").isalnum() else ()
    return tuple(getattr(module, "RULINGS", ()))


def options_of(code: str) -> dict[str, Ruling]:
    """Each option name of the game, with the ruling that sets it."""
    return {r.option: r for r in game_rulings(code) if r.option}


def _convert(ruling: Ruling, raw: str) -> Any:
    """``raw`` as a value of the ruling's option (the type of its default); ValueError if not."""
    text = raw.strip()
    default = ruling.default
    if isinstance(default, bool):
        low = text.lower()
        if low in ("true", "1", "yes", "oui", "on", "vrai"):
            return True
        if low in ("false", "0", "no", "non", "off", "faux"):
            return False
        raise ValueError(text)
    if isinstance(default, int):
        value = int(text)
        if ruling.bounds and not ruling.bounds[0] <= value <= ruling.bounds[1]:
            raise ValueError(text)
        return value
    if isinstance(default, float):
        return float(text)
    return text


def _allowed_text(ruling: Ruling) -> str:
    if ruling.allowed:
        return ", ".join(str(v).lower() if isinstance(v, bool) else str(v) for v in ruling.allowed)
    if isinstance(ruling.default, bool):
        return "true, false"
    if ruling.bounds:
        return f"{ruling.bounds[0]}..{ruling.bounds[1]}"
    return type(ruling.default).__name__


def parse_rules(code: str, args: Iterable[str] | None) -> dict[str, Any]:
    """``--rule NAME=VALUE`` arguments (repeatable) as the game's options.

    Every problem is listed at once (exit 2 through :class:`ValidationError`): an argument
    without ``=``, an unknown name (with the known ones), a value not allowed (with the allowed
    ones). A ruling's code (``PL6``) is accepted in place of its option name."""
    known = options_of(code)
    by_code = {r.code.lower(): r for r in known.values()}
    out: dict[str, Any] = {}
    problems: list[Problem] = []
    for arg in args or ():
        name, sep, raw = arg.partition("=")
        name = name.strip()
        if not sep or not name:
            problems.append(Problem("bad-rule", tr("rulings.bad_arg", arg=arg), where="--rule"))
            continue
        ruling = known.get(name) or by_code.get(name.lower())
        if ruling is None:
            names = ", ".join(sorted(known)) or tr("rulings.none")
            problems.append(Problem("unknown-rule", tr("rulings.unknown", name=name, game=code, known=names),
                                    where="--rule"))
            continue
        try:
            value = _convert(ruling, raw)
        except ValueError:
            value = None
            ok = False
        else:
            ok = not ruling.allowed or value in ruling.allowed
        if not ok:
            problems.append(Problem("bad-rule-value", tr("rulings.bad_value", name=ruling.option,
                                                         value=raw.strip(), allowed=_allowed_text(ruling)),
                                    where="--rule"))
            continue
        out[ruling.option] = value
    if problems:
        raise ValidationError(tr("rulings.not_applied", count=len(problems)), problems)
    return out


def in_force(code: str, options: dict[str, Any] | None = None) -> list[dict[str, Any]]:
    """The options of every ruling that has one, with the value in force (JSON ``rulings``)."""
    options = options or {}
    return [{"code": r.code, "option": r.option, "value": options.get(r.option, r.default),
             "default": r.default, "contested": r.contested,
             "changed": r.option in options and options[r.option] != r.default}
            for r in game_rulings(code) if r.option]


def contested(code: str, only: Sequence[str] | None = None) -> list[Ruling]:
    """The rulings ``sim rulings`` weighs: the contested ones with an option, or those named
    (by code) in ``only``; an unknown code is refused with the known ones."""
    rulings = [r for r in game_rulings(code) if r.option]
    if not only:
        return [r for r in rulings if r.contested]
    wanted = [c.strip().upper() for c in only if c.strip()]
    codes = {r.code.upper(): r for r in rulings}
    bad = [c for c in wanted if c not in codes]
    if bad:
        raise CardbaseError(tr("rulings.unknown_code", codes=", ".join(bad), game=code,
                               known=", ".join(sorted(codes)) or tr("rulings.none")))
    return [codes[c] for c in wanted]
