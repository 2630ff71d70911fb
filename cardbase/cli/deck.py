"""``cardbase deck``: check deck lists, read their statistics, share them as codes, save them."""

from __future__ import annotations

from pathlib import Path

import typer

from cardbase.cli.common import EXIT_ERROR, handle_errors, print_json, session
from cardbase.errors import CardbaseError, DeckListError, Problem

app = typer.Typer(help="Check, analyse, share and save decks (deck-list format: docs/decks.md).",
                  no_args_is_help=True)

FILE = typer.Argument(..., help="Deck-list file: `2 Nom de la carte` or `2 NP1-012` lines.")
GAME = typer.Option(None, "--game", "-g", help="Game code, when the list has no `# game:` line.")
JSON = typer.Option(False, "--json", help="Print JSON.")


def _problem_line(p: Problem) -> str:
    where = f"{p.where}: " if p.where else ""
    fix = f"\n      fix: {p.fix}" if p.fix else ""
    return f"  - [{p.code}] {where}{p.message}{fix}"


@app.command("validate")
def validate_command(file: Path = FILE, game: str | None = GAME, json_out: bool = JSON) -> None:
    """Check a deck against its game's rules. Exit 0 legal, 1 not legal, 2 unreadable."""
    from cardbase import decks

    try:
        deck_list = decks.read_deck_file(file)
    except DeckListError as exc:
        if json_out:
            problems = exc.problems or [Problem("unreadable", exc.message.splitlines()[0])]
            print_json({"legal": False, "count": 0,
                        "problems": [p.as_dict() for p in problems]})
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(EXIT_ERROR) from None
    try:
        with session() as s:
            result = decks.check_deck(s, deck_list, game)
    except CardbaseError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(EXIT_ERROR) from None
    if json_out:
        print_json(result.as_dict())
    else:
        name = deck_list.name or file.name
        if result.legal:
            typer.echo(f"{name}: legal ({result.count} cards)")
        else:
            typer.echo(f"{name}: NOT legal ({result.count} cards, "
                       f"{len(result.problems)} problem(s))")
            for p in result.problems:
                typer.echo(_problem_line(p))
    raise typer.Exit(0 if result.legal else 1)


def _bar(n: int, scale: int = 1) -> str:
    return "█" * (n * scale)


@app.command("stats")
@handle_errors
def stats_command(file: Path = FILE, game: str | None = GAME, json_out: bool = JSON) -> None:
    """Value curve, colours, keywords, rarities and exact draw odds by turn."""
    from cardbase import decks

    deck_list = decks.read_deck_file(file)
    with session() as s:
        stats = decks.deck_stats(s, deck_list, game)
    if json_out:
        print_json(stats.as_dict())
        return
    mean = "—" if stats.mean_value is None else f"{stats.mean_value:.2f}"
    typer.echo(f"{deck_list.name or file.name}: {stats.count} cards, total value "
               f"{stats.total_value}, mean {mean}")
    typer.echo("\nValue curve")
    for value, n in stats.value_curve.items():
        typer.echo(f"  {value:>3} │ {_bar(n)} {n}")
    for title, table in (("Colours", stats.colours), ("Keywords", stats.keywords),
                         ("Rarities", stats.rarities)):
        typer.echo(f"\n{title}")
        for key, n in table.items():
            typer.echo(f"  {key:<14} {n}")
        if not table:
            typer.echo("  —")
    if stats.draw_plan and stats.draw_odds:
        plan = stats.draw_plan
        header = "  ".join(f"{'hand' if t == 0 else f'T{t}':>5}" for t in range(plan.turns + 1))
        typer.echo(f"\nChance of at least one copy seen (cards seen: "
                   f"{', '.join(str(plan.seen(t)) for t in range(plan.turns + 1))})")
        typer.echo(f"  {'card':<28} {'n':>2}  {header}")
        for o in sorted(stats.draw_odds, key=lambda o: (-o.copies, o.name)):
            cells = "  ".join(f"{float(p) * 100:>4.0f}%" for p in o.by_turn)
            typer.echo(f"  {o.name[:28]:<28} {o.copies:>2}  {cells}")
    for p in stats.problems:
        typer.echo(_problem_line(p), err=True)


