"""Print-ready files: home sheets (A4 / Letter, crop marks, duplex backs), print-shop PNGs and PDF,
proof contact sheets, and the manifest that lets a later print skip unchanged cards.
"""

from __future__ import annotations

import datetime as dt
import gc
import io
import itertools
import json
import math
import os
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from PIL import Image, ImageDraw

from cardbase.domain import CardDef
from cardbase.errors import CardbaseError, Problem, StickerError, TemplateError
from cardbase.i18n import tr
from cardbase.outputs.printing.card import RenderOptions, render_back, render_card
from cardbase.outputs.printing.fingerprint import card_fingerprint
from cardbase.outputs.printing.fonts import get_font
from cardbase.outputs.printing.output import atomic_dir, atomic_file, check_target
from cardbase.outputs.printing.pdf import PdfWriter, encode_jpeg, line, place_image
from cardbase.outputs.printing.templates import Template, load_template, template_for
from cardbase.outputs.printing.textfit import TextTooLong
from cardbase.outputs.printing.units import mm_to_pt, mm_to_px

if TYPE_CHECKING:
    from cardbase.outputs.printing.presets import Preset

PAPERS_MM: dict[str, tuple[float, float]] = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
MODES = ("home", "shop", "proof")
MIN_MARGIN_MM = 6.0  # room for crop marks around the grid
CROP_GAP_MM = 1.0
CROP_LEN_MM = 5.0
MANIFEST_FORMAT = "cardbase-print-manifest"
MAX_MANIFEST_BYTES = 64 * 1024 * 1024  # far above any edition's manifest
MAX_PROOF_PIXELS = 100_000_000  # a proof sheet: 1,000 poker cards fit, a 300 MB image at most
MAX_MANIFEST_VALUES = 4_000_000  # about ten a card, counted before json.loads
MAX_MANIFEST_DEPTH = 10  # a manifest nests three levels
MAX_BACK_OFFSET_MM = 20.0
MAX_WORKERS = 64
PARALLEL_FROM = 24  # distinct cards: below this, starting worker processes costs more than it saves


class PrintError(CardbaseError):
    """A print request that cannot be carried out as asked."""


class UnfitCardsError(PrintError, TemplateError):
    """Cards that cannot be drawn (a text too long for its template, a value without a sticker
    code), every one named; nothing was written."""


@dataclass(slots=True)
class PrintResult:
    out: Path
    mode: str
    pages: int = 0
    cards: int = 0  # card faces placed (copies count)
    unique_cards: int = 0
    skipped: int = 0  # unchanged since the previous print
    files: list[Path] = field(default_factory=list)
    manifest: Path | None = None
    nothing_changed: bool = False  # a ``changed_since`` print found nothing to print: no file
    notes: list[str] = field(default_factory=list)  # e.g. a card scaled to fit a shop preset
    left_out: list[dict[str, str]] = field(default_factory=list)  # --skip-unfit: ref, name, reason


@dataclass(slots=True, frozen=True)
class SheetLayout:
    paper_mm: tuple[float, float]
    card_mm: tuple[float, float]
    cols: int
    rows: int
    origin_mm: tuple[float, float]  # top-left of the grid, from the page's top-left

    @property
    def per_page(self) -> int:
        return self.cols * self.rows

    def slot_mm(self, index: int, *, mirrored: bool = False) -> tuple[float, float]:
        """Top-left of slot ``index`` (row-major), mirrored left↔right for duplex backs."""
        row, col = divmod(index, self.cols)
        if mirrored:
            col = self.cols - 1 - col
        return (self.origin_mm[0] + col * self.card_mm[0], self.origin_mm[1] + row * self.card_mm[1])


