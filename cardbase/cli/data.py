"""``cardbase init``, ``cardbase editions``, ``cardbase data`` and ``cardbase db``."""

from __future__ import annotations

from pathlib import Path

import typer

from cardbase.storage import db
from cardbase.cli.common import handle_errors, print_json, session
from cardbase.i18n import tr

editions_app = typer.Typer(help="List editions and check their numbering.", no_args_is_help=True)
data_app = typer.Typer(help="The data files under data/.", no_args_is_help=True)
db_app = typer.Typer(help="Database schema.", no_args_is_help=True)


@handle_errors
def init_command(reset: bool = typer.Option(False, "--reset", help="Drop everything first (asks no question).")) -> None:
    """Create the database (DATABASE_URL or data/cardbase.db), migrate it and seed it from data/."""
    from cardbase.i18n import tr

    engine = db.get_engine(init=False)
    counts = db.init_db(engine, reset=reset)
    items = [tr(f"db.count.{k}", n=v) for k, v in counts.items() if v]
    added = tr("db.added", items=", ".join(items)) if items else tr("db.nothing_added")
    typer.echo(tr("db.ready", where=db.describe(engine.url), added=added))
    warnings = list(counts.warnings)
    if not any(counts.values()):  # already seeded: say what data/ offers, never bring it in
        from cardbase.catalog import seed

        with db.session_scope(engine) as s:
            st = seed.status(s)
        warnings += [w for w in st.warnings if w not in warnings]
        offered = [e for e in st.entries if e.offered]
        if offered:
            typer.echo(tr("seed.status.offered", count=len(offered)))
    for warning in warnings:
        typer.echo(tr("db.warning", message=warning), err=True)


@editions_app.command("list")
@handle_errors
def editions_list(json_out: bool = typer.Option(False, "--json")) -> None:
    """Every edition with its card count and numbering check."""
    from cardbase.catalog import cards as catalog

    with session() as s:
        rows = catalog.edition_report(s)
    if json_out:
        print_json(rows)
        return
    for r in rows:
        status = tr("catalog.cli.numbering_ok") if r["numbering_ok"] else "; ".join(r["numbering_issues"])
        typer.echo(f"{r['code']:<6} {r['game']:<10} {r['cards']:>3}/{r['set_size']:<3} {r['name']}  [{status}]")


