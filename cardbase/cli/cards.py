"""``cardbase cards``: search, show, import, export and edit cards."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import typer
from typer.core import TyperCommand

try:  # recent Typer ships its own copy of Click
    from typer._click.exceptions import NoSuchOption, UsageError
except ImportError:  # pragma: no cover - Typer on the system's Click
    from click.exceptions import NoSuchOption, UsageError

from cardbase.cli.common import fail, handle_errors, print_json, read, session
from cardbase.i18n import tr

MAX_LIMIT = 1_000_000

app = typer.Typer(help="Search, show, import, export and edit cards.", no_args_is_help=True)


def _line(card: dict) -> str:
    kw = f" [{', '.join(card['keywords'])}]" if card["keywords"] else ""
    value = "" if card["value"] is None else f" v{card['value']}"
    colour = f" {card['colour']}" if card["colour"] else ""
    return f"{card['ref']:<9} {card['name']}{value}{colour}{kw}"


class _SearchCommand(TyperCommand):
    """``cards search``: an unknown short option is most likely a query starting with '-'."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        given = list(args)  # the parser consumes ``args``
        try:
            return super().parse_args(ctx, args)
        except NoSuchOption as exc:
            if exc.option_name.startswith("--"):
                raise
            query = next((a for a in given if a.startswith(exc.option_name)), exc.option_name)
            raise UsageError(tr("catalog.cli.dash_query", query=query), ctx) from None


@app.command("search", cls=_SearchCommand)
@handle_errors
def search_command(
    query: str = typer.Argument("", help='Query, e.g. \'c:rouge v>=3 -k:foule\' or \'"bois sacré" or e:OVK\'. '
                                         "A query that starts with '-' needs '--' before it: "
                                         "cardbase cards search -- '-k:foule'"),
    json_out: bool = typer.Option(False, "--json", help="Print JSON."),
    limit: str | None = typer.Option(None, metavar="N", help=f"At most N cards (1 to {MAX_LIMIT})."),
) -> None:
    """Find cards with the card query language (see docs/search.md).

    A query that starts with '-' (a negation such as -k:foule) would be read as an option: put
    '--' before it, e.g. cardbase cards search -- '-k:foule c:rouge'.
    """
    from cardbase.catalog import reads

    count = _limit(limit)
    cards = read(lambda s: reads.card_dicts(s, query=query, limit=count))
    if json_out:
        print_json(cards)
        return
    for card in cards:
        typer.echo(_line(card))
    typer.echo(tr("catalog.cli.found", count=len(cards)), err=True)


def _limit(text: str | None) -> int | None:
    """``--limit`` as a whole number from 1 to MAX_LIMIT; anything else is a clear error."""
    if text is None:
        return None
    raw = text.strip()
    if not (raw.isascii() and raw.isdigit()) or len(raw) > 9 or not 1 <= int(raw) <= MAX_LIMIT:
        shown = raw if len(raw) <= 30 else raw[:29] + "…"
        fail(tr("catalog.cli.bad_limit", value=shown, limit=MAX_LIMIT))
    return int(raw)


@app.command("show")
@handle_errors
def show_command(card: str = typer.Argument(..., help="Collector ref (NP1-012), id or exact name."),
                 json_out: bool = typer.Option(False, "--json")) -> None:
    """Show every field of one card."""
    from cardbase.catalog import reads
    from cardbase.catalog.fields import declared_fields

    def work(s: Any) -> tuple[dict, dict[str, str]]:
        data = reads.card_dicts(s, ids=[reads.get_card(s, card).id])[0]
        # the game's declared fields (after the common ones) are named by their own labels
        labels = {d.name: d.shown_label for d in declared_fields(reads.get_game(s, data["game"]))}
        return data, labels

    data, labels = read(work)
    if json_out:
        print_json(data)
        return
    shown = [(tr(f"catalog.show.{key}") if key in reads.CARD_DICT_KEYS else labels.get(key, key), value)
             for key, value in data.items() if value not in (None, "", [], {})]
    if not _french() and data.get("effect"):  # the effect's text in English (ruling R13)
        from cardbase.games.effects import effect_to_english, parse_effect
        from cardbase.errors import EffectError
        from cardbase.catalog.richtext import plain

        try:
            shown.append((tr("catalog.show.effect_text_en"),
                          plain(effect_to_english(parse_effect(data["effect"])))))
        except EffectError:
            pass  # an effect that does not parse has no English text; the rest is shown
    width = max(len(label) for label, _ in shown)
    for label, value in shown:
        if isinstance(value, bool):
            value = tr("catalog.cli.yes") if value else tr("catalog.cli.no")
        elif isinstance(value, list):
            value = ", ".join(map(str, value))
        typer.echo(f"{label:>{width}} : {value}" if _french() else f"{label:>{width}}: {value}")


