"""The diff-friendly files under ``data/``: one edition a TOML file, the games, the sticker table.

The writer is canonical (fixed key order, empty fields left out, one card a block), so a file read
into the database and exported again comes back byte for byte.

Edition file layout::

    [edition]
    game = "nespanini"
    code = "NP1"
    name = "…"
    date = 2026-11-01
    set_size = 64
    symbol = "…"
    sample = false

    [[cards]]
    number = 1
    name = "…"
    value = 3
    …
    damage = 40        # a field the game declares (data/games.toml), where ``stats`` would be

A card's declared fields are keys of their own, written after ``copies`` in the game's order; a
``stats = { … }`` table remains for figures of a game that declares none. Games file layout::

    [[games]]
    code = "ctterror"
    name = "CT vs Terror"
    …
    template = "ctterror"

    [games.fields]
    damage = { type = "int", min = 0 }
    side = { type = "choice", choices = ["CT", "Terror"], required = true }
"""

from __future__ import annotations

import datetime as dt
import json
import tomllib
from pathlib import Path
from typing import Any

from cardbase.errors import DataFileError, Problem
from cardbase.i18n import tr

EDITION_KEYS = ("game", "code", "name", "date", "set_size", "symbol", "sample", "description")
CARD_KEYS = (
    "number", "name", "value", "colour", "banner", "rarity", "type", "keywords", "copies",
    "stats", "effect", "effect_text", "flavour", "art", "sample",
)
GAME_KEYS = (
    "code", "name", "min_players", "max_players", "deck_size", "copy_limit", "keyword_limits",
    "template", "rules_file", "description", "fields",
)
FIELD_SPEC_KEYS = ("type", "choices", "min", "max", "required", "label", "label_en")
HEADER = "# cardbase data file: one edition. Written by `cardbase data export`; edit freely.\n"


# --------------------------------------------------------------------------- writing

def _toml_str(value: str) -> str:
    if "\n" in value:
        body = value.replace("\\", "\\\\").replace('"""', '\\"""')
        return '"""\n' + body + '"""' if value.endswith("\n") else '"""\n' + body + '\\\n"""'
    return json.dumps(value, ensure_ascii=False)


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, str):
        return _toml_str(value)
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    if isinstance(value, dict):
        inner = ", ".join(f"{_toml_key(k)} = {_toml_value(v)}" for k, v in value.items())
        return "{ " + inner + " }" if inner else "{}"
    raise TypeError(f"cannot write {type(value).__name__} to TOML")


def _toml_key(key: str) -> str:
    if key and all(ch.isalnum() or ch in "_-" for ch in key) and key.isascii():
        return key
    return json.dumps(key, ensure_ascii=False)


def _empty(value: Any) -> bool:
    return value is None or value == "" or value == [] or value == {} or value == ()


def _table(keys: tuple[str, ...], data: dict[str, Any], *, defaults: dict[str, Any]) -> list[str]:
    lines = []
    for key in keys:
        value = data.get(key)
        if _empty(value) or (key in defaults and value == defaults[key]):
            continue
        lines.append(f"{key} = {_toml_value(value)}")
    unknown = sorted(set(data) - set(keys))
    if unknown:
        raise DataFileError(tr("datafiles.unknown_fields", count=len(unknown), fields=", ".join(unknown),
                               known=", ".join(keys)))
    return lines


def _card_keys(card: dict[str, Any]) -> tuple[str, ...]:
    """CARD_KEYS with the card's declared fields (keys of their own) where ``stats`` stands."""
    extra = tuple(k for k in card if k not in CARD_KEYS)
    bad = [k for k in extra if not is_field_name(k)]
    if bad:
        raise DataFileError(tr("datafiles.unknown_fields", count=len(bad), fields=", ".join(bad),
                               known=", ".join(CARD_KEYS)))
    at = CARD_KEYS.index("stats")
    return CARD_KEYS[:at] + extra + CARD_KEYS[at:]


def dump_edition(edition: dict[str, Any], cards: list[dict[str, Any]]) -> str:
    """An edition file; a card's keys beyond CARD_KEYS are its declared fields, in their order."""
    out = [HEADER, "[edition]"]
    out += _table(EDITION_KEYS, edition, defaults={"sample": False})
    for card in sorted(cards, key=lambda c: c["number"]):
        out += ["", "[[cards]]"]
        out += _table(_card_keys(card), card, defaults={"copies": 1, "sample": False})
    return "\n".join(out) + "\n"


