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

from sqlalchemy import func, update
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, select

from cardbase.access import require_editor
from cardbase.domain import CardDef
from cardbase.errors import NotFoundError, Problem, StaleEditError, ValidationError
from cardbase.models import Card, Deck, DeckEntry, Edition, Game
from cardbase.text import canonical_colour, card_ref, fold, parse_card_ref

# Fields a user may set on a card, with their meaning in messages.
CARD_FIELDS: dict[str, str] = {
    "number": "collector number",
    "name": "name",
    "value": "value",
    "colour": "colour",
    "banner": "banner (fanion)",
    "rarity": "rarity",
    "card_type": "type or class",
    "keywords": "keywords",
    "effect": "effect (effect language)",
    "effect_text": "printed effect text",
    "flavour": "flavour text",
    "art": "art file",
    "copies": "copies in the game",
    "stats": "game-specific figures",
    "sample": "sample-data flag",
}

# data-file / CSV names → model attribute names
FILE_TO_MODEL = {"type": "card_type"}
MODEL_TO_FILE = {v: k for k, v in FILE_TO_MODEL.items()}


def _now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def apply_keys(card: Card) -> Card:
    """Fill the folded search columns from the card's fields."""
    card.name_key = fold(card.name)
    card.text_key = " ".join(x for x in (fold(card.name), fold(card.effect_text)) if x)
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

    def bad(field: str, message: str, fix: str) -> None:
        problems.append(Problem("invalid-field", message, fix, f"{where} column {field}".strip()))

    for key in data:
        if key not in CARD_FIELDS:
            bad(key, f"unknown field {key!r}", f"use one of {', '.join(CARD_FIELDS)}")
    if not partial:
        for key in ("number", "name"):
            if key not in data:
                bad(key, f"the {CARD_FIELDS[key]} is missing", f"give the card a {CARD_FIELDS[key]}")
    for key, value in data.items():
        if key not in CARD_FIELDS:
            continue
        if key in ("number", "value", "copies"):
            if value in (None, "") and key == "number":
                bad(key, "the collector number is missing", "give the card a collector number")
                continue
            if value in (None, ""):
                clean[key] = None if key == "value" else 1
                continue
            if isinstance(value, bool) or not isinstance(value, (int, str, float)):
                bad(key, f"{CARD_FIELDS[key]} {value!r} is not a whole number", "write a whole number such as 3")
                continue
            try:
                as_float = float(value)
                if as_float != int(as_float):
                    raise ValueError
                number = int(as_float)
            except (TypeError, ValueError, OverflowError):
                bad(key, f"{CARD_FIELDS[key]} {value!r} is not a whole number", "write a whole number such as 3")
                continue
            if key == "number" and number < 1:
                bad(key, f"collector number {number} is below 1", "number cards from 1")
                continue
            if key == "copies" and number < 0:
                bad(key, f"copies {number} is negative", "write 0 or more")
                continue
            if abs(number) > 1_000_000:
                bad(key, f"{CARD_FIELDS[key]} {number} is out of range", "use a number below one million")
                continue
            clean[key] = number
        elif key == "name":
            name = (value or "").strip() if isinstance(value, str) else value
            if not isinstance(name, str) or not name:
                bad(key, "the name is empty", "give the card a name")
            elif len(name) > 120:
                bad(key, f"the name has {len(name)} characters", "keep names to 120 characters")
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
                bad(key, f"keywords {value!r} are not a list of words", "write them separated by ';'")
        elif key == "stats":
            if value in (None, ""):
                clean[key] = {}
            elif isinstance(value, Mapping) and all(isinstance(k, str) for k in value):
                clean[key] = dict(value)
            else:
                bad(key, f"stats {value!r} are not a table of figures", 'write e.g. {"damage": 40}')
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
                bad(key, f"sample {value!r} is not true or false", "write true or false")
        else:  # free text fields
            if value is None or value == "":
                clean[key] = None
            elif not isinstance(value, str):
                bad(key, f"{CARD_FIELDS[key]} {value!r} is not text", "write it as text")
            else:
                # Multi-line texts are kept exactly (data files round-trip byte for byte).
                text = value if key in ("effect", "effect_text", "flavour") else value.strip()
                clean[key] = text if text.strip() else None
    if clean.get("colour"):
        clean["colour"] = canonical_colour(clean["colour"])
    _storage_problems(clean, bad)
    return clean, problems


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
        if ("\x00" in value) if isinstance(value, str) else any("\x00" in t for t in _strings(value)):
            bad(key, f"{CARD_FIELDS[key]} contains a NUL character (an invisible control character)",
                "remove it (retype the text)")
            clean.pop(key)
            continue
        length = lengths.get(key)
        if isinstance(value, str) and length and len(value) > length:
            bad(key, f"{CARD_FIELDS[key]} has {len(value)} characters", f"keep it to {length} characters")
            clean.pop(key)
    for field_name, key_col in _KEY_COLUMNS:
        value = clean.get(field_name)
        limit = lengths[key_col]
        if isinstance(value, str) and len(fold(value)) > limit:
            bad(field_name, f"{CARD_FIELDS[field_name]} is too long once written for search "
                f"({len(fold(value))} characters)", f"keep it to {limit} characters")
            clean.pop(field_name)
    keywords = clean.get("keywords")
    if keywords:
        folded = "|" + "|".join(fold(k) for k in keywords) + "|"
        limit = lengths["keywords_key"]
        if len(folded) > limit:
            bad("keywords", f"the keywords take {len(folded)} characters in all",
                f"keep them to {limit} characters together")
            clean.pop("keywords")
    stats = clean.get("stats")
    if stats:
        try:
            json.dumps(stats, allow_nan=False)
        except (TypeError, ValueError):
            bad("stats", f"stats {stats!r} hold a value that is not plain JSON (NaN, infinity…)",
                'write numbers, text, true/false or lists, e.g. {"damage": 40}')
            clean.pop("stats")


