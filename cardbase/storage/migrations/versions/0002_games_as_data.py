"""games as data: template, declared card fields and version of a game

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-23 14:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
import sqlmodel
from alembic import op

revision = '0002'
down_revision = '0001'
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Existing games get no declared field, no template of their own and version 1.
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.add_column(sa.Column('template', sqlmodel.sql.sqltypes.AutoString(length=80),
                                      nullable=True))
        batch_op.add_column(sa.Column('fields', sa.JSON(), nullable=False, server_default='[]'))
        batch_op.add_column(sa.Column('version', sa.Integer(), nullable=False, server_default='1'))


def downgrade() -> None:
    with op.batch_alter_table('game', schema=None) as batch_op:
        batch_op.drop_column('version')
        batch_op.drop_column('fields')
        batch_op.drop_column('template')
