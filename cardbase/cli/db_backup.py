"""``cardbase db dump FILE`` and ``cardbase db restore FILE``: whole-database backups."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import typer

from cardbase.storage import db
from cardbase.cli.common import handle_errors, print_json
from cardbase.i18n import tr

if TYPE_CHECKING:
    from cardbase.catalog import backup

ART_DIR = typer.Option(None, "--art-dir",
                       help="Art folder to include / restore into (default: CARDBASE_ART_DIR or data/art).")
DUMP_FILE = typer.Argument(..., help="Archive to write (a .zip file).")
RESTORE_FILE = typer.Argument(..., help="Archive written by `cardbase db dump`.")
JSON_OUT = typer.Option(False, "--json", help="Print the report as JSON.")


def _report(report: backup.BackupReport, verb: str, json_out: bool) -> None:
    if json_out:
        print_json({"file": str(report.path), "schema_revision": report.schema_revision,
                    "rows": report.rows, "art_files": report.art_files, "bytes": report.bytes})
    else:
        typer.echo(f"{verb} {report.summary()}")


@handle_errors
def db_dump(file: Path = DUMP_FILE,
            art_dir: Path | None = ART_DIR, json_out: bool = JSON_OUT,
            force: bool = typer.Option(False, "--force", help="Replace FILE if it already exists.")) -> None:
    """Write the whole database and the art folder to one portable archive (written atomically)."""
    from cardbase.catalog import backup

    engine = db.get_engine(init=False)
    report = backup.dump_database(engine, file, art_dir=art_dir or backup.default_art_dir(), force=force)
    _report(report, tr("backup.dumped"), json_out)


@handle_errors
def db_restore(file: Path = RESTORE_FILE,
               art_dir: Path | None = ART_DIR, json_out: bool = JSON_OUT) -> None:
    """Restore an archive into an EMPTY database (DATABASE_URL); a database with data is refused."""
    from cardbase.catalog import backup

    engine = db.get_engine(init=False)
    report = backup.restore_database(engine, file, art_dir=art_dir)
    _report(report, tr("backup.restored"), json_out)


def register(db_app: typer.Typer) -> None:
    db_app.command("dump")(db_dump)
    db_app.command("restore")(db_restore)
