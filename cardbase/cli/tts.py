"""``cardbase tts``: decks and box games for Tabletop Simulator, and saved decks read back."""

from __future__ import annotations

from pathlib import Path

import typer

from cardbase.cli.common import fail, handle_errors, print_json, session

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
    from cardbase.stickers import colour_table
    from cardbase.tts import deck_source, edition_source, edition_symbols, export_tts

    if (source is None) == (edition is None):
        fail(tr("tts.source.one_source"))
    if not out.strip():  # "" would be the current folder: refused before the database is opened
        fail(tr("tts.export.empty_out"))
    if base_url:
        from cardbase.tts import check_base_url

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
    json_out: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """Read a Tabletop Simulator saved object and print the deck list."""
    from cardbase.i18n import tr
    from cardbase.tts import read_saved_object

    with session() as s:
        result = read_saved_object(s, file)
    if json_out:
        print_json(result.as_dict())
    else:
        typer.echo("\n".join(d.deck_list() for d in result.decks), nl=False)
    for name, ref in result.by_name:
        typer.echo(tr("tts.import.by_name", name=name, ref=ref), err=True)
    for name, count in result.unknown:
        typer.echo(tr("tts.import.unknown", name=name, count=count), err=True)
    for problem in result.problems:
        typer.echo(tr("tts.import.problem", problem=problem), err=True)
    if not json_out:
        typer.echo(tr("tts.import.summary", cards=result.cards, decks=len(result.decks)), err=True)
