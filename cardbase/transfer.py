"""Card import and export, CSV and JSON.

An import is checked whole before anything is written: every problem is reported with its row and
column, a dry run shows what would be new, changed or unchanged, and a real run lands in one
transaction or not at all. Rows are matched to existing cards by edition code and collector number;
a row that carries a ``version`` is refused when the card has changed since that version.
"""

from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlmodel import Session, select

from cardbase import catalog
from cardbase.access import require_editor
from cardbase.errors import CardbaseError, ImportError_, Problem
from cardbase.models import Card, Edition, Game
from cardbase.text import card_ref

COLUMNS = ("edition", "number", "name", "value", "colour", "banner", "rarity", "type", "keywords",
           "copies", "stats", "effect", "effect_text", "flavour", "art", "sample", "version")
REQUIRED = ("edition", "number", "name")
MAX_ROWS = 100_000


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
    _writes: list[tuple[str, Any, dict[str, Any], int]] = field(default_factory=list, repr=False)

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
            "rows": [{"row": r.row, "ref": r.ref, "name": r.name, "action": r.action,
                      "changes": {k: {"old": o, "new": n} for k, (o, n) in r.changes.items()}}
                     for r in self.rows],
        }

    def summary(self) -> str:
        c = self.counts
        lines = [f"{self.source}: {c['new']} new, {c['updated']} updated, {c['unchanged']} unchanged"]
        for r in self.rows:
            if r.action == "new":
                lines.append(f"  + row {r.row}: {r.ref} « {r.name} »")
            elif r.action == "updated":
                what = ", ".join(f"{k}: {o!r} → {n!r}" for k, (o, n) in r.changes.items())
                lines.append(f"  ~ row {r.row}: {r.ref} « {r.name} » ({what})")
        if self.problems:
            lines.append(f"{len(self.problems)} problem(s):")
            lines += [f"  - {p}" for p in self.problems]
        return "\n".join(lines)


# --------------------------------------------------------------------------- reading files

def read_rows(data: bytes | str, *, fmt: str, source: str) -> list[tuple[int, dict[str, Any]]]:
    """Rows of a CSV or JSON card file as (row number, raw fields). Unreadable files raise."""
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise ImportError_(f"{source}: not UTF-8 text (byte {exc.start}) — save the file as UTF-8") from None
    if fmt == "json":
        try:
            doc = json.loads(data)
        except json.JSONDecodeError as exc:
            raise ImportError_(f"{source}: not valid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}") from None
        if isinstance(doc, dict) and "cards" in doc:
            doc = doc["cards"]
        if not isinstance(doc, list) or not all(isinstance(r, dict) for r in doc):
            raise ImportError_(f"{source}: expected a JSON list of card objects (or {{\"cards\": [...]}})")
        rows = [(i, r) for i, r in enumerate(doc, start=1)]
    elif fmt == "csv":
        reader = csv.DictReader(io.StringIO(data, newline=""))
        if not reader.fieldnames:
            raise ImportError_(f"{source}: the file is empty — the first line must name the columns")
        header = [h.strip() if h else "" for h in reader.fieldnames]
        reader.fieldnames = header
        problems = []
        for col, name in enumerate(header, start=1):
            if name not in COLUMNS:
                problems.append(Problem("unknown-column", f"unknown column {name!r}",
                                        f"use the columns {', '.join(COLUMNS)}", f"{source} row 1 column {col}"))
        for name in REQUIRED:
            if name not in header:
                problems.append(Problem("missing-column", f"column {name!r} is missing",
                                        f"add a {name} column", f"{source} row 1"))
        if problems:
            raise ImportError_(f"{source}: the header has {len(problems)} problem(s); nothing was imported", problems)
        rows = []
        try:
            for i, raw in enumerate(reader, start=2):
                if None in raw:
                    raise ImportError_(f"{source} row {i}: more values than columns — quote values that contain commas")
                rows.append((i, {k: v for k, v in raw.items()}))
        except csv.Error as exc:
            raise ImportError_(f"{source}: malformed CSV near row {reader.line_num}: {exc}") from None
    else:
        raise ImportError_(f"{source}: unknown format {fmt!r} — use a .csv or .json file")
    if len(rows) > MAX_ROWS:
        raise ImportError_(f"{source}: {len(rows)} rows is more than {MAX_ROWS} — split the file")
    return rows


