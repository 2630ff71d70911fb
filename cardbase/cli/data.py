"""``cardbase init``, ``cardbase editions``, ``cardbase data`` and ``cardbase db``."""

from __future__ import annotations

from pathlib import Path

import typer

from cardbase import db
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
    for warning in counts.warnings:
        typer.echo(tr("db.warning", message=warning), err=True)


@editions_app.command("list")
@handle_errors
def editions_list(json_out: bool = typer.Option(False, "--json")) -> None:
    """Every edition with its card count and numbering check."""
    from cardbase import catalog

    with session() as s:
        rows = catalog.edition_report(s)
    if json_out:
        print_json(rows)
        return
    for r in rows:
        status = tr("catalog.cli.numbering_ok") if r["numbering_ok"] else "; ".join(r["numbering_issues"])
        typer.echo(f"{r['code']:<6} {r['game']:<10} {r['cards']:>3}/{r['set_size']:<3} {r['name']}  [{status}]")


@data_app.command("export")
@handle_errors
def data_export(
    edition: str | None = typer.Argument(None, help="Edition code; all editions when left out."),
    out_dir: Path = typer.Option(db.DATA_DIR / "editions", "--out", help="Folder to write CODE.toml files to."),
) -> None:
    """Write editions back to their diff-friendly data files."""
    from cardbase import catalog

    with session() as s:
        codes = [edition] if edition else [r["code"] for r in catalog.edition_report(s)]
        out_dir.mkdir(parents=True, exist_ok=True)
        for code in codes:
            text = catalog.export_edition_text(s, code)
            path = out_dir / f"{catalog.get_edition(s, code).code}.toml"
            path.write_text(text, encoding="utf-8")
            typer.echo(f"wrote {path}")


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
