"""The ``cardbase`` command line: everything the app does, for people and for scripts.

Each command group lives in its own module and calls the same service functions as the app. The
root group (:mod:`cardbase.cli.frame`) imports a group's module only when one of its commands runs
or its help is shown, and prints everything in French by default, in English with ``--lang en`` or
``CARDBASE_LANG=en`` (an unknown language falls back to French, with a warning).

One of the two faces (with :mod:`cardbase.ui`): it may import every layer below it and Typer,
never the app's pages.
"""

from __future__ import annotations

import typer

from cardbase.cli.coercion import install as _plain_values
from cardbase.cli.frame import CardbaseGroup

_plain_values()  # plain option values without pydantic (cardbase.cli.coercion)

__all__ = ["app", "main"]

app = typer.Typer(
    name="cardbase",
    help="Cards, decks, printing and playtests for homemade card games.",
    cls=CardbaseGroup,
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


@app.callback()
def _global_options(
    lang: str = typer.Option(None, "--lang", envvar="CARDBASE_LANG", metavar="fr|en",
                             help="Language of the messages: fr (default) or en. Also CARDBASE_LANG."),
) -> None:
    """Cards, decks, printing and playtests for homemade card games."""
    from cardbase import i18n

    if lang:  # without --lang or CARDBASE_LANG the frame has already chosen French, the default
        i18n.set_language(lang)


def main() -> None:
    app()
