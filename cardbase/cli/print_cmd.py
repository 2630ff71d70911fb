"""``cardbase print`` and ``cardbase render``: print-ready sheets and single card images.

``print`` is a group that runs the print itself when no subcommand is given
(``cardbase print --edition NP1 --out np1.pdf``) and lists the print-shop presets with
``cardbase print presets [--json]``.
"""

from __future__ import annotations

import sys
from contextlib import contextmanager
from pathlib import Path

import typer

from cardbase.cli.common import fail, handle_errors, read
from cardbase.domain import CardDef

P_EDITION = typer.Option(None, "--edition", "-e", help="Print a whole edition (code).")
P_DECK = typer.Option(None, "--deck", "-d",
    help="Print a deck-list file, each card as many times as the deck holds it.")
P_QUERY = typer.Option(None, "--query", "-q", help="Print the cards a search finds.")
P_OUT = typer.Option(None, "--out", "-o",
    help="Output file (.pdf; .png or .pdf for --mode proof), or a folder ending in / to write "
    "<source>-<mode>.pdf into.")
P_PAPER = typer.Option("a4", "--paper", help="Home sheets: a4 or letter.")
P_DPI = typer.Option(300, "--dpi", help="Resolution of the card images.")
P_MODE = typer.Option("home", "--mode",
    help="home (3×3 sheets with crop marks), shop (one PNG per card with bleed, "
    "and a PDF) or proof (contact sheet).")
P_BACKS = typer.Option(False, "--backs",
    help="Add card backs (home: interleaved pages for long-edge duplex; "
    "shop: a back page after each card).")
P_BACK_OFFSET_X = typer.Option(0.0, "--back-offset-x",
    help="Shift the backs right by this many mm (negative: left) to match your printer.")
P_BACK_OFFSET_Y = typer.Option(0.0, "--back-offset-y",
    help="Shift the backs down by this many mm (negative: up).")
P_NO_STICKERS = typer.Option(False, "--no-stickers", help="Leave out the sticker codes.")
P_CHANGED_SINCE = typer.Option(None, "--changed-since",
    help="Only the cards whose content changed since this print (its PDF or its .manifest.json).")
P_TEMPLATE = typer.Option(None, "--template",
    help="Use this template (name in card_templates/ or a file) for every card.")
P_ART_DIR = typer.Option(None, "--art-dir", help="Folder the cards' art paths are relative to.")
P_PRESET = typer.Option(None, "--preset",
    help="Print-shop preset (cardbase print presets): shop files on exactly its canvas.")
P_OVERLAY = typer.Option(False, "--proof-overlay",
    help="Proof: draw the trim and safe lines over the cards.")
P_SIMULATE = typer.Option(None, "--simulate",
    help="Proof: show it as seen with protanopia, deuteranopia or tritanopia.")
PR_JSON = typer.Option(False, "--json", help="Print machine-readable JSON.")
P_SKIP_UNFIT = typer.Option(False, "--skip-unfit",
    help="Print the other cards when some cannot be drawn (text too long…), and name them.")

P_WORKERS = typer.Option(None, "--workers", "-j",
    help="Processes drawing the cards at once (home sheets; default: one per core, one for a "
    "small print). The file is the same whatever the number.")
PROGRESS_FROM = 100  # cards: a shorter print is done before a bar would help

print_app = typer.Typer(help="Print cards to a PDF for home printing or a print shop, or a proof sheet.",
                        add_completion=False)
R_CARD = typer.Argument(..., help="Card reference (NP1-012), id or exact name.")
R_OUT = typer.Option(..., "--out", "-o", help="PNG file to write.")
R_DPI = typer.Option(300, "--dpi", help="Resolution.")
R_BLEED = typer.Option(False, "--bleed", help="Include the bleed (print shop).")
R_BACK = typer.Option(False, "--back", help="Render the card's back instead.")
R_NO_STICKERS = typer.Option(False, "--no-stickers", help="Leave out the sticker codes.")
R_TEMPLATE = typer.Option(None, "--template", help="Template name or file.")
R_ART_DIR = typer.Option(None, "--art-dir", help="Folder of the art files.")


