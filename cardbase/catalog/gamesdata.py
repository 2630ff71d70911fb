"""Games as data: a game's players, deck rules, card template and declared card fields.

A game is a row of :class:`~cardbase.storage.models.Game`, created and changed here (``create_game``,
``update_game``) with the same standards as cards: editor rights (:func:`require_editor`), every
problem listed at once, and a version compare-and-swap against stale edits.

**Declared fields.** A game declares the figures its cards carry beyond the common fields
(OVERKILL's ``objectif`` and ``pari``, CT vs Terror's ``damage`` and ``armour``…). A declaration
is a name, a type — ``int`` (optionally with ``min``/``max``), ``text`` or ``choice`` (a list of
values) —, whether it is required, and an optional label. The values are stored in
``Card.stats`` under the field's name, so engines keep reading ``card.stat("objectif")``.
On the command line a declaration is written ``NAME:TYPE[:MIN..MAX][:required]``, e.g.
``force:int:0..10``, ``camp:choice(rouge|noir)``, ``titre:text:required``.

Functions for a page (all keyword-only, session first): :func:`create_game`,
:func:`update_game`, :func:`game_dict`, :func:`list_games`, :func:`known_templates`,
:func:`declared_fields`, :func:`parse_field_spec`, :func:`check_field_values`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from sqlalchemy import update
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, select

from cardbase.catalog.fields import VALUE, FieldDecl, declared_fields, field_values  # noqa: F401
from cardbase.errors import NotFoundError, Problem, StaleEditError, ValidationError
from cardbase.i18n import tr
from cardbase.storage.models import Card, Edition, Game
from cardbase.text import fold, has_control


def require_editor(*, action: str) -> None:
    """The permission check of a write, loaded by writes only (a read starts faster)."""
    from cardbase.access import require_editor as check

    check(action=action)


FIELD_TYPES = ("int", "text", "choice")
FIELD_KEYS = ("name", "type", "choices", "min", "max", "required", "label", "label_en")
MAX_FIELDS = 30
MAX_FIGURE = 1_000_000  # as catalog.validate_card_fields bounds value and copies
MAX_TEXT = 300
MAX_PLAYERS = 100
MAX_DECK = 1000
MAX_CHOICES = 200  # values a choice field may list (see docs/shared-use.md, "Limits")
_NAME = re.compile(r"[a-z][a-z0-9_]{0,39}")
# Names a declared field may not take: the card's own fields, the names data files, CSV and JSON
# use for them, and the search keys.
_RESERVED_EXTRA = {"id", "ref", "game", "edition", "type", "version", "numbering", "stats",
                   "updated_at", "text", "keyword"}

# Fields of a game a user may set (``update_game`` changes), in data-file order.
GAME_FIELDS = ("name", "min_players", "max_players", "deck_size", "copy_limit", "keyword_limits",
               "template", "fields", "rules_file", "description")


def reserved_names() -> set[str]:
    from cardbase.catalog.fields import CARD_FIELDS
    from cardbase.catalog.search import KEYS

    return set(CARD_FIELDS) | set(KEYS) | _RESERVED_EXTRA


# --------------------------------------------------------------------------- declarations

def _int_or_none(text: str) -> int | None:
    text = text.strip()
    if not text:
        return None
    if not re.fullmatch(r"[+-]?\d{1,9}", text):
        raise ValueError(text)
    return int(text)


def parse_field_spec(text: str, *, where: str = "") -> tuple[FieldDecl | None, list[Problem]]:
    """Read ``NAME:TYPE[:MIN..MAX][:required]`` (TYPE: int, text or choice(a|b|c))."""
    where = where or tr("gamesdata.where_field", spec=text)
    fix = tr("gamesdata.field_spec_fix")
    if not isinstance(text, str) or ":" not in text:
        return None, [Problem("bad-field", tr("gamesdata.field_spec_bad", spec=text), fix, where)]
    parts = text.strip().split(":")
    raw: dict[str, Any] = {"name": parts[0].strip()}
    kind = parts[1].strip()
    match = re.fullmatch(r"choice\((.*)\)", kind)
    if match:
        raw["type"] = "choice"
        raw["choices"] = [c.strip() for c in match.group(1).split("|")]
    else:
        raw["type"] = kind
    problems: list[Problem] = []
    for part in parts[2:]:
        part = part.strip()
        if fold(part) in ("required", "obligatoire"):
            raw["required"] = True
        elif ".." in part:
            lo, hi = part.split("..", 1)
            try:
                raw["min"], raw["max"] = _int_or_none(lo), _int_or_none(hi)
            except ValueError:
                problems.append(Problem("bad-field", tr("gamesdata.field_range_bad", range=part), fix, where))
        else:
            problems.append(Problem("bad-field", tr("gamesdata.field_part_bad", part=part), fix, where))
    decl, more = field_from_dict({k: v for k, v in raw.items() if v is not None}, where=where)
    return (None if problems else decl), problems + more


def field_from_dict(raw: Mapping[str, Any], *, where: str = "") -> tuple[FieldDecl | None, list[Problem]]:
    """Check one declaration given as a table (data file, page); every problem at once."""
    problems: list[Problem] = []
    name = raw.get("name")
    where = where or tr("gamesdata.where_field", spec=name)

    def bad(message: str, fix: str) -> None:
        problems.append(Problem("bad-field", message, fix, where))

    for key in raw:
        if key not in FIELD_KEYS:
            bad(tr("gamesdata.field_unknown_key", key=key), tr("gamesdata.field_keys", keys=", ".join(FIELD_KEYS)))
    if name == VALUE:  # the range of the card's own value (see value_decl), nothing else
        extra = [k for k in raw if k not in ("name", "type", "min", "max")]
        if raw.get("type") != "int" or extra:
            bad(tr("richtext.value_decl_bad"), tr("richtext.value_decl_fix", name=VALUE))
    elif not isinstance(name, str) or not _NAME.fullmatch(name):
        bad(tr("gamesdata.field_name_bad", name=name), tr("gamesdata.field_name_fix"))
    elif name in reserved_names():
        bad(tr("gamesdata.field_name_reserved", name=name), tr("gamesdata.field_name_reserved_fix"))
    kind = raw.get("type")
    if kind not in FIELD_TYPES:
        bad(tr("gamesdata.field_type_bad", type=kind), tr("gamesdata.field_type_fix"))
    lo, hi = raw.get("min"), raw.get("max")
    for bound in (lo, hi):
        if bound is not None and (isinstance(bound, bool) or not isinstance(bound, int)
                                  or abs(bound) > MAX_FIGURE):
            bad(tr("gamesdata.field_bound_bad", value=bound), tr("gamesdata.field_bound_fix", limit=MAX_FIGURE))
            lo = hi = None
    if (lo is not None or hi is not None) and kind != "int":
        bad(tr("gamesdata.field_range_not_int", name=name), tr("gamesdata.field_range_not_int_fix"))
    if isinstance(lo, int) and isinstance(hi, int) and lo > hi:
        bad(tr("gamesdata.field_range_empty", min=lo, max=hi), tr("gamesdata.field_range_empty_fix"))
    choices = raw.get("choices") or []
    if kind == "choice":
        if not isinstance(choices, (list, tuple)) or not choices or \
                not all(isinstance(c, str) and c.strip() for c in choices):
            bad(tr("gamesdata.field_choices_bad"), tr("gamesdata.field_choices_fix"))
            choices = []
        elif len(choices) > MAX_CHOICES:  # counted before anything is read in them
            bad(tr("writes.too_many_choices", count=len(choices), limit=MAX_CHOICES),
                tr("writes.too_many_choices_fix", limit=MAX_CHOICES))
            choices = []
        else:
            choices = [c.strip() for c in choices]
            too_long = [c for c in choices if len(c) > MAX_TEXT or "\x00" in c]
            if too_long:  # a card could never hold it (a declared value is MAX_TEXT at most)
                bad(tr("writes.choice_too_long", choice=_shown(too_long[0]), count=len(too_long), limit=MAX_TEXT),
                    tr("writes.choice_too_long_fix", limit=MAX_TEXT))
            seen: dict[str, int] = {}
            for c in choices:  # one pass: each choice's folded form counted once
                seen[fold(c)] = seen.get(fold(c), 0) + 1
            twice = sorted({c for c in choices if seen[fold(c)] > 1})
            if twice:
                bad(tr("gamesdata.field_choices_twice", choices=", ".join(twice)),
                    tr("gamesdata.field_choices_fix"))
    elif choices:
        bad(tr("gamesdata.field_choices_not_choice", name=name), tr("gamesdata.field_type_fix"))
    required = raw.get("required", False)
    if not isinstance(required, bool):
        bad(tr("gamesdata.field_required_bad", value=required), tr("gamesdata.field_required_fix"))
    label, label_en = raw.get("label"), raw.get("label_en")
    for text in (label, label_en):
        if text is not None and (not isinstance(text, str) or len(text) > 80):
            bad(tr("gamesdata.field_label_bad"), tr("gamesdata.field_label_fix"))
    if problems:
        return None, problems
    return FieldDecl(name=name, type=kind, min=lo, max=hi, choices=tuple(choices),
                     required=required, label=(label or "").strip() or None,
                     label_en=(label_en or "").strip() or None), []


def check_declarations(raw: Iterable[Any], *, where: str = "") -> tuple[list[FieldDecl], list[Problem]]:
    """A list of declarations (dicts, spec strings or :class:`FieldDecl`): names used once."""
    out: list[FieldDecl] = []
    problems: list[Problem] = []
    items = list(raw or [])
    if len(items) > MAX_FIELDS:
        problems.append(Problem("bad-field", tr("gamesdata.too_many_fields", count=len(items), limit=MAX_FIELDS),
                                tr("gamesdata.too_many_fields_fix"), where))
    for item in items:
        if isinstance(item, FieldDecl):
            decl, probs = item, []
        elif isinstance(item, str):
            decl, probs = parse_field_spec(item)
        elif isinstance(item, Mapping):
            decl, probs = field_from_dict(item)
        else:
            decl, probs = None, [Problem("bad-field", tr("gamesdata.field_spec_bad", spec=item),
                                         tr("gamesdata.field_spec_fix"), where)]
        problems += probs
        if decl is None:
            continue
        if any(d.name == decl.name for d in out):
            problems.append(Problem("bad-field", tr("gamesdata.field_twice", name=decl.name),
                                    tr("gamesdata.field_twice_fix"), where))
            continue
        out.append(decl)
    return out, problems


def value_decl(game: Game | None) -> FieldDecl | None:
    """The range a game gives its cards' value (``value = { type = "int", min = 0, max = 9 }``
    among its fields in data/games.toml, ``--set fields+=value:int:0..9``): None when it gives
    none. Checked like a declared field on create, edit and import."""
    for raw in (game.fields if game is not None else None) or []:
        if raw.get("name") == VALUE:
            return FieldDecl(name=VALUE, type="int", min=raw.get("min"), max=raw.get("max"))
    return None


def value_problem(game: Game | None, value: Any, *, where: str = "") -> Problem | None:
    """The problem with a card's value under its game's range (None: fine or no range)."""
    decl = value_decl(game)
    if decl is None or value is None or isinstance(value, bool) or not isinstance(value, int):
        return None
    return check_value(decl, value, where=where)[1]


# --------------------------------------------------------------------------- values

def check_value(decl: FieldDecl, value: Any, *, where: str = "") -> tuple[Any, Problem | None]:
    """A value for a declared field, normalised (None: no value), or the problem with it."""
    if isinstance(value, str):
        value = value.strip()
    if value is None or value == "":
        if decl.required:
            return None, Problem("missing-field", tr("gamesdata.value_missing", field=decl.name),
                                 tr("gamesdata.value_missing_fix", spec=decl.spec), where)
        return None, None
    if decl.type == "int":
        number: int | None = None
        if isinstance(value, int) and not isinstance(value, bool):
            number = value
        elif isinstance(value, str) and re.fullmatch(r"[+-]?\d{1,9}", value):
            number = int(value)
        elif isinstance(value, float) and value.is_integer() and abs(value) < 1e9:
            number = int(value)
        if number is None:
            return None, Problem("invalid-field", tr("gamesdata.value_not_int", field=decl.name, value=_shown(value)),
                                 tr("gamesdata.value_not_int_fix"), where)
        lo = decl.min if decl.min is not None else -MAX_FIGURE
        hi = decl.max if decl.max is not None else MAX_FIGURE
        if not lo <= number <= hi:
            return None, Problem("out-of-range", tr("gamesdata.value_out_of_range", field=decl.name, value=number,
                                                   min=lo, max=hi),
                                 tr("gamesdata.value_out_of_range_fix", min=lo, max=hi), where)
        return number, None
    if not isinstance(value, str):
        return None, Problem("invalid-field", tr("gamesdata.value_not_text", field=decl.name, value=_shown(value)),
                             tr("gamesdata.value_not_text_fix"), where)
    if "\x00" in value or len(value) > MAX_TEXT:
        return None, Problem("invalid-field", tr("gamesdata.value_text_bad", field=decl.name, limit=MAX_TEXT),
                             tr("gamesdata.value_text_bad_fix", limit=MAX_TEXT), where)
    if decl.type == "choice":
        by_key = {fold(c): c for c in decl.choices}
        if fold(value) not in by_key:
            return None, Problem("invalid-choice", tr("gamesdata.value_not_choice", field=decl.name, value=value,
                                                     choices=", ".join(decl.choices)),
                                 tr("gamesdata.value_not_choice_fix", choices=" | ".join(decl.choices)), where)
        return by_key[fold(value)], None
    return value, None


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:59] + "…"


def _where(where: str, column: str) -> str:
    return tr("catalog.where_column", where=where, column=column).strip()


def check_field_values(decls: list[FieldDecl], values: Mapping[str, Any], *, base: Mapping[str, Any] | None = None,
                       where: str = "", partial: bool = False,
                       where_of: Any = None) -> tuple[dict[str, Any], list[Problem]]:
    """The card's new ``stats`` from ``values`` (declared field → value) over ``base`` (the
    card's current stats), and every problem with them.

    With declarations, every key must be declared; ``partial`` (an edit) checks only the values
    given, otherwise a required field missing is a problem. Without declarations (a game that
    declares none) the values are kept as given: a free table of figures.
    """
    stats = dict(base or {})
    problems: list[Problem] = []
    place = where_of or (lambda key: _where(where, key))  # where a field's problem is
    if not decls:
        stats.update(values)
        return stats, problems
    by_name = {d.name: d for d in decls}
    for key, value in values.items():
        decl = by_name.get(key)
        if decl is None:
            problems.append(Problem("undeclared-field", tr("gamesdata.value_undeclared", field=key),
                                    tr("gamesdata.value_undeclared_fix", fields=", ".join(by_name)),
                                    place(key)))
            continue
        clean, problem = check_value(decl, value)
        if problem is not None:  # where it is, named only for a problem (imports check many values)
            problems.append(Problem(problem.code, problem.message, problem.fix, place(key)))
        elif clean is None:
            stats.pop(key, None)
        else:
            stats[key] = clean
    if not partial:
        for decl in decls:
            if decl.required and decl.name not in values and stats.get(decl.name) is None:
                problems.append(Problem("missing-field", tr("gamesdata.value_missing", field=decl.name),
                                        tr("gamesdata.value_missing_fix", spec=decl.spec),
                                        place(decl.name)))
    # keep the declaration order (data files and exports read in that order)
    ordered = {d.name: stats[d.name] for d in decls if d.name in stats}
    ordered.update({k: v for k, v in stats.items() if k not in ordered})
    return ordered, problems


def split_card_fields(game: Game | None, fields: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """Separate a card's fields into common fields and declared-field values (by name).

    A ``stats`` table given with the fields is read as declared values too when the game declares
    fields (older files and imports), so that it is checked the same way.
    """
    from cardbase.catalog.fields import CARD_FIELDS
    from cardbase.storage.datafiles import is_field_name

    names = {d.name for d in declared_fields(game)}
    common: dict[str, Any] = {}
    declared: dict[str, Any] = {}
    for key, value in fields.items():
        if key in names or (names and key not in CARD_FIELDS and is_field_name(key)):
            declared[key] = value
        elif key == "stats" and names and isinstance(value, Mapping):
            declared.update(value)
        elif key == "stats" and names and value in (None, ""):
            continue  # every figure taken off: the declarations are checked on nothing
        else:
            common[key] = value
    return common, declared


def card_stats(game: Game | None, fields: Mapping[str, Any], *, base: Mapping[str, Any] | None = None,
               where: str = "", partial: bool = False) -> tuple[dict[str, Any], dict[str, Any] | None, list[Problem]]:
    """Common card fields, the card's new stats (None: unchanged) and the declared-field problems.

    ``fields`` may hold declared fields by name; the common fields come back for
    :func:`cardbase.catalog.cards.validate_card_fields`.
    """
    decls = declared_fields(game)
    common, declared = split_card_fields(game, fields)
    if not decls:
        return common, None, []
    replacing = "stats" in fields and (isinstance(fields.get("stats"), Mapping) or fields["stats"] in (None, ""))
    if not declared and not replacing:
        if partial:
            return common, None, []
        stats, problems = check_field_values(decls, {}, where=where)
        return common, stats, problems
    start = {} if replacing else dict(base or {})
    stats, problems = check_field_values(decls, declared, base=start, where=where,
                                         partial=partial and not replacing)
    return common, stats, problems


# --------------------------------------------------------------------------- templates

def known_templates(directory: Any = None) -> list[str]:
    """The template names a game may choose: the files of card_templates/ (.toml, .json)."""
    from pathlib import Path

    from cardbase.config import templates_dir

    folder = Path(directory) if directory else templates_dir()
    try:
        files = [p for p in folder.iterdir() if p.suffix in (".toml", ".json")]
    except OSError:
        return []
    return sorted({p.stem for p in files})


# --------------------------------------------------------------------------- games

def get_game(session: Session, code: str) -> Game:
    game = session.exec(select(Game).where(Game.code == fold(code))).first()
    if game is None:
        codes = ", ".join(session.exec(select(Game.code)).all())
        raise NotFoundError(tr("catalog.no_game", code=code, codes=codes))
    return game


def game_dict(game: Game) -> dict[str, Any]:
    """A game as a page shows it and ``games list --json`` prints it."""
    return {"code": game.code, "name": game.name, "min_players": game.min_players,
            "max_players": game.max_players, "deck_size": game.deck_size,
            "copy_limit": game.copy_limit, "keyword_limits": dict(game.keyword_limits or {}),
            "template": game.template, "fields": [dict(f) for f in game.fields or []],
            "rules_file": game.rules_file, "description": game.description,
            "version": game.version}


def game_file_dict(game: Game) -> dict[str, Any]:
    """A game as written in data/games.toml (see :func:`cardbase.storage.datafiles.dump_games`)."""
    out = game_dict(game)
    out.pop("version")
    return out


def list_games(session: Session) -> list[Game]:
    return list(session.exec(select(Game).order_by(Game.code)).all())


def _players_problems(lo: Any, hi: Any, code: str | None = None) -> list[Problem]:
    """Players of a game: 1–100, min ≤ max, and within its engine's range when it has one."""
    problems = []
    fix = tr("gamesdata.players_fix")
    for key, value in (("min_players", lo), ("max_players", hi)):
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)
                                  or not 1 <= value <= MAX_PLAYERS):
            problems.append(Problem("bad-players", tr("gamesdata.players_bad", value=_shown(value),
                                                      limit=MAX_PLAYERS), fix, key))
            return problems
    if (lo is None) != (hi is None):
        problems.append(Problem("bad-players", tr("gamesdata.players_half"), fix, "players"))
    elif lo is not None and lo > hi:
        problems.append(Problem("bad-players", tr("gamesdata.players_reversed", min=lo, max=hi),
                                tr("gamesdata.players_reversed_fix", min=hi, max=lo), "players"))
    elif lo is not None and code:
        from cardbase.games.registry import REGISTRY

        spec = REGISTRY.get(code)
        if spec is not None and spec.engine and not spec.min_players <= lo <= hi <= spec.max_players:
            problems.append(Problem("bad-players", tr("writes.players_engine", code=code, min=lo, max=hi,
                                                      engine_min=spec.min_players, engine_max=spec.max_players),
                                    tr("writes.players_engine_fix", engine_min=spec.min_players,
                                       engine_max=spec.max_players), "players"))
    return problems


