"""The ``cardbase`` command line: everything the app does, for people and for scripts.

Each command group lives in its own module and calls the same service functions as the app.
"""

from __future__ import annotations

import typer

from cardbase.cli import cards as _cards
from cardbase.cli import data as _data
from cardbase.cli import deck as _deck
from cardbase.cli import print_cmd as _print_cmd
from cardbase.cli import sim as _sim
from cardbase.cli import sticker as _sticker

app = typer.Typer(
    name="cardbase",
    help="Cards, decks, printing and playtests for homemade card games.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

@app.callback()
def _global_options(
    lang: str = typer.Option(None, "--lang", envvar="CARDBASE_LANG", metavar="fr|en",
                             help="Langue des messages : fr (par défaut) ou en / language of the messages."),
) -> None:
    """Cartes, decks, impression et parties de test pour jeux de cartes faits maison."""
    from cardbase import i18n

    i18n.set_language(lang)


app.command("init")(_data.init_command)
app.add_typer(_cards.app, name="cards")
app.add_typer(_data.editions_app, name="editions")
app.add_typer(_data.data_app, name="data")
app.add_typer(_data.db_app, name="db")

app.add_typer(_sticker.app, name="sticker")
app.add_typer(_deck.app, name="deck")
app.add_typer(_sim.app, name="sim")
_print_cmd.register(app)


def main() -> None:
    app()
