"""``cardbase games check FILE``: a rules file checked (every problem at once) and tried by bots."""

from __future__ import annotations

from pathlib import Path

import typer

from cardbase.cli.common import handle_errors, print_json
from cardbase.i18n import tr


@handle_errors
def check_command(
    file: Path = typer.Argument(..., help="A rules file (data/rules/<code>.toml)."),
    edition: list[Path] | None = typer.Option(None, "--edition", "-e", help="Edition file(s) with the game's cards."),
    games: int = typer.Option(20, "--games", "-n", help="Random games played to see that the game ends (0: none)."),
    json_out: bool = typer.Option(False, "--json", help="JSON output."),
) -> None:
    """Check a rules file: every problem at once with its line and key, then a few random games."""
    from cardbase.errors import CardbaseError
    from cardbase.games.rulesdata.measures import try_random
    from cardbase.games.rulesdata.language import load_rules

    if not 0 <= games <= 1000:
        raise CardbaseError(tr("rulesdata.cli.bad_games", games=games))
    rules = load_rules(file)
    cards = []
    if edition:
        from cardbase.playtest.cards import load_edition_defs

        cards = [c for c in load_edition_defs(edition) if c.game == rules.code]
    tried = try_random(rules, cards, games) if games and (cards or rules.source == "generated") else None
    if json_out:
        print_json({"file": str(file), "code": rules.code, "ok": True, "tried": tried})
        return
    typer.echo(tr("rulesdata.cli.ok", file=str(file), code=rules.code, zones=len(rules.zones),
                  actions=len(rules.actions)))
    if tried is None:
        typer.echo(tr("rulesdata.cli.not_tried"))
        return
    typer.echo(tr("rulesdata.cli.tried", games=tried["games"], ended=tried["ended"],
                  mean=tried["mean_turns"]))
    if tried["ended"] < tried["games"]:
        typer.echo(tr("rulesdata.cli.safety", count=tried["games"] - tried["ended"]))