def parse_players(text: str) -> tuple[int | None, int | None, list[Problem]]:
    """``2-4`` (or ``3``) → (2, 4); a problem for anything else."""
    match = re.fullmatch(r"\s*(\d{1,3})\s*(?:-\s*(\d{1,3})\s*)?", text or "")
    if not match:
        return None, None, [Problem("bad-players", tr("gamesdata.players_syntax", value=text),
                                    tr("gamesdata.players_fix"), "players")]
    lo = int(match.group(1))
    hi = int(match.group(2)) if match.group(2) else lo
    return lo, hi, _players_problems(lo, hi)  # the engine's range: checked with the game (_clean_game)


def _deck_problems(session: Session, game: Game | None, deck_size: Any, copy_limit: Any,
                   keyword_limits: Any) -> list[Problem]:
    """Deck rules that cannot be right, or that make every deck illegal."""
    problems = []
    for key, value, low in (("deck_size", deck_size, 1), ("copy_limit", copy_limit, 1)):
        if value is None:
            continue
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= MAX_DECK:
            problems.append(Problem("bad-deck-rule", tr(f"gamesdata.{key}_bad", value=_shown(value), limit=MAX_DECK),
                                    tr(f"gamesdata.{key}_fix", limit=MAX_DECK), key))
    if not isinstance(keyword_limits, Mapping):
        problems.append(Problem("bad-deck-rule", tr("gamesdata.keyword_limits_bad", value=_shown(keyword_limits)),
                                tr("gamesdata.keyword_limit_fix"), "keyword_limits"))
        keyword_limits = {}
    for kw, n in keyword_limits.items():
        if not isinstance(kw, str) or not kw.strip() or len(kw) > 80:
            problems.append(Problem("bad-deck-rule", tr("gamesdata.keyword_bad", keyword=_shown(kw)),
                                    tr("gamesdata.keyword_limit_fix"), "keyword_limits"))
        elif isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= MAX_DECK:
            problems.append(Problem("bad-deck-rule", tr("gamesdata.keyword_limit_bad", keyword=kw, value=_shown(n)),
                                    tr("gamesdata.keyword_limit_fix"), "keyword_limits"))
    if deck_size is None and (copy_limit is not None or keyword_limits):
        problems.append(Problem("bad-deck-rule", tr("gamesdata.limits_without_deck"),
                                tr("gamesdata.limits_without_deck_fix"), "deck_size"))
    if problems or deck_size is None or game is None or game.id is None:
        return problems
    # With cards: the most cards a deck can hold under these limits must reach the deck size.
    rows = session.exec(select(Card.name_key, Card.keywords).join(Edition).where(Edition.game_id == game.id)).all()
    if not rows:
        return problems
    from types import SimpleNamespace

    from cardbase.decks import copy_limit_for

    rules = SimpleNamespace(copy_limit=copy_limit, keyword_limits=keyword_limits)
    by_name: dict[str, int] = {}
    for name_key, keywords in rows:  # as decks.check_deck counts: by name, keywords raise the limit
        by_name[name_key] = max(by_name.get(name_key, 0), copy_limit_for(rules, keywords or []))
    most = sum(by_name.values())
    if most < deck_size:
        problems.append(Problem("no-legal-deck", tr("gamesdata.no_legal_deck", size=deck_size, most=most,
                                                    names=len(by_name)),
                                tr("gamesdata.no_legal_deck_fix"), "deck_size"))
    return problems


