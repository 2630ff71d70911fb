"""Card files out: the columns of a CSV or JSON card file (the import format of
:mod:`cardbase.catalog.transfer`), its cells guarded against spreadsheet formulas, and the export
of cards to it (``cardbase cards export``, the editor's download).

Plain Python over :mod:`cardbase.catalog.reads`: an export on the read-only path of the SQLite
default (:mod:`cardbase.storage.readonly`) loads no SQLAlchemy; on a session it reads the same
cards. Import lives in ``transfer``, which re-exports these names.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cardbase.catalog import reads
from cardbase.errors import CardbaseError, ImportError_
from cardbase.i18n import tr

if TYPE_CHECKING:  # pragma: no cover
    from sqlmodel import Session

    from cardbase.storage.readonly import ReadOnlyDB

COLUMNS = ("edition", "number", "name", "value", "colour", "banner", "rarity", "type", "keywords",
           "copies", "stats", "effect", "effect_text", "flavour", "art", "sample", "version")
NUMERIC = ("number", "value", "copies", "version")
_COLUMN_SET = frozenset(COLUMNS)

# Characters that make a spreadsheet read a cell as a formula (CSV injection).
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


# --------------------------------------------------------------------------- CSV cells

def csv_escape(text: str) -> str:
    """A text cell as written to CSV: never starts with a formula character.

    A cell that starts with ``= + - @``, a tab or a carriage return gets a ``'`` in front; so does a
    cell that already starts with ``'`` followed by one of those or by another ``'`` — so that
    :func:`csv_unescape` can tell the two apart and the round trip is exact.
    """
    if text and (text[0] in FORMULA_START or (text[0] == "'" and len(text) > 1
                                              and (text[1] in FORMULA_START or text[1] == "'"))):
        return "'" + text
    return text


def csv_unescape(text: str) -> str:
    """The value of a CSV text cell: one leading ``'`` before a formula character or ``'`` removed."""
    if len(text) > 1 and text[0] == "'" and (text[1] in FORMULA_START or text[1] == "'"):
        return text[1:]
    return text


def file_format(path: Path) -> str:
    """``csv`` or ``json``, from the file's suffix; another suffix is a clear error."""
    suffix = path.suffix.lower().lstrip(".")
    if suffix not in ("csv", "json"):
        raise ImportError_(tr("transfer.unknown_suffix", source=path, suffix=suffix))
    return suffix


# --------------------------------------------------------------------------- export

def export_records(session: Session | ReadOnlyDB, *, query: str | None = None,
                   edition: str | None = None, game: str | None = None) -> list[dict[str, Any]]:
    """The cards as the rows of a card file (the import format)."""
    out = []
    for card in reads.card_dicts(session, query=query, edition=edition, game=game):
        record = {k: card.get(k) for k in COLUMNS}
        if len(card) > len(reads.CARD_DICT_KEYS):  # the game's declared fields, by name
            declared = {k: v for k, v in card.items() if k not in reads.CARD_DICT_KEYS}
            record["stats"] = {k: v for k, v in record["stats"].items() if k not in declared}
            record.update(declared)
        out.append(record)
    return out


def export_text(records: list[dict[str, Any]], fmt: str) -> str:
    """Records as a card file. In CSV, text cells are neutralised against spreadsheet formulas
    (:func:`csv_escape`); numbers stay numbers."""
    if fmt == "json":
        return json.dumps(records, ensure_ascii=False, indent=2) + "\n"
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    # Lines end in "\n", so the minimal quoting would leave a carriage return inside a cell bare
    # (and a reader would cut the row there): such rows are written with every cell quoted.
    quoted = csv.writer(buf, lineterminator="\n", quoting=csv.QUOTE_ALL)
    # the games' declared fields: columns of their own after the common ones, in the games' order
    columns = list(dict.fromkeys([*COLUMNS, *(k for rec in records for k in rec if k not in _COLUMN_SET)]))
    writer.writerow(columns)
    for rec in records:
        row = dict(rec)
        row["keywords"] = "; ".join(rec.get("keywords") or [])
        row["stats"] = json.dumps(rec["stats"], ensure_ascii=False, sort_keys=True) if rec.get("stats") else ""
        row["sample"] = "true" if rec.get("sample") else ""
        cells = []
        for key in columns:
            value = row.get(key)
            if value is None:
                cells.append("")
            elif key in NUMERIC or not isinstance(value, str):
                cells.append(value)
            else:
                cells.append(csv_escape(value))
        if any(isinstance(c, str) and "\r" in c for c in cells):
            quoted.writerow(cells)
        else:
            writer.writerow(cells)
    return buf.getvalue()


def export_file(session: Session | ReadOnlyDB, path: Path, *, query: str | None = None,
                edition: str | None = None) -> int:
    """Write the cards (``query``, ``edition``: only those) to a CSV or JSON card file; how many."""
    path = Path(path)
    fmt = file_format(path)
    return write_records(path, export_records(session, query=query, edition=edition), fmt)


def write_records(path: Path, records: list[dict[str, Any]], fmt: str) -> int:
    """Write :func:`export_records` rows to ``path`` as ``fmt``; how many."""
    try:
        path.write_text(export_text(records, fmt), encoding="utf-8")
    except OSError as exc:
        raise CardbaseError(tr("transfer.cannot_write", path=path, error=exc.strerror or exc)) from None
    return len(records)
