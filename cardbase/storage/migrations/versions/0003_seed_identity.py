"""seed identity: origin of games, editions, cards and decks; the record of what data/ seeded

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-25 17:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision = '0003'
down_revision = '0002'
branch_labels = None
depends_on = None

TABLES = ('game', 'edition', 'card', 'deck')


def upgrade() -> None:
    # Existing rows get no origin: the next start recognises what came from data/ by its code,
    # once, and records it (cardbase.catalog.seed, "adoption"); nothing is read from data/ here.
    for table in TABLES:
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.add_column(sa.Column('origin', sqlmodel.sql.sqltypes.AutoString(length=200),
                                          nullable=True))
            batch_op.create_index(batch_op.f(f'ix_{table}_origin'), ['origin'], unique=True)
    op.create_table(
        'seed_item',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('kind', sqlmodel.sql.sqltypes.AutoString(length=20), nullable=False),
        sa.Column('origin', sqlmodel.sql.sqltypes.AutoString(length=200), nullable=False),
        sa.Column('data_hash', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=True),
        sa.Column('db_hash', sqlmodel.sql.sqltypes.AutoString(length=64), nullable=True),
        sa.Column('pulled_at', sqlmodel.sql.sqltypes.UTCDateTime(), nullable=False),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('kind', 'origin', name='uq_seed_item_kind_origin'),
    )


def downgrade() -> None:
    op.drop_table('seed_item')
    for table in reversed(TABLES):
        with op.batch_alter_table(table, schema=None) as batch_op:
            batch_op.drop_index(batch_op.f(f'ix_{table}_origin'))
            batch_op.drop_column('origin')