def _template_problems(template: Any) -> list[Problem]:
    if template is None:
        return []
    known = known_templates()
    if not isinstance(template, str) or template not in known:
        return [Problem("unknown-template", tr("gamesdata.template_unknown", template=_shown(template)),
                        tr("gamesdata.template_fix", templates=", ".join(known)), "template")]
    return []


def _text_problems(values: Mapping[str, Any]) -> list[Problem]:
    problems = []
    columns = Game.__table__.c
    for key in ("name", "rules_file", "description"):
        if key not in values:
            continue
        value = values[key]
        if key == "name" and (not isinstance(value, str) or not value.strip()):
            problems.append(Problem("missing", tr("gamesdata.name_missing"), tr("gamesdata.name_fix"), "name"))
            continue
        if value is None:
            continue
        limit = getattr(columns[key].type, "length", None)
        if not isinstance(value, str) or "\x00" in value or (limit and len(value) > limit) \
                or (key == "name" and has_control(value)):
            problems.append(Problem("invalid-field", tr("gamesdata.text_bad", field=key, limit=limit or "∞"),
                                    tr("gamesdata.text_fix"), key))
    return problems


def _fields_in_use(session: Session, game: Game, decls: list[FieldDecl]) -> list[Problem]:
    """Cards of ``game`` whose values break the new declarations (a field removed, retyped…)."""
    from cardbase.text import card_ref

    problems: list[Problem] = []
    rows = session.exec(select(Card, Edition.code).join(Edition).where(Edition.game_id == game.id)
                        .order_by(Edition.code, Card.number)).all()
    value = next((d for d in decls if d.name == VALUE), None)
    decls = [d for d in decls if d.name != VALUE]
    for card, code in rows:
        ref = card_ref(code, card.number)
        _, probs = check_field_values(decls, dict(card.stats or {}), where=ref)
        problems += probs
        if value is not None and card.value is not None:
            problem = check_value(value, card.value, where=_where(ref, VALUE))[1]
            if problem is not None:
                problems.append(problem)
        if len(problems) > 50:
            break
    return problems


