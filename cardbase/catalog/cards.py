"""Card and edition services: the one place where cards are created, changed, read and exported.

Every function takes a Session and runs inside the caller's transaction (``db.session_scope``), so
a batch either lands whole or not at all. Updates carry the version the editor started from; an
update made against an old version is refused (compare-and-swap in SQL), never applied.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping
from functools import cache
from typing import Any

from sqlalchemy import insert, update
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, select

from cardbase.catalog.fields import CARD_FIELDS
from cardbase.catalog.reads import (  # noqa: F401 - reading cards: on a session or the read-only path
    CARD_DICT_KEYS,
    _is_text,
    _printable,
    card_defs,
    card_dicts,
    card_rows,
    card_to_dict,
    decks_using_card,
    fill_print_tables,
    get_card,
    get_edition,
    to_card_def,
)
from cardbase.catalog.gamesdata import get_game  # noqa: F401 - games are looked up there
from cardbase.errors import NotFoundError, Problem, StaleEditError, ValidationError
from cardbase.i18n import tr
from cardbase.storage.models import Card, Edition, Game
from cardbase.catalog.richtext import plain
from cardbase.text import canonical_colour, card_ref, fold, has_control


def require_editor(*, action: str) -> None:
    """The permission check of a write; its module is loaded by writes only (reads start faster)."""
    from cardbase.access import require_editor as check

    check(action=action)


# Fields a user may set on a card (CARD_FIELDS, catalog/fields.py), with their meaning in English;
# messages name them in the current language with ``field_label``.


def field_label(key: str) -> str:
    """How the card field ``key`` is named to the user, in the current language."""
    return tr(f"catalog.field.{key}") if key in CARD_FIELDS else key


# data-file / CSV names → model attribute names
FILE_TO_MODEL = {"type": "card_type"}
MODEL_TO_FILE = {v: k for k, v in FILE_TO_MODEL.items()}


def _now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def apply_keys(card: Card) -> Card:
    """Fill the folded search columns from the card's fields."""
    card.name_key = fold(card.name)
    # search matches the text as read, without its markup (docs/rich-text.md): o:degats finds **dégâts**
    card.text_key = " ".join(x for x in (fold(card.name), fold(plain(card.effect_text))) if x)
    card.colour_key = canonical_colour(card.colour)
    card.banner_key = fold(card.banner)
    card.rarity_key = fold(card.rarity)
    card.type_key = fold(card.card_type)
    keys = [fold(k) for k in card.keywords or []]
    card.keywords_key = "|" + "|".join(keys) + "|" if keys else ""
    return card


# --------------------------------------------------------------------------- validation

