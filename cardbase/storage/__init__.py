"""Storage: where cardbase keeps things — the SQL tables (``models``), the engine, sessions and
Alembic migrations (``db``, ``migrations/``), where the database is and what it should be
(``schema``), the read-only path of the SQLite default without SQLAlchemy (``readonly``), the
canonical TOML files of ``data/`` (``datafiles``),
the write locks (``writelock``) and the art folder (``art``: safe paths, checked images). It may import only the shared kernel (``cardbase.config``,
``errors``, ``i18n``, ``text``, ``domain``); it never calls a service — seeding included, which the
catalog registers as the seeder that ``db`` runs on a fresh database — nor a game, nor a face.
"""