def _clean_game(session: Session, game: Game | None, values: dict[str, Any], *,
                code: str | None = None) -> tuple[dict[str, Any], list[Problem]]:
    """Check a game's values (merged over ``game`` for an edit, a new game named ``code``
    otherwise): the one set of rules of ``games add`` and ``games edit``; every problem at once."""
    problems = _text_problems(values)
    merged = {k: getattr(game, k) for k in GAME_FIELDS} if game is not None else {}
    merged.update(values)
    # the engine's range is checked when the players are set (a stored range is not re-judged)
    engine_code = code if game is None else (game.code if {"min_players", "max_players"} & set(values) else None)
    problems += _players_problems(merged.get("min_players"), merged.get("max_players"), engine_code)
    if game is None or {"deck_size", "copy_limit", "keyword_limits"} & set(values):
        # deck rules are checked when they are set, against the cards the game has then
        problems += _deck_problems(session, game, merged.get("deck_size"), merged.get("copy_limit"),
                                   merged.get("keyword_limits") or {})
    if "template" in values:
        problems += _template_problems(values["template"])
    clean = dict(values)
    if "name" in clean and isinstance(clean["name"], str):
        clean["name"] = clean["name"].strip()
    if "keyword_limits" in clean:
        clean["keyword_limits"] = dict(clean["keyword_limits"] or {})
    if "fields" in values:
        decls, probs = check_declarations(values["fields"] or [])
        problems += probs
        clean["fields"] = [d.as_dict() for d in decls]
        if not probs and game is not None and game.id is not None:
            problems += _fields_in_use(session, game, decls)
    return clean, problems


