"""``cardbase tts``: decks and box games for Tabletop Simulator, and saved decks read back."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import typer

from cardbase.cli.common import fail, handle_errors, print_json, session

if TYPE_CHECKING:
    from cardbase.outputs.tts import ImportResult

app = typer.Typer(help="Tabletop Simulator: a deck or a box game as a custom deck, and back.",
                  no_args_is_help=True)


@app.command("export")
@handle_errors
def export_command(
    source: str | None = typer.Argument(None, help="Deck: file, saved name or starter slug."),
    out: str = typer.Option(..., "--out", "-o", help="Folder to write into."),
    edition: str | None = typer.Option(None, "--edition", "-e", help="A whole edition (box game)."),
    base_url: str | None = typer.Option(None, "--base-url", help="Web address of the images."),
    no_stickers: bool = typer.Option(False, "--no-stickers", help="Leave out the sticker codes."),
    json_out: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """Write the face sheets, the back and the saved object of a deck or an edition."""
    from cardbase.i18n import tr
    from cardbase.catalog.stickers import colour_table
    from cardbase.outputs.tts import deck_source, edition_source, edition_symbols, export_tts

    if (source is None) == (edition is None):
        fail(tr("tts.source.one_source"))
    if not out.strip():  # "" would be the current folder: refused before the database is opened
        fail(tr("tts.export.empty_out"))
    if base_url:
        from cardbase.outputs.tts import check_base_url

        check_base_url(base_url)
    with session() as s:
        src = edition_source(s, edition) if edition is not None else deck_source(s, source or "")
        table = colour_table(s)
        symbols = edition_symbols(s, src.cards)
    result = export_tts(src, out, base_url=base_url, stickers=not no_stickers,
                        sticker_table=table, edition_symbols=symbols)
    if json_out:
        print_json(result.as_dict())
        return
    typer.echo(tr("tts.export.done", name=result.name, cards=result.cards, faces=result.faces,
                  sheets=len(result.sheets)))
    typer.echo(tr("tts.export.object", path=str(result.object)))
    for sheet in result.sheets:
        typer.echo(tr("tts.export.sheet", path=str(sheet)))
    typer.echo(tr("tts.export.back", path=str(result.back)))
    if base_url:
        typer.echo(tr("tts.export.next_url", url=base_url, name=result.object.name))
    else:
        typer.echo(tr("tts.export.next_file", name=result.object.name))


@app.command("import")
@handle_errors
def import_command(
    file: Path = typer.Argument(..., help="The saved object's .json file."),
    json_out: bool = typer.Option(False, "--json", help="Print JSON (one object, also on refusal)."),
    partial: bool = typer.Option(False, "--partial",
                                 help="Accept a deck with some unknown cards (exit 0, not 1)."),
) -> None:
    """Read a Tabletop Simulator saved object: a summary, the deck list, what was not recognised.

    Exit code 0: every card matched; 1: some unknown (the deck list of the matched cards is still
    printed; --partial accepts it); 2: unreadable, or not a deck of this database."""
    from cardbase.errors import CardbaseError
    from cardbase.i18n import tr
    from cardbase.outputs.tts import refusal, scan_saved_object

    try:
        with session() as s:
            result = scan_saved_object(s, file)
    except CardbaseError as exc:
        if not json_out:
            raise
        print_json({"status": "refused", "exit_code": 2, "reason": "unreadable",
                    "error": str(exc), "problems": [p.as_dict() for p in exc.problems]})
        fail(str(exc))
        return
    code, _ = result.verdict()
    if code == 1 and partial:
        code = 0
    error = refusal(result, file)
    # the refusal's headline only: the summary above lists every unknown card (folded by group,
    # --json in full) and every problem; its problem list would repeat them, unfolded
    headline = str(error).split("\n", 1)[0] if error is not None else None
    if json_out:
        data = result.as_dict()
        data["exit_code"] = code
        if headline is not None:
            data["error"] = headline
        print_json(data)
    _report(result)
    if headline is not None:
        fail(headline)
    if not json_out:
        typer.echo("\n".join(d.deck_list() for d in result.decks if d.count), nl=False)
    if code == 1:
        typer.echo(tr("tts.import.partial_hint"), err=True)
        raise typer.Exit(1)


def _report(result: ImportResult) -> None:
    """The summary first, then where each card matched by name came from, the unknown cards by
    deck and sheet (folded after FOLD_AFTER names a group), the problems met: on stderr."""
    from cardbase.i18n import tr
    from cardbase.outputs.tts import FOLD_AFTER

    c = result.counts()
    typer.echo(tr("tts.import.summary_head", decks=c["decks"], kept=c["decks_kept"],
                  by_ref=c["matched_by_ref"], by_name=c["matched_by_name"], unknown=c["unknown"],
                  cards=result.cards), err=True)
    if c["states"]:
        typer.echo(tr("tts.import.states", n=c["states"]), err=True)
    for deck in result.decks:
        for e in deck.entries:
            if e.matched_by != "name":
                continue
            o = e.origins[0]
            said = (tr("tts.import.by_name_unknown_ref", name=e.card.name, ref=e.card.ref,
                       notes=", ".join(e.unknown_refs)) if e.unknown_refs
                    else tr("tts.import.by_name", name=e.card.name, ref=e.card.ref))
            typer.echo(said + " "
                       + tr("tts.import.origin", deck=o.deck, sheet=o.sheet,
                            cell="?" if o.cell is None else o.cell), err=True)
    for name in result.dropped:
        typer.echo(tr("tts.import.dropped", deck=name), err=True)
    groups: dict[tuple[str, str], list] = {}
    for u in result.unknown:
        groups.setdefault((u.deck, u.sheet), []).append(u)
    for (deck, sheet), items in groups.items():
        typer.echo(tr("tts.import.unknown_group", deck=deck, sheet=sheet,
                      n=sum(u.count for u in items)), err=True)
        for u in items[:FOLD_AFTER]:
            cells = sorted({o.cell for o in u.origins if o.cell is not None})
            typer.echo("  " + tr("tts.import.unknown", name=u.name, count=u.count)
                       + (" " + tr("tts.import.cells", cells=", ".join(map(str, cells)),
                                      count=len(cells))
                          if cells and u.named else ""), err=True)
        if len(items) > FOLD_AFTER:
            typer.echo("  " + tr("tts.import.folded", n=len(items) - FOLD_AFTER), err=True)
    for problem in result.problems[:FOLD_AFTER]:  # a broken file can hold thousands: folded too
        typer.echo(tr("tts.import.problem", problem=problem), err=True)
    if len(result.problems) > FOLD_AFTER:
        typer.echo(tr("tts.import.problems_folded", n=len(result.problems) - FOLD_AFTER), err=True)
