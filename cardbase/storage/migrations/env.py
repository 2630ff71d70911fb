"""Alembic environment: runs the migrations on the connection (or engine) cardbase hands over.

cardbase passes ``config.attributes["connection"]``: a connection already inside the start-up
transaction, holding the start-up lock (see ``cardbase.storage.db.init_db``); the migrations then run in
that transaction and commit with the seeding, or not at all. The database URL is never put in the
configuration (its text would go through configparser and into messages).
"""

from __future__ import annotations

from alembic import context
from sqlmodel import SQLModel

import cardbase.storage.models  # noqa: F401 - registers the tables on SQLModel.metadata

config = context.config
target_metadata = SQLModel.metadata


def _run(connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        _run(connection)
        return
    engine = config.attributes.get("engine")
    if engine is None:
        from cardbase.storage.db import make_engine

        engine = make_engine()
    from cardbase.storage.db import _init_connection

    with _init_connection(engine) as conn:
        _run(conn)


if context.is_offline_mode():
    from cardbase.storage.db import _parse_url, database_url

    context.configure(dialect_name=_parse_url(database_url()).get_backend_name(),
                      target_metadata=target_metadata, literal_binds=True)
    with context.begin_transaction():
        context.run_migrations()
else:
    run_migrations_online()