def new_game_problems(session: Session, *, code: str, name: str, min_players: int | None = None,
                      max_players: int | None = None, deck_size: int | None = None,
                      copy_limit: int | None = None, keyword_limits: Mapping[str, int] | None = None,
                      template: str | None = None, fields: Iterable[Any] = (),
                      rules_file: str | None = None, description: str | None = None
                      ) -> tuple[dict[str, Any], list[Problem]]:
    """The clean values of a new game and every problem with them (nothing is written): a page
    can show them while the designer types."""
    problems: list[Problem] = []
    folded = fold(code or "") if isinstance(code, str) else ""
    if not re.fullmatch(r"[a-z][a-z0-9_-]{0,39}", folded):
        problems.append(Problem("invalid-code", tr("gamesdata.code_bad", code=_shown(code)),
                                tr("gamesdata.code_fix"), "code"))
    elif session.exec(select(Game.id).where(Game.code == folded)).first() is not None:
        problems.append(Problem("duplicate-code", tr("gamesdata.code_taken", code=folded),
                                tr("gamesdata.code_taken_fix"), "code"))
    values = {"name": name, "min_players": min_players, "max_players": max_players,
              "deck_size": deck_size, "copy_limit": copy_limit,
              "keyword_limits": dict(keyword_limits or {}), "template": template,
              "fields": list(fields or []), "rules_file": rules_file, "description": description}
    clean, more = _clean_game(session, None, values, code=folded)
    clean["code"] = folded
    return clean, problems + more


