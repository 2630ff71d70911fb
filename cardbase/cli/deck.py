"""``cardbase deck``: check deck lists, read their statistics, share them as codes, save them."""

from __future__ import annotations

from pathlib import Path

import typer

from cardbase.cli.common import EXIT_ERROR, handle_errors, print_json, read, session
from cardbase.errors import CardbaseError, DeckListError, Problem
from cardbase.i18n import tr

app = typer.Typer(help="Check, analyse, share and save decks (deck-list format: docs/decks.md).",
                  no_args_is_help=True)

FILE = typer.Argument(..., help="Deck-list file: `2 Nom de la carte` or `2 NP1-012` lines.")
GAME = typer.Option(None, "--game", "-g", help="Game code, when the list has no `# game:` line.")
JSON = typer.Option(False, "--json", help="Print JSON.")


def _problem_line(p: Problem) -> str:
    text = tr("decks.cli.where", where=p.where, message=p.message) if p.where else p.message
    fix = "\n      " + tr("decks.cli.fix", fix=p.fix) if p.fix else ""
    return f"  - [{p.code}] {text}{fix}"


def _error(exc: Exception) -> None:
    typer.echo(tr("cli.error", message=str(exc)), err=True)


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
                        "problems": [p.as_dict() for p in problems], "warnings": []})
        _error(exc)
        raise typer.Exit(EXIT_ERROR) from None
    from cardbase.decks.warnings import deck_warnings  # ruling R10

    try:
        result, warnings = read(lambda s: (decks.check_deck(s, deck_list, game),
                                           deck_warnings(s, deck_list, game)))
    except CardbaseError as exc:
        _error(exc)
        raise typer.Exit(EXIT_ERROR) from None
    # Warnings: true things about a deck that do not make it illegal (one sentence each, in the
    # current language). They are printed after the verdict and given in --json as "warnings".
    if json_out:
        print_json({**result.as_dict(), "warnings": [w.as_dict() for w in warnings]})
    else:
        name = deck_list.name or file.name
        if result.legal:
            typer.echo(tr("decks.cli.legal", name=name, cards=decks.n_cards(result.count)))
        else:
            typer.echo(tr("decks.cli.not_legal", name=name, cards=decks.n_cards(result.count),
                          problems=len(result.problems)))
            for p in result.problems:
                typer.echo(_problem_line(p))
        for w in warnings:  # legal or not, the exit code does not change
            typer.echo(w.line(), err=True)
    raise typer.Exit(0 if result.legal else 1)


def _bar(n: int, scale: int = 1) -> str:
    return "█" * min(n * scale, 60)


def _decimal(x: float) -> str:
    text = f"{x:.2f}"
    return text.replace(".", ",") if tr("decks.cli.decimal_comma") == "," else text


@app.command("stats")
@handle_errors
def stats_command(file: Path = FILE, game: str | None = GAME, json_out: bool = JSON) -> None:
    """Value curve, colours, keywords, rarities and exact draw odds by turn."""
    from cardbase import decks

    deck_list = decks.read_deck_file(file)
    stats = read(lambda s: decks.deck_stats(s, deck_list, game))
    if json_out:
        print_json(stats.as_dict())
        return
    mean = "—" if stats.mean_value is None else _decimal(stats.mean_value)
    typer.echo(tr("decks.cli.stats_head", name=deck_list.name or file.name,
                  cards=decks.n_cards(stats.count), total=stats.total_value, mean=mean))
    typer.echo("\n" + tr("decks.cli.value_curve"))
    for value, n in stats.value_curve.items():
        typer.echo(f"  {value:>3} │ {_bar(n)} {n}")
    for title, table in ((tr("decks.cli.colours"), stats.colours),
                         (tr("decks.cli.keywords"), stats.keywords),
                         (tr("decks.cli.rarities"), stats.rarities)):
        typer.echo(f"\n{title}")
        for key, n in table.items():
            typer.echo(f"  {key:<14} {n}")
        if not table:
            typer.echo("  —")
    if stats.draw_plan and stats.draw_odds:
        plan = stats.draw_plan
        hand = tr("decks.cli.hand")
        header = "  ".join(f"{hand if t == 0 else tr('decks.cli.turn', n=t):>5}"
                           for t in range(plan.turns + 1))
        typer.echo("\n" + tr("decks.cli.odds_title", seen=", ".join(
            str(plan.seen(t)) for t in range(plan.turns + 1))))
        typer.echo(f"  {tr('decks.cli.card'):<28} {'n':>2}  {header}")
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
                lines.append("# " + tr("decks.cli.data_differs"))
            lines.append("")
            for e in decoded.entries:
                name = e.card.name if e.card is not None else "?"
                status = (tr("decks.cli.status_unknown") if e.status == "unknown"
                          else tr("decks.cli.status_changed"))
                note = "" if e.status == "ok" else f"  # {status}"
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
            raise DeckListError(tr("decks.cli.which_game", file=file.name),
                                list(resolved.problems))
        deck = decks.save_deck(s, game=resolved.game, name=name or deck_list.name or file.stem,
                               entries=resolved, expected_version=expected_version, note=note)
        typer.echo(tr("decks.cli.saved", name=deck.name, version=deck.version))


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
        typer.echo(f"{r['game']:<10} {r['name']:<30} v{r['version']:<3} "
                   f"{decks.n_cards(r['count'])}")
    if not rows:
        typer.echo(tr("decks.cli.no_decks"), err=True)


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
        text = tr("decks.cli.starter_note") if v.note == decks.STARTER_NOTE else v.note
        note = f" — {text}" if text else ""
        typer.echo(f"v{v.number}  {v.saved_at:%Y-%m-%d %H:%M}  {decks.n_cards(count)}{note}")
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
    typer.echo(tr("decks.cli.deleted", name=name))
