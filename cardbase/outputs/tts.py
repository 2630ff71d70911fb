"""Tabletop Simulator: a deck or a box game as a custom deck, and a saved deck read back.

**Export** (:func:`export_tts`). A source is a deck (:func:`deck_source`: a deck-list file, a saved
deck's name or a starter slug) or a whole edition with every card's ``copies``
(:func:`edition_source`). It becomes, in one folder:

- face sheets (``<slug>-faces-<n>-<hash>.png``): each distinct card drawn once by the print
  pipeline (:func:`cardbase.outputs.printing.render_card`: same templates, text fitting, accents and
  sticker codes), in cells of exactly the card's proportions (63 × 88 mm → 378 × 528 px), at most
  10 × 7 cells and 4,096 px a side. The last cell of a sheet stays empty (the game's convention for
  the hidden-card image), so a sheet holds at most 69 faces; more faces go on further sheets. The
  hash in the name is that of the sheet's pixels: the game keeps images by address and would show
  an old sheet under an unchanged name;
- the back (``<slug>-back-<hash>.png``) drawn from the game's back template at the same size;
- the saved object (``<slug>.json``): one ``DeckCustom`` whose ``ContainedObjects`` hold one
  ``Card`` per physical card (``Nickname`` its name, ``Description`` its printed effect text,
  ``GMNotes`` its collector reference), ``DeckIDs`` the same ``CardID`` s in the same order and
  ``CustomDeck`` one entry per sheet. ``CardID`` = sheet key × 100 + cell, cells counted row by row
  from 0. The deck lies face down.

Image addresses are absolute ``file://`` URLs to the written files, or ``base_url`` + file name
for images put on a web host. Every file is written under a temporary name and moved into place
when complete (:func:`cardbase.outputs.printing.output.atomic_file`); images are written before the saved
object that points at them, and as their names change with their content, a saved object left by
an export that failed half-way still points at images that exist and match it. An export holds at
most :data:`MAX_EXPORT_CARDS` cards, and its saved object is checked against every import limit
before the first face is drawn: an export never writes what the import refuses.

**Import** (:func:`read_saved_object`). A saved object — ours, or one the game saved after cards
moved between decks — is read with limits on size (at most the limit is read; a named pipe or a
device is refused), on JSON values and nesting (counted in the text before it is parsed) and on
objects and their nesting; every ``Card`` inside
``Deck``/``DeckCustom`` objects (or loose, or in bags) is matched to the database by the collector
reference in its ``GMNotes``, else by its name (reported), else named as unknown. Nothing matched
is an error.
"""

from __future__ import annotations

import hashlib
import io
import json
import math
import re
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlsplit

from cardbase.domain import CardDef
from cardbase.errors import (
    CardbaseError,
    DeckListError,
    NotFoundError,
    Problem,
    StickerError,
    TemplateError,
)
from cardbase.i18n import tr
from cardbase.text import card_ref, fold, parse_card_ref

__all__ = [
    "MAX_CELLS",
    "MAX_FACES_PER_SHEET",
    "MAX_SIDE_PX",
    "ExportResult",
    "ImportResult",
    "ImportedDeck",
    "TtsError",
    "TtsSource",
    "card_index",
    "cell_size",
    "deck_source",
    "edition_source",
    "edition_symbols",
    "export_tts",
    "export_zip",
    "grid_for",
    "read_saved_object",
    "saved_object_doc",
]

MAX_CELLS = (10, 7)  # columns × rows of a custom deck sheet
MAX_SIDE_PX = 4096  # the game's advice for custom images
MAX_FACES_PER_SHEET = MAX_CELLS[0] * MAX_CELLS[1] - 1  # the last cell is the hidden-card image
MIN_CELLS = 2  # the game's custom deck dialog takes 2 to 10 columns and 2 to 7 rows
FACE_DOWN = {"posX": 0.0, "posY": 1.0, "posZ": 0.0, "rotX": 0.0, "rotY": 180.0, "rotZ": 180.0,
             "scaleX": 1.0, "scaleY": 1.0, "scaleZ": 1.0}
EMPTY_CELL = "#202024"

MAX_IMPORT_BYTES = 32 * 1024 * 1024  # a saved object of a few decks is well under 1 MB
MAX_OBJECTS = 50_000
MAX_DEPTH = 40
# Counted in the text before json.loads builds anything (cardbase.bounded_io.json_shape): a card
# the game saves holds about 40 JSON values, one of ours about 26; each object level is a JSON
# object and its ContainedObjects list, plus a few levels inside a card.
MAX_JSON_VALUES = 40 * MAX_OBJECTS
MAX_JSON_DEPTH = 2 * MAX_DEPTH + 8
# Cards in one export, checked before any work; the saved object it writes is also checked against
# every import limit above before anything is drawn: export never writes what import refuses.
MAX_EXPORT_CARDS = 10_000
MAX_EXPORT_SHEETS = 20  # distinct faces: 20 sheets of 69, each kept as its PNG until all are drawn
DECK_NAMES = ("Deck", "DeckCustom")
CARD_NAMES = ("Card", "CardCustom")


class TtsError(CardbaseError):
    """A source, an output folder or a saved object that cannot be used."""


# --------------------------------------------------------------------------- sources

@dataclass(slots=True, frozen=True)
class TtsSource:
    """What to export: a name and one CardDef per physical card, in order."""

    name: str
    kind: str  # "file", "saved", "starter" or "edition"
    cards: tuple[CardDef, ...]


def _check_card_count(name: str, n: int) -> None:
    if n > MAX_EXPORT_CARDS:
        raise TtsError(tr("tts.export.too_many", name=name, n=n, max=MAX_EXPORT_CARDS))


