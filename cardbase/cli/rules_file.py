"""``cardbase games rules CODE``: a game's playable rules file shown with its version, or replaced by
a checked file (``--set FILE``), refused when it changed since ``--version`` (catalog/rules_files.py)."""

from __future__ import annotations

from pathlib import Path

import typer

from cardbase.cli.common import handle_errors, print_json
from cardbase.i18n import tr


@handle_errors
def rules_command(
    code: str = typer.Argument(..., help="The game's code."),
    set_file: Path | None = typer.Option(None, "--set", help="Replace the rules file by this one, once it passes the checks."),
    version: str | None = typer.Option(None, "--version", help="The version you started from (shown by cardbase games rules CODE); required to replace an existing file."),
    json_out: bool = typer.Option(False, "--json", help="JSON output."),
) -> None:
    """Show a game's rules file with its version, or replace it by a checked file (--set)."""
    from cardbase.catalog.rules_files import read_rules, save_rules
    from cardbase.errors import CardbaseError
    from cardbase.games.rulesdata.language import read_rules_text
    from cardbase.games.rulesdata.register import rules_path

    shown = str(rules_path(code))
    if set_file is None:
        text, current = read_rules(code)
        if json_out:
            print_json({"code": code, "path": shown, "version": current or None, "text": text or None})
        elif not current:
            typer.echo(tr("rulesfiles.cli.none", code=code, path=shown))
        else:
            typer.echo(tr("rulesfiles.cli.version", code=code, version=current))
            typer.echo(text, nl=not text.endswith("\n"))
        return
    text = read_rules_text(set_file)
    current = read_rules(code)[1]
    if version is None and current:
        raise CardbaseError(tr("rulesfiles.cli.need_version", code=code, current=current))
    new = save_rules(code, text, current if version is None else version, name=set_file.name,
                     card_fields=_figures(code))
    if json_out:
        print_json({"code": code, "path": str(rules_path(code)), "version": new, "saved": True})
    else:
        typer.echo(tr("rulesfiles.cli.saved", code=code, path=shown, version=new))


def _figures(code: str):
    """The figures of the game's cards in the database, for the checker (a misspelt card.field is
    a problem); none known when the database cannot be read."""
    from cardbase.catalog import reads
    from cardbase.cli.common import read
    from cardbase.errors import CardbaseError
    from cardbase.playtest.cards import figures_of

    try:
        cards = read(lambda s: reads.card_defs(s, game=code, for_print=False))
    except CardbaseError:
        cards = []
    return lambda game: figures_of(cards, game)