def validate_card_fields(data: Mapping[str, Any], *, where: str = "", partial: bool = False) -> tuple[dict[str, Any], list[Problem]]:
    """Check and normalise card fields. Returns the clean fields and every problem found."""
    clean: dict[str, Any] = {}
    problems: list[Problem] = []

    def bad(field: str, message: str, fix: str, code: str = "invalid-field") -> None:
        problems.append(Problem(code, message, fix, _where(where, field)))

    for key in data:
        if key not in CARD_FIELDS:
            bad(key, tr("catalog.unknown_field", field=key),
                tr("catalog.unknown_field_fix", fields=", ".join(CARD_FIELDS)))
    if not partial:
        for key in ("number", "name"):
            if key not in data:
                bad(key, tr(f"catalog.missing.{key}"), tr(f"catalog.missing_fix.{key}"))
    for key, value in data.items():
        if key not in CARD_FIELDS:
            continue
        if key in ("number", "value", "copies"):
            if value in (None, "") and key == "number":
                bad(key, tr("catalog.missing.number"), tr("catalog.missing_fix.number"))
                continue
            if value in (None, ""):
                clean[key] = None if key == "value" else 1
                continue
            if isinstance(value, bool) or not isinstance(value, (int, str, float)):
                bad(key, tr("catalog.not_whole", field=field_label(key), value=_shown(value)),
                    tr("catalog.not_whole_fix"))
                continue
            try:
                if isinstance(value, int):
                    number = value
                elif isinstance(value, str) and value.strip().lstrip("+-").isdigit() \
                        and value.strip().isascii():
                    number = int(value.strip()) if len(value.strip()) < 30 else 10**30
                else:
                    as_float = float(value)
                    if as_float != int(as_float):
                        raise ValueError
                    number = int(as_float)
            except (TypeError, ValueError, OverflowError):
                bad(key, tr("catalog.not_whole", field=field_label(key), value=_shown(value)),
                    tr("catalog.not_whole_fix"))
                continue
            if key == "number" and number < 1:
                bad(key, tr("catalog.number_below_1", number=number), tr("catalog.number_below_1_fix"))
                continue
            if key == "copies" and number < 0:
                bad(key, tr("catalog.copies_negative", number=number), tr("catalog.copies_negative_fix"))
                continue
            if abs(number) > 1_000_000:
                bad(key, tr("catalog.out_of_range", field=field_label(key), number=number),
                    tr("catalog.out_of_range_fix"))
                continue
            clean[key] = number
        elif key == "name":
            name = (value or "").strip() if isinstance(value, str) else value
            if not isinstance(name, str) or not name:
                bad(key, tr("catalog.name_empty"), tr("catalog.missing_fix.name"))
            elif len(name) > 120:
                bad(key, tr("catalog.name_too_long", length=len(name)), tr("catalog.name_too_long_fix"))
            elif has_control(name):
                bad(key, tr("catalog.name_control", name=_shown(name)), tr("catalog.name_control_fix"))
            else:
                clean[key] = name
        elif key == "keywords":
            if value in (None, ""):
                clean[key] = []
            elif isinstance(value, str):
                clean[key] = [k.strip() for k in value.replace(",", ";").split(";") if k.strip()]
            elif isinstance(value, (list, tuple)) and all(isinstance(k, str) for k in value):
                clean[key] = [k.strip() for k in value if k.strip()]
            else:
                bad(key, tr("catalog.keywords_not_list", value=_shown(value)),
                    tr("catalog.keywords_not_list_fix"))
        elif key == "stats":
            if value in (None, ""):
                clean[key] = {}
            elif isinstance(value, Mapping) and all(isinstance(k, str) for k in value):
                clean[key] = dict(value)
            else:
                bad(key, tr("catalog.stats_not_table", value=_shown(value)), tr("catalog.stats_fix"))
        elif key == "sample":
            if isinstance(value, bool):
                clean[key] = value
            elif value in (None, ""):
                clean[key] = False
            elif isinstance(value, str) and value.strip().lower() in ("true", "false", "1", "0", "yes", "no", "oui", "non"):
                clean[key] = value.strip().lower() in ("true", "1", "yes", "oui")
            elif isinstance(value, int):
                clean[key] = bool(value)
            else:
                bad(key, tr("catalog.sample_not_bool", value=_shown(value)), tr("catalog.sample_fix"))
        else:  # free text fields
            if value is None or value == "":
                clean[key] = None
            elif not isinstance(value, str):
                bad(key, tr("catalog.not_text", field=field_label(key), value=_shown(value)),
                    tr("catalog.not_text_fix"))
            else:
                # Multi-line texts are kept exactly (data files round-trip byte for byte).
                text = value if key in ("effect", "effect_text", "flavour") else value.strip()
                clean[key] = text if text.strip() else None
    if clean.get("colour"):
        clean["colour"] = canonical_colour(clean["colour"])
    _storage_problems(clean, bad)
    if clean.get("art"):
        problem = check_art_name(clean["art"])
        if problem is not None:
            problems.append(Problem(problem.code, problem.message, problem.fix, _where(where, "art")))
            clean.pop("art")
    return clean, problems


def _where(where: str, field: str) -> str:
    """Where a field's problem is: "<where> column <field>" in the current language."""
    return tr("catalog.where_column", where=where, column=field).strip()


def _shown(value: Any, limit: int = 60) -> str:
    """A value as shown in a message: its repr, cut to ``limit`` characters."""
    text = repr(value)
    return text if len(text) <= limit else text[:limit - 1] + "…"