def create_game(session: Session, *, code: str, name: str, min_players: int | None = None,
                max_players: int | None = None, deck_size: int | None = None,
                copy_limit: int | None = None, keyword_limits: Mapping[str, int] | None = None,
                template: str | None = None, fields: Iterable[Any] = (),
                rules_file: str | None = None, description: str | None = None) -> Game:
    """Add a game; ``fields`` are declarations (dicts, ``NAME:TYPE…`` specs or FieldDecl)."""
    require_editor(action="create a game")
    from cardbase.storage import writelock

    writelock.lock_for_create(session)
    clean, problems = new_game_problems(
        session, code=code, name=name, min_players=min_players, max_players=max_players,
        deck_size=deck_size, copy_limit=copy_limit, keyword_limits=keyword_limits,
        template=template, fields=fields, rules_file=rules_file, description=description)
    if problems:
        raise ValidationError(tr("gamesdata.not_created", code=code, count=len(problems)), problems)
    writelock.before_write("new-game")
    game = Game(**clean)
    session.add(game)
    try:
        session.flush()
    except IntegrityError:  # the same code saved by someone else since the check
        raise ValidationError(tr("gamesdata.not_created", code=code, count=1),
                              [Problem("duplicate-code", tr("gamesdata.code_taken", code=clean["code"]),
                                       tr("gamesdata.code_taken_fix"), "code")]) from None
    return game


def update_game(session: Session, *, code: str, expected_version: int, changes: Mapping[str, Any]) -> Game:
    """Apply ``changes`` (keys of :data:`GAME_FIELDS`) if the game is still at ``expected_version``."""
    require_editor(action="change a game")
    from cardbase.storage import writelock

    game = get_game(session, code)
    # The checks below (version, cards against the new declarations, deck rules) read under the
    # lock: no card is written against the old declarations while this change is decided.
    game = writelock.locked_game(session, game.id, exclusive=True)
    unknown = sorted(set(changes) - set(GAME_FIELDS))
    if unknown:
        raise ValidationError(tr("gamesdata.unknown_fields", fields=", ".join(unknown),
                                 known=", ".join(GAME_FIELDS)),
                              [Problem("unknown-field", tr("gamesdata.unknown_field", field=k),
                                       tr("gamesdata.unknown_fields_fix", known=", ".join(GAME_FIELDS)), k)
                               for k in unknown])
    if game.version != expected_version:
        raise StaleEditError(tr("gamesdata.stale", code=game.code, version=game.version,
                                expected=expected_version), current=game_dict(game), attempted=dict(changes))
    clean, problems = _clean_game(session, game, dict(changes))
    if problems:
        raise ValidationError(tr("gamesdata.not_saved", code=game.code, count=len(problems)), problems)
    writelock.before_write("game")
    result = session.execute(
        update(Game).where(Game.id == game.id, Game.version == expected_version)
        .values(**clean, version=expected_version + 1).execution_options(synchronize_session=False))
    if result.rowcount != 1:
        session.expire(game)
        session.refresh(game)
        raise StaleEditError(tr("gamesdata.stale", code=game.code, version=game.version,
                                expected=expected_version), current=game_dict(game), attempted=dict(changes))
    session.expire(game)
    session.refresh(game)
    return game