@app.command("edit")
@handle_errors
def edit_command(
    card: str = typer.Argument(..., help="Collector ref (NP1-012) or id."),
    version: int = typer.Option(..., "--version", help="The version you are editing (from `cards show`)."),
    set_: list[str] = typer.Option([], "--set", help="FIELD=VALUE, repeatable; VALUE is JSON or text."),
) -> None:
    """Change fields of a card; refused if someone saved it since VERSION."""
    from cardbase.catalog import cards as catalog

    changes = {}
    bad = [item for item in set_ if "=" not in item]
    if bad:
        fail("\n".join(tr("catalog.cli.bad_set", item=item) for item in bad))
    if not set_:
        fail(tr("catalog.cli.nothing_to_set"))
    twice = []
    for item in set_:
        key, raw = item.split("=", 1)
        key = catalog.FILE_TO_MODEL.get(key.strip(), key.strip())
        if key in changes:  # the first value would be lost without a word
            twice.append(key)
        changes[key] = _set_value(raw)
    if twice:
        names = [catalog.MODEL_TO_FILE.get(k, k) for k in dict.fromkeys(twice)]
        fail("\n".join(tr("writes.set_twice", field=n) + " — " + tr("writes.set_twice_fix", field=n)
                       for n in names))
    with session() as s:
        c = catalog.get_card(s, card)
        updated = catalog.update_card(s, c.id, expected_version=version, changes=changes)
        typer.echo(tr("catalog.cli.saved", card=card, version=updated.version))


def _set_value(raw: str):
    """A ``--set`` value: JSON when it reads as JSON (numbers, lists, tables), else the text."""
    try:
        return json.loads(raw)
    except (json.JSONDecodeError, RecursionError, ValueError):  # ValueError: a huge integer
        return raw


def _french() -> bool:
    from cardbase.i18n import current_language

    return current_language() == "fr"


@app.command("import")
@handle_errors
def import_command(
    file: Path = typer.Argument(..., help="A .csv or .json file of cards."),
    dry_run: bool = typer.Option(False, "--dry-run", help="Check and show what would change; write nothing."),
    json_out: bool = typer.Option(False, "--json"),
    markup: str | None = typer.Option(None, "--markup",
        help="Convert the card texts' foreign markup: html (<b>, <i>, <br>, entities)."),
) -> None:
    """Import cards: checked whole first, then written all at once or not at all."""
    from cardbase.catalog import transfer

    with session() as s:
        plan = transfer.import_file(s, file, dry_run=dry_run, markup=markup)
    if json_out:
        print_json(plan.as_dict() | {"dry_run": dry_run})
    else:
        typer.echo((tr("transfer.dry_run") + "\n" if dry_run else "") + plan.summary())
    if plan.problems:  # bad input, nothing written: exit 2 as for a file that cannot be read
        raise typer.Exit(2)


@app.command("export")
@handle_errors
def export_command(
    file: Path = typer.Argument(..., help="Where to write: .csv or .json."),
    query: str | None = typer.Option(None, "--query", "-q", help="Only the cards matching this query."),
    edition: str | None = typer.Option(None, "--edition", "-e", help="Only this edition."),
) -> None:
    """Export cards to CSV or JSON (the import format)."""
    from cardbase.catalog import export

    fmt = export.file_format(file)  # a bad suffix is said before the database is read
    records = read(lambda s: export.export_records(s, query=query, edition=edition))
    n = export.write_records(file, records, fmt)
    typer.echo(tr("transfer.exported", count=n, path=file))
