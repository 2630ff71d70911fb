"""`cardbase sticker …`: the Overseers sticker codes (values as stickers, colours as symbols)."""

from __future__ import annotations

from typing import Annotated

import typer

from cardbase.catalog import stickers
from cardbase.cli.common import EXIT_ERROR, fail, print_json
from cardbase.errors import CardbaseError, StickerError
from cardbase.i18n import tr
from cardbase.text import canonical_colour

app = typer.Typer(
    help="Sticker codes (Overseers « Adaptation »): value ↔ stickers, colour → symbol.",
    no_args_is_help=True,
)

JsonOpt = Annotated[bool, typer.Option("--json", help="Print machine-readable JSON.")]


def _fail(exc: CardbaseError) -> None:
    fail(str(exc), EXIT_ERROR)


def _cut(text: str, limit: int = 30) -> str:
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _emit(data: dict, as_json: bool, text: str) -> None:
    if as_json:
        print_json(data)
    else:
        typer.echo(text)


@app.command(context_settings={"ignore_unknown_options": True})
def encode(
    value: Annotated[str, typer.Argument(help="A card value, a whole number 0 or more.")],
    as_json: JsonOpt = False,
) -> None:
    """Show the stickers that code VALUE (17 → un carré pointé + un rond pointé + deux points)."""
    try:
        text = value.strip()
        if not text.lstrip("+-").isascii() or not text.lstrip("+-").isdigit():
            raise StickerError(tr("stickers.cli.not_a_number", value=_cut(value)))
        if len(text.lstrip("+-0")) > 12:  # far beyond stickers.MAX_VALUE; int() would be slow
            raise StickerError(tr("stickers.too_large", value=_cut(text),
                                  limit=stickers.MAX_VALUE))
        number = int(text)
        result = stickers.encode(number)
    except CardbaseError as exc:
        _fail(exc)
        return
    data = {"value": number, "stickers": [s.as_dict() for s in result],
            "text": stickers.format_stickers(result),
            "compact": stickers.format_stickers(result, compact=True)}
    lines = [f"{number} = {data['text']}  ({data['compact']})"]
    if len(result) > 0:
        lines.append(tr("stickers.cli.count", count=len(result)))
    _emit(data, as_json, "\n".join(lines))


@app.command()
def decode(
    text: Annotated[str, typer.Argument(help='Stickers, e.g. "un carré pointé + deux points".')],
    as_json: JsonOpt = False,
) -> None:
    """Read stickers written in French or English (or compact: "C1 R 2P") and print their value."""
    try:
        value = stickers.decode(text)
    except CardbaseError as exc:
        _fail(exc)
        return
    canonical = stickers.encode(value)
    data = {"text": text, "value": value,
            "canonical": [s.as_dict() for s in canonical],
            "canonical_text": stickers.format_stickers(canonical)}
    _emit(data, as_json, str(value))


@app.command()
def colour(
    name: Annotated[str, typer.Argument(help="A colour: rouge, Bleue, gris…")],
    symbol: Annotated[
        str | None,
        typer.Option("--symbol", help=f"Give the colour this symbol: {', '.join(stickers.SYMBOLS)}."),
    ] = None,
    label: Annotated[
        str | None,
        typer.Option("--label", help="How the symbol is written on the sticker sheet."),
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Show the symbol of a colour; with --symbol, add the colour to the database table."""
    from cardbase.storage.db import session_scope

    warning = ""
    try:
        with session_scope() as session:
            if symbol is not None:
                key = stickers.symbol_key(symbol)
                others = stickers.symbol_users(session, key)
                row = stickers.add_colour(session, name, key, label)
                if others:
                    warning = tr("stickers.cli.shared_symbol", others=", ".join(others),
                                 count=len(others), symbol=key)
                added = True
            else:
                added = False
            table = stickers.colour_table(session)
            key = stickers.colour_symbol(name, table)
            colour_key = canonical_colour(name)
            if symbol is None:
                from sqlmodel import select

                from cardbase.storage.models import StickerColour

                row = session.exec(
                    select(StickerColour).where(StickerColour.colour == colour_key)).first()
            label_text = (row.label if row is not None and row.label else
                          stickers.SYMBOLS.get(key, key))
            if label_text == stickers.SYMBOLS.get(key):  # the rules' own name: in the language
                label_text = stickers.symbol_label(key)
    except CardbaseError as exc:
        _fail(exc)
        return
    if warning:
        typer.echo(warning, err=True)
    data = {"colour": colour_key, "symbol": key, "label": label_text, "added": added}
    message = "stickers.cli.now_has_symbol" if added else "stickers.cli.has_symbol"
    _emit(data, as_json, tr(message, colour=colour_key, label=label_text, symbol=key))
