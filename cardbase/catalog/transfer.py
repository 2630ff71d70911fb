"""Card import and export, CSV and JSON.

An import is checked whole before anything is written: every problem is reported with its row and
column, a dry run shows what would be new, changed or unchanged, and a real run lands in one
transaction or not at all. Rows are matched to existing cards by edition code and collector number;
a row that carries a ``version`` is refused when the card has changed since that version.

Bulk by design: the existing cards an import touches are read in a few queries (not one per row),
effects are parsed once per distinct text, and the writes go out in batches of
:data:`BATCH` rows (one INSERT or UPDATE statement per batch) inside the caller's transaction.

CSV is read strictly: a quote left open is refused with the line where it opened, instead of
swallowing the rows after it. CSV cells that a spreadsheet would run as a formula are neutralised on
export and read back to the same value on import (see :func:`csv_escape`).
"""

from __future__ import annotations

import csv
import io
import itertools
import json
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from sqlalchemy import and_, bindparam, insert, update
from sqlalchemy import select as sa_select
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlmodel import Session, select

from cardbase.catalog import cards as catalog
from cardbase.catalog import gamesdata
from cardbase.catalog.export import (  # noqa: F401 - the card file's columns and cells, and export
    _COLUMN_SET,
    COLUMNS,
    FORMULA_START,
    NUMERIC,
    csv_escape,
    csv_unescape,
    export_file,
    export_records,
    export_text,
)
from cardbase.catalog.export import file_format as _format_of
from cardbase.access import require_editor
from cardbase.errors import ImportError_, Problem
from cardbase.i18n import tr
from cardbase.storage.models import Card, Edition, Game
from cardbase.text import card_ref

REQUIRED = ("edition", "number", "name")
MAX_ROWS = 100_000
MAX_FILE_BYTES = 64 * 1024 * 1024  # a card file larger than this is refused before it is read
MAX_DEPTH = 16  # nesting of lists and objects inside one value (stats)
BATCH = 1000


@dataclass(slots=True)
class RowChange:
    row: int
    ref: str
    name: str
    action: str  # "new" | "updated" | "unchanged"
    changes: dict[str, tuple[Any, Any]] = field(default_factory=dict)  # field → (old, new)


@dataclass(slots=True)
class ImportPlan:
    source: str
    rows: list[RowChange] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    # foreign markup in card texts (docs/rich-text.md): converted tags left over with
    # ``--markup html``, or, without it, texts that look like HTML imported as they are
    warnings: list[str] = field(default_factory=list)
    # ("new", edition_id, values) or ("update", card_id, values, version) — the rows to write
    _writes: list[tuple[Any, ...]] = field(default_factory=list, repr=False)

    @property
    def counts(self) -> dict[str, int]:
        out = {"new": 0, "updated": 0, "unchanged": 0}
        for r in self.rows:
            out[r.action] += 1
        return out

    def as_dict(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "ok": not self.problems,
            "counts": self.counts,
            "problems": [p.as_dict() for p in self.problems],
            "warnings": list(self.warnings),
            "rows": [{"row": r.row, "ref": r.ref, "name": r.name, "action": r.action,
                      "changes": {k: {"old": o, "new": n} for k, (o, n) in r.changes.items()}}
                     for r in self.rows],
        }

    def summary(self) -> str:
        c = self.counts
        lines = [tr("transfer.summary", source=self.source, new=c["new"], updated=c["updated"],
                    unchanged=c["unchanged"])]
        for r in self.rows:
            if r.action == "new":
                lines.append(tr("transfer.summary_new", row=r.row, ref=r.ref, name=r.name))
            elif r.action == "updated":
                what = ", ".join(f"{k}: {o!r} → {n!r}" for k, (o, n) in r.changes.items())
                lines.append(tr("transfer.summary_updated", row=r.row, ref=r.ref, name=r.name, changes=what))
        lines += [f"  ! {w}" for w in self.warnings]
        if self.problems:
            lines.append(tr("transfer.summary_problems", count=len(self.problems)))
            lines += [f"  - {p}" for p in self.problems]
        return "\n".join(lines)