def sheet_layout(paper: str, card_mm: tuple[float, float]) -> SheetLayout:
    """As many cards as fit with a crop-mark margin, the grid centred (3×3 poker on A4/Letter)."""
    key = paper.lower()
    if key not in PAPERS_MM:
        raise PrintError(tr("printing.bad_paper", paper=paper, papers=", ".join(PAPERS_MM)))
    pw, ph = PAPERS_MM[key]
    cw, ch = card_mm
    cols = int((pw - 2 * MIN_MARGIN_MM) // cw)
    rows = int((ph - 2 * MIN_MARGIN_MM) // ch)
    if cols < 1 or rows < 1:
        raise PrintError(tr("printing.card_too_big", width=f"{cw:g}", height=f"{ch:g}",
                            paper=paper))
    return SheetLayout((pw, ph), card_mm, cols, rows,
                       ((pw - cols * cw) / 2, (ph - rows * ch) / 2))


def crop_marks(layout: SheetLayout) -> str:
    """Vector cut lines in the margins, in line with every card edge (PDF coordinates)."""
    ph = layout.paper_mm[1]
    (x0, y0), (cw, ch) = layout.origin_mm, layout.card_mm
    x1, y1 = x0 + layout.cols * cw, y0 + layout.rows * ch
    ops = ["q 0 G 0.3 w\n"]
    top_len = min(CROP_LEN_MM, y0 - CROP_GAP_MM - 0.5)
    side_len = min(CROP_LEN_MM, x0 - CROP_GAP_MM - 0.5)

    def P(x: float, y: float) -> tuple[float, float]:
        return mm_to_pt(x), mm_to_pt(ph - y)

    for i in range(layout.cols + 1):
        x = x0 + i * cw
        for ya, yb in ((y0 - CROP_GAP_MM, y0 - CROP_GAP_MM - top_len),
                       (y1 + CROP_GAP_MM, y1 + CROP_GAP_MM + top_len)):
            ops.append(line(*P(x, ya), *P(x, yb)))
    for j in range(layout.rows + 1):
        y = y0 + j * ch
        for xa, xb in ((x0 - CROP_GAP_MM, x0 - CROP_GAP_MM - side_len),
                       (x1 + CROP_GAP_MM, x1 + CROP_GAP_MM + side_len)):
            ops.append(line(*P(xa, y), *P(xb, y)))
    ops.append("Q\n")
    return "".join(ops)


# --------------------------------------------------------------------------- manifest

def manifest_path(out: Path) -> Path:
    return out.with_name(out.stem + ".manifest.json")


def read_manifest(path: Path) -> dict[str, str]:
    """Fingerprints by card reference from a previous print (its manifest or its PDF)."""
    path = Path(path)
    if path.suffix.lower() != ".json":
        path = manifest_path(path)
    from cardbase.bounded_io import json_shape, read_bounded

    # at most the limit is read, and a named pipe or a device is refused without waiting on it
    raw = read_bounded(path, MAX_MANIFEST_BYTES, PrintError, "files.manifest")
    try:
        text = raw.decode("utf-8")
        if json_shape(text, MAX_MANIFEST_VALUES, MAX_MANIFEST_DEPTH) is not None:
            raise PrintError(tr("files.manifest.too_many", path=str(path), max=MAX_MANIFEST_VALUES,
                                depth=MAX_MANIFEST_DEPTH))
        data = json.loads(text)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise PrintError(tr("printing.manifest.bad", path=str(path), reason=str(exc))) from None
    if not isinstance(data, dict) or data.get("format") != MANIFEST_FORMAT:
        raise PrintError(tr("printing.manifest.not_ours", path=str(path)))
    cards = data.get("cards", [])
    if not isinstance(cards, list) or not all(
            isinstance(c, dict) and isinstance(c.get("ref"), str)
            and isinstance(c.get("fingerprint"), str) for c in cards):
        raise PrintError(tr("printing.manifest.not_ours", path=str(path)))
    return {c["ref"]: c["fingerprint"] for c in cards}


def _write_manifest(path: Path, result: PrintResult, entries: dict[str, dict], **info: object) -> None:
    doc = {
        "format": MANIFEST_FORMAT, "version": 1,
        "created": dt.datetime.now(dt.UTC).replace(microsecond=0).isoformat(),
        "mode": result.mode, **info, "pages": result.pages,
        "cards": sorted(entries.values(), key=lambda e: e["ref"]),
    }
    path.write_text(json.dumps(doc, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


# --------------------------------------------------------------------------- the print service

@dataclass(slots=True)
class _Ctx:
    options: RenderOptions
    templates_dir: Path | None
    template_name: str | None
    _templates: dict[tuple[str, str | None], Template] = field(default_factory=dict)
    skip_unfit: bool = False
    unfit: dict[str, tuple[CardDef, str]] = field(default_factory=dict)  # fingerprint → card, why

    def drawn(self, card: CardDef, fp: str, draw, *args, **kwargs):
        """``draw(*args, **kwargs)``, or None when the card cannot be drawn (a text that does not fit at the
        template's minimum size, a value without sticker code): the card is noted, the print goes
        on, and ``check_unfit`` then names every such card at once."""
        if fp in self.unfit:
            return None
        try:
            return draw(*args, **kwargs)
        except (TextTooLong, StickerError) as exc:
            self.unfit[fp] = (card, str(exc))
            return None

    def check_unfit(self, result: PrintResult) -> None:
        """Raise one error naming every card that could not be drawn (nothing is written), or
        with ``skip_unfit`` record them in ``result.left_out``."""
        if not self.unfit:
            return
        cards = list(self.unfit.values())
        if not self.skip_unfit:
            # the reason names the card and says how to fix its text: its reference shown once
            problems = [Problem("card-unfit", why.removeprefix(card.ref + " "),
                                tr("richtext.print_unfit_fix"), card.ref)
                        for card, why in cards]
            raise UnfitCardsError(tr("richtext.print_unfit", count=len(cards)), problems)
        result.left_out = [{"ref": card.ref, "name": card.name, "reason": why}
                           for card, why in cards]

    def template(self, card: CardDef) -> Template:
        key = (card.game, card.card_type)
        t = self._templates.get(key)
        if t is None:
            t = (load_template(self.template_name, self.templates_dir) if self.template_name
                 else template_for(card.game, card.card_type, self.templates_dir))
            self._templates[key] = t
        return t


def _select(cards: Iterable[CardDef], previous: dict[str, str] | None, ctx: _Ctx,
            entries: dict[str, dict], result: PrintResult) -> Iterator[tuple[CardDef, str]]:
    for card in cards:
        fp = card_fingerprint(card, art_dir=ctx.options.art_dir)
        entry = entries.get(card.ref)
        if entry is None:
            changed = previous is None or previous.get(card.ref) != fp
            entry = {"ref": card.ref, "name": card.name, "fingerprint": fp, "count": 0,
                     "printed": changed}
            entries[card.ref] = entry
            if not changed:
                result.skipped += 1
        entry["count"] += 1
        if entry["printed"]:
            yield card, fp


# --------------------------------------------------------------------------- drawing on every core

def default_workers(cards: int) -> int:
    """One process for a small print, else one per core this process may use."""
    if cards < PARALLEL_FROM:
        return 1
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cores = os.cpu_count() or 1
    return max(1, min(cores, MAX_WORKERS))


def check_workers(workers: int | None) -> None:
    if workers is not None and not 1 <= workers <= MAX_WORKERS:
        raise PrintError(tr("cores.bad_workers", workers=workers, max=MAX_WORKERS))


_WORKER_CTX: _Ctx | None = None  # in a worker process: its options and its loaded templates


def _print_state() -> tuple[str, dict, dict]:
    """What a card's drawing reads besides its arguments: the language of the printed words and
    the catalog's tables of game templates and field labels (filled when the cards were read)."""
    from cardbase.catalog.printinfo import GAME_TEMPLATES, STAT_LABELS
    from cardbase.i18n import current_language

    return current_language(), dict(GAME_TEMPLATES), dict(STAT_LABELS)


def _worker_start(options: RenderOptions, templates_dir: Path | None, template: str | None,
                  state: tuple[str, dict, dict]) -> None:
    """A worker's start: its context, and this process's printing state (a started — not
    forked — worker has none of it)."""
    global _WORKER_CTX
    from cardbase.catalog.printinfo import GAME_TEMPLATES, STAT_LABELS
    from cardbase.i18n import set_language

    language, templates, labels = state
    set_language(language)
    GAME_TEMPLATES.clear()
    GAME_TEMPLATES.update(templates)
    STAT_LABELS.clear()
    STAT_LABELS.update(labels)
    _WORKER_CTX = _Ctx(options, templates_dir, template)


def _draw_encoded(ctx: _Ctx, card: CardDef, fp: str) -> tuple[bytes, int, int] | str:
    """The card's face as the PDF's JPEG bytes, or why it cannot be drawn."""
    try:
        img = render_card(card, ctx.template(card), ctx.options, fingerprint=fp)
    except (TextTooLong, StickerError) as exc:
        return str(exc)
    return encode_jpeg(img)


def _worker_draw(card: CardDef, fp: str) -> tuple[bytes, int, int] | str:
    assert _WORKER_CTX is not None
    return _draw_encoded(_WORKER_CTX, card, fp)


def _may_fork() -> bool:
    """Whether worker processes may be forked: where the system can, from a process that runs no
    other thread (a forked copy of a running thread's locks can hang the worker — the app's
    server runs threads; its workers are started afresh)."""
    import multiprocessing
    import threading

    return "fork" in multiprocessing.get_all_start_methods() and threading.active_count() == 1


class _Ready:
    """A result computed in this process, used where a worker's future would be."""

    __slots__ = ("value",)

    def __init__(self, value: object) -> None:
        self.value = value

    def done(self) -> bool:
        return True

    def result(self) -> object:
        return self.value


class _Drawer:
    """Draws card faces (and encodes them) in ``workers`` processes, handing them back in the
    order they were asked for: this process and ``workers - 1`` worker processes, forked once it
    has drawn the first card. This process draws a card itself whenever the workers already have
    enough cards waiting (two each), so that every process stays busy and half the pictures never
    travel between processes. Each process loads each template, font, art and sticker glyph once
    (the module caches live per process)."""

    def __init__(self, ctx: _Ctx, workers: int) -> None:
        self.ctx = ctx
        self.workers = workers
        self.pool = None
        self.warm = False
        self.frozen = False
        self.ahead = 2 * (workers - 1)  # cards waiting in the workers
        self.sent: deque = deque()  # the workers' futures, oldest first
        self.window = 1 if workers == 1 else 4 * workers  # asked ahead: memory stays flat

    def _start(self) -> None:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        # forked workers inherit what the first card loaded here (modules, fonts, templates,
        # the card frame): each process would otherwise pay for it again
        method = "fork" if _may_fork() else "spawn"
        if method == "fork":
            # what this process holds is frozen for the garbage collector while the workers are
            # forked: their collections never walk (and so never copy) the memory they share
            # with this process, and this one's skip it until the print ends
            gc.freeze()
            self.frozen = True
        self.pool = ProcessPoolExecutor(
            max_workers=self.workers - 1, mp_context=multiprocessing.get_context(method),
            initializer=_worker_start,
            initargs=(self.ctx.options, self.ctx.templates_dir, self.ctx.template_name,
                      _print_state()))

    def submit(self, card: CardDef, fp: str):
        if self.workers == 1 or not self.warm:  # the first card (or every card): drawn here
            self.warm = True
            return _Ready(_draw_encoded(self.ctx, card, fp))
        if self.pool is None:
            self._start()
        while self.sent and self.sent[0].done():
            self.sent.popleft()
        if sum(not f.done() for f in self.sent) >= self.ahead:  # workers busy: drawn here
            return _Ready(_draw_encoded(self.ctx, card, fp))
        future = self.pool.submit(_worker_draw, card, fp)
        self.sent.append(future)
        return future
    def result(self, future, card: CardDef, fp: str) -> tuple[bytes, int, int] | str:
        try:
            return future.result()
        except Exception:  # drawn again here, so that the real error is raised as it is
            return _draw_encoded(self.ctx, card, fp)

    def close(self) -> None:
        if self.pool is not None:
            self.pool.shutdown(wait=True, cancel_futures=True)
        if self.frozen:
            gc.unfreeze()
            self.frozen = False


def print_cards(cards: Iterable[CardDef], out: Path, *, mode: str = "home", paper: str = "a4",
                dpi: int = 300, backs: bool = False, back_offset_mm: tuple[float, float] = (0.0, 0.0),
                stickers: bool = True, sticker_table: Mapping[str, str] | None = None,
                changed_since: Path | None = None, templates_dir: Path | None = None,
                template: str | None = None, art_dir: Path | None = None,
                edition_symbols: Mapping[str, str] | None = None, preset: str | None = None,
                proof_overlay: bool = False, simulate: str | None = None,
                skip_unfit: bool = False, workers: int | None = None,
                progress: Callable[[int], None] | None = None) -> PrintResult:
    """Print ``cards`` (each as many times as it appears) to ``out``.

    ``home``: A4/Letter sheets with crop marks, optional duplex backs (x/y offset in mm, as seen
    on the back page: + moves right and down). ``shop``: one PNG per card with bleed in
    ``<out stem>-png/`` and a PDF of the same at the card's size plus bleed. ``proof``: a contact
    sheet at screen resolution, as a PNG or (``out`` a .pdf) on one PDF page. A manifest of
    fingerprints is written next to ``out``.

    Every file is written beside its target under a temporary name and moved into place only
    when the whole print has succeeded: a failed print leaves the previous files as they were.
    When ``changed_since`` leaves nothing to print, no file is written
    (``result.nothing_changed``).

    ``preset`` (a print-shop preset, see ``cardbase.outputs.printing.presets``): in ``shop`` mode every
    face and back is a PNG on exactly the preset's canvas, named ``front-001-<ref>.png`` /
    ``back-001-<ref>.png`` so that fronts and backs pair up in upload order; in ``proof`` mode the
    cards are shown on that canvas. ``proof_overlay`` (proof only) draws the trim and safe lines;
    ``simulate`` (proof only) shows the sheet as a player with that colour deficiency sees it.

    A card that cannot be drawn (its text does not fit at the template's minimum size, its value
    has no sticker code) does not stop the print at once: every such card is named in one error
    and nothing is written; with ``skip_unfit`` the others are printed and the cards left out are
    in ``result.left_out``.

    ``workers`` (home sheets): processes drawing the cards at once, the file the same byte for
    byte whatever their number; ``None`` is one per core, or one for a small print.
    ``progress(done)`` is called as cards are done (drawn, or placed again; copies count), in
    every mode: ``done`` runs from 1 to the number of cards printed.
    """
    out = Path(out)
    check_workers(workers)
    if mode not in MODES:
        raise PrintError(tr("printing.bad_mode", mode=mode, modes=", ".join(MODES)))
    if not 72 <= dpi <= 1200:
        raise PrintError(tr("printing.bad_dpi", dpi=dpi))
    if paper.lower() not in PAPERS_MM:
        raise PrintError(tr("printing.bad_paper", paper=paper, papers=", ".join(PAPERS_MM)))
    for value in back_offset_mm:
        if not (math.isfinite(value) and abs(value) <= MAX_BACK_OFFSET_MM):
            raise PrintError(tr("printing.bad_offset", value=value, max=MAX_BACK_OFFSET_MM))
    shop_preset = None
    if preset is not None:
        if mode == "home":
            raise PrintError(tr("shop.print.preset_home"))
        from cardbase.outputs.printing.presets import get_preset

        shop_preset = get_preset(preset)
    if proof_overlay and mode != "proof":
        raise PrintError(tr("shop.print.overlay_not_proof", mode=mode))
    if simulate is not None:
        if mode != "proof":
            raise PrintError(tr("shop.print.simulate_not_proof", mode=mode))
        from cardbase.outputs.printing.colourblind import check_deficiency

        simulate = check_deficiency(simulate)
    check_target(out, (".png", ".pdf") if mode == "proof" else (".pdf",))
    previous = read_manifest(changed_since) if changed_since else None
    ctx = _Ctx(RenderOptions(dpi=dpi, bleed=(mode == "shop"), stickers=stickers,
                             sticker_table=sticker_table, art_dir=art_dir,
                             edition_symbols=edition_symbols), templates_dir, template,
               skip_unfit=skip_unfit)
    if template:
        load_template(template, templates_dir)  # a template that cannot load fails before any work
    result = PrintResult(out=out, mode=mode)
    entries: dict[str, dict] = {}
    chosen = _select(cards, previous, ctx, entries, result)
    first = next(chosen, None)  # cards are still pulled one by one, as pages are made
    if first is None and previous is not None:
        result.nothing_changed = True  # nothing written
        return result
    selected = itertools.chain([first] if first is not None else [], chosen)
    manifest = manifest_path(out)
    with atomic_file(manifest) as manifest_tmp:
        if mode == "home":
            _home(selected, out, ctx, result, paper=paper.lower(), backs=backs,
                  offset=back_offset_mm, workers=workers, progress=progress)
        elif mode == "shop" and shop_preset is not None:
            _shop_preset(selected, out, ctx, result, shop_preset, backs=backs, progress=progress)
        elif mode == "shop":
            _shop(selected, out, ctx, result, backs=backs, progress=progress)
        else:
            _proof(selected, out, ctx, result, preset=shop_preset, overlay=proof_overlay,
                   simulate=simulate, progress=progress)
        for gone in result.left_out:  # not printed: a later --changed-since prints them again
            entries[gone["ref"]].update(printed=False, left_out=True)
        result.unique_cards = sum(1 for e in entries.values() if e["printed"])
        extra = {"preset": shop_preset.name} if shop_preset is not None else {}
        _write_manifest(manifest_tmp, result, entries, paper=paper.lower(), dpi=dpi,
                        stickers=stickers, backs=backs, **extra)
    result.manifest = manifest
    return result


def _home(selected: Iterator[tuple[CardDef, str]], out: Path, ctx: _Ctx, result: PrintResult, *,
          paper: str, backs: bool, offset: tuple[float, float], workers: int | None = None,
          progress: Callable[[int], None] | None = None) -> None:
    dpi = ctx.options.dpi
    layout: SheetLayout | None = None
    image_ids: dict[str, int] = {}  # fingerprint → XObject, for copies
    back_ids: dict[int, int] = {}  # id(template) → XObject
    with atomic_file(out) as tmp, PdfWriter(tmp, title=out.stem) as pdf:
        page: list[tuple[CardDef, str, Template]] = []

        def flush() -> None:
            assert layout is not None
            pw, ph = layout.paper_mm
            cw, ch = layout.card_mm
            ops, names = [], {}
            for i, (_, fp, _t) in enumerate(page):
                x, y = layout.slot_mm(i)
                name = f"C{image_ids[fp]}"
                names[name] = image_ids[fp]
                ops.append(place_image(name, mm_to_pt(x), mm_to_pt(ph - y - ch), mm_to_pt(cw),
                                       mm_to_pt(ch)))
            ops.append(crop_marks(layout))
            pdf.add_page(mm_to_pt(pw), mm_to_pt(ph), "".join(ops), names)
            if backs:
                ops, names = [], {}
                dx, dy = offset
                for i, (_, _, t) in enumerate(page):
                    bid = back_ids.get(id(t))
                    if bid is None:
                        bid = back_ids[id(t)] = pdf.add_image(render_back(t, dpi, False))
                    x, y = layout.slot_mm(i, mirrored=True)
                    names[f"B{bid}"] = bid
                    ops.append(place_image(f"B{bid}", mm_to_pt(x + dx), mm_to_pt(ph - y - ch - dy),
                                           mm_to_pt(cw), mm_to_pt(ch)))
                pdf.add_page(mm_to_pt(pw), mm_to_pt(ph), "".join(ops), names)
            page.clear()

        # Faces are asked for in card order (each distinct card once) and placed in that order
        # as they come back, so the file is the same whatever the number of workers.
        if workers is None:  # sized by a look ahead of a few cards: pages still stream
            ahead: list[tuple[CardDef, str]] = []
            distinct: set[str] = set()
            for item in selected:
                ahead.append(item)
                distinct.add(item[1])
                if len(distinct) >= PARALLEL_FROM:
                    break
            workers = default_workers(len(distinct))
            selected = itertools.chain(ahead, selected)
        drawer = _Drawer(ctx, workers)
        asked: set[str] = set()
        pending: deque[tuple[CardDef, str, Template, object]] = deque()

        def place(card: CardDef, fp: str, t: Template, future: object) -> None:
            if future is not None:
                got = drawer.result(future, card, fp)
                if isinstance(got, str):
                    ctx.unfit[fp] = (card, got)
                else:
                    image_ids[fp] = pdf.add_jpeg(*got)
            if fp not in image_ids:  # cannot be drawn: named by check_unfit
                return
            page.append((card, fp, t))
            result.cards += 1
            if progress is not None:
                progress(result.cards)
            if len(page) == layout.per_page:
                flush()

        try:
            for card, fp in selected:
                t = ctx.template(card)
                if layout is None:
                    layout = sheet_layout(paper, (t.width_mm, t.height_mm))
                elif (t.width_mm, t.height_mm) != layout.card_mm:
                    raise TemplateError(tr(
                        "printing.mixed_sizes", ref=card.ref, width=f"{t.width_mm:g}",
                        height=f"{t.height_mm:g}", sheet_width=f"{layout.card_mm[0]:g}",
                        sheet_height=f"{layout.card_mm[1]:g}"))
                future = None
                if fp not in asked:
                    asked.add(fp)
                    future = drawer.submit(card, fp)
                pending.append((card, fp, t, future))
                while pending and (len(pending) > drawer.window
                                   or pending[0][3] is None or pending[0][3].done()):
                    place(*pending.popleft())
            while pending:
                place(*pending.popleft())
        finally:
            drawer.close()
        if page:
            flush()
        ctx.check_unfit(result)
        if layout is None or not image_ids:  # nothing to print: one empty page keeps a valid PDF
            pw, ph = PAPERS_MM[paper]
            pdf.add_page(mm_to_pt(pw), mm_to_pt(ph), "", {})
        pdf.close()
        result.pages = pdf.page_count
    result.files.append(out)


def _file_part(text: str) -> str:
    """A file name part that stays in its folder whatever a template or card calls itself."""
    return "".join(ch if ch.isalnum() or ch in "-_" else "_" for ch in text)[:80] or "_"


def _shop(selected: Iterator[tuple[CardDef, str]], out: Path, ctx: _Ctx, result: PrintResult, *,
          backs: bool, progress: Callable[[int], None] | None = None) -> None:
    dpi = ctx.options.dpi
    png_dir = out.with_name(out.stem + "-png")
    image_ids: dict[str, int] = {}
    back_ids: dict[int, int] = {}
    back_pngs: set[int] = set()
    pngs: list[Path] = []
    with atomic_dir(png_dir) as tmp_dir, atomic_file(out) as tmp, \
            PdfWriter(tmp, title=out.stem) as pdf:
        for card, fp in selected:
            t = ctx.template(card)
            b = t.bleed_mm
            W, H = t.width_mm + 2 * b, t.height_mm + 2 * b
            if fp not in image_ids:
                img = ctx.drawn(card, fp, render_card, card, t, ctx.options, fingerprint=fp)
                if img is None:
                    continue
                name = f"{_file_part(card.ref)}.png"
                img.save(tmp_dir / name, dpi=(dpi, dpi))
                pngs.append(png_dir / name)
                image_ids[fp] = pdf.add_image(img)
            trim = (mm_to_pt(b), mm_to_pt(b), mm_to_pt(b + t.width_mm), mm_to_pt(b + t.height_mm))
            full = (0.0, 0.0, mm_to_pt(W), mm_to_pt(H))
            name = f"C{image_ids[fp]}"
            pdf.add_page(mm_to_pt(W), mm_to_pt(H), place_image(name, 0, 0, mm_to_pt(W), mm_to_pt(H)),
                         {name: image_ids[fp]}, trim_box=trim, bleed_box=full)
            result.cards += 1
            if progress is not None:
                progress(result.cards)
            if id(t) not in back_pngs:
                back = render_back(t, dpi, True)
                name = f"back-{_file_part(t.name)}.png"
                back.save(tmp_dir / name, dpi=(dpi, dpi))
                pngs.append(png_dir / name)
                back_pngs.add(id(t))
                if backs:
                    back_ids[id(t)] = pdf.add_image(back)
            if backs:
                bid = back_ids[id(t)]
                pdf.add_page(mm_to_pt(W), mm_to_pt(H),
                             place_image(f"B{bid}", 0, 0, mm_to_pt(W), mm_to_pt(H)),
                             {f"B{bid}": bid}, trim_box=trim, bleed_box=full)
        ctx.check_unfit(result)
        pdf.close()
        result.pages = pdf.page_count
    result.files = [out, *pngs]


PROOF_DPI = 96


def _shop_preset(selected: Iterator[tuple[CardDef, str]], out: Path, ctx: _Ctx,
                 result: PrintResult, preset: Preset, *, backs: bool,
                 progress: Callable[[int], None] | None = None) -> None:
    """Every face and its back on exactly the preset's canvas, RGB, the preset's dpi in the file:
    ``front-001-NP1-001.png`` and ``back-001-NP1-001.png`` (the same number pairs a face with its
    back, so uploading the fronts then the backs in name order pairs them). A card printed
    several times is one file (the manifest has its count). The PDF holds the same pages at the
    canvas size, trim box set, each face followed by its back with ``--backs``."""
    from cardbase.outputs.printing.presets import fit_note, shop_back, shop_face

    dpi = preset.dpi
    png_dir = out.with_name(out.stem + "-png")
    unique: list[tuple[CardDef, str]] = []
    copies: dict[str, int] = {}
    for card, fp in selected:
        result.cards += 1
        if fp not in copies:
            copies[fp] = 0
            unique.append((card, fp))
        copies[fp] += 1
    done = 0
    width = max(3, len(str(len(unique))))
    g = preset.geometry()
    W, H = (mm_to_pt(v * 25.4 / dpi) for v in g.canvas)
    k = 72.0 / dpi
    trim = (g.trim[0] * k, H - g.trim[3] * k, g.trim[2] * k, H - g.trim[1] * k)
    full = (0.0, 0.0, W, H)
    back_bytes: dict[int, bytes] = {}
    back_ids: dict[int, int] = {}
    noted: set[int] = set()
    pngs: list[Path] = []
    opts = ctx.options
    with atomic_dir(png_dir) as tmp_dir, atomic_file(out) as tmp, \
            PdfWriter(tmp, title=out.stem) as pdf:
        for i, (card, fp) in enumerate(unique, start=1):
            t = ctx.template(card)
            if id(t) not in noted:
                noted.add(id(t))
                note = fit_note(t, preset)
                if note:
                    result.notes.append(note)
            face = ctx.drawn(card, fp, shop_face, card, t, preset, opts, fingerprint=fp)
            for _ in range(copies[fp]):  # one file for all its copies: each copy is done
                done += 1
                if progress is not None:
                    progress(done)
            if face is None:
                continue
            stem = f"{i:0{width}d}-{_file_part(card.ref)}"
            front = tmp_dir / f"front-{stem}.png"
            face.save(front, format="PNG", dpi=(dpi, dpi), compress_level=PNG_LEVEL)
            data = back_bytes.get(id(t))
            if data is None:
                back = shop_back(t, preset)
                buf = io.BytesIO()
                back.save(buf, format="PNG", dpi=(dpi, dpi), compress_level=PNG_LEVEL)
                data = back_bytes[id(t)] = buf.getvalue()
                if backs:
                    back_ids[id(t)] = pdf.add_image(back)
            (tmp_dir / f"back-{stem}.png").write_bytes(data)
            pngs += [png_dir / f"front-{stem}.png", png_dir / f"back-{stem}.png"]
            oid = pdf.add_image(face)
            name = f"C{oid}"
            pdf.add_page(W, H, place_image(name, 0, 0, W, H), {name: oid}, trim_box=trim,
                         bleed_box=full)
            if backs:
                bid = back_ids[id(t)]
                pdf.add_page(W, H, place_image(f"B{bid}", 0, 0, W, H), {f"B{bid}": bid},
                             trim_box=trim, bleed_box=full)
        ctx.check_unfit(result)
        pdf.close()
        result.pages = pdf.page_count
    result.files = [out, *pngs]


PNG_LEVEL = 3  # zlib level of the shop PNGs: a third faster than 6, files about 5 % larger


def _proof(selected: Iterator[tuple[CardDef, str]], out: Path, ctx: _Ctx, result: PrintResult, *,
           columns: int = 6, preset: Preset | None = None, overlay: bool = False,
           simulate: str | None = None, progress: Callable[[int], None] | None = None) -> None:
    """A contact sheet at screen resolution, with each card's reference and fingerprint.

    With a preset, each card is shown on the shop's canvas (bleed included); ``overlay`` draws the
    trim and safe lines (of the preset, else of the card's template); ``simulate`` passes the
    whole sheet through the colour-deficiency simulation (same layout, other colours)."""
    opts = RenderOptions(dpi=PROOF_DPI, bleed=False, stickers=ctx.options.stickers,
                         sticker_table=ctx.options.sticker_table, art_dir=ctx.options.art_dir,
                         edition_symbols=ctx.options.edition_symbols)
    seen: set[str] = set()
    noted: set[int] = set()
    thumbs: list[tuple[Image.Image, str]] = []
    drawn = 0  # pixels of the thumbnails so far
    for card, fp in selected:
        if progress is not None and result.cards:
            progress(result.cards)  # the cards before this one are done
        result.cards += 1
        if fp in seen:
            continue
        seen.add(fp)
        t = ctx.template(card)
        if preset is None and not overlay:
            thumb = ctx.drawn(card, fp, render_card, card, t, opts, fingerprint=fp)
            if thumb is None:
                continue
        else:
            from cardbase.outputs.printing.presets import draw_overlay, fit_note, shop_face, template_preset

            p = preset or template_preset(t)
            if preset is not None and id(t) not in noted:
                noted.add(id(t))
                note = fit_note(t, p)
                if note:
                    result.notes.append(note)
            thumb = ctx.drawn(card, fp, shop_face, card, t, p, opts, fingerprint=fp,
                              dpi=PROOF_DPI)
            if thumb is None:
                continue
            if overlay:
                draw_overlay(thumb, p.geometry(PROOF_DPI))
        thumbs.append((thumb, f"{card.ref} · #{fp}"))
        drawn += thumb.width * thumb.height
        if drawn > MAX_PROOF_PIXELS:  # the thumbnails alone already pass the sheet's limit
            raise PrintError(tr("files.proof.too_big", pixels=drawn // 1_000_000,
                                max=MAX_PROOF_PIXELS // 1_000_000))
    if progress is not None and result.cards:
        progress(result.cards)
    ctx.check_unfit(result)
    gap, caption = 14, 18
    if thumbs:
        cw = max(t.width for t, _ in thumbs)
        ch = max(t.height for t, _ in thumbs)
    else:
        cw, ch = mm_to_px(63, PROOF_DPI), mm_to_px(88, PROOF_DPI)
    cols = max(1, min(columns, len(thumbs) or 1))
    rows = max(1, math.ceil(len(thumbs) / cols))
    size = (gap + cols * (cw + gap), gap + rows * (ch + caption + gap))
    if size[0] * size[1] > MAX_PROOF_PIXELS:  # before the sheet is allocated
        raise PrintError(tr("files.proof.too_big", pixels=size[0] * size[1] // 1_000_000,
                            max=MAX_PROOF_PIXELS // 1_000_000))
    sheet = Image.new("RGB", size, "#e9e7e2")
    draw = ImageDraw.Draw(sheet)
    font = get_font("regular", 11)
    for i, (thumb, label) in enumerate(thumbs):
        r, c = divmod(i, cols)
        x, y = gap + c * (cw + gap), gap + r * (ch + caption + gap)
        sheet.paste(thumb, (x, y))
        draw.text((x + cw / 2, y + ch + 3), label, font=font, fill="#333333", anchor="ma")
    if simulate is not None:
        from cardbase.outputs.printing.colourblind import simulate_image

        sheet = simulate_image(sheet, simulate)
    # the file named, and no other: a .pdf proof is the same sheet on one PDF page
    if out.suffix.lower() == ".pdf":
        w_pt, h_pt = (v * 72 / PROOF_DPI for v in sheet.size)
        with atomic_file(out) as tmp, PdfWriter(tmp, title=out.stem) as pdf:
            image = pdf.add_image(sheet)
            pdf.add_page(w_pt, h_pt, place_image("Proof", 0, 0, w_pt, h_pt), {"Proof": image})
    else:
        with atomic_file(out) as tmp:
            sheet.save(tmp, format="PNG", dpi=(PROOF_DPI, PROOF_DPI))
    result.pages = 1
    result.files.append(out)


def render_card_png(card: CardDef, out: Path, *, dpi: int = 300, bleed: bool = False,
                    stickers: bool = True, sticker_table: Mapping[str, str] | None = None,
                    templates_dir: Path | None = None, template: str | None = None,
                    art_dir: Path | None = None, back: bool = False) -> Path:
    """One card face (or its back) as a PNG carrying its DPI; written whole or not at all."""
    out = check_target(Path(out), tuple(IMAGE_FORMATS))
    if not 72 <= dpi <= 1200:
        raise PrintError(tr("printing.bad_dpi", dpi=dpi))
    t = (load_template(template, templates_dir) if template
         else template_for(card.game, card.card_type, templates_dir))
    if back:
        img = render_back(t, dpi, bleed)
    else:
        img = render_card(card, t, RenderOptions(dpi=dpi, bleed=bleed, stickers=stickers,
                                                 sticker_table=sticker_table, art_dir=art_dir))
    fmt = IMAGE_FORMATS[out.suffix.lower()]
    with atomic_file(out) as tmp:
        img.save(tmp, format=fmt, dpi=(dpi, dpi), **({"quality": 95} if fmt != "PNG" else {}))
    return out


IMAGE_FORMATS = {".png": "PNG", ".jpg": "JPEG", ".jpeg": "JPEG", ".webp": "WEBP"}
