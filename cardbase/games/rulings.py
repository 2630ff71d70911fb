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
from typing import Any

from cardbase.errors import CardbaseError, Problem, ValidationError
from cardbase.games.frame import Ruling  # the shape every game gives its rulings in
from cardbase.i18n import tr


def game_rulings(code: str) -> tuple[Ruling, ...]:
    """The rulings of the game ``code`` (empty for a game without an engine module)."""
    try:
        module = importlib.import_module(f"cardbase.games.{code}.rulings")
    except ModuleNotFoundError:  # a game written as data: the [[rulings]] of its rules file
        return file_rulings(code) if code.replace("_", "").replace("-", "").isalnum() else ()
    return tuple(getattr(module, "RULINGS", ()))


def options_of(code: str) -> dict[str, Ruling]:
    """Each option name of the game, with the ruling that sets it."""
    return {r.option: r for r in game_rulings(code) if r.option}


def _file_options(code: str) -> tuple[Ruling, ...] | None:
    """Every option of the game ``code``'s rules file as ``--rule`` reads it (None: a hand-written
    engine's game, or no valid rules file)."""
    try:
        importlib.import_module(f"cardbase.games.{code}.rulings")
    except ModuleNotFoundError:
        from cardbase.games.rulesdata.checking import option_rulings
        from cardbase.games.rulesdata.register import valid_rules

        rules = valid_rules(code)
        return None if rules is None else option_rulings(rules)
    return None


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


def parse_rules(code: str, args: Iterable[str] | None,
                rulings: Sequence[Ruling] | None = None) -> dict[str, Any]:
    """``--rule NAME=VALUE`` arguments (repeatable) as the game's options (``rulings``: those
    the options are read against, when not the game's own, as for a rules file being checked).

    Every problem is listed at once (exit 2 through :class:`ValidationError`): an argument
    without ``=``, an unknown name (with the known ones), a value not allowed (with the allowed
    ones). A ruling's code (``PL6``) is accepted in place of its option name."""
    if rulings is None:  # a game written as data: every option of its file, a ruling's or not
        rulings = _file_options(code)
    known = options_of(code) if rulings is None else {r.option: r for r in rulings if r.option}
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


def file_rulings(code: str) -> tuple[Any, ...]:
    """The ``[[rulings]]`` of the rules file of a game written as data (empty when it has none or
    the file does not pass the checker)."""
    from cardbase.games.rulesdata.register import valid_rules

    rules = valid_rules(code)
    return tuple(Ruling(**r) for r in rules.rulings) if rules is not None else ()