def check_effect(game_code: str, effect: str | None, *, where: str = "") -> tuple[Any, list[Problem]]:
    """Parse a card's effect source when its game has an effect language; problems, not raises."""
    if not effect or game_code != "nespanini":
        return None, []
    from cardbase.effects import parse_effect
    from cardbase.errors import EffectError

    try:
        return parse_effect(effect), []
    except EffectError as exc:
        probs = exc.problems or [Problem("effect", str(exc), "fix the effect text", "")]
        return None, [Problem("effect", p.message, p.fix or "fix the effect text",
                              f"{where} column effect {p.where}".strip()) for p in probs]


def french_text(effect_obj: Any) -> str | None:
    if effect_obj is None:
        return None
    from cardbase.effects import effect_to_french

    return effect_to_french(effect_obj)


# --------------------------------------------------------------------------- reading

def get_game(session: Session, code: str) -> Game:
    game = session.exec(select(Game).where(Game.code == fold(code))).first()
    if game is None:
        codes = ", ".join(session.exec(select(Game.code)).all())
        raise NotFoundError(f"no game {code!r} — known games: {codes}")
    return game


def get_edition(session: Session, code: str) -> Edition:
    edition = session.exec(select(Edition).where(func.upper(Edition.code) == code.upper())).first()
    if edition is None:
        codes = ", ".join(session.exec(select(Edition.code).order_by(Edition.code)).all())
        raise NotFoundError(f"no edition {code!r} — known editions: {codes}")
    return edition


def get_card(session: Session, ref: str | int) -> Card:
    """A card by id, by collector ref (``NP1-012``) or by exact (folded) name."""
    if isinstance(ref, int) or (isinstance(ref, str) and ref.isdigit()):
        card = session.get(Card, int(ref))
        if card is None:
            raise NotFoundError(f"no card with id {ref}")
        return card
    parsed = parse_card_ref(ref)
    if parsed:
        code, number = parsed
        card = session.exec(
            select(Card).join(Edition).where(func.upper(Edition.code) == code, Card.number == number)
        ).first()
        if card is None:
            raise NotFoundError(f"no card {ref} — edition {code} has no number {number}")
        return card
    cards = session.exec(select(Card).where(Card.name_key == fold(ref))).all()
    if not cards:
        raise NotFoundError(f"no card named {ref!r} — search with `cardbase cards search`")
    if len(cards) > 1:
        refs = ", ".join(card_ref(session.get(Edition, c.edition_id).code, c.number) for c in cards)
        raise NotFoundError(f"{len(cards)} cards are named {ref!r} ({refs}) — use a collector ref")
    return cards[0]


def card_to_dict(card: Card, edition: Edition, game: Game) -> dict[str, Any]:
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
    }


def to_card_def(card: Card, edition: Edition, game: Game) -> CardDef:
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


def card_rows(session: Session, *, query: str | None = None, edition: str | None = None,
              game: str | None = None, ids: Iterable[int] | None = None,
              limit: int | None = None) -> list[tuple[Card, Edition, Game]]:
    """Cards with their edition and game, filtered in SQL, ordered by game, edition, number."""
    stmt = select(Card, Edition, Game).join(Edition, Card.edition_id == Edition.id).join(
        Game, Edition.game_id == Game.id)
    if query and query.strip():
        from cardbase.search import parse_query, to_sql

        stmt = stmt.where(to_sql(parse_query(query)))
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


def card_dicts(session: Session, **filters: Any) -> list[dict[str, Any]]:
    return [card_to_dict(c, e, g) for c, e, g in card_rows(session, **filters)]