def _edition_symbols(s, codes: set[str]) -> dict[str, str]:
    from cardbase.catalog.reads import get_edition

    out = {}
    for code in codes:
        symbol = getattr(get_edition(s, code), "symbol", None)
        if symbol:
            out[code] = symbol
    return out


def _deck_cards(s, deck_list, path: Path) -> list[CardDef]:
    """Each card of the deck as many times as the deck holds it, in deck-list order."""
    from cardbase import decks
    from cardbase.catalog import reads
    from cardbase.errors import DeckListError

    resolved = decks.resolve_deck(s, deck_list)
    if resolved.problems:
        from cardbase.i18n import tr

        raise DeckListError(tr("printing.cli.deck_lines", path=str(path), n=len(resolved.problems)),
                            list(resolved.problems))
    defs = {d.id: d for d in reads.card_defs(s, ids=[e.card.id for e in resolved.entries])}
    return [defs[e.card.id] for e in resolved.entries for _ in range(e.count)]


def _print_inputs(edition: str | None, deck: Path | None, query: str | None):
    """The cards to print, the sticker colours and the editions' symbols, read in one go: on the
    read-only snapshot of the SQLite default when nothing else is left to do (no SQLAlchemy
    loaded), else on a session (see :func:`cardbase.cli.common.read`). The same values either
    way, so the same file."""
    from cardbase.catalog import reads
    from cardbase.catalog.stickers import colour_table

    deck_list = None
    if deck is not None:
        from cardbase.decks import read_deck_file

        deck_list = read_deck_file(deck)

    def work(s):
        if deck_list is not None:
            cards = _deck_cards(s, deck_list, deck)
        else:
            cards = reads.card_defs(s, edition=edition, query=query)
        if not cards:
            return cards, {}, {}
        return cards, colour_table(s), _edition_symbols(s, {c.edition for c in cards})

    return read(work)


def _output_file(out: str, mode: str, edition: str | None, deck: Path | None) -> tuple[Path, bool]:
    """The file ``--out`` names, checked before any work: a folder (a name ending in ``/``) gets
    ``<source>-<mode>.pdf`` (``.png`` for a proof) inside it; a folder to create must have an
    existing parent. Also says whether the folder is to be created. (An existing folder named
    without the ``/`` is refused as before, by the file checks.)"""
    import os

    from cardbase.i18n import tr
    from cardbase.outputs.printing.output import OutputError

    if not out.strip():
        raise OutputError(tr("files.print.empty_out"))
    path = Path(out)
    seps = tuple({"/", os.sep, os.altsep or "/"})
    if not out.endswith(seps):
        return path, False
    from cardbase.outputs.tts import slug

    stem = slug(edition) if edition else slug(deck.stem) if deck is not None else "recherche"
    target = path / f"{stem}-{mode}.{'png' if mode == 'proof' else 'pdf'}"
    if path.is_dir():
        return target, False
    if path.exists():
        raise OutputError(tr("printing.out.not_folder", path=str(path)))
    parent = path.parent
    if not parent.is_dir():
        raise OutputError(tr("files.print.no_parent", folder=str(path), parent=str(parent)))
    if not os.access(parent, os.W_OK | os.X_OK):
        raise OutputError(tr("printing.out.read_only", folder=str(parent)))
    return target, True


def _quick_exit() -> None:
    """Leave out the garbage collector's last walks over everything the command loaded when the
    process ends (Python walks every object twice on its way out: about a tenth of a second
    after a print). Every exit handler still runs and every file is closed; only objects that
    nothing references any more are not looked for."""
    import atexit
    import gc

    atexit.unregister(gc.freeze)  # once, however many prints one process makes
    atexit.register(gc.freeze)