def check_art_name(name: str) -> Problem | None:
    """The problem with an art reference, or None when it is a plain name inside the art folder.

    An art reference names a file inside the art folder (``CARDBASE_ART_DIR``, default
    ``data/art``), such as ``np1-012.png`` or ``np1/012.png``: absolute paths, drive letters,
    backslashes, ``..``, hidden names (``.x``), NUL and control characters are refused, and so is a
    name that leads outside the folder through a symbolic link.
    """
    if not isinstance(name, str) or not name.strip():
        return Problem("unsafe-art", tr("catalog.art_empty"), tr("catalog.art_fix"))
    if any(ord(c) < 32 or ord(c) == 127 for c in name) or "\\" in name:
        return Problem("unsafe-art", tr("catalog.art_bad_characters", name=_shown(name)),
                       tr("catalog.art_fix"))
    if name.startswith("/") or (len(name) > 1 and name[1] == ":") or "://" in name:
        return Problem("unsafe-art", tr("catalog.art_absolute", name=_shown(name)),
                       tr("catalog.art_fix"))
    parts = name.split("/")
    if any(part in ("", ".", "..") or part.startswith(".") for part in parts):
        return Problem("unsafe-art", tr("catalog.art_leaves", name=_shown(name)),
                       tr("catalog.art_fix"))
    from cardbase.storage.art import default_art_dir, safe_art_path
    from cardbase.errors import ArtError

    try:
        safe_art_path(default_art_dir(), name)
    except ArtError:
        return Problem("unsafe-art", tr("catalog.art_link", name=_shown(name)), tr("catalog.art_fix"))
    except (OSError, ValueError, RuntimeError):  # a path the system cannot resolve (loops…)
        return Problem("unsafe-art", tr("catalog.art_link", name=_shown(name)), tr("catalog.art_fix"))
    return None


