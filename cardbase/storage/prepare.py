"""Create, migrate and seed the database in a process of its own:
``python -m cardbase.storage.prepare`` (``DATABASE_URL`` or the default SQLite file).

The app's server starts it when its SQLite file is new or not ready to read
(:mod:`cardbase.ui.warmup`), so that the process answering the browser imports neither SQLAlchemy
nor SQLModel, and does not seed, for the first page: it reads the file through the read-only path
(:mod:`cardbase.storage.readonly`) once this process is done. The work is the usual start-up,
:func:`cardbase.storage.db.get_engine` — the same code, the same lock (two first runs at once
seed once) and the same single transaction (a kill half-way leaves the database as it was, and the
next start does it again).

Exit status 0 when the database is ready, 1 when it is not (the message on stderr, one line: the
page meets the same error on its own path and shows it in the app's language).
"""

from __future__ import annotations

import sys


def main() -> int:
    from cardbase.errors import CardbaseError
    from cardbase.storage import db

    try:
        db.get_engine(db.database_url())
    except CardbaseError as exc:
        print(str(exc).split("\n", 1)[0], file=sys.stderr)
        return 1
    finally:
        db.dispose_engines()
    return 0


if __name__ == "__main__":
    sys.exit(main())