@editions_app.command("add")
@handle_errors
def editions_add(
    game: str = typer.Argument(..., help="Game code (cardbase games list)."),
    code: str = typer.Argument(..., help="Code of the new edition (letters and digits, e.g. MJ1)."),
    name: str = typer.Option(..., "--name", help="Name of the edition."),
    size: int = typer.Option(0, "--size", help="Number of cards in the set (numbering n/size)."),
    symbol: str | None = typer.Option(None, "--symbol", help="Edition symbol printed on the cards."),
    json_out: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """Create an edition of a game; cards can be imported into it at once."""
    from cardbase.catalog import cards as catalog

    with session() as s:
        ed = catalog.create_edition(s, game=game, code=code, name=name, set_size=size, symbol=symbol)
        data = _edition_data(s, ed.code)
    if json_out:
        print_json(data)
        return
    typer.echo(tr("gamesdata.cli.edition_created", code=data["code"], game=data["game"],
                  name=data["name"], version=data["version"]))


@editions_app.command("edit")
@handle_errors
def editions_edit(
    code: str = typer.Argument(..., help="Edition code."),
    version: int = typer.Option(..., "--version", help="Version you start from (editions list --json)."),
    set_: list[str] = typer.Option(..., "--set", help="FIELD=VALUE (repeatable): code, name, set_size, symbol, release_date, description, sample."),
    json_out: bool = typer.Option(False, "--json", help="Print JSON."),
) -> None:
    """Change an edition; refused if someone saved it since --version."""
    from cardbase.catalog import cards as catalog
    from cardbase.catalog import gamesdata
    from cardbase.errors import ValidationError

    changes, problems = gamesdata.edition_setting_changes(set_)
    if problems:
        raise ValidationError(tr("gamesdata.edition_not_saved", code=code, count=len(problems)), problems)
    with session() as s:
        ed = catalog.update_edition(s, code, expected_version=version, changes=changes)
        data = _edition_data(s, ed.code)
    if json_out:
        print_json(data)
        return
    typer.echo(tr("gamesdata.cli.edition_saved", code=data["code"], version=data["version"]))


def _edition_data(s, code: str) -> dict:
    from cardbase.catalog import cards as catalog

    return next(r for r in catalog.edition_report(s) if r["code"] == code)


@data_app.command("export")
@handle_errors
def data_export(
    edition: str | None = typer.Argument(None, help="Edition code; all editions when left out."),
    out_dir: Path = typer.Option(db.DATA_DIR / "editions", "--out", help="Folder to write CODE.toml files to."),
    games_file: Path | None = typer.Option(None, "--games", help="File to write the games to (default: games.toml beside the editions folder)."),
) -> None:
    """Write the games and the editions back to their diff-friendly data files."""
    from cardbase.catalog import cards as catalog
    from cardbase.storage import datafiles
    from cardbase.catalog import gamesdata

    with session() as s:
        codes = [edition] if edition else [r["code"] for r in catalog.edition_report(s)]
        out_dir.mkdir(parents=True, exist_ok=True)
        texts = [(out_dir / f"{catalog.get_edition(s, code).code}.toml", catalog.export_edition_text(s, code))
                 for code in codes]
        if not edition:
            games = [gamesdata.game_file_dict(g) for g in gamesdata.list_games(s)]
            target = games_file or out_dir.resolve().parent / "games.toml"
            texts.insert(0, (target, datafiles.dump_games(games)))
            # the games' rules files (data/rules/<code>.toml, docs/rules-language.md) are data files
            # already: they go beside games.toml as they are, byte for byte
            from cardbase.games.rulesdata.language import read_rules_text
            from cardbase.games.rulesdata.register import rules_dir

            rules_out = target.parent / "rules"
            source = rules_dir()
            if source.is_dir() and source.resolve() != rules_out.resolve():
                for path in sorted(source.glob("*.toml")):  # read within the rules files' limit
                    # (a pipe or /dev/zero named x.toml is refused, before anything is written)
                    texts.append((rules_out / path.name, read_rules_text(path).encode("utf-8")))
    for path, text in texts:
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(text, bytes):
            path.write_bytes(text)
        else:
            path.write_text(text, encoding="utf-8")
        typer.echo(tr("gamesdata.cli.wrote", path=str(path)))


@data_app.command("status")
@handle_errors
def data_status(
    json_out: bool = typer.Option(False, "--json", help="Print JSON."),
    data: Path = typer.Option(db.DATA_DIR, "--data", help="The data folder to compare with (default: data/)."),
) -> None:
    """What differs between data/ and the database: new or changed in data/, changed, deleted or
    renamed in the database. Nothing is written."""
    from cardbase.catalog import seed

    with session() as s:
        st = seed.status(s, data)
    if json_out:
        print_json(st.as_dict())
        return
    for warning in st.warnings:
        typer.echo(tr("db.warning", message=warning), err=True)
    if not st.seeded:
        typer.echo(tr("seed.status.not_seeded"))
    if not st.entries:
        typer.echo(tr("seed.status.none", unchanged=st.unchanged))
        return
    typer.echo(tr("seed.status.header", count=len(st.entries), unchanged=st.unchanged))
    for entry in st.entries:
        states = ", ".join(tr(f"seed.state.{state}") for state in entry.states)
        where = f" [{entry.file}]" if entry.file else ""
        typer.echo(f"  {entry.label()}{where} — {states}")
        for state, numbers in entry.cards.items():
            typer.echo("      " + tr("seed.status.cards", state=tr(f"seed.state.{state}"),
                                     numbers=", ".join(str(n) for n in numbers),
                                     count=len(numbers)))
    typer.echo(tr("seed.status.hint"))


@data_app.command("pull")
@handle_errors
def data_pull(
    codes: list[str] = typer.Argument(None, help="What to bring: codes of games, editions (as in data/ or as renamed), starter decks, sticker colours."),
    all_: bool = typer.Option(False, "--all", help="Bring everything data/ offers (what you changed or deleted stays so)."),
    overwrite: bool = typer.Option(False, "--overwrite", help="Also overwrite what you changed and bring back what you deleted."),
    dry_run: bool = typer.Option(False, "--dry-run", help="Check and show what would be brought; write nothing."),
    json_out: bool = typer.Option(False, "--json", help="Print JSON."),
    data: Path = typer.Option(db.DATA_DIR, "--data", help="The data folder to bring from (default: data/)."),
) -> None:
    """Bring chosen changes of data/ into the database, with the checks of an import, all or nothing."""
    from cardbase.catalog import seed

    with session() as s:
        report = seed.pull(s, list(codes or []), everything=all_, overwrite=overwrite, dry_run=dry_run,
                           data_dir=data)
    if json_out:
        print_json(report.as_dict())
        return
    brought = ", ".join(e.label() for e in report.brought) or tr("seed.pull.none")
    typer.echo(tr("seed.pull.would_bring" if dry_run else "seed.pull.brought", what=brought))
    for entry in report.skipped:
        typer.echo(tr("seed.pull.nothing_to_bring", what=entry.label()))
    for entry in report.left:
        states = ", ".join(tr(f"seed.state.{state}") for state in entry.states)
        typer.echo(tr("seed.pull.left_out", what=entry.label(), states=states))


@db_app.command("upgrade")
@handle_errors
def db_upgrade() -> None:
    """Apply the schema migrations (Alembic) to the database; cards and decks are kept."""
    from cardbase.i18n import tr

    engine = db.get_engine(init=False)
    before = db.current_revision(engine)
    db.upgrade(engine)
    typer.echo(tr("db.schema_at", revision=db.current_revision(engine),
                  before=before or tr("db.schema_empty")))


@db_app.command("current")
@handle_errors
def db_current() -> None:
    """Show the schema revision of the database."""
    from cardbase.i18n import tr

    typer.echo(db.current_revision(db.get_engine(init=False)) or tr("db.schema_empty"))


from cardbase.cli import db_backup as _db_backup  # noqa: E402 - `db dump`, `db restore` need db_app

_db_backup.register(db_app)