def dump_games(games: list[dict[str, Any]]) -> str:
    """data/games.toml: one ``[[games]]`` block a game, its declared fields as ``[games.fields]``."""
    out = ["# cardbase data file: the games, their deck rules, card template and card fields."]
    for game in sorted(games, key=lambda g: g["code"]):
        out += ["", "[[games]]"]
        fields = game.get("fields") or []
        out += _table(GAME_KEYS, {k: v for k, v in game.items() if k != "fields"}, defaults={})
        if fields:
            out += ["", "[games.fields]"]
            for spec in fields:
                body = {k: v for k, v in spec.items() if k != "name"}
                ordered = {k: body[k] for k in FIELD_SPEC_KEYS if k in body}
                if set(body) - set(FIELD_SPEC_KEYS):
                    extra = sorted(set(body) - set(FIELD_SPEC_KEYS))
                    raise DataFileError(tr("datafiles.unknown_spec_keys", count=len(extra), name=spec.get("name"),
                                           keys=", ".join(extra)))
                out.append(f"{_toml_key(spec['name'])} = {_toml_value(ordered)}")
    return "\n".join(out) + "\n"


def load_games_file(path: Path) -> list[dict[str, Any]]:
    """The games of data/games.toml, each with ``fields`` as a list of declarations (name first)."""
    rows = read_toml(path).get("games", [])
    if not isinstance(rows, list):
        raise DataFileError(tr("datafiles.games_expected", path=path))
    out = []
    for row in rows:
        if not isinstance(row, dict):
            raise DataFileError(tr("datafiles.games_expected", path=path))
        game = dict(row)
        fields = game.get("fields")
        if isinstance(fields, dict):
            game["fields"] = [{"name": k, **v} if isinstance(v, dict) else {"name": k, "type": v}
                              for k, v in fields.items()]
        out.append(game)
    return out


def is_field_name(key: str) -> bool:
    """Whether ``key`` can be a declared field's name (checked against the game when loaded)."""
    import re

    return isinstance(key, str) and re.fullmatch(r"[a-z][a-z0-9_]{0,39}", key) is not None


def figures(card: dict[str, Any]) -> dict[str, Any]:
    """A card's figures as read from a file: its ``stats`` table and its declared-field keys."""
    out = dict(card.get("stats") or {})
    out.update({k: v for k, v in card.items() if k not in CARD_KEYS})
    return out


# --------------------------------------------------------------------------- reading

def read_toml(path: Path) -> dict[str, Any]:
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise DataFileError(tr("datafiles.no_file", path=path)) from None
    except tomllib.TOMLDecodeError as exc:
        raise DataFileError(tr("datafiles.not_toml", path=path, error=exc)) from None


def load_edition_file(path: Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Read an edition file and check its shape; every problem is reported at once."""
    doc = read_toml(path)
    problems: list[Problem] = []
    edition = doc.get("edition")
    if not isinstance(edition, dict):
        raise DataFileError(tr("datafiles.no_edition", path=path))
    for key in ("game", "code", "name"):
        if not edition.get(key):
            problems.append(Problem("missing", tr("datafiles.edition_missing", key=key),
                                    tr("datafiles.edition_missing_fix", key=key), str(path)))
    for key in edition:
        if key not in EDITION_KEYS:
            problems.append(Problem("unknown-field", tr("datafiles.edition_unknown", key=repr(key)),
                                    tr("datafiles.use_one_of", known=", ".join(EDITION_KEYS)), str(path)))
    cards = doc.get("cards", [])
    seen: set[int] = set()
    for i, card in enumerate(cards, start=1):
        where = tr("datafiles.card_where", path=path, index=i)
        for key in card:
            if key not in CARD_KEYS and not is_field_name(key):  # a declared field: checked on load
                problems.append(Problem("unknown-field", tr("datafiles.card_unknown", key=repr(key)),
                                        tr("datafiles.use_one_of", known=", ".join(CARD_KEYS)), where))
        if not isinstance(card.get("number"), int):
            problems.append(Problem("missing", tr("datafiles.card_no_number"), tr("datafiles.card_no_number_fix"),
                                    where))
        elif card["number"] in seen:
            problems.append(Problem("duplicate-number", tr("datafiles.card_number_twice", number=card["number"]),
                                    tr("datafiles.card_number_twice_fix"), where))
        else:
            seen.add(card["number"])
        if not card.get("name"):
            problems.append(Problem("missing", tr("datafiles.card_no_name"), tr("datafiles.card_no_name_fix"), where))
    if problems:
        raise DataFileError(tr("datafiles.problems", path=path, count=len(problems)), problems)
    return edition, cards


def edition_files(data_dir: Path) -> list[Path]:
    return sorted((data_dir / "editions").glob("*.toml"))