@app.command("code")
@handle_errors
def code_command(file: Path = FILE, game: str | None = GAME) -> None:
    """Print the shareable deck code of a deck list."""
    from cardbase import decks

    deck_list = decks.read_deck_file(file)
    with session() as s:
        typer.echo(decks.encode_deck_code(s, deck_list, game))


@app.command("decode")
@handle_errors
def decode_command(code: str = typer.Argument(..., help="A deck code."),
                   json_out: bool = JSON) -> None:
    """Turn a deck code back into a deck list; say which cards are unknown or changed."""
    from cardbase import decks

    with session() as s:
        decoded = decks.decode_deck_code(s, code)
        if json_out:
            print_json(decoded.as_dict())
        else:
            lines = [f"# game: {decoded.game}"]
            if not decoded.same_data:
                lines.append("# the card data differs from the data the code was made with")
            lines.append("")
            for e in decoded.entries:
                name = e.card.name if e.card is not None else "?"
                note = "" if e.status == "ok" else f"  # {e.status}"
                lines.append(f"{e.count} {e.ref}  # {name}{note}" if e.status == "ok"
                             else f"{e.count} {e.ref}{note}")
            typer.echo("\n".join(lines))
    for p in decoded.problems:
        typer.echo(_problem_line(p), err=True)
    if decoded.problems:
        raise typer.Exit(1)


@app.command("save")
@handle_errors
def save_command(
    file: Path = FILE,
    game: str | None = GAME,
    name: str | None = typer.Option(None, "--name", help="Deck name (default: `# name:`)."),
    expected_version: int | None = typer.Option(
        None, "--expected-version", help="Version you are replacing (needed for an existing deck)."),
    note: str | None = typer.Option(None, "--note", help="A note kept with this version."),
) -> None:
    """Save a deck list in the database, keeping its previous versions."""
    from cardbase import decks

    deck_list = decks.read_deck_file(file)
    with session() as s:
        resolved = decks.resolve_deck(s, deck_list, game=game)
        if resolved.game is None:
            raise DeckListError(f"{file.name}: say which game with `# game:` or --game",
                                list(resolved.problems))
        deck = decks.save_deck(s, game=resolved.game, name=name or deck_list.name or file.stem,
                               entries=resolved, expected_version=expected_version, note=note)
        typer.echo(f"saved « {deck.name} » version {deck.version}")


@app.command("list")
@handle_errors
def list_command(game: str | None = GAME, json_out: bool = JSON) -> None:
    """List the saved decks."""
    from cardbase import decks

    with session() as s:
        rows = []
        for d in decks.list_decks(s, game=game):
            entries = decks.deck_entries(s, d)
            rows.append({"id": d.id, "game": entries.game.code if entries.game else None,
                         "name": d.name, "version": d.version, "count": entries.count})
    if json_out:
        print_json(rows)
        return
    for r in rows:
        typer.echo(f"{r['game']:<10} {r['name']:<30} v{r['version']:<3} {r['count']} cards")


@app.command("history")
@handle_errors
def history_command(name: str = typer.Argument(..., help="Deck name."),
                    game: str | None = GAME, json_out: bool = JSON) -> None:
    """Every saved version of a deck and what changed between them."""
    from cardbase import decks

    with session() as s:
        deck = decks.get_deck(s, name, game=game)
        versions = decks.deck_history(s, deck.id)
    if json_out:
        print_json([{"number": v.number, "saved_at": v.saved_at, "note": v.note,
                     "entries": v.entries} for v in versions])
        return
    prev = None
    for v in versions:
        count = sum(int(e["count"]) for e in v.entries)
        note = f" — {v.note}" if v.note else ""
        typer.echo(f"v{v.number}  {v.saved_at:%Y-%m-%d %H:%M}  {count} cards{note}")
        if prev is not None:
            for line in decks.diff_versions(prev, v).lines():
                typer.echo(f"    {line}")
        prev = v


@app.command("delete")
@handle_errors
def delete_command(name: str = typer.Argument(..., help="Deck name."), game: str | None = GAME,
                   version: int | None = typer.Option(
                       None, "--version", help="Refuse if the deck was saved since this version.")) -> None:
    """Delete a saved deck and its history."""
    from cardbase import decks

    with session() as s:
        deck = decks.get_deck(s, name, game=game)
        decks.delete_deck(s, deck.id, expected_version=version)
    typer.echo(f"deleted deck « {name} »")