def card_defs(session: Session, **filters: Any) -> list[CardDef]:
    return [to_card_def(c, e, g) for c, e, g in card_rows(session, **filters)]


# --------------------------------------------------------------------------- writing

def _number_taken(session: Session, edition: Edition, number: int) -> list[Problem]:
    """The problem of giving ``number`` to a new card of ``edition`` when another card has it."""
    taken = session.exec(
        select(Card.id).where(Card.edition_id == edition.id, Card.number == number)).first()
    if taken is None:
        return []
    return [Problem("duplicate-number", f"{edition.code} already has a card number {number}",
                    "choose a free collector number", "number")]


def create_card(session: Session, *, edition: str, fields: Mapping[str, Any]) -> Card:
    """Add a card to an edition; every problem with its fields is reported at once."""
    require_editor(action="create a card")
    ed = get_edition(session, edition)
    game = session.get(Game, ed.game_id)
    clean, problems = validate_card_fields(fields)
    effect_obj, effect_problems = check_effect(game.code, clean.get("effect"))
    problems += effect_problems
    if "number" in clean:
        problems += _number_taken(session, ed, clean["number"])
    if problems:
        raise ValidationError(f"card not created: {len(problems)} problem(s)", problems)
    if effect_obj is not None and not clean.get("effect_text"):
        clean["effect_text"] = french_text(effect_obj)
    card = apply_keys(Card(edition_id=ed.id, **clean))
    session.add(card)
    session.flush()
    return card


def update_card(session: Session, card_id: int, *, expected_version: int,
                changes: Mapping[str, Any]) -> Card:
    """Apply ``changes`` if the card is still at ``expected_version``; otherwise refuse."""
    require_editor(action="change a card")
    card = session.get(Card, card_id)
    if card is None:
        raise NotFoundError(f"no card with id {card_id}")
    edition = session.get(Edition, card.edition_id)
    game = session.get(Game, edition.game_id)
    clean, problems = validate_card_fields(changes, partial=True)
    if "effect" in clean:
        effect_obj, effect_problems = check_effect(game.code, clean["effect"])
        problems += effect_problems
        if effect_obj is not None and "effect_text" not in changes:
            clean["effect_text"] = french_text(effect_obj)
    if "number" in clean and clean["number"] != card.number:
        problems += _number_taken(session, edition, clean["number"])
    if problems:
        raise ValidationError(f"card {card_ref(edition.code, card.number)} not saved: {len(problems)} problem(s)", problems)
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
    result = session.execute(
        update(Card).where(Card.id == card_id, Card.version == expected_version).values(**values)
        .execution_options(synchronize_session=False)
    )
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
            diffs.append(f"    {key}: saved {current.get(file_key)!r} / yours {value!r}")
    raise StaleEditError(
        f"card {ref} « {card.name} » was changed by someone else (version {card.version}, you edited "
        f"version {expected}); your changes were NOT saved and nothing was overwritten.\n"
        + ("  Fields that differ:\n" + "\n".join(diffs) + "\n" if diffs else "")
        + "  Reload the card, re-apply your changes, and save again.",
        current=current,
        attempted=dict(changes),
    )


def decks_using_card(session: Session, card_id: int) -> list[str]:
    rows = session.exec(
        select(Deck.name).join(DeckEntry, DeckEntry.deck_id == Deck.id).where(DeckEntry.card_id == card_id)
    ).all()
    return sorted(set(rows))


def delete_card(session: Session, card_id: int, *, expected_version: int) -> None:
    """Delete a card; refused when a saved deck uses it or when the card changed meanwhile."""
    require_editor(action="delete a card")
    card = session.get(Card, card_id)
    if card is None:
        raise NotFoundError(f"no card with id {card_id}")
    edition = session.get(Edition, card.edition_id)
    game = session.get(Game, edition.game_id)
    if card.version != expected_version:
        _refuse_stale(card, edition, game, expected_version, {}, card_to_dict(card, edition, game))
    decks = decks_using_card(session, card_id)
    if decks:
        raise ValidationError(
            f"card {card_ref(edition.code, card.number)} « {card.name} » is used by {len(decks)} deck(s): "
            f"{', '.join(decks)} — remove it from those decks first")
    label = f"card {card_ref(edition.code, card.number)} « {card.name} »"
    session.delete(card)
    try:
        session.flush()
    except IntegrityError:  # a deck started using the card while we were deleting it
        raise ValidationError(
            f"{label} was just added to a deck "
            "by someone else; it was NOT deleted — remove it from that deck first") from None


# --------------------------------------------------------------------------- editions

EDITION_FIELDS = ("code", "name", "release_date", "set_size", "symbol", "description", "sample")