# --------------------------------------------------------------------------- text → values

def parse_game_setting(field: str, text: str, *, current: Game | None = None) -> tuple[Any, list[Problem]]:
    """A ``--set FIELD=VALUE`` of ``games edit`` as the value ``update_game`` takes.

    ``players=2-4`` sets both bounds (see :func:`setting_changes`); ``fields=a:int,b:text``
    replaces the declarations, ``fields+=spec`` adds one and ``fields-=name`` removes one;
    ``keyword_limits=foule=4,…``; an empty value clears an optional setting.
    """
    text = text.strip()
    if field in ("deck_size", "copy_limit", "min_players", "max_players"):
        if not text:
            return None, []
        if not re.fullmatch(r"[+-]?\d{1,9}", text):
            return None, [Problem("not-a-number", tr("gamesdata.set_not_int", field=field, value=text),
                                  tr("gamesdata.set_not_int_fix"), field)]
        return int(text), []
    if field == "keyword_limits":
        return parse_keyword_limits([p for p in text.split(",") if p.strip()])
    if field == "fields":
        return [p.strip() for p in text.split(",") if p.strip()], []
    if field in ("template", "rules_file", "description"):
        return (text or None), []
    return text, []


def parse_keyword_limits(items: Iterable[str]) -> tuple[dict[str, int], list[Problem]]:
    """``["foule=4", …]`` → {"foule": 4}."""
    out: dict[str, int] = {}
    problems = []
    for item in items:
        kw, sep, n = item.partition("=")
        if not sep or not kw.strip() or not re.fullmatch(r"\s*\d{1,4}\s*", n):
            problems.append(Problem("bad-deck-rule", tr("gamesdata.keyword_limit_syntax", value=item),
                                    tr("gamesdata.keyword_limit_fix"), "keyword_limits"))
            continue
        out[kw.strip()] = int(n)
    return out, problems


def _first_time(key: str, given: set[str], problems: list[Problem]) -> bool:
    """Whether ``key`` is set for the first time in one command; a second value is refused (the
    first would be lost without a word). ``players`` counts as both of its bounds."""
    keys = {"min_players", "max_players"} if key in ("players", "min_players", "max_players") else {key}
    if keys & given:
        problems.append(Problem("set-twice", tr("writes.set_twice", field=key), tr("writes.set_twice_fix", field=key), key))
        return False
    given.update(keys)
    return True


def setting_changes(game: Game, settings: Iterable[str]) -> tuple[dict[str, Any], list[Problem]]:
    """``["name=…", "players=2-4", "fields+=force:int:0..10", …]`` → changes for update_game."""
    changes: dict[str, Any] = {}
    problems: list[Problem] = []
    fields = [dict(f) for f in game.fields or []]
    fields_touched = False
    given: set[str] = set()
    for item in settings:
        match = re.fullmatch(r"\s*([a-z_]+)\s*(\+=|-=|=)(.*)", item or "", re.S)
        if not match:
            problems.append(Problem("bad-setting", tr("gamesdata.set_syntax", value=item),
                                    tr("gamesdata.set_fix", fields=", ".join(GAME_FIELDS + ("players",))), item))
            continue
        key, op, text = match.group(1), match.group(2), match.group(3)
        if op == "=" and not _first_time(key, given, problems):
            continue
        if key == "players" and op == "=":
            lo, hi, probs = parse_players(text)
            problems += probs
            changes["min_players"], changes["max_players"] = lo, hi
            continue
        if key not in GAME_FIELDS or (op != "=" and key != "fields"):
            problems.append(Problem("unknown-field", tr("gamesdata.unknown_field", field=key + op),
                                    tr("gamesdata.set_fix", fields=", ".join(GAME_FIELDS + ("players",))), key))
            continue
        if key == "fields":
            fields_touched = True
            if op == "=":
                fields = [p.strip() for p in text.split(",") if p.strip()]
            elif op == "+=":
                fields.append(text.strip())
            else:
                names = [(f["name"] if isinstance(f, dict) else str(f).split(":")[0]) for f in fields]
                if text.strip() not in names:
                    problems.append(Problem("unknown-field", tr("gamesdata.field_not_declared", name=text.strip(),
                                                                fields=", ".join(names) or "—"),
                                            tr("gamesdata.field_not_declared_fix"), "fields"))
                else:
                    fields.pop(names.index(text.strip()))
            continue
        value, probs = parse_game_setting(key, text, current=game)
        problems += probs
        changes[key] = value
    if fields_touched:
        changes["fields"] = fields
    return changes, problems


# --------------------------------------------------------------------------- editions

EDITION_SETTINGS = ("code", "name", "set_size", "symbol", "release_date", "description", "sample")


