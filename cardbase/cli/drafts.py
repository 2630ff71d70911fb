"""``--rules FILE`` of the commands that play a game by its code (``sim game``, ``sim measures``,
``sim rulings``, ``sim sweep --game``, ``games rulings``): a rules file outside ``data/rules/`` (a
draft) played under its code for that command only (:func:`cardbase.games.registry.drafted`)."""

from __future__ import annotations

import functools
from typing import Any

import typer

from cardbase.errors import CardbaseError
from cardbase.i18n import tr


def rules_option() -> Any:
    return typer.Option(None, "--rules", help="A rules file to play instead of a registered game (a draft).")


def plays_drafts(command: Any = None, *, game_arg: str = "game", required: bool = True) -> Any:
    """A command whose ``game_arg`` names a registered game and whose ``rules_path`` (``--rules
    FILE``) may name a draft instead: the draft is a game of the registry while the command runs,
    and the command gets its code. A game given beside the draft must be its code (``required``:
    the command needs a game, from one or the other)."""

    def wrap(fn: Any) -> Any:
        @functools.wraps(fn)
        def run(*args: Any, **kwargs: Any) -> Any:
            path = kwargs.get("rules_path")
            game = kwargs.get(game_arg)
            if path is None:
                if game is None and required:
                    raise CardbaseError(tr("games.draft.no_game"))
                return fn(*args, **kwargs)
            from cardbase.games import registry

            with registry.drafted(path) as info:
                if game is not None and game.strip().lower() != info["code"]:
                    raise CardbaseError(tr("games.draft.other_game", game=game, file=info["path"],
                                           code=info["code"]))
                kwargs[game_arg] = info["code"]
                return fn(*args, **kwargs)

        return run

    return wrap(command) if command is not None else wrap


def draft_of(code: str | None) -> dict[str, Any] | None:
    """What a report says of the draft played under ``code`` (None: a registered game's)."""
    if code is None:
        return None
    from cardbase.games import registry

    return registry.draft_info(code)


def say_draft(info: dict[str, Any] | None, *, played: bool = True) -> None:
    """The lines of a text report that played (or read, ``played`` False) a draft."""
    if info is None:
        return
    typer.echo(tr("games.draft.played" if played else "games.draft.read", file=info["path"], code=info["code"]))
    if info.get("replaces"):
        typer.echo(tr("games.draft.replaces", code=info["code"], shipped=info["replaces"]))