def _strings(value: Any) -> Iterable[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, Mapping):
        for k, v in value.items():
            yield from _strings(k)
            yield from _strings(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _strings(v)


# Derived search columns: (source field, key column, how the key is made).
_KEY_COLUMNS = (("name", "name_key"), ("colour", "colour_key"), ("banner", "banner_key"),
                ("rarity", "rarity_key"), ("card_type", "type_key"))


@cache
def _column_lengths() -> dict[str, int | None]:
    return {c.name: getattr(c.type, "length", None) for c in Card.__table__.c}


def _storage_problems(clean: dict[str, Any], bad: Any) -> None:
    """What every database must be able to store: the same limits on SQLite and PostgreSQL."""
    import json

    lengths = _column_lengths()
    for key, value in list(clean.items()):
        texts = (value,) if isinstance(value, str) else tuple(_strings(value))
        if any("\x00" in text for text in texts):
            bad(key, tr("catalog.nul", field=field_label(key)), tr("catalog.nul_fix"))
            clean.pop(key)
            continue
        if not all(_is_text(text) for text in texts):
            bad(key, tr("catalog.not_utf8", field=field_label(key)), tr("catalog.nul_fix"))
            clean.pop(key)
            continue
        length = lengths.get(key)
        if isinstance(value, str) and length and len(value) > length:
            bad(key, tr("catalog.too_long", field=field_label(key), length=len(value)),
                tr("catalog.too_long_fix", limit=length))
            clean.pop(key)
    for field_name, key_col in _KEY_COLUMNS:
        value = clean.get(field_name)
        limit = lengths[key_col]
        if isinstance(value, str) and len(fold(value)) > limit:
            bad(field_name, tr("catalog.too_long_for_search", field=field_label(field_name),
                               length=len(fold(value))), tr("catalog.too_long_fix", limit=limit))
            clean.pop(field_name)
    keywords = clean.get("keywords")
    if keywords:
        folded = "|" + "|".join(fold(k) for k in keywords) + "|"
        limit = lengths["keywords_key"]
        if len(folded) > limit:
            bad("keywords", tr("catalog.keywords_too_long", length=len(folded)),
                tr("catalog.keywords_too_long_fix", limit=limit))
            clean.pop("keywords")
    stats = clean.get("stats")
    if stats:
        try:
            json.dumps(stats, allow_nan=False)
        except (TypeError, ValueError):
            bad("stats", tr("catalog.stats_not_json", value=_shown(stats)), tr("catalog.stats_json_fix"))
            clean.pop("stats")


DISCARD_KEYWORD = "Défausse"


def check_effect(game_code: str, effect: str | None, *, where: str = "",
                 keywords: Iterable[str] | None = None) -> tuple[Any, list[Problem]]:
    """Parse a card's effect source when its game has an effect language; problems, not raises.

    With ``keywords`` (the card's keywords after the change), an effect with a ``defausse:`` part
    on a card without the keyword Défausse is refused (code ``missing-keyword``): the rules trigger
    a Défausse effect only on a card that has the keyword, so card data and engine agree.
    """
    if not effect or game_code != "nespanini":
        return None, []
    from cardbase.games.effects import parse_effect
    from cardbase.errors import EffectError

    try:
        effect_obj = parse_effect(effect)
    except EffectError as exc:
        probs = exc.problems or [Problem("effect", str(exc), tr("catalog.effect_fix"), "")]
        return None, [Problem("effect", p.message, p.fix or tr("catalog.effect_fix"),
                              f"{_where(where, 'effect')} {p.where}".strip()) for p in probs]
    return effect_obj, discard_keyword_problems(effect_obj, keywords, where=where)


def discard_keyword_problems(effect_obj: Any, keywords: Iterable[str] | None, *,
                             where: str = "") -> list[Problem]:
    """The problem of a ``defausse:`` effect on a card whose keywords lack Défausse."""
    if effect_obj is None or keywords is None or not getattr(effect_obj, "on_discard", ()):
        return []
    if fold(DISCARD_KEYWORD) in {fold(k) for k in keywords}:
        return []
    return [Problem("missing-keyword", tr("catalog.discard_without_keyword"),
                    tr("catalog.discard_without_keyword_fix"), _where(where, "keywords"))]


def french_text(effect_obj: Any) -> str | None:
    if effect_obj is None:
        return None
    from cardbase.games.effects import effect_to_french

    return effect_to_french(effect_obj)


# --------------------------------------------------------------------------- reading

# --------------------------------------------------------------------------- writing

def _number_taken(session: Session, edition: Edition, number: int) -> list[Problem]:
    """The problem of giving ``number`` to a new card of ``edition`` when another card has it."""
    taken = session.exec(
        select(Card.id).where(Card.edition_id == edition.id, Card.number == number)).first()
    if taken is None:
        return []
    return [Problem("duplicate-number", tr("catalog.duplicate_number", code=edition.code, number=number),
                    tr("catalog.duplicate_number_fix"), "number")]


def _value_problems(game: Game, clean: Mapping[str, Any]) -> list[Problem]:
    """The card's value outside the range its game declares (NesPanini: ruling R12)."""
    from cardbase.catalog.gamesdata import value_problem

    problem = value_problem(game, clean.get("value"), where=_where("", "value"))
    return [] if problem is None else [problem]


def markup_problems(game: Game | str | None, text: str | None, *, where: str = "",
                    template: str | None = None) -> list[Problem]:
    """Problems of a card text's markup (docs/rich-text.md): an unknown symbol, an unclosed
    ``**``, ``*`` or ``{`` — each with its character position, all at once. Symbols are those of
    the game's card template (its colours and ``[symbols]``) and the sticker codes."""
    from cardbase.catalog.richtext import has_markup, parse

    if not has_markup(text):
        return []
    ctx = _markup_context(game if isinstance(game, str) or game is None else game.code,
                          template if template is not None else getattr(game, "template", None),
                          _sticker_table(game))
    found = parse(text, ctx).problems
    return [Problem(p.code, p.message, p.fix, f"{_where(where, 'effect_text')} ({p.where})")
            for p in found]


def _sticker_table(game: Game | str | None) -> dict[str, str] | None:
    """The database's sticker colours (a colour added or deleted there counts, not data/'s
    table), read once a session; None without a session."""
    from sqlalchemy.orm import object_session

    session = object_session(game) if isinstance(game, Game) else None
    if session is None:
        return None
    table = session.info.get("cardbase.sticker_table")
    if table is None:
        from cardbase.catalog.stickers import colour_table

        table = session.info["cardbase.sticker_table"] = colour_table(session)
    return table


def _markup_context(game_code: str | None, template: str | None,
                    sticker_table: dict[str, str] | None = None):
    from cardbase.outputs.printing.templates import load_template, template_for
    from cardbase.catalog.richtext import context_for

    try:
        tpl = load_template(template) if template else template_for(game_code or "")
    except Exception:  # a game without a usable template: colours unknown, stickers still checked
        tpl = None
    return context_for(tpl, sticker_table)


def create_card(session: Session, *, edition: str, fields: Mapping[str, Any]) -> Card:
    """Add a card to an edition; every problem with its fields is reported at once."""
    require_editor(action="create a card")
    from cardbase.storage import writelock
    from cardbase.catalog.gamesdata import card_stats

    ed = get_edition(session, edition)
    # the game's declared fields as they are now, and kept so until this card is saved
    game = writelock.locked_game(session, ed.game_id)
    common, stats, problems = card_stats(game, fields)
    clean, more = validate_card_fields(common)
    problems = more + problems
    if stats is not None:
        clean["stats"] = stats
    effect_obj, effect_problems = check_effect(game.code, clean.get("effect"),
                                               keywords=clean.get("keywords") or [])
    problems += effect_problems
    problems += markup_problems(game, clean.get("effect_text"))
    problems += _value_problems(game, clean)
    if "number" in clean:
        problems += _number_taken(session, ed, clean["number"])
    if problems:
        raise ValidationError(tr("catalog.not_created", count=len(problems)), problems)
    if effect_obj is not None and not clean.get("effect_text"):
        clean["effect_text"] = french_text(effect_obj)
    writelock.before_write("new-card")
    card = apply_keys(Card(edition_id=ed.id, **clean))
    session.add(card)
    try:
        session.flush()
    except IntegrityError:  # the same number saved by someone else since the check
        raise ValidationError(tr("catalog.not_created", count=1), [
            Problem("duplicate-number", tr("catalog.duplicate_number", code=ed.code, number=clean["number"]),
                    tr("catalog.duplicate_number_fix"), "number")]) from None
    return card


def update_card(session: Session, card_id: int, *, expected_version: int,
                changes: Mapping[str, Any]) -> Card:
    """Apply ``changes`` if the card is still at ``expected_version``; otherwise refuse."""
    require_editor(action="change a card")
    from cardbase.storage import writelock
    from cardbase.catalog.gamesdata import card_stats

    card = session.get(Card, card_id)
    if card is None:
        raise NotFoundError(tr("catalog.no_card_id", id=card_id))
    edition = session.get(Edition, card.edition_id)
    # the game's declared fields and the card as they are now, and kept so until the write
    game = writelock.locked_game(session, edition.game_id)
    card = session.get(Card, card_id, populate_existing=True)
    if card is None:
        raise NotFoundError(tr("catalog.no_card_id", id=card_id))
    common, stats, problems = card_stats(game, changes, base=card.stats, partial=True)
    clean, more = validate_card_fields(common, partial=True)
    problems = more + problems
    if stats is not None:
        clean["stats"] = stats
    keywords = clean.get("keywords", card.keywords or []) or []
    if "effect" in clean:
        effect_obj, effect_problems = check_effect(game.code, clean["effect"], keywords=keywords)
        problems += effect_problems
        if effect_obj is not None and "effect_text" not in changes:
            clean["effect_text"] = french_text(effect_obj)
    elif "keywords" in clean and card.effect:
        # Taking the keyword Défausse off a card whose effect has a defausse: part.
        effect_obj, _ = check_effect(game.code, card.effect)
        problems += discard_keyword_problems(effect_obj, keywords)
    if clean.get("effect_text") and "effect_text" in changes:
        problems += markup_problems(game, clean["effect_text"])
    problems += _value_problems(game, clean)
    if "number" in clean and clean["number"] != card.number:
        problems += _number_taken(session, edition, clean["number"])
    if problems:
        raise ValidationError(tr("catalog.not_saved", ref=card_ref(edition.code, card.number),
                                 count=len(problems)), problems)
    before = card_to_dict(card, edition, game)
    if card.version != expected_version:
        _refuse_stale(card, edition, game, expected_version, changes, before)
    draft = Card(**{k: getattr(card, k) for k in Card.model_fields})
    for key, value in clean.items():
        setattr(draft, key, value)
    apply_keys(draft)
    values = {k: getattr(draft, k) for k in Card.model_fields if k not in ("id", "version", "edition_id")}
    values["updated_at"] = _now()
    values["version"] = expected_version + 1
    writelock.before_write("card")
    try:
        result = session.execute(
            update(Card).where(Card.id == card_id, Card.version == expected_version).values(**values)
            .execution_options(synchronize_session=False)
        )
    except IntegrityError:  # the new number given to another card since the check
        raise ValidationError(tr("catalog.not_saved", ref=card_ref(edition.code, card.number), count=1), [
            Problem("duplicate-number", tr("catalog.duplicate_number", code=edition.code, number=values["number"]),
                    tr("catalog.duplicate_number_fix"), "number")]) from None
    if result.rowcount != 1:  # someone saved between our read and our write
        session.expire(card)
        session.refresh(card)
        _refuse_stale(card, edition, game, expected_version, changes, card_to_dict(card, edition, game))
    session.expire(card)
    session.refresh(card)
    return card


def _refuse_stale(card: Card, edition: Edition, game: Game, expected: int,
                  changes: Mapping[str, Any], current: dict[str, Any]) -> None:
    ref = card_ref(edition.code, card.number)
    diffs = []
    for key, value in changes.items():
        file_key = MODEL_TO_FILE.get(key, key)
        if current.get(file_key) != value:
            diffs.append("    " + tr("catalog.stale_diff", field=field_label(key),
                                     saved=_shown(current.get(file_key)), yours=_shown(value)))
    raise StaleEditError(
        tr("catalog.stale", ref=ref, name=card.name, version=card.version, expected=expected) + "\n"
        + ("  " + tr("catalog.stale_fields") + "\n" + "\n".join(diffs) + "\n" if diffs else "")
        + "  " + tr("catalog.stale_fix"),
        current=current,
        attempted=dict(changes),
    )


def delete_card(session: Session, card_id: int, *, expected_version: int) -> None:
    """Delete a card; refused when a saved deck uses it or when the card changed meanwhile."""
    require_editor(action="delete a card")
    card = session.get(Card, card_id)
    if card is None:
        raise NotFoundError(tr("catalog.no_card_id", id=card_id))
    edition = session.get(Edition, card.edition_id)
    game = session.get(Game, edition.game_id)
    if card.version != expected_version:
        _refuse_stale(card, edition, game, expected_version, {}, card_to_dict(card, edition, game))
    decks = decks_using_card(session, card_id)
    if decks:
        raise ValidationError(tr("catalog.used_by_decks", ref=card_ref(edition.code, card.number),
                                 name=card.name, count=len(decks), decks=", ".join(decks)))
    ref, name = card_ref(edition.code, card.number), card.name
    session.delete(card)
    try:
        session.flush()
    except IntegrityError:  # a deck started using the card while we were deleting it
        raise ValidationError(tr("catalog.just_added_to_deck", ref=ref, name=name)) from None


# --------------------------------------------------------------------------- editions

EDITION_FIELDS = ("code", "name", "release_date", "set_size", "symbol", "description", "sample")


def create_edition(session: Session, *, game: str, code: str, name: str, set_size: int = 0,
                   release_date: dt.date | None = None, symbol: str | None = None,
                   description: str | None = None, sample: bool = False) -> Edition:
    require_editor(action="create an edition")
    from cardbase.storage import writelock

    writelock.lock_for_create(session)
    return _insert_edition(session, game=game, code=code, name=name, set_size=set_size,
                           release_date=release_date, symbol=symbol, description=description,
                           sample=sample)


def _insert_edition(session: Session, *, game: str, code: str, name: str, set_size: int,
                    release_date: dt.date | None, symbol: str | None, description: str | None,
                    sample: bool) -> Edition:
    """Check a new edition with the rules ``editions edit`` applies too, then insert it."""
    from cardbase.storage import writelock
    from cardbase.catalog.gamesdata import edition_change_problems

    g = get_game(session, game)
    clean, problems = edition_change_problems(session, None, {
        "code": code, "name": name, "set_size": set_size, "release_date": release_date,
        "symbol": symbol, "description": description, "sample": sample})
    if problems:
        raise ValidationError(tr("catalog.edition_not_created"), problems)
    writelock.before_write("new-edition")
    ed = Edition(game_id=g.id, **clean)
    session.add(ed)
    try:
        session.flush()
    except IntegrityError:  # the same code saved by someone else since the check
        raise ValidationError(tr("catalog.edition_not_created"), [
            Problem("duplicate-code", tr("catalog.edition_exists", code=clean["code"]),
                    tr("catalog.edition_exists_fix"), "code")]) from None
    return ed


def update_edition(session: Session, code: str, *, expected_version: int, changes: Mapping[str, Any]) -> Edition:
    require_editor(action="change an edition")
    from cardbase.storage import writelock

    ed = get_edition(session, code)
    writelock.lock_games(session, [ed.game_id], exclusive=True)
    ed = session.get(Edition, ed.id, populate_existing=True)
    unknown = set(changes) - set(EDITION_FIELDS) - {"code"}
    if unknown:
        raise ValidationError(tr("catalog.edition_unknown_fields", fields=", ".join(sorted(unknown)),
                                 count=len(unknown), known=", ".join(EDITION_FIELDS)))
    if ed.version != expected_version:
        raise StaleEditError(tr("catalog.edition_stale", code=ed.code, version=ed.version,
                                expected=expected_version))
    from cardbase.catalog.gamesdata import edition_change_problems

    clean, problems = edition_change_problems(session, ed, changes)
    if problems:
        raise ValidationError(tr("gamesdata.edition_not_saved", code=ed.code, count=len(problems)), problems)
    writelock.before_write("edition")
    try:
        result = session.execute(
            update(Edition).where(Edition.id == ed.id, Edition.version == expected_version)
            .values(**clean, version=expected_version + 1).execution_options(synchronize_session=False))
    except IntegrityError:  # a new edition took the code since the check
        raise ValidationError(tr("gamesdata.edition_not_saved", code=ed.code, count=1), [
            Problem("duplicate-code", tr("catalog.edition_exists", code=clean.get("code")),
                    tr("catalog.edition_exists_fix"), "code")]) from None
    if result.rowcount != 1:
        raise StaleEditError(tr("catalog.edition_stale_race", code=ed.code))
    session.expire(ed)
    session.refresh(ed)
    return ed


def edition_report(session: Session) -> list[dict[str, Any]]:
    """Every edition with its card count and numbering problems (gaps, numbers past the set size)."""
    out = []
    for ed, game in session.exec(select(Edition, Game).join(Game).order_by(Game.code, Edition.code)).all():
        numbers = sorted(session.exec(select(Card.number).where(Card.edition_id == ed.id)).all())
        issues = []
        beyond = [n for n in numbers if ed.set_size and n > ed.set_size]
        if beyond:
            issues.append(tr("catalog.numbers_past_size", size=ed.set_size, numbers=beyond))
        if ed.set_size:
            missing = sorted(set(range(1, ed.set_size + 1)) - set(numbers))
            if missing:
                shown = ", ".join(map(str, missing[:10])) + ("…" if len(missing) > 10 else "")
                issues.append(tr("catalog.numbers_missing", count=len(missing), numbers=shown))
        out.append({"game": game.code, "code": ed.code, "name": ed.name, "set_size": ed.set_size,
                    "cards": len(numbers), "symbol": ed.symbol, "release_date": ed.release_date,
                    "sample": ed.sample, "version": ed.version, "numbering_ok": not issues,
                    "numbering_issues": issues})
    return out


# --------------------------------------------------------------------------- data files

def card_file_dict(card: Card, game: Game | None = None) -> dict[str, Any]:
    """A card as it is written in an edition data file: the game's declared fields as keys of
    their own, in the game's order; figures it does not declare stay in ``stats``."""
    out: dict[str, Any] = {}
    names = [f["name"] for f in (game.fields if game is not None else None) or []
             if f["name"] != "value"]
    stats = dict(card.stats or {})
    for key in ("number", "name", "value", "colour", "banner", "rarity", "card_type", "keywords",
                "copies", "stats", "effect", "effect_text", "flavour", "art", "sample"):
        if key == "stats":
            for name in names:
                if stats.get(name) is not None:
                    out[name] = stats.pop(name)
            out["stats"] = stats
            continue
        out[MODEL_TO_FILE.get(key, key)] = getattr(card, key)
    return out


def edition_file_dict(edition: Edition, game: Game) -> dict[str, Any]:
    return {"game": game.code, "code": edition.code, "name": edition.name, "date": edition.release_date,
            "set_size": edition.set_size, "symbol": edition.symbol, "sample": edition.sample,
            "description": edition.description}


def export_edition_text(session: Session, code: str) -> str:
    from cardbase.storage.datafiles import dump_edition

    ed = get_edition(session, code)
    game = session.get(Game, ed.game_id)
    cards = session.exec(select(Card).where(Card.edition_id == ed.id).order_by(Card.number)).all()
    return dump_edition(edition_file_dict(ed, game), [card_file_dict(c, game) for c in cards])


def file_card_values(game: Game, raw: Mapping[str, Any], *, where: str = "") -> tuple[dict[str, Any], list[Problem]]:
    """The checked column values of a card as an edition data file writes it (its declared fields
    as keys of their own), and every problem with them."""
    from cardbase.catalog.gamesdata import card_stats

    fields = {FILE_TO_MODEL.get(k, k): v for k, v in raw.items()}
    common, stats, more = card_stats(game, fields, where=where)
    clean, problems = validate_card_fields(common, where=where)
    if stats is not None:
        clean["stats"] = stats
    return clean, problems + more


def load_edition_data(session: Session, edition: Mapping[str, Any], cards: list[Mapping[str, Any]],
                      *, source: str = "") -> Edition:
    """Insert an edition and its cards as read from a data file (the edition must be new).

    Used by seeding, which is the system's own write and needs no editor rights.
    """
    problems: list[Problem] = []
    ed = _insert_edition(session, game=edition["game"], code=edition["code"], name=edition["name"],
                         set_size=edition.get("set_size", len(cards)), release_date=edition.get("date"),
                         symbol=edition.get("symbol"), description=edition.get("description"),
                         sample=edition.get("sample", False))
    game = session.get(Game, ed.game_id)
    new = []
    for i, raw in enumerate(cards, start=1):
        clean, probs = file_card_values(game, raw, where=tr("catalog.where_card", source=source, index=i))
        problems += probs
        new.append(_new_card_row(ed.id, clean))
    if problems:
        raise ValidationError(tr("catalog.file_problems", source=source, count=len(problems)), problems)
    if new:
        # one insert of every card, as plain rows: the columns and the ids (in file order) that
        # Card(...) objects added one by one get, without building a model object a card
        session.connection().execute(insert(Card.__table__), new)
    return ed


def _new_card_row(edition_id: int, clean: Mapping[str, Any]) -> dict[str, Any]:
    """Every column of a new card as ``apply_keys(Card(edition_id=…, **clean))`` sets it."""
    from types import SimpleNamespace

    row = {name: factory() if factory else default for name, default, factory in _card_defaults()}
    row.update(clean, edition_id=edition_id)
    return vars(apply_keys(SimpleNamespace(**row)))  # type: ignore[arg-type]


@cache
def _card_defaults() -> tuple[tuple[str, Any, Any], ...]:
    """Each column of Card but its id: its default, or the function that makes it (a new list…)."""
    from pydantic_core import PydanticUndefined

    return tuple((name, f.default, f.default_factory) for name, f in Card.model_fields.items()
                 if name != "id" and (f.default_factory is not None or f.default is not PydanticUndefined))