# --------------------------------------------------------------------------- where

def _where(source: str, label: str, row: int | None = None, column: str | None = None) -> str:
    """"cards.csv, ligne 3, colonne value" — ``label`` is "line" (CSV) or "item" (JSON)."""
    if row is None:
        return source
    if column is None:
        return tr(f"transfer.where_{label}", source=source, row=row)
    return tr(f"transfer.where_{label}_column", source=source, row=row, column=column)


_FIELD_IN_WHERE = re.compile(r"\b(" + "|".join(sorted(catalog.CARD_FIELDS, key=len, reverse=True))
                             + r")\b\s*(.*)$")


def _relocate(problems: list[Problem], source: str, label: str, row: int) -> list[Problem]:
    """Problems found by the catalog (where = "column X …") placed at the file's row and column."""
    out = []
    for p in problems:
        m = _FIELD_IN_WHERE.search(p.where or "")
        if m is None:
            where = _where(source, label, row)
        else:
            column = catalog.MODEL_TO_FILE.get(m.group(1), m.group(1))
            where = _where(source, label, row, column) + (f" {m.group(2)}" if m.group(2) else "")
        out.append(Problem(p.code, p.message, p.fix, where))
    return out


# --------------------------------------------------------------------------- reading files

def _decode(data: bytes | str, source: str) -> str:
    if isinstance(data, bytes):
        if len(data) > MAX_FILE_BYTES:
            raise ImportError_(tr("transfer.file_too_big", source=source, size=len(data) // (1024 * 1024),
                                  max=MAX_FILE_BYTES // (1024 * 1024)))
        try:
            return data.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise ImportError_(tr("transfer.not_utf8", source=source, byte=exc.start)) from None
    if len(data) > MAX_FILE_BYTES:
        raise ImportError_(tr("transfer.file_too_big", source=source, size=len(data) // (1024 * 1024),
                              max=MAX_FILE_BYTES // (1024 * 1024)))
    return data


def _depth(value: Any) -> int:
    """How deeply lists and objects nest in ``value`` (0 for a plain value), without recursion."""
    deepest = 0
    stack = [(value, 0)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, dict):
            items = item.values()
        elif isinstance(item, list):
            items = item
        else:
            continue
        level += 1
        deepest = max(deepest, level)
        if deepest > MAX_DEPTH:
            return deepest
        stack.extend((v, level) for v in items)
    return deepest


def _too_deep(value: dict[str, Any] | list[Any]) -> bool:
    """Nested more than :data:`MAX_DEPTH` levels (a flat list or object answers at once)."""
    items = value.values() if isinstance(value, dict) else value
    if not any(isinstance(v, (dict, list)) for v in items):
        return False
    return _depth(value) > MAX_DEPTH


def _open_quote_line(text: str, start_line: int) -> int | None:
    """The line of the quote still open at the end of ``text`` (which starts at ``start_line``)."""
    line = start_line
    opened = None
    inside = False
    for ch in text:
        if ch == '"':
            inside = not inside
            if inside:
                opened = line
        elif ch == "\n":
            line += 1
    return opened if inside else None


def _iter_csv(text: str, source: str, declared: frozenset[str] = frozenset()
              ) -> Iterator[tuple[int, dict[str, Any]]]:
    """The rows of a CSV text one by one (the header is checked at the first one); raises at the
    end when some lines could not be read. ``declared``: the card fields games declare, which are
    columns too (checked against each row's game by the plan)."""
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    try:
        header = next(reader, None)
    except csv.Error as exc:
        header = None
        raise ImportError_(tr("transfer.csv_malformed", source=source, line=1, error=exc)) from None
    if not header:
        raise ImportError_(tr("transfer.csv_empty", source=source))
    header = [h.strip() for h in header]
    problems = []
    for col, name in enumerate(header, start=1):
        if name not in COLUMNS and name not in declared:
            problems.append(Problem("unknown-column", tr("transfer.unknown_column", column=repr(name)),
                                    tr("transfer.fix_columns", columns=", ".join(COLUMNS)),
                                    tr("transfer.where_header_column", source=source, column=col)))
    for col, name in enumerate(header, start=1):
        if (name in COLUMNS or name in declared) and header.index(name) + 1 != col:
            problems.append(Problem("duplicate-column", tr("transfer.duplicate_column", column=repr(name),
                                                          first=header.index(name) + 1),
                                    tr("transfer.fix_duplicate_column"),
                                    tr("transfer.where_header_column", source=source, column=col)))
    for name in REQUIRED:
        if name not in header:
            problems.append(Problem("missing-column", tr("transfer.missing_column", column=repr(name)),
                                    tr("transfer.fix_missing_column", column=name),
                                    tr("transfer.where_header", source=source)))
    if problems:
        raise ImportError_(tr("transfer.header_problems", source=source, count=len(problems)), problems)
    escaped = [name not in NUMERIC for name in header]
    width = len(header)
    count = 0
    start = reader.line_num + 1
    try:
        for record in reader:
            if not record or record == [""]:
                start = reader.line_num + 1
                continue
            if len(record) > width:
                problems.append(Problem("extra-values", tr("transfer.extra_values", count=len(record), width=width),
                                        tr("transfer.fix_extra_values"), _where(source, "line", start)))
            else:
                count += 1
                yield start, {name: (csv_unescape(value) if esc and value[:1] == "'" else value)
                              for name, value, esc in zip(header, record, escaped)}
            if count > MAX_ROWS:
                raise ImportError_(tr("transfer.too_many_rows", source=source, max=MAX_ROWS))
            start = reader.line_num + 1
    except csv.Error as exc:
        rest = "\n".join(text.split("\n")[start - 1:])
        opened = _open_quote_line(rest, start)
        if opened is not None:
            raise ImportError_(tr("transfer.csv_open_quote", source=source, line=opened)) from None
        raise ImportError_(tr("transfer.csv_malformed", source=source, line=reader.line_num, error=exc)) from None
    if problems:
        raise ImportError_(tr("transfer.read_problems", source=source, count=len(problems)), problems)


def _read_json(text: str, source: str) -> list[tuple[int, dict[str, Any]]]:
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ImportError_(tr("transfer.json_invalid", source=source, line=exc.lineno, column=exc.colno,
                              error=exc.msg)) from None
    except RecursionError:
        raise ImportError_(tr("transfer.json_too_deep", source=source, max=MAX_DEPTH)) from None
    except ValueError as exc:  # an integer of thousands of digits
        raise ImportError_(tr("transfer.json_number", source=source, error=exc)) from None
    if isinstance(doc, dict) and "cards" in doc:
        doc = doc["cards"]
    if not isinstance(doc, list) or not all(isinstance(r, dict) for r in doc):
        raise ImportError_(tr("transfer.json_shape", source=source))
    if len(doc) > MAX_ROWS:
        raise ImportError_(tr("transfer.too_many_rows", source=source, max=MAX_ROWS))
    return list(enumerate(doc, start=1))


def read_rows(data: bytes | str, *, fmt: str, source: str, declared: frozenset[str] = frozenset()
              ) -> list[tuple[int, dict[str, Any]]]:
    """Rows of a CSV or JSON card file as (line or item number, raw fields). Unreadable files raise.

    A CSV row is numbered by the line it starts on (line 1 is the header); a JSON item by its
    position in the list, from 1.
    """
    if fmt not in ("csv", "json"):
        raise ImportError_(tr("transfer.unknown_format", source=source, format=repr(fmt)))
    text = _decode(data, source)
    return _read_json(text, source) if fmt == "json" else list(_iter_csv(text, source, declared))


def _rows(data: bytes | str, *, fmt: str, source: str, declared: frozenset[str] = frozenset()
          ) -> Iterable[tuple[int, dict[str, Any]]]:
    """Like :func:`read_rows`, but CSV rows come one by one (checked, then dropped, by the plan)."""
    if fmt != "csv":
        return read_rows(data, fmt=fmt, source=source)
    rows = _iter_csv(_decode(data, source), source, declared)
    first = next(rows, None)  # the header's problems are raised here, before any planning
    return rows if first is None else itertools.chain((first,), rows)


# --------------------------------------------------------------------------- planning

_MODEL_NAME = dict(catalog.FILE_TO_MODEL)
_FIELD_KEYS = _COLUMN_SET - {"edition", "version"}  # the card's own fields (edition and version apart)


def _decode_csv_value(key: str, value: Any, source: str, label: str, row: int, problems: list[Problem]) -> Any:
    if not isinstance(value, str):
        return value
    if key == "stats":
        if not value.strip():
            return {}
        try:
            return json.loads(value)
        except RecursionError:
            problems.append(Problem("invalid-field", tr("transfer.too_deep", max=MAX_DEPTH),
                                    tr("transfer.fix_stats"), _where(source, label, row, key)))
            return None
        except ValueError:
            problems.append(Problem("invalid-field", tr("transfer.stats_not_json", value=_short(value)),
                                    tr("transfer.fix_stats"), _where(source, label, row, key)))
            return None
    if key == "keywords":
        return [k.strip() for k in value.split(";") if k.strip()]
    return value


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "…"


def _version_number(value: Any) -> int | None:
    """A row's version: a whole number from 1 up, as an int or as digits 0-9; anything else is None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, str):
        digits = value.strip()
        if not (digits.isascii() and digits.isdigit() and len(digits) <= 10):
            return None
        value = int(digits)
    if isinstance(value, int) and 1 <= value < 2**31:
        return value
    return None


def _number_problem(value: str, where: str) -> Problem:
    """Numbers must be written with the digits 0-9 (not ², ٣ or other scripts' digits)."""
    return Problem("invalid-field", tr("transfer.not_ascii_number", value=_short(value)),
                   tr("transfer.fix_ascii_number"), where)


@dataclass(slots=True)
class _Checked:
    row: int
    edition: Edition
    number: int
    clean: dict[str, Any]
    expected: int | None
    declared: dict[str, Any] | None = None  # the row's values of its game's declared fields


def declared_columns(session: Session) -> frozenset[str]:
    """The card fields the games declare: columns of their own name in CSV and JSON files."""
    return frozenset(f["name"] for fields in session.exec(select(Game.fields)).all() for f in fields or []
                     if f["name"] != "value")  # a game's range of values, not a column


def _declared_values(decls: list[gamesdata.FieldDecl], raw: dict[str, Any], fields: dict[str, Any],
                     names: frozenset[str], where: Any) -> tuple[dict[str, Any] | None, list[Problem]]:
    """The row's values of its game's declared fields (a ``stats`` table of such a game counts),
    checked for type, range and choices: clean values, None for a value emptied; None when the
    row gives none."""
    given = {k: v for k, v in raw.items() if k in names}
    if not decls:  # a column another game declares
        return None, [Problem("undeclared-field", tr("gamesdata.value_undeclared", field=k),
                              tr("gamesdata.value_undeclared_fix", fields="—"), where(k))
                      for k, v in given.items() if v not in (None, "")]
    if isinstance(fields.get("stats"), dict):
        given = {**fields.pop("stats"), **given}
    if not given:
        return None, []
    clean, problems = gamesdata.check_field_values(decls, given, partial=True, where_of=where)
    return {**{k: None for k in given if k not in clean}, **clean}, problems


def _merged_stats(decls: list[gamesdata.FieldDecl], base: dict[str, Any], values: dict[str, Any] | None,
                  new: bool, where: Any) -> tuple[dict[str, Any], list[Problem]]:
    """A card's figures with the row's declared values over them; a new card's required ones."""
    stats = dict(base or {})
    for key, value in (values or {}).items():
        if value is None:
            stats.pop(key, None)
        else:
            stats[key] = value
    problems = []
    if new:
        problems = [Problem("missing-field", tr("gamesdata.value_missing", field=d.name),
                            tr("gamesdata.value_missing_fix", spec=d.spec), where(d.name))
                    for d in decls if d.required and stats.get(d.name) is None]
    ordered = {d.name: stats[d.name] for d in decls if d.name in stats}
    ordered.update({k: v for k, v in stats.items() if k not in ordered})
    return ordered, problems


def plan_import(session: Session, rows: Iterable[tuple[int, dict[str, Any]]], *, source: str,
                row_label: str = "line", markup: str | None = None) -> ImportPlan:
    """Check every row against the database and work out what would change; writes nothing.

    ``row_label`` is ``"line"`` for CSV files and ``"item"`` for JSON lists.
    """
    label = "item" if row_label == "item" else "line"
    plan = ImportPlan(source=source)
    editions = {e.code.upper(): e for e in session.exec(
        select(Edition).execution_options(populate_existing=True)).all()}
    games = {g.id: g for g in session.exec(select(Game).execution_options(populate_existing=True)).all()}
    names = frozenset(f["name"] for g in games.values() for f in g.fields or [] if f["name"] != "value")
    decls = {gid: gamesdata.declared_fields(g) for gid, g in games.items()}
    known = _COLUMN_SET | names
    seen: dict[tuple[str, int], int] = {}
    effects: dict[tuple[str, str], tuple[Any, list[Problem], str | None]] = {}
    checked: list[_Checked] = []
    for row_no, raw in rows:
        probs: list[Problem] = []
        for k in ([k for k in raw if k not in known] if not raw.keys() <= _COLUMN_SET else ()):
            probs.append(Problem("unknown-column", tr("transfer.unknown_field", field=_short(k)),
                                 tr("transfer.fix_columns", columns=", ".join(COLUMNS)),
                                 _where(source, label, row_no)))
        code_raw = raw.get("edition")
        code = code_raw.strip().upper() if isinstance(code_raw, str) else str(code_raw or "").strip().upper()
        edition = editions.get(code)
        if not code:
            probs.append(Problem("missing", tr("transfer.no_edition"), tr("transfer.fix_no_edition"),
                                 _where(source, label, row_no, "edition")))
        elif edition is None:
            probs.append(Problem("unknown-edition", tr("transfer.unknown_edition", code=_short(code)),
                                 tr("transfer.fix_unknown_edition", codes=", ".join(sorted(editions))),
                                 _where(source, label, row_no, "edition")))
        fields: dict[str, Any] = {}
        flagged: set[str] = set()
        for key, value in raw.items():
            if key not in _FIELD_KEYS:
                continue
            if key in NUMERIC and isinstance(value, str) and not value.isascii():
                probs.append(_number_problem(value, _where(source, label, row_no, key)))
                flagged.add(key)
                continue
            if key in ("stats", "keywords") or isinstance(value, (dict, list)):
                value = _decode_csv_value(key, value, source, label, row_no, probs)
                if isinstance(value, (dict, list)) and _too_deep(value):
                    probs.append(Problem("invalid-field", tr("transfer.too_deep", max=MAX_DEPTH),
                                         tr("transfer.fix_stats"), _where(source, label, row_no, key)))
                    continue
            fields[_MODEL_NAME.get(key, key)] = value
        if isinstance(fields.get("effect_text"), str):
            fields["effect_text"] = _foreign_markup(fields["effect_text"], markup, plan,
                                                    _where(source, label, row_no, "effect_text"),
                                                    raw.get("name"))
        declared = None
        if edition is not None:
            declared, dprobs = _declared_values(decls[edition.game_id], raw, fields, names,
                                                lambda k, r=row_no: _where(source, label, r, k))
            probs += dprobs
        clean, field_probs = catalog.validate_card_fields(fields)
        if flagged:  # a value refused here is not also "missing" for the catalog
            field_probs = [p for p in field_probs
                           if not any(m.group(1) in flagged for m in [_FIELD_IN_WHERE.search(p.where or "")] if m)]
        probs += _relocate(field_probs, source, label, row_no)
        version = raw.get("version")
        expected = None
        if isinstance(version, str) and not version.isascii():
            probs.append(_number_problem(version, _where(source, label, row_no, "version")))
        elif version not in (None, ""):
            expected = _version_number(version)
            if expected is None:
                probs.append(Problem("invalid-field", tr("transfer.bad_version", value=_short(version)),
                                     tr("transfer.fix_version"), _where(source, label, row_no, "version")))
        if edition is not None and "effect" in clean and clean["effect"]:
            game_code = games[edition.game_id].code
            key = (game_code, clean["effect"])
            if key not in effects:
                effect_obj, eprobs = catalog.check_effect(game_code, clean["effect"])
                effects[key] = (effect_obj, eprobs, catalog.french_text(effect_obj) if effect_obj else None)
            effect_obj, eprobs, french = effects[key]
            probs += _relocate(eprobs, source, label, row_no)
            # a defausse: part needs the keyword Défausse on this row (the parse is shared, not this)
            probs += _relocate(catalog.discard_keyword_problems(effect_obj, clean.get("keywords")),
                               source, label, row_no)
            if effect_obj is not None and not clean.get("effect_text"):
                clean["effect_text"] = french
        if edition is not None and clean.get("value") is not None:  # the game's range of values
            problem = gamesdata.value_problem(games[edition.game_id], clean["value"],
                                              where=_where(source, label, row_no, "value"))
            if problem is not None:
                probs.append(problem)
        if edition is not None and clean.get("effect_text"):  # the markup (docs/rich-text.md)
            game = games[edition.game_id]
            probs += _relocate(catalog.markup_problems(game, clean["effect_text"]), source, label,
                               row_no)
        number = clean.get("number")
        if edition is not None and isinstance(number, int):
            ref_key = (edition.code, number)
            if ref_key in seen:
                probs.append(Problem("duplicate-row",
                                     tr(f"transfer.duplicate_{label}", ref=card_ref(*ref_key), first=seen[ref_key]),
                                     tr("transfer.fix_duplicate"), _where(source, label, row_no, "number")))
            else:
                seen[ref_key] = row_no
        if probs:
            plan.problems += probs
            continue
        checked.append(_Checked(row_no, edition, number, clean, expected, declared))

    # The rows without problems are compared with the database even when others have problems:
    # a dry run shows what they would do, and stale rows are listed with every other problem.
    existing = _existing_cards(session, checked)
    for item in checked:
        edition, number, clean = item.edition, item.number, item.clean
        ref = card_ref(edition.code, number)
        card = existing.get((edition.id, number))
        game_decls = decls[edition.game_id]
        if game_decls and (item.declared or card is None):  # over the card's figures
            stats, dprobs = _merged_stats(game_decls, card.stats if card is not None else {}, item.declared,
                                          card is None, lambda k, r=item.row: _where(source, label, r, k))
            if dprobs:
                plan.problems += dprobs
                continue
            clean["stats"] = stats
        if card is None:
            plan.rows.append(RowChange(item.row, ref, clean["name"], "new"))
            plan._writes.append(("new", edition.id, clean))
            continue
        if item.expected is not None and item.expected != card.version:
            plan.problems.append(Problem(
                "stale", tr("transfer.stale", ref=ref, version=card.version, expected=item.expected),
                tr("transfer.fix_stale"), _where(source, label, item.row, "version")))
            continue
        before = catalog.card_to_dict(card, edition, games[edition.game_id])
        changes = {}
        for key, new in clean.items():
            old = before.get(catalog.MODEL_TO_FILE.get(key, key))
            if key == "copies" and new is None:
                new = 1
            if old != new:
                changes[catalog.MODEL_TO_FILE.get(key, key)] = (old, new)
        if changes:
            plan.rows.append(RowChange(item.row, ref, clean["name"], "updated", changes))
            plan._writes.append(("update", card.id, _updated_values(card, clean), card.version))
        else:
            plan.rows.append(RowChange(item.row, ref, clean["name"], "unchanged"))
    return plan


def _existing_cards(session: Session, checked: list[_Checked]) -> dict[tuple[int, int], Any]:
    """The cards the rows name, by (edition id, number), read in a few queries."""
    table = Card.__table__
    wanted: dict[int, set[int]] = {}
    for item in checked:
        wanted.setdefault(item.edition.id, set()).add(item.number)
    out: dict[tuple[int, int], Any] = {}
    for edition_id, numbers in wanted.items():
        ordered = sorted(numbers)
        for i in range(0, len(ordered), BATCH):
            chunk = ordered[i:i + BATCH]
            stmt = sa_select(*table.c).where(table.c.edition_id == edition_id, table.c.number.in_(chunk))
            for row in session.execute(stmt):
                out[(row.edition_id, row.number)] = row
    return out


_WRITTEN = [c.name for c in Card.__table__.c if c.name not in ("id", "version", "edition_id")]
_NEW_DEFAULTS: dict[str, Any] = {
    "value": None, "colour": None, "banner": None, "rarity": None, "card_type": None, "effect": None,
    "effect_text": None, "flavour": None, "art": None, "copies": 1, "sample": False,
    "origin": None,  # a card a user imports comes from no data/ entry
}


def _keyed(values: dict[str, Any]) -> dict[str, Any]:
    """``values`` with the derived search columns filled, as the catalog fills them."""
    ns = SimpleNamespace(**values)
    catalog.apply_keys(ns)
    return vars(ns)


def _new_values(edition_id: int, clean: dict[str, Any], now: Any) -> dict[str, Any]:
    values = dict(_NEW_DEFAULTS)
    values["keywords"] = []
    values["stats"] = {}
    values.update(clean)
    if values.get("copies") is None:
        values["copies"] = 1
    values = _keyed(values)
    return {"edition_id": edition_id, "version": 1, "updated_at": now,
            **{k: values[k] for k in _WRITTEN if k != "updated_at"}}


def _updated_values(card: Any, clean: dict[str, Any]) -> dict[str, Any]:
    values = {k: getattr(card, k) for k in _WRITTEN}
    values.update(clean)
    if values.get("copies") is None:
        values["copies"] = 1
    return _keyed(values)


def _raw_insert(dialect: Any) -> tuple[str, list[str], list[Any], bool]:
    """The card INSERT compiled for ``dialect``: its SQL, the columns in parameter order, their
    converters and whether parameters are positional.

    The rows go to the driver's ``executemany`` already converted by the column types' own bind
    processors (JSON, dates…), without per-row statement machinery.
    """
    table = Card.__table__
    columns = [c.name for c in table.c if c.name != "id"]
    compiled = insert(table).compile(dialect=dialect, column_keys=columns)
    positional = bool(compiled.positional)
    order = list(compiled.positiontup) if positional else columns
    processors = [table.c[c].type._cached_bind_processor(dialect) for c in order]
    return str(compiled), order, processors, positional


def _batches(items: list[Any]) -> Iterator[list[Any]]:
    for i in range(0, len(items), BATCH):
        yield items[i:i + BATCH]


def _apply(session: Session, plan: ImportPlan) -> None:
    """Write the plan's rows in batches; refuse (all of it) when a card changed meanwhile."""
    table = Card.__table__
    now = catalog._now()
    new = [w for w in plan._writes if w[0] == "new"]
    updates = [w for w in plan._writes if w[0] == "update"]
    if new:
        conn = session.connection()
        sql, columns, processors, positional = _raw_insert(conn.dialect)
        pairs = list(zip(columns, processors))
        for batch in _batches(new):
            rows: list[Any] = []
            for _, edition_id, clean in batch:
                values = _new_values(edition_id, clean, now)
                converted = [p(values[c]) if p else values[c] for c, p in pairs]
                rows.append(tuple(converted) if positional else dict(zip(columns, converted)))
            conn.exec_driver_sql(sql, rows)
    if updates:
        stmt = (update(table)
                .where(and_(table.c.id == bindparam("_id"), table.c.version == bindparam("_expected")))
                .values(**{k: bindparam(k) for k in _WRITTEN}, version=bindparam("_next")))
        for batch in _batches(updates):
            params = [{**values, "updated_at": now, "_id": card_id, "_expected": version, "_next": version + 1}
                      for _, card_id, values, version in batch]
            result = session.connection().execute(stmt, params)
            if result.rowcount != len(params):
                raise ImportError_(tr("transfer.changed_meanwhile", source=plan.source))


def _foreign_markup(text: str, markup: str | None, plan: ImportPlan, where: str,
                    name: Any) -> str:
    """A card text from another tool: converted with ``markup="html"`` (what could not be is
    named in ``plan.warnings``), or kept as it is with a warning when it looks like HTML."""
    from cardbase.catalog.richtext import from_html, looks_foreign

    if not looks_foreign(text):
        return text
    if markup == "html":
        converted, left, closed = from_html(text)
        if left:
            plan.warnings.append(tr("richtext.import_left", where=where, name=_short(name),
                                    tags=" ".join(dict.fromkeys(left))))
        if closed:
            plan.warnings.append(tr("richtext.import_closed", where=where, name=_short(name),
                                    tags=" ".join(closed)))
        return converted
    plan.warnings.append(tr("richtext.import_foreign", where=where, name=_short(name)))
    return text


def import_cards(session: Session, data: bytes | str, *, fmt: str, source: str = "<upload>",
                 dry_run: bool = False, markup: str | None = None) -> ImportPlan:
    """Check then (unless ``dry_run``) apply a card file, all or nothing. ``markup="html"``
    converts ``<b>``, ``<i>``, ``<br>`` and entities in card texts (docs/rich-text.md)."""
    from cardbase.catalog.richtext import MARKUPS

    if markup is not None and markup not in MARKUPS:
        raise ImportError_(tr("richtext.import_bad_markup", markup=_short(markup),
                              markups=", ".join(MARKUPS)))
    if not dry_run:
        require_editor(action="import cards")
    if fmt not in ("csv", "json"):
        raise ImportError_(tr("transfer.unknown_format", source=source, format=repr(fmt)))
    if not dry_run:
        # the games' declared fields and the cards are read, checked and written under one lock:
        # no game changes its declarations between this import's checks and its write
        from cardbase.storage import writelock

        writelock.lock_games(session)
    rows = _rows(data, fmt=fmt, source=source, declared=declared_columns(session))
    del data
    plan = plan_import(session, rows, source=source, row_label="line" if fmt == "csv" else "item",
                       markup=markup)
    del rows
    if plan.problems:
        if dry_run:
            return plan
        raise ImportError_(tr("transfer.refused", source=source, count=len(plan.problems)), plan.problems)
    if dry_run:
        return plan
    from cardbase.storage import writelock

    writelock.before_write("import")
    try:
        with session.begin_nested():
            _apply(session, plan)
    except IntegrityError:
        raise ImportError_(tr("transfer.changed_meanwhile", source=source)) from None
    except OperationalError as exc:  # SQLite: another writer committed since this import read
        raise ImportError_(tr("transfer.busy", source=source, error=str(exc.orig or exc).splitlines()[0])) from None
    plan._writes.clear()
    return plan


def import_file(session: Session, path: Path, *, dry_run: bool = False,
                markup: str | None = None) -> ImportPlan:
    path = Path(path)
    fmt = _format_of(path)
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            raise ImportError_(tr("transfer.file_too_big", source=path.name, size=size // (1024 * 1024),
                                  max=MAX_FILE_BYTES // (1024 * 1024)))
        with path.open("rb") as fh:  # never more than the limit, whatever the file grew to
            data = fh.read(min(size, MAX_FILE_BYTES) + 1)
            if len(data) > size:
                data += fh.read(MAX_FILE_BYTES + 1 - len(data))
    except IsADirectoryError:
        raise ImportError_(tr("transfer.cannot_read", source=path, error=tr("transfer.is_directory"))) from None
    except OSError as exc:
        raise ImportError_(tr("transfer.cannot_read", source=path, error=exc.strerror or exc)) from None
    return import_cards(session, data, fmt=fmt, source=path.name, dry_run=dry_run, markup=markup)


# --------------------------------------------------------------------------- export