@contextmanager
def _progress(total: int):
    """A progress bar on the terminal (stderr) for a long print, else nothing."""
    if total < PROGRESS_FROM or not sys.stderr.isatty():
        yield None
        return
    from cardbase.i18n import tr

    with typer.progressbar(length=total, label=tr("cores.progress"), file=sys.stderr) as bar:
        state = {"placed": 0}

        def update(placed: int) -> None:
            bar.update(placed - state["placed"])
            state["placed"] = placed

        yield update


def print_command(
    ctx: typer.Context,
    edition: str | None = P_EDITION,
    deck: Path | None = P_DECK,
    query: str | None = P_QUERY,
    out_arg: str | None = P_OUT,
    paper: str = P_PAPER,
    dpi: int = P_DPI,
    mode: str = P_MODE,
    backs: bool = P_BACKS,
    back_offset_x: float = P_BACK_OFFSET_X,
    back_offset_y: float = P_BACK_OFFSET_Y,
    no_stickers: bool = P_NO_STICKERS,
    changed_since: Path | None = P_CHANGED_SINCE,
    template: str | None = P_TEMPLATE,
    art_dir: Path | None = P_ART_DIR,
    preset: str | None = P_PRESET,
    proof_overlay: bool = P_OVERLAY,
    simulate: str | None = P_SIMULATE,
    skip_unfit: bool = P_SKIP_UNFIT,
    workers: int | None = P_WORKERS,
) -> None:
    """Print cards to a PDF for home printing or a print shop, or a proof sheet."""
    if ctx.invoked_subcommand is not None:
        return
    _quick_exit()
    from cardbase.i18n import tr
    from cardbase.outputs.printing import print_cards
    from cardbase.outputs.printing.sheets import check_workers

    chosen = [x for x in (edition, deck, query) if x]
    if len(chosen) != 1:
        fail(tr("printing.cli.one_source"))
    if out_arg is None:
        fail(tr("shop.cli.no_out"))
    out, make_folder = _output_file(out_arg, mode, edition, deck)
    if not make_folder:  # an existing folder: the file in it is checked as any other
        from cardbase.outputs.printing import MODES
        from cardbase.outputs.printing.output import check_target

        if mode in MODES:
            check_target(out, (".png", ".pdf") if mode == "proof" else (".pdf",))
    check_workers(workers)
    if preset is not None:
        from cardbase.outputs.printing.presets import get_preset

        get_preset(preset)  # an unknown preset fails before the database is opened
    if simulate is not None:
        from cardbase.outputs.printing.colourblind import check_deficiency

        check_deficiency(simulate)
    cards, table, symbols = _print_inputs(edition, deck, query)
    if not cards:
        fail(tr("printing.cli.no_cards"))
    if make_folder:
        out.parent.mkdir()  # only now, and removed again if the print fails
    try:
        with _progress(len(cards)) as progress:
            result = print_cards(
                cards, out, mode=mode, paper=paper, dpi=dpi, backs=backs,
                back_offset_mm=(back_offset_x, back_offset_y), stickers=not no_stickers,
                sticker_table=table, changed_since=changed_since, template=template,
                art_dir=art_dir, edition_symbols=symbols, preset=preset,
                proof_overlay=proof_overlay, simulate=simulate, skip_unfit=skip_unfit,
                workers=workers, progress=progress,
            )
    except BaseException:
        if make_folder and not any(out.parent.iterdir()):
            out.parent.rmdir()
        raise
    if result.left_out:  # --skip-unfit: the cards that were not printed, and why
        typer.echo(tr("richtext.print_left_out", count=len(result.left_out)))
        for gone in result.left_out:
            typer.echo(f"  - {gone['reason']}")
    for note in result.notes:
        typer.echo(tr("shop.cli.note", note=note))
    if result.nothing_changed:
        typer.echo(tr("printing.cli.nothing_changed", skipped=result.skipped,
                      previous=str(changed_since)))
        return
    line = tr("printing.cli.done", path=str(result.files[0]), cards=result.cards,
              pages=result.pages)
    if changed_since:
        line += tr("printing.cli.skipped", skipped=result.skipped)
    typer.echo(line)
    if mode == "shop" and preset is not None:
        from cardbase.outputs.printing.presets import get_preset

        p = get_preset(preset)
        typer.echo(tr("shop.cli.preset_done", n=(len(result.files) - 1) // 2, preset=p.name,
                      width=p.canvas_px[0], height=p.canvas_px[1], dpi=p.dpi,
                      folder=str(out.with_name(out.stem + "-png"))))
    elif mode == "shop":
        typer.echo(tr("printing.cli.pngs", n=len(result.files) - 1,
                      folder=str(out.with_name(out.stem + "-png"))))
    if simulate is not None:
        typer.echo(tr("shop.cli.simulated", deficiency=simulate))
    typer.echo(tr("printing.cli.manifest", path=str(result.manifest)))