def create_edition(session: Session, *, game: str, code: str, name: str, set_size: int = 0,
                   release_date: dt.date | None = None, symbol: str | None = None,
                   description: str | None = None, sample: bool = False) -> Edition:
    require_editor(action="create an edition")
    return _insert_edition(session, game=game, code=code, name=name, set_size=set_size,
                           release_date=release_date, symbol=symbol, description=description,
                           sample=sample)


def _insert_edition(session: Session, *, game: str, code: str, name: str, set_size: int,
                    release_date: dt.date | None, symbol: str | None, description: str | None,
                    sample: bool) -> Edition:
    g = get_game(session, game)
    problems = []
    code = (code or "").strip().upper()
    if not code or not code.isalnum() or len(code) > 20:
        problems.append(Problem("invalid-code", f"edition code {code!r} is not 1–20 letters or digits",
                                "use a short code such as NP2", "code"))
    elif session.exec(select(Edition.id).where(func.upper(Edition.code) == code)).first():
        problems.append(Problem("duplicate-code", f"edition {code} already exists", "choose another code", "code"))
    if not (name or "").strip():
        problems.append(Problem("missing", "the edition has no name", "give it a name", "name"))
    if not isinstance(set_size, int) or set_size < 0:
        problems.append(Problem("invalid-size", f"set size {set_size!r} is not a whole number ≥ 0",
                                "give the number of cards in the set", "set_size"))
    if problems:
        raise ValidationError("edition not created", problems)
    ed = Edition(game_id=g.id, code=code, name=name.strip(), set_size=set_size, release_date=release_date,
                 symbol=symbol, description=description, sample=sample)
    session.add(ed)
    session.flush()
    return ed


def update_edition(session: Session, code: str, *, expected_version: int, changes: Mapping[str, Any]) -> Edition:
    require_editor(action="change an edition")
    ed = get_edition(session, code)
    unknown = set(changes) - set(EDITION_FIELDS) - {"code"}
    if unknown:
        raise ValidationError(f"unknown edition field(s) {', '.join(sorted(unknown))} — use {', '.join(EDITION_FIELDS)}")
    if ed.version != expected_version:
        raise StaleEditError(
            f"edition {ed.code} was changed by someone else (version {ed.version}, you edited version "
            f"{expected_version}); nothing was saved — reload and try again")
    result = session.execute(
        update(Edition).where(Edition.id == ed.id, Edition.version == expected_version)
        .values(**dict(changes), version=expected_version + 1).execution_options(synchronize_session=False))
    if result.rowcount != 1:
        raise StaleEditError(f"edition {ed.code} was changed by someone else; nothing was saved — reload and try again")
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
            issues.append(f"numbers past the set size {ed.set_size}: {beyond}")
        if ed.set_size:
            missing = sorted(set(range(1, ed.set_size + 1)) - set(numbers))
            if missing:
                shown = ", ".join(map(str, missing[:10])) + ("…" if len(missing) > 10 else "")
                issues.append(f"{len(missing)} number(s) missing: {shown}")
        out.append({"game": game.code, "code": ed.code, "name": ed.name, "set_size": ed.set_size,
                    "cards": len(numbers), "symbol": ed.symbol, "release_date": ed.release_date,
                    "sample": ed.sample, "version": ed.version, "numbering_ok": not issues,
                    "numbering_issues": issues})
    return out


# --------------------------------------------------------------------------- data files

def card_file_dict(card: Card) -> dict[str, Any]:
    """A card as it is written in an edition data file."""
    out: dict[str, Any] = {}
    for key in ("number", "name", "value", "colour", "banner", "rarity", "card_type", "keywords",
                "copies", "stats", "effect", "effect_text", "flavour", "art", "sample"):
        out[MODEL_TO_FILE.get(key, key)] = getattr(card, key)
    return out


def edition_file_dict(edition: Edition, game: Game) -> dict[str, Any]:
    return {"game": game.code, "code": edition.code, "name": edition.name, "date": edition.release_date,
            "set_size": edition.set_size, "symbol": edition.symbol, "sample": edition.sample,
            "description": edition.description}


def export_edition_text(session: Session, code: str) -> str:
    from cardbase.datafiles import dump_edition

    ed = get_edition(session, code)
    game = session.get(Game, ed.game_id)
    cards = session.exec(select(Card).where(Card.edition_id == ed.id).order_by(Card.number)).all()
    return dump_edition(edition_file_dict(ed, game), [card_file_dict(c) for c in cards])


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
    new = []
    for i, raw in enumerate(cards, start=1):
        fields = {FILE_TO_MODEL.get(k, k): v for k, v in raw.items()}
        clean, probs = validate_card_fields(fields, where=f"{source} card #{i}")
        problems += probs
        new.append(apply_keys(Card(edition_id=ed.id, **clean)))
    if problems:
        raise ValidationError(f"{source}: {len(problems)} problem(s)", problems)
    session.add_all(new)
    session.flush()
    return ed
