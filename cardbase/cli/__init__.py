"""The ``cardbase`` command line: everything the app does, for people and for scripts.

Each command group lives in its own module and calls the same service functions as the app.
"""

from __future__ import annotations

import importlib

import typer

from cardbase.cli import cards as _cards
from cardbase.cli import data as _data

app = typer.Typer(
    name="cardbase",
    help="Cards, decks, printing and playtests for homemade card games.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

app.command("init")(_data.init_command)
app.add_typer(_cards.app, name="cards")
app.add_typer(_data.editions_app, name="editions")
app.add_typer(_data.data_app, name="data")
app.add_typer(_data.db_app, name="db")

# Command groups provided by the other modules of the package.
for _module, _name in (("sticker", "sticker"), ("deck", "deck"), ("sim", "sim")):
    try:
        _mod = importlib.import_module(f"cardbase.cli.{_module}")
    except ModuleNotFoundError as _exc:  # pragma: no cover - only while a module is being written
        if _exc.name != f"cardbase.cli.{_module}":
            raise
        continue
    app.add_typer(_mod.app, name=_name)
try:
    _print_cmd = importlib.import_module("cardbase.cli.print_cmd")
except ModuleNotFoundError as _exc:  # pragma: no cover - only while the module is being written
    if _exc.name != "cardbase.cli.print_cmd":
        raise
else:
    _print_cmd.register(app)


def main() -> None:
    app()