def _defs_of(session: Any, resolved: Any, where: str) -> tuple[CardDef, ...]:
    from cardbase.catalog import cards as catalog

    if resolved.problems:
        raise DeckListError(tr("tts.source.lines", where=where, n=len(resolved.problems)),
                            list(resolved.problems))
    counts: dict[int, int] = {}
    for e in resolved.entries:
        counts[e.card.id] = counts.get(e.card.id, 0) + e.count
    _check_card_count(where, sum(counts.values()))
    by_id = {c.id: c for c in catalog.card_defs(session, ids=list(counts))} if counts else {}
    return tuple(by_id[i] for i, n in counts.items() for _ in range(n))


def _saved_deck(session: Any, name: str) -> Any:
    from cardbase import decks

    saved = decks.list_decks(session)
    exact = [d for d in saved if d.name == name]
    if len(exact) == 1:
        return exact[0]
    folded = [d for d in saved if fold(d.name) == fold(name)]
    return folded[0] if len(folded) == 1 else None


def deck_source(session: Any, ref: str) -> TtsSource:
    """A deck, resolved as ``cardbase sim`` and ``cardbase print --deck`` take it: a deck-list
    file, then a saved deck's name (accents and case aside when only one matches), then a starter
    slug (its saved deck if the database has it, else the file). Any game."""
    from cardbase import decks
    from cardbase.playtest.cards import starter_decks

    text = (ref or "").strip()
    path = Path(text)
    if text and path.is_file():
        resolved = decks.resolve_deck(session, decks.read_deck_file(path))
        return TtsSource(resolved.name or path.stem, "file", _defs_of(session, resolved, str(path)))
    deck = _saved_deck(session, text) if text else None
    if deck is not None:
        return TtsSource(deck.name, "saved",
                         _defs_of(session, decks.deck_entries(session, deck), deck.name))
    starters = starter_decks()
    if text in starters:
        listed = decks.read_deck_file(starters[text])
        deck = _saved_deck(session, listed.name) if listed.name else None
        resolved = (decks.deck_entries(session, deck) if deck is not None
                    else decks.resolve_deck(session, listed))
        return TtsSource(listed.name or text, "starter", _defs_of(session, resolved, text))
    names = [d.name for d in decks.list_decks(session)]
    raise NotFoundError(tr("tts.source.no_deck", ref=ref,
                           saved=", ".join(names) or tr("tts.source.none"),
                           starters=", ".join(starters) or tr("tts.source.none")))


def edition_source(session: Any, code: str) -> TtsSource:
    """A box game: every card of edition ``code`` as many times as its ``copies``."""
    from cardbase.catalog import cards as catalog

    edition = catalog.get_edition(session, code)  # NotFoundError naming the codes
    defs = sorted(catalog.card_defs(session, edition=edition.code), key=lambda c: c.number)
    _check_card_count(edition.name, sum(max(1, c.copies or 1) for c in defs))  # before the tuple
    return TtsSource(edition.name, "edition",
                     tuple(c for c in defs for _ in range(max(1, c.copies or 1))))


def edition_symbols(session: Any, cards: Sequence[CardDef]) -> dict[str, str]:
    """The printed symbol of each edition of ``cards`` (as ``cardbase print`` passes them)."""
    from cardbase.catalog import cards as catalog

    out = {}
    for code in sorted({c.edition for c in cards}):
        symbol = getattr(catalog.get_edition(session, code), "symbol", None)
        if symbol:
            out[code] = symbol
    return out


# --------------------------------------------------------------------------- layout