def _format_of(path: Path) -> str:
    suffix = path.suffix.lower().lstrip(".")
    if suffix not in ("csv", "json"):
        raise ImportError_(f"{path}: unknown file type .{suffix} — use .csv or .json")
    return suffix


# --------------------------------------------------------------------------- planning

def _decode_csv_value(key: str, value: Any, where: str, problems: list[Problem]) -> Any:
    if not isinstance(value, str):
        return value
    if key == "stats":
        if not value.strip():
            return {}
        try:
            return json.loads(value)
        except json.JSONDecodeError:
            problems.append(Problem("invalid-field", f"stats {value!r} is not JSON",
                                    'write e.g. {"damage": 40}', where))
            return None
    if key == "keywords":
        return [k.strip() for k in value.split(";") if k.strip()]
    return value


def _version_number(value: Any) -> int | None:
    """A row's version: a whole number from 1 up, as an int or as digits; anything else is None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value.strip())
    if isinstance(value, int) and 1 <= value < 2**31:
        return value
    return None


def plan_import(session: Session, rows: list[tuple[int, dict[str, Any]]], *, source: str,
                row_label: str = "row") -> ImportPlan:
    """Check every row against the database and work out what would change; writes nothing."""
    plan = ImportPlan(source=source)
    editions = {e.code.upper(): e for e in session.exec(select(Edition)).all()}
    games = {g.id: g for g in session.exec(select(Game)).all()}
    seen: dict[tuple[str, int], int] = {}
    for row_no, raw in rows:
        where = f"{source} {row_label} {row_no}"
        probs: list[Problem] = []
        raw = {k: v for k, v in raw.items() if k is not None}
        unknown = [k for k in raw if k not in COLUMNS]
        for k in unknown:
            probs.append(Problem("unknown-column", f"unknown field {k!r}", f"use {', '.join(COLUMNS)}", where))
        code = str(raw.get("edition") or "").strip().upper()
        edition = editions.get(code)
        if not code:
            probs.append(Problem("missing", "no edition", "write the edition code, e.g. NP1", f"{where} column edition"))
        elif edition is None:
            probs.append(Problem("unknown-edition", f"unknown edition {code!r}",
                                 f"create it first or use one of {', '.join(sorted(editions))}",
                                 f"{where} column edition"))
        fields: dict[str, Any] = {}
        for key in COLUMNS:
            if key in ("edition", "version") or key not in raw:
                continue
            fields[catalog.FILE_TO_MODEL.get(key, key)] = _decode_csv_value(key, raw[key], f"{where} column {key}", probs)
        clean, field_probs = catalog.validate_card_fields(fields, where=where)
        probs += field_probs
        version = raw.get("version")
        expected = None
        if version not in (None, ""):
            expected = _version_number(version)
            if expected is None:
                probs.append(Problem("invalid-field", f"version {version!r} is not a whole number",
                                     "leave it empty or copy it from an export", f"{where} column version"))
        if edition is not None and "effect" in clean:
            effect_obj, eprobs = catalog.check_effect(games[edition.game_id].code, clean.get("effect"), where=where,
                                                      keywords=clean.get("keywords"))
            probs += eprobs
            if effect_obj is not None and not clean.get("effect_text"):
                clean["effect_text"] = catalog.french_text(effect_obj)
        number = clean.get("number")
        if edition is not None and isinstance(number, int):
            key = (edition.code, number)
            if key in seen:
                probs.append(Problem("duplicate-row", f"{card_ref(*key)} appears twice (first at {row_label} {seen[key]})",
                                     "keep one row per card", f"{where} column number"))
            seen[key] = row_no
        if probs:
            plan.problems += probs
            continue
        existing = session.exec(select(Card).where(Card.edition_id == edition.id, Card.number == number)).first()
        ref = card_ref(edition.code, number)
        if existing is None:
            plan.rows.append(RowChange(row_no, ref, clean["name"], "new"))
            plan._writes.append(("new", edition.code, clean, 0))
            continue
        if expected is not None and expected != existing.version:
            plan.problems.append(Problem(
                "stale", f"{ref} is at version {existing.version} but this row was exported at version {expected}",
                "export again, re-apply your changes, and import that file", f"{where} column version"))
            continue
        before = catalog.card_to_dict(existing, edition, games[edition.game_id])
        changes = {}
        for key, new in clean.items():
            old = before.get(catalog.MODEL_TO_FILE.get(key, key))
            if key == "copies" and new is None:
                new = 1
            if old != new:
                changes[catalog.MODEL_TO_FILE.get(key, key)] = (old, new)
        if changes:
            plan.rows.append(RowChange(row_no, ref, clean["name"], "updated", changes))
            plan._writes.append(("update", existing.id, clean, existing.version))
        else:
            plan.rows.append(RowChange(row_no, ref, clean["name"], "unchanged"))
    return plan


def import_cards(session: Session, data: bytes | str, *, fmt: str, source: str = "<upload>",
                 dry_run: bool = False) -> ImportPlan:
    """Check then (unless ``dry_run``) apply a card file, all or nothing."""
    if not dry_run:
        require_editor(action="import cards")
    rows = read_rows(data, fmt=fmt, source=source)
    plan = plan_import(session, rows, source=source, row_label="row" if fmt == "csv" else "item")
    if plan.problems:
        if dry_run:
            return plan
        raise ImportError_(f"{source}: {len(plan.problems)} problem(s); nothing was imported", plan.problems)
    if dry_run:
        return plan
    with session.begin_nested():
        for action, target, clean, version in plan._writes:
            if action == "new":
                catalog.create_card(session, edition=target, fields=clean)
            else:
                catalog.update_card(session, target, expected_version=version, changes=clean)
    return plan


def import_file(session: Session, path: Path, *, dry_run: bool = False) -> ImportPlan:
    path = Path(path)
    fmt = _format_of(path)
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise ImportError_(f"{path}: cannot read the file ({exc.strerror})") from None
    return import_cards(session, data, fmt=fmt, source=path.name, dry_run=dry_run)


# --------------------------------------------------------------------------- export

def export_records(session: Session, *, query: str | None = None, edition: str | None = None,
                   game: str | None = None) -> list[dict[str, Any]]:
    out = []
    for card in catalog.card_dicts(session, query=query, edition=edition, game=game):
        out.append({k: card.get(k) for k in COLUMNS})
    return out


def export_text(records: list[dict[str, Any]], fmt: str) -> str:
    if fmt == "json":
        return json.dumps(records, ensure_ascii=False, indent=2) + "\n"
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=COLUMNS, lineterminator="\n")
    writer.writeheader()
    for rec in records:
        row = dict(rec)
        row["keywords"] = "; ".join(rec.get("keywords") or [])
        row["stats"] = json.dumps(rec["stats"], ensure_ascii=False, sort_keys=True) if rec.get("stats") else ""
        row["sample"] = "true" if rec.get("sample") else ""
        writer.writerow({k: "" if v is None else v for k, v in row.items()})
    return buf.getvalue()


def export_file(session: Session, path: Path, *, query: str | None = None, edition: str | None = None) -> int:
    path = Path(path)
    fmt = _format_of(path)
    records = export_records(session, query=query, edition=edition)
    try:
        path.write_text(export_text(records, fmt), encoding="utf-8")
    except OSError as exc:
        raise CardbaseError(f"{path}: cannot write the file ({exc.strerror})") from None
    return len(records)