def render_command(
    card: str = R_CARD,
    out: Path = R_OUT,
    dpi: int = R_DPI,
    bleed: bool = R_BLEED,
    back: bool = R_BACK,
    no_stickers: bool = R_NO_STICKERS,
    template: str | None = R_TEMPLATE,
    art_dir: Path | None = R_ART_DIR,
) -> None:
    """Render one card to a PNG."""
    _quick_exit()
    from cardbase.catalog import reads
    from cardbase.i18n import tr
    from cardbase.outputs.printing import render_card_png
    from cardbase.outputs.printing.output import check_target
    from cardbase.outputs.printing.sheets import IMAGE_FORMATS
    from cardbase.catalog.stickers import colour_table

    check_target(out, tuple(IMAGE_FORMATS))  # before opening the database

    def work(s):
        defs = reads.card_defs(s, ids=[reads.get_card(s, card).id])
        return defs, colour_table(s)

    defs, table = read(work)
    render_card_png(defs[0], out, dpi=dpi, bleed=bleed, stickers=not no_stickers,
                    sticker_table=table, template=template, art_dir=art_dir, back=back)
    typer.echo(tr("printing.cli.rendered", path=str(out), ref=defs[0].ref, name=defs[0].name))


def presets_command(as_json: bool = PR_JSON) -> None:
    """List the print-shop presets: canvas in pixels, trim, bleed, safe margin, source."""
    from cardbase.cli.common import print_json
    from cardbase.i18n import tr
    from cardbase.outputs.printing.presets import load_presets, presets_path

    presets = load_presets()
    if as_json:
        print_json({"file": str(presets_path()), "presets": [p.as_dict() for p in presets.values()]})
        return
    typer.echo(tr("shop.cli.presets_head", file=str(presets_path())))
    for p in presets.values():
        d = p.as_dict()
        typer.echo(tr("shop.cli.preset_line", name=p.name, shop=p.shop_label, description=p.label,
                      width=p.canvas_px[0], height=p.canvas_px[1], dpi=p.dpi,
                      trim_width=f"{d['trim_mm'][0]:g}", trim_height=f"{d['trim_mm'][1]:g}",
                      bleed=f"{d['bleed_mm']:g}", safe=f"{d['safe_mm']:g}"))
        typer.echo(tr("shop.cli.preset_source", source=p.source))
        if p.note:
            typer.echo(tr("shop.cli.preset_note", note=p.note))


print_app.callback(invoke_without_command=True)(handle_errors(print_command))
print_app.command("presets")(handle_errors(presets_command))


def register(app: typer.Typer) -> None:
    """Add ``print`` (with ``print presets``) and ``render`` to the root command."""
    app.add_typer(print_app, name="print")
    app.command("render")(handle_errors(render_command))