def cell_size(width_mm: float, height_mm: float) -> tuple[int, int, float]:
    """The largest cell of exactly the card's proportions that fits 10 × 7 in 4,096 px, and the
    resolution that draws the card at that size: 63 × 88 mm → 378 × 528 px (152.4 DPI)."""
    max_w = MAX_SIDE_PX // MAX_CELLS[0]
    max_h = MAX_SIDE_PX // MAX_CELLS[1]
    ratio = Fraction(str(width_mm)) / Fraction(str(height_mm))
    p, q = ratio.numerator, ratio.denominator
    k = min(max_w // p, max_h // q)
    if k >= 1:
        w, h = k * p, k * q
    else:  # proportions with no small whole-pixel form: the nearest at the largest size
        scale = min(max_w / width_mm, max_h / height_mm)
        w, h = int(width_mm * scale), int(height_mm * scale)
    return w, h, w * 25.4 / width_mm


def grid_for(faces: int) -> tuple[int, int]:
    """Columns and rows of a sheet holding ``faces`` faces and its empty last cell."""
    cells = faces + 1
    cols = min(MAX_CELLS[0], max(MIN_CELLS, cells))
    rows = max(MIN_CELLS, math.ceil(cells / cols))
    if rows > MAX_CELLS[1]:
        raise ValueError(f"{faces} faces do not fit one sheet")
    return cols, rows


def card_index(card_id: int) -> tuple[int, int]:
    """The sheet key and the cell of a ``CardID``."""
    return card_id // 100, card_id % 100


# --------------------------------------------------------------------------- export

@dataclass(slots=True)
class ExportResult:
    name: str
    object: Path
    sheets: list[Path]
    back: Path
    cards: int  # physical cards
    faces: int  # distinct cards drawn
    document: dict[str, Any] = field(repr=False, default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return {"object": str(self.object), "sheets": [str(p) for p in self.sheets],
                "back": str(self.back), "cards": self.cards}


def slug(text: str) -> str:
    """A file-name part made of the name's letters and digits (accents folded)."""
    s = re.sub(r"[^a-z0-9]+", "-", fold(text)).strip("-")
    return s[:60].strip("-") or "deck"


def check_base_url(base_url: str) -> str:
    try:
        parts = urlsplit(base_url.strip())
        parts.port  # noqa: B018 - a port that is not a number raises here
    except ValueError:  # "http://[::1": a bracket left open, a bad port
        raise TtsError(tr("tts.export.bad_base_url", url=base_url)) from None
    if parts.scheme.lower() not in ("http", "https", "file") or not (parts.netloc or parts.scheme == "file"):
        raise TtsError(tr("tts.export.bad_base_url", url=base_url))
    return base_url.strip().rstrip("/") + "/"


def _out_dir(out: Path) -> Path:
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise TtsError(tr("tts.export.not_folder", path=str(out)))
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise TtsError(tr("tts.export.cannot_create", path=str(out),
                          reason=exc.strerror or str(exc))) from None
    return out


GAME_GREY = {"r": 0.713235259, "g": 0.713235259, "b": 0.713235259}  # the game's own card tint
REFERENCE_CARD_MM = (63.0, 88.0)  # a poker card: the game's card at scale 1
REFERENCE_DPI = 300  # text is fitted as ``cardbase print`` fits it, then the face is scaled down
SHEET_KEYS = (1_000, 9_999_999)  # CardID = key × 100 + cell stays a 32-bit number


def card_scale(width_mm: float, height_mm: float) -> tuple[float, float]:
    """T6 — ``scaleX`` and ``scaleZ`` of a card of this size: the game's card is poker-sized at scale 1
    and would stretch a tarot or a mini card to poker shape; scaled, it keeps its proportions."""
    return (round(width_mm / REFERENCE_CARD_MM[0], 4), round(height_mm / REFERENCE_CARD_MM[1], 4))


def sheet_key(deck: str, refs: Sequence[str], used: set[int]) -> int:
    """T5 — the ``CustomDeck`` key of a sheet: from a hash of the deck's name and the sheet's cards,
    spread over :data:`SHEET_KEYS` as the game's own keys are. The same deck gets the same keys
    (re-exporting replaces its sheets); two exports on one table do not share a key, except by a
    one-in-millions chance; within one export, a key already taken moves to the next free one."""
    lo, hi = SHEET_KEYS
    digest = hashlib.sha256("\n".join([deck, *refs]).encode("utf-8")).digest()
    key = lo + int.from_bytes(digest[:8], "big") % (hi - lo + 1)
    while key in used:
        key = lo if key >= hi else key + 1
    used.add(key)
    return key


def _guids(seed: str, n: int) -> list[str]:
    """``n`` distinct six-digit hexadecimal GUIDs, stable for the same seed."""
    out: list[str] = []
    seen: set[str] = set()
    i = 0
    while len(out) < n:
        g = hashlib.sha256(f"{seed}\n{i}".encode()).hexdigest()[:6]
        i += 1
        if g not in seen:
            seen.add(g)
            out.append(g)
    return out


def _object_fields(guid: str, transform: dict[str, float]) -> dict[str, Any]:
    """The fields the game writes for every object, set as a deck of cards needs them."""
    return {"GUID": guid, "Transform": transform, "ColorDiffuse": dict(GAME_GREY),
            "LayoutGroupSortIndex": 0, "Value": 0, "Locked": False, "Grid": True, "Snap": True,
            "IgnoreFoW": False, "MeasureMovement": False, "DragSelectable": True,
            "Autoraise": True, "Sticky": True, "Tooltip": True, "GridProjection": False,
            # hidden information: face down, a card shows neither its face, name nor text
            "HideWhenFaceDown": True}


def saved_object_doc(name: str, cards: Sequence[CardDef], card_ids: Sequence[int],
                     sheets: Mapping[int, tuple[str, int, int]], back_url: str,
                     size_mm: tuple[float, float] = REFERENCE_CARD_MM) -> dict[str, Any]:
    """The saved-object JSON: ``sheets`` maps a sheet key to (face URL, columns, rows);
    ``size_mm`` is the cards' size (their scale and whether they lie sideways)."""
    custom = {str(k): {"FaceURL": url, "BackURL": back_url, "NumWidth": cols, "NumHeight": rows,
                       "BackIsHidden": True, "UniqueBack": False, "Type": 0}
              for k, (url, cols, rows) in sheets.items()}
    from cardbase.catalog.richtext import plain

    sx, sz = card_scale(*size_mm)
    transform = {**FACE_DOWN, "scaleX": sx, "scaleZ": sz}
    sideways = size_mm[0] > size_mm[1]
    guids = _guids(f"{name}\n{sorted(custom)}", len(cards) + 1)
    contained = []
    for card, cid, guid in zip(cards, card_ids, guids[1:], strict=True):
        key = str(card_index(cid)[0])
        contained.append({"Name": "Card", **_object_fields(guid, dict(transform)),
                          "Nickname": card.name,
                          # the text as it reads: markup (docs/rich-text.md) is drawn on the face
                          "Description": plain(card.effect_text) or card.effect or "",
                          "GMNotes": card.ref, "Hands": True, "CardID": cid,
                          "SidewaysCard": sideways, "CustomDeck": {key: dict(custom[key])},
                          "LuaScript": "", "LuaScriptState": "", "XmlUI": ""})
    if len(contained) == 1:  # one card is a card, not a deck
        return {"SaveName": name, "ObjectStates": contained}
    deck = {"Name": "DeckCustom", **_object_fields(guids[0], dict(transform)), "Nickname": name,
            "Description": "", "GMNotes": "", "Hands": False, "SidewaysCard": sideways,
            "DeckIDs": list(card_ids), "CustomDeck": custom, "ContainedObjects": contained,
            "LuaScript": "", "LuaScriptState": "", "XmlUI": ""}
    return {"SaveName": name, "ObjectStates": [deck]}


def export_tts(source: TtsSource, out: Path | str, *, base_url: str | None = None,
               url_dir: Path | None = None, stickers: bool = True,
               sticker_table: Mapping[str, str] | None = None,
               edition_symbols: Mapping[str, str] | None = None,
               art_dir: Path | None = None) -> ExportResult:
    """Write the face sheets, the back and the saved object of ``source`` into folder ``out``.

    URLs: ``base_url`` + file name, else ``file://`` URLs of the files in ``url_dir`` (the folder
    the images will be in, ``out`` by default).
    """
    from PIL import Image

    from cardbase.outputs.printing import RenderOptions, render_back, render_card, template_for
    from cardbase.outputs.printing.fingerprint import card_fingerprint
    from cardbase.outputs.printing.output import atomic_file
    from cardbase.outputs.printing.textfit import TextTooLong

    if not source.cards:
        raise TtsError(tr("tts.export.empty", name=source.name))
    _check_card_count(source.name, len(source.cards))
    prefix = check_base_url(base_url) if base_url else None
    if not str(out).strip():
        raise TtsError(tr("tts.export.empty_out"))
    out = Path(out)
    if out.exists() and not out.is_dir():  # refused before any work
        raise TtsError(tr("tts.export.not_folder", path=str(out)))

    # distinct cards, in order of first appearance
    distinct: dict[str, CardDef] = {}
    for card in source.cards:
        distinct.setdefault(card.ref, card)
    faces = list(distinct.values())
    if len(faces) > MAX_EXPORT_SHEETS * MAX_FACES_PER_SHEET:  # before any face is drawn
        raise TtsError(tr("tts.export.too_many_faces", name=source.name, n=len(faces),
                          max=MAX_EXPORT_SHEETS * MAX_FACES_PER_SHEET, sheets=MAX_EXPORT_SHEETS))
    templates = {}
    for card in faces:
        key = (card.game, card.card_type)
        if key not in templates:
            templates[key] = template_for(card.game, card.card_type)
    first = templates[(faces[0].game, faces[0].card_type)]
    for card in faces:
        t = templates[(card.game, card.card_type)]
        if (t.width_mm, t.height_mm) != (first.width_mm, first.height_mm):
            raise TemplateError(tr("tts.export.mixed_sizes", ref=card.ref,
                                   width=f"{t.width_mm:g}", height=f"{t.height_mm:g}",
                                   first_width=f"{first.width_mm:g}",
                                   first_height=f"{first.height_mm:g}"))
    cw, ch, _ = cell_size(first.width_mm, first.height_mm)
    # T7, one text-fitting rule for every output: each face is drawn as `cardbase print` draws it
    # (a text print refuses is refused here too), then scaled down to its cell
    options = RenderOptions(dpi=REFERENCE_DPI, stickers=stickers, sticker_table=sticker_table,
                            art_dir=art_dir, edition_symbols=edition_symbols)
    size_mm = (first.width_mm, first.height_mm)

    base = slug(source.name)
    target_dir = Path(url_dir) if url_dir is not None else out

    def url(name: str) -> str:
        if prefix:
            return prefix + quote(name)
        return (target_dir / name).resolve().as_uri()

    def document(cell_of: Mapping[str, int], sheets: Sequence[tuple[int, str, int, int]],
                 back_name: str) -> dict[str, Any]:
        card_ids = [cell_of[c.ref] for c in source.cards]
        return saved_object_doc(source.name, source.cards, card_ids,
                                {k: (url(n), cols, rows) for k, n, cols, rows in sheets},
                                url(back_name), size_mm)

    chunks = [faces[i:i + MAX_FACES_PER_SHEET] for i in range(0, len(faces), MAX_FACES_PER_SHEET)]
    used_keys: set[int] = set()
    keys = [sheet_key(source.name, [c.ref for c in chunk], used_keys) for chunk in chunks]

    # The saved object as it will be, with names of the same length as the drawn ones: checked
    # against the import's limits before anything is drawn.
    planned_cells: dict[str, int] = {}
    planned_sheets = []
    for n, (key, chunk) in enumerate(zip(keys, chunks, strict=True), start=1):
        planned_cells.update((card.ref, key * 100 + cell) for cell, card in enumerate(chunk))
        planned_sheets.append((key, f"{base}-faces-{n}-{'0' * 8}.png", *grid_for(len(chunk))))
    planned = _saved_text(document(planned_cells, planned_sheets, f"{base}-back-{'0' * 8}.png"))
    _check_export_text(source.name, planned)

    cell_of: dict[str, int] = {}
    unfit: list[Problem] = []  # every card that cannot be drawn, named at once, nothing written
    sheet_images: list[tuple[int, bytes, str, int, int]] = []  # each sheet as its PNG
    for n, (key, chunk) in enumerate(zip(keys, chunks, strict=True), start=1):
        cols, rows = grid_for(len(chunk))
        sheet = Image.new("RGB", (cols * cw, rows * ch), EMPTY_CELL)
        for cell, card in enumerate(chunk):
            fp = card_fingerprint(card, art_dir=art_dir)
            try:
                img = render_card(card, templates[(card.game, card.card_type)], options,
                                  fingerprint=fp)
            except (TextTooLong, StickerError) as exc:  # as print does: every such card named
                unfit.append(Problem("card-unfit", str(exc).removeprefix(card.ref + " "),
                                     where=card.ref))  # the reference shown once
                continue
            if img.size != (cw, ch):  # a template whose rounding differs: fitted to the cell
                img = img.resize((cw, ch), Image.Resampling.LANCZOS)
            r, c = divmod(cell, cols)
            sheet.paste(img, (c * cw, r * ch))
            cell_of[card.ref] = key * 100 + cell
        if unfit:  # no need to write a sheet that will not be used
            continue
        digest = hashlib.sha256(sheet.tobytes()).hexdigest()[:8]  # the name follows the pixels
        png = io.BytesIO()
        sheet.save(png, format="PNG", compress_level=3)
        del sheet  # one sheet's pixels in memory at a time
        sheet_images.append((key, png.getvalue(), f"{base}-faces-{n}-{digest}.png", cols, rows))
    if unfit:
        from cardbase.outputs.printing.sheets import UnfitCardsError

        raise UnfitCardsError(tr("tts.export.unfit", count=len(unfit), name=source.name), unfit)
    back_t = template_for(faces[0].game)
    back = render_back(back_t, REFERENCE_DPI)
    if back.size != (cw, ch):
        back = back.resize((cw, ch), Image.Resampling.LANCZOS)
    back_name = f"{base}-back-{hashlib.sha256(back.tobytes()).hexdigest()[:8]}.png"

    out = _out_dir(out)  # created only once every image is drawn
    doc = document(cell_of, [(k, n, cols, rows) for k, _, n, cols, rows in sheet_images], back_name)
    text = _saved_text(doc)
    if len(text) != len(planned):  # names of the same length: never happens, checked anyway
        _check_export_text(source.name, text)
    sheet_paths = []
    for _, data, name, _, _ in sheet_images:
        with atomic_file(out / name) as tmp:
            tmp.write_bytes(data)
        sheet_paths.append(out / name)
    with atomic_file(out / back_name) as tmp:
        back.save(tmp, format="PNG")
    obj = out / f"{base}.json"
    with atomic_file(obj) as tmp:
        tmp.write_text(text, encoding="utf-8")
    return ExportResult(source.name, obj, sheet_paths, out / back_name, len(source.cards),
                        len(faces), doc)


def _saved_text(doc: Mapping[str, Any]) -> str:
    return json.dumps(doc, ensure_ascii=False, indent=1) + "\n"


def _check_export_text(name: str, text: str) -> None:
    """Refuse a saved object that the import would refuse (every limit of :func:`_parse_saved`)."""
    label = Path(f"{slug(name)}.json")  # the file the export would write
    try:
        _walk(_top_objects(_parse_saved(text.encode("utf-8"), label), label), label)
    except TtsError as exc:
        raise TtsError(tr("tts.export.import_would_refuse", name=name, reason=str(exc))) from None


def export_zip(source: TtsSource, *, base_url: str | None = None, url_dir: Path | None = None,
               **options: Any) -> tuple[bytes, ExportResult]:
    """The same export as one zip (the saved object and the images in a folder named after the
    deck), for a download: ``url_dir`` is the folder the images will be unpacked to."""
    import io
    import tempfile
    import zipfile

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / slug(source.name)
        result = export_tts(source, folder, base_url=base_url, url_dir=url_dir, **options)
        buf = io.BytesIO()
        with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
            for path in [result.object, *result.sheets, result.back]:
                zf.write(path, f"{folder.name}/{path.name}")
    return buf.getvalue(), result


# --------------------------------------------------------------------------- import

MAX_UNKNOWN_SHARE = 0.5  # T9: a deck (or a file) with more unknown cards than this is not ours
FOLD_AFTER = 10  # the text output lists this many unknown names per deck and sheet, then a count


@dataclass(slots=True, frozen=True)
class Origin:
    """Where a card came from: its deck (or the loose cards), sheet key, cell, JSON path, and the
    number of the alternate state it is kept as (``None`` for the card itself)."""

    deck: str
    sheet: str
    cell: int | None
    where: str
    state: str | None = None

    def as_dict(self) -> dict[str, Any]:
        return {"deck": self.deck, "sheet": self.sheet, "cell": self.cell, "where": self.where,
                "state": self.state}


@dataclass(slots=True)
class ImportedEntry:
    card: CardDef
    count: int  # physical cards (alternate states not counted)
    matched_by: str  # "ref" or "name"
    origins: list[Origin] = field(default_factory=list)
    states: int = 0  # times the card is kept as another card's alternate state
    # references found in GMNotes that this database does not have (the card matched by name)
    unknown_refs: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return {"ref": self.card.ref, "name": self.card.name, "count": self.count,
                "matched_by": self.matched_by, "states": self.states,
                "unknown_refs": list(self.unknown_refs),
                "from": [o.as_dict() for o in self.origins]}


@dataclass(slots=True)
class ImportedDeck:
    name: str
    entries: list[ImportedEntry] = field(default_factory=list)
    shared_names: frozenset[str] = frozenset()  # folded names that several cards of the base share

    @property
    def count(self) -> int:
        return sum(e.count for e in self.entries)

    @property
    def game(self) -> str | None:
        games = {e.card.game for e in self.entries}
        return games.pop() if len(games) == 1 else None

    def deck_list(self) -> str:
        from cardbase.decks import format_deck_list

        # a name that another card shares would not read back to this card: its reference then
        pairs = [(e.card.ref if fold(e.card.name) in self.shared_names else e.card.name, e.count)
                 for e in self.entries if e.count]
        return format_deck_list(pairs, name=self.name, game=self.game)

    def as_dict(self) -> dict[str, Any]:
        return {"name": self.name, "game": self.game, "count": self.count,
                "cards": [e.as_dict() for e in self.entries]}


@dataclass(slots=True)
class UnknownCard:
    """Cards of one deck and sheet the database does not know, under one name (a nameless card is
    named by its deck, sheet and cell, never lumped with others)."""

    name: str
    deck: str
    sheet: str
    origins: list[Origin] = field(default_factory=list)
    named: bool = True

    @property
    def count(self) -> int:
        return len(self.origins)

    def as_dict(self) -> dict[str, Any]:
        return {"name": self.name, "count": self.count, "deck": self.deck, "sheet": self.sheet,
                "named": self.named, "cells": sorted({o.cell for o in self.origins if o.cell is not None}),
                "from": [o.as_dict() for o in self.origins]}


@dataclass(slots=True)
class ImportResult:
    decks: list[ImportedDeck]
    by_name: list[tuple[str, str]]  # (name in the file, ref matched)
    unknown: list[UnknownCard]
    problems: list[str]
    found_decks: int = 0  # decks and loose-card groups met in the file
    dropped: list[str] = field(default_factory=list)  # decks mostly unknown: not taken as decks

    @property
    def cards(self) -> int:
        return sum(d.count for d in self.decks)

    def counts(self) -> dict[str, int]:
        entries = [e for d in self.decks for e in d.entries]
        return {"decks": self.found_decks, "decks_kept": len(self.decks),
                "matched_by_ref": sum(e.count + e.states for e in entries if e.matched_by == "ref"),
                "matched_by_name": sum(e.count + e.states for e in entries if e.matched_by == "name"),
                "unknown": sum(u.count for u in self.unknown),
                "states": sum(e.states for e in entries)}

    def verdict(self) -> tuple[int, str | None]:
        """0 every card matched; 1 some unknown (a partial deck); 2 not a deck of this database:
        nothing matched, or more than :data:`MAX_UNKNOWN_SHARE` of the cards unknown."""
        c = self.counts()
        matched = c["matched_by_ref"] + c["matched_by_name"]
        total = matched + c["unknown"]
        if total == 0:
            return 2, "no_cards"
        if self.dropped and not self.decks:
            return 2, "mostly_unknown"
        if matched == 0 or self.cards == 0:  # a card kept only as another's state is no deck
            return 2, "nothing"
        if c["unknown"] > MAX_UNKNOWN_SHARE * total:
            return 2, "mostly_unknown"
        if c["unknown"]:
            return 1, "partial"
        return 0, None

    def as_dict(self) -> dict[str, Any]:
        code, reason = self.verdict()
        return {"status": {0: "ok", 1: "partial", 2: "refused"}[code], "exit_code": code,
                "reason": reason, "summary": self.counts(),
                "decks": [d.as_dict() for d in self.decks], "cards": self.cards,
                "matched_by_name": [{"name": n, "ref": r} for n, r in self.by_name],
                "unknown": [u.as_dict() for u in self.unknown],
                "not_decks": list(self.dropped), "problems": list(self.problems)}


def _load_json(path: Path) -> Any:
    from cardbase.bounded_io import read_bounded

    path = Path(path)
    return _parse_saved(read_bounded(path, MAX_IMPORT_BYTES, TtsError, "tts.import"), path)


def _parse_saved(raw: bytes, path: Path) -> Any:
    """A saved object's bytes as JSON, within the size, value-count and depth limits, checked on
    the text before json.loads builds anything."""
    from cardbase.bounded_io import json_shape

    if len(raw) > MAX_IMPORT_BYTES:
        raise TtsError(tr("tts.import.too_big", path=str(path),
                          max=f"{MAX_IMPORT_BYTES / (1024 * 1024):g}"))
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise TtsError(tr("tts.import.not_utf8", path=str(path), position=exc.start)) from None
    over = json_shape(text, MAX_JSON_VALUES, MAX_JSON_DEPTH)
    if over is not None and over[0] == "values":
        raise TtsError(tr("tts.import.too_many_values", path=str(path), max=MAX_JSON_VALUES))
    if over is not None:
        raise TtsError(tr("tts.import.too_deep_json", path=str(path), max=MAX_JSON_DEPTH))
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise TtsError(tr("tts.import.not_json", path=str(path), line=exc.lineno, column=exc.colno,
                          reason=exc.msg)) from None
    except RecursionError:  # pragma: no cover - the depth is checked above
        raise TtsError(tr("tts.import.too_deep", path=str(path), max=MAX_DEPTH)) from None
    except ValueError as exc:  # e.g. a number too long to convert
        raise TtsError(tr("tts.import.not_json", path=str(path), line="?", column="?",
                          reason=str(exc))) from None


def _top_objects(data: Any, path: Path) -> list[Any]:
    if isinstance(data, dict) and "ObjectStates" in data:
        states = data["ObjectStates"]
        if not isinstance(states, list):
            raise TtsError(tr("tts.import.bad_states", path=str(path), kind=type(states).__name__))
        return states
    if isinstance(data, dict) and "Name" in data:  # one object on its own
        return [data]
    if isinstance(data, list):
        return data
    raise TtsError(tr("tts.import.not_saved_object", path=str(path)))


def _shown_text(value: str) -> str:
    """Text read from a saved object as it may be shown: a lone surrogate (JSON allows
    ``"\\ud800"``, no output can encode it) and control characters (a terminal would obey an
    escape sequence in a stranger's deck name) become U+FFFD; tabs and line breaks a space."""
    if value.isprintable():
        return value
    out = []
    for ch in value:
        if ch in "\t\n\r":
            out.append(" ")
        elif ch.isprintable() or ch == "\u200d" or unicodedata.category(ch) == "Zs":
            out.append(ch)  # a space of any width, the joiner inside an emoji
        else:  # controls, surrogates, bidi overrides, unassigned, line separators
            out.append("\ufffd")
    return "".join(out)


def _text(value: Any) -> str | None:
    if not isinstance(value, str):
        return None
    value = _shown_text(value).strip()
    return value or None


def _sheet_cell(card_id: Any) -> tuple[str, int | None]:
    """The sheet key (as text) and cell of a card's ``CardID`` ("?" and None when it has none)."""
    if isinstance(card_id, int) and not isinstance(card_id, bool) and card_id >= 0:
        key, cell = card_index(card_id)
        return str(key), cell
    if isinstance(card_id, str) and card_id.strip().isdigit() and len(card_id.strip()) <= 12:
        key, cell = card_index(int(card_id.strip()))
        return str(key), cell
    return "?", None


Group = tuple[str, list[tuple[dict[str, Any], Origin]]]


def _walk(objects: list[Any], path: Path) -> tuple[list[Group], list[str]]:
    """The groups of cards (decks, then loose cards) of a saved object's objects with where each
    card came from, and the problems met, within the object-count and depth limits.

    As the game does: a ``Card`` in a deck's ``ContainedObjects`` belongs to that deck; a deck
    with no ``ContainedObjects`` (older saves) holds the cards of its ``DeckIDs``; the ``States``
    of any object are other objects kept in its place, read like it; bags, boxes and other
    containers hold decks and cards that count on their own."""
    problems: list[str] = []
    groups: list[Group] = []
    loose: list[tuple[dict[str, Any], Origin]] = []
    loose_label = tr("tts.import.loose")
    labels = {loose_label}
    seen = 0
    stack: list[tuple[Any, int, int | None, str, str | None]] = [
        (o, 1, None, f"ObjectStates[{i}]", None) for i, o in reversed(list(enumerate(objects)))]
    while stack:
        obj, depth, group, where, state = stack.pop()
        seen += 1
        if seen > MAX_OBJECTS:
            raise TtsError(tr("tts.import.too_many", path=str(path), max=MAX_OBJECTS))
        if depth > MAX_DEPTH:
            raise TtsError(tr("tts.import.too_deep", path=str(path), max=MAX_DEPTH))
        if not isinstance(obj, dict):
            problems.append(tr("tts.import.not_object", where=where, kind=type(obj).__name__))
            continue
        kind = obj.get("Name")
        contained = obj.get("ContainedObjects")
        if contained is not None and not isinstance(contained, list):
            problems.append(tr("tts.import.bad_contained", where=where,
                               kind=type(contained).__name__))
            contained = None
        states = obj.get("States")
        if states is not None and not isinstance(states, dict):
            problems.append(tr("tts.import.bad_states_field", where=where,
                               kind=type(states).__name__))
            states = None
        for k in sorted(states or {}, key=lambda k: (len(str(k)), str(k)), reverse=True):
            key = _shown_text(str(k)[:20])
            # T8: what a state holds (a deck kept as a state, its cards) is a state too
            stack.append((states[k], depth + 1, group, f"{where}.States[{key}]", key))
        if kind in CARD_NAMES:
            label = groups[group][0] if group is not None else loose_label
            sheet, cell = _sheet_cell(obj.get("CardID"))
            target = groups[group][1] if group is not None else loose
            target.append((obj, Origin(label, sheet, cell, where, state)))
            continue
        if kind in DECK_NAMES:
            label = (_text(obj.get("Nickname")) or tr("tts.import.deck_n", n=len(groups) + 1))[:200]
            if label in labels:  # two decks of one name: told apart, never lumped (T10)
                label = next(tr("tts.import.deck_again", deck=label, n=n)
                             for n in range(2, len(groups) + 3)
                             if tr("tts.import.deck_again", deck=label, n=n) not in labels)
            labels.add(label)
            groups.append((label, []))
            inner: int | None = len(groups) - 1
            ids = obj.get("DeckIDs")
            if contained is None and isinstance(ids, list):  # an older save: the IDs alone
                if len(ids) + seen > MAX_OBJECTS:
                    raise TtsError(tr("tts.import.too_many", path=str(path), max=MAX_OBJECTS))
                contained = [{"Name": "Card", "CardID": cid} for cid in ids]
                where_of = f"{where}.DeckIDs"
            else:
                where_of = f"{where}.ContainedObjects"
        else:
            inner = None  # a bag, a box…: its decks and cards count on their own
            where_of = f"{where}.ContainedObjects"
        for i, child in reversed(list(enumerate(contained or []))):
            stack.append((child, depth + 1, inner, f"{where_of}[{i}]", state))
    if loose:
        groups.append((loose_label, loose))
    return groups, problems


def _gm_ref(obj: Mapping[str, Any]) -> str | None:
    """The cardbase reference in a card's GMNotes, or None (a script's JSON is no reference)."""
    notes = _text(obj.get("GMNotes"))
    parsed = parse_card_ref(notes) if notes and len(notes) <= 40 else None
    return card_ref(*parsed) if parsed is not None else None


def _deck_game(cards: Sequence[tuple[dict[str, Any], Origin]], by_ref: Mapping[str, CardDef],
               by_name: Mapping[str, list[CardDef]]) -> str | None:
    """Ruling T11: the game a deck is of — the one game of the cards its GMNotes references name,
    else the game of more than half of the names that exist in one game only — or None (mixed,
    or nothing known). Its names are then looked for among that game's cards only."""
    from collections import Counter

    ref_games: Counter[str] = Counter()
    name_games: Counter[str] = Counter()
    for obj, _ in cards:
        ref = _gm_ref(obj)
        known = by_ref.get(ref) if ref is not None else None
        if known is not None:
            ref_games[known.game] += 1
            continue
        nick = _text(obj.get("Nickname"))
        if nick is not None and len(nick) <= 200:
            games = {c.game for c in by_name.get(fold(nick), [])}
            if len(games) == 1:
                name_games[games.pop()] += 1
    if ref_games:
        return next(iter(ref_games)) if len(ref_games) == 1 else None
    if not name_games:
        return None
    game, n = name_games.most_common(1)[0]
    return game if n > sum(name_games.values()) / 2 else None


def scan_saved_object(session: Any, path: Path) -> ImportResult:
    """Every card of a saved object matched to the database, with where it came from; raises
    only when the file cannot be read as a saved object (see :meth:`ImportResult.verdict`)."""
    from cardbase.catalog import cards as catalog

    path = Path(path)
    groups, problems = _walk(_top_objects(_load_json(path), path), path)

    defs = catalog.card_defs(session)
    by_ref = {c.ref: c for c in defs}
    by_name: dict[str, list[CardDef]] = {}
    for c in defs:
        by_name.setdefault(fold(c.name), []).append(c)
    matched_by_name: dict[str, str] = {}
    unknown: list[UnknownCard] = []
    result_decks: list[ImportedDeck] = []
    dropped: list[str] = []
    shared = frozenset(k for k, v in by_name.items() if len(v) > 1)
    for name, cards in groups:
        deck = ImportedDeck(name, shared_names=shared)
        deck_game = _deck_game(cards, by_ref, by_name)
        index: dict[str, ImportedEntry] = {}
        lost: dict[tuple[str, str], UnknownCard] = {}
        names_here: dict[str, str] = {}
        for obj, origin in cards:
            notes, nick = _text(obj.get("GMNotes")), _text(obj.get("Nickname"))
            card, how, ref_text = None, "ref", None
            # GMNotes is a cardbase ref or nothing: a script's JSON there is not a name
            parsed = parse_card_ref(notes) if notes and len(notes) <= 40 else None
            if parsed is not None:
                ref_text = card_ref(*parsed)
                card = by_ref.get(ref_text)
            if card is None and nick is not None and len(nick) <= 200:
                found = by_name.get(fold(nick), [])
                if deck_game is not None:  # T11: a namesake in another game is not this card
                    found = [c for c in found if c.game == deck_game]
                if len(found) == 1:
                    card, how = found[0], "name"
                    names_here[nick] = card.ref
            if card is None:
                named = nick is not None or ref_text is not None
                if named:
                    label = (nick or ref_text or "")[:200]
                elif origin.cell is not None:
                    label = tr("tts.import.nameless", deck=origin.deck, sheet=origin.sheet,
                               cell=origin.cell)
                else:  # no usable CardID: its place in the file tells it apart (T10)
                    label = tr("tts.import.nameless_at", deck=origin.deck, where=origin.where)
                key = (origin.sheet, label)
                u = lost.get(key)
                if u is None:
                    u = lost[key] = UnknownCard(label, origin.deck, origin.sheet, named=named)
                u.origins.append(origin)
                continue
            entry = index.get(card.ref)
            if entry is None:
                entry = index[card.ref] = ImportedEntry(card, 0, how)
                deck.entries.append(entry)
            if how == "ref":
                entry.matched_by = "ref"  # one copy carried its reference: the deck knows it
            elif ref_text is not None and ref_text not in entry.unknown_refs:
                entry.unknown_refs.append(ref_text)  # another database's numbering, say so
            entry.origins.append(origin)
            if origin.state is None:  # T8: a card kept as a state is read, not a copy
                entry.count += 1
            else:
                entry.states += 1
        matched = sum(e.count + e.states for e in deck.entries)
        missing = sum(u.count for u in lost.values())
        if deck.entries and missing > MAX_UNKNOWN_SHARE * (matched + missing):
            # mostly unknown: another game's deck where a name happens to exist; its matches are
            # reported as unknown with the rest, not taken as a deck
            dropped.append(name)
            for e in deck.entries:
                u = UnknownCard(e.card.name, name, e.origins[0].sheet, list(e.origins))
                lost[(u.sheet, f"\0{e.card.ref}")] = u
            deck.entries = []
        else:
            matched_by_name.update(names_here)
        sheets_seen = {o.sheet: i for i, (_, o) in reversed(list(enumerate(cards)))}
        unknown.extend(sorted(lost.values(), key=lambda u: (
            sheets_seen.get(u.sheet, 0), min((o.cell for o in u.origins if o.cell is not None),
                                             default=10**6), u.name)))
        if deck.entries:
            result_decks.append(deck)
    return ImportResult(result_decks, sorted(matched_by_name.items()), unknown, problems,
                        found_decks=len(groups), dropped=dropped)


def refusal(result: ImportResult, path: Path) -> TtsError | None:
    """The error that refuses ``result`` as a deck (exit code 2), or None."""
    code, reason = result.verdict()
    if code != 2:
        return None
    bad = [Problem("bad-object", p) for p in result.problems]  # every one, never cut
    if reason == "no_cards":
        return TtsError(tr("tts.import.no_cards", path=str(path)), bad)
    c = result.counts()
    total = c["unknown"] + c["matched_by_ref"] + c["matched_by_name"]
    if reason == "nothing":
        found = [Problem("unknown-card", tr("tts.import.unknown_line", name=u.name, count=u.count))
                 for u in result.unknown]
        return TtsError(tr("tts.import.nothing", path=str(path), total=total), found + bad)
    return TtsError(tr("tts.import.mostly_unknown", path=str(path), unknown=c["unknown"],
                       total=total, share=f"{MAX_UNKNOWN_SHARE:.0%}".replace("%", " %")))


def read_saved_object(session: Any, path: Path) -> ImportResult:
    """:func:`scan_saved_object`, refusing a file that is not a deck of this database."""
    result = scan_saved_object(session, path)
    error = refusal(result, Path(path))
    if error is not None:
        raise error
    return result