def edition_setting_changes(settings: Iterable[str]) -> tuple[dict[str, Any], list[Problem]]:
    """``["name=…", "set_size=64", "release_date=2026-11-01", …]`` → changes for update_edition."""
    import datetime as dt

    changes: dict[str, Any] = {}
    problems: list[Problem] = []
    given: set[str] = set()
    fix = tr("gamesdata.edition_set_fix", fields=", ".join(EDITION_SETTINGS))
    for item in settings:
        key, sep, text = (item or "").partition("=")
        key, text = key.strip(), text.strip()
        if not sep or key not in EDITION_SETTINGS:
            problems.append(Problem("bad-setting", tr("gamesdata.set_syntax", value=item), fix, key or item))
            continue
        if not _first_time(key, given, problems):
            continue
        if key == "set_size":
            if not re.fullmatch(r"\d{1,7}", text):
                problems.append(Problem("not-a-number", tr("gamesdata.set_not_int", field=key, value=text),
                                        tr("catalog.edition_bad_size_fix"), key))
                continue
            changes[key] = int(text)
        elif key == "release_date":
            try:
                changes[key] = dt.date.fromisoformat(text) if text else None
            except ValueError:
                problems.append(Problem("bad-date", tr("gamesdata.edition_bad_date", value=text),
                                        tr("gamesdata.edition_bad_date_fix"), key))
        elif key == "sample":
            if fold(text) not in ("true", "false", "oui", "non", "yes", "no", "1", "0"):
                problems.append(Problem("bad-setting", tr("gamesdata.edition_bad_bool", value=text),
                                        tr("gamesdata.edition_bad_bool_fix"), key))
                continue
            changes[key] = fold(text) in ("true", "oui", "yes", "1")
        else:
            changes[key] = text or None
    return changes, problems


MAX_SET_SIZE = 1_000_000  # cards an edition may announce (its set size)
MAX_EDITION_CODE = 20  # the column's length; letters A-Z and digits only


def edition_change_problems(session: Session, edition: Edition | None, changes: Mapping[str, Any]
                            ) -> tuple[dict[str, Any], list[Problem]]:
    """The rules of an edition, one place for both ``editions add`` (``edition`` None: a new
    edition, code and name required) and ``editions edit`` (only the values given are checked).

    Code: 1–20 letters A–Z or digits (upper-cased), not another edition's; name: 1–120
    characters; set size: 0–1,000,000; symbol: 40 characters at most, no control character;
    description: text without NUL; release date: a date; sample: yes or no."""
    from sqlalchemy import func

    clean = dict(changes)
    problems: list[Problem] = []
    new = edition is None
    if new or "code" in changes:
        raw = changes.get("code")
        code = raw.strip().upper() if isinstance(raw, str) else ""
        if not code or not (code.isascii() and code.isalnum()) or len(code) > MAX_EDITION_CODE:
            problems.append(Problem("invalid-code", tr("catalog.edition_bad_code", code=_shown(raw)),
                                    tr("catalog.edition_bad_code_fix"), "code"))
        elif (new or code != edition.code.upper()) and session.exec(
                select(Edition.id).where(func.upper(Edition.code) == code)).first():
            problems.append(Problem("duplicate-code", tr("catalog.edition_exists", code=code),
                                    tr("catalog.edition_exists_fix"), "code"))
        clean["code"] = code
    if new or "name" in changes:
        name = changes.get("name")
        limit = Edition.__table__.c.name.type.length
        if not isinstance(name, str) or not name.strip():
            problems.append(Problem("missing", tr("catalog.edition_no_name"), tr("catalog.edition_no_name_fix"), "name"))
        elif has_control(name):
            problems.append(Problem("invalid-field", tr("gamesdata.text_bad", field="name", limit=limit),
                                    tr("gamesdata.text_fix"), "name"))
        elif len(name.strip()) > limit:
            problems.append(Problem("too-long", tr("catalog.edition_name_too_long", length=len(name.strip()), limit=limit),
                                    tr("catalog.edition_name_too_long_fix"), "name"))
        else:
            clean["name"] = name.strip()
    if "set_size" in changes:
        size = changes["set_size"]
        if isinstance(size, bool) or not isinstance(size, int) or not 0 <= size <= MAX_SET_SIZE:
            problems.append(Problem("invalid-size", tr("catalog.edition_bad_size", size=_shown(size)),
                                    tr("catalog.edition_bad_size_fix"), "set_size"))
    if "symbol" in changes:
        symbol = changes["symbol"]
        if isinstance(symbol, str):
            symbol = symbol.strip() or None
        limit = Edition.__table__.c.symbol.type.length
        if symbol is not None and (not isinstance(symbol, str) or len(symbol) > limit
                                   or any(ord(c) < 32 or ord(c) == 127 for c in symbol)):
            problems.append(Problem("too-long", tr("gamesdata.edition_bad_symbol", value=_shown(changes["symbol"])),
                                    tr("gamesdata.edition_bad_symbol_fix"), "symbol"))
        clean["symbol"] = symbol
    if "release_date" in changes:
        import datetime as dt

        date = changes["release_date"]
        if date is not None and (not isinstance(date, dt.date) or isinstance(date, dt.datetime)):
            problems.append(Problem("bad-date", tr("gamesdata.edition_bad_date", value=_shown(date)),
                                    tr("gamesdata.edition_bad_date_fix"), "release_date"))
    if "sample" in changes and not isinstance(changes["sample"], bool):
        problems.append(Problem("bad-setting", tr("gamesdata.edition_bad_bool", value=_shown(changes["sample"])),
                                tr("gamesdata.edition_bad_bool_fix"), "sample"))
    if "description" in changes and changes["description"] is not None and (
            not isinstance(changes["description"], str) or "\x00" in changes["description"]):
        problems.append(Problem("invalid-field", tr("gamesdata.text_bad", field="description", limit="∞"),
                                tr("gamesdata.text_fix"), "description"))
    return clean, problems
