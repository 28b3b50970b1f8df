"""Fewer B-trees per append (issue 16, server CPU per command).

Each append writes one ``commands`` row and one or more ``events`` rows. At 0004 that touched
five B-trees on SQLite: each table's rowid tree, each table's primary-key autoindex, and
``ix_events_fight_type``; SQLite's WAL commit wrote 6.2 pages per append (docs/benchmarks.md).

- SQLite: ``events`` and ``commands`` become ``WITHOUT ROWID`` tables. Their rows are stored
  in their primary key's B-tree ((fight_id, seq) and (fight_id, command_id)), so the rowid tree
  and the autoindex become one tree. Same columns, same keys, same foreign key, every row
  copied (alembic's batch mode: create, INSERT ... SELECT, drop, rename). PostgreSQL has no
  rowid: nothing to rebuild there.
- Both: ``ix_events_fight_type`` (fight_id, type), which every append updated, becomes
  ``ix_events_control``: (fight_id, seq) of the undo/redo events only (``reverted``,
  ``restored``: ``rules.core.CONTROL_EVENTS``), a partial index. Only
  ``SqlStore.control_events`` reads it, and it wants those events of a fight in seq order,
  which this index holds as they are; an ordinary append never touches it. The types are
  written out here, not imported: a migration describes the schema as it was made.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-26
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

_CONTROL = "type IN ('reverted', 'restored')"
_REBUILT = ("events", "commands")


def _rebuild_sqlite_tables(with_rowid: bool) -> None:
    """Copy ``events`` and ``commands`` into new tables with or without a rowid (SQLite only)."""
    if op.get_bind().dialect.name != "sqlite":
        return
    for table in _REBUILT:
        with op.batch_alter_table(table, recreate="always", table_kwargs={"sqlite_with_rowid": with_rowid}):
            pass


def upgrade() -> None:
    op.drop_index("ix_events_fight_type", "events")
    _rebuild_sqlite_tables(with_rowid=False)
    op.create_index("ix_events_control", "events", ["fight_id", "seq"],
                    sqlite_where=sa.text(_CONTROL), postgresql_where=sa.text(_CONTROL))


def downgrade() -> None:
    op.drop_index("ix_events_control", "events")
    _rebuild_sqlite_tables(with_rowid=True)
    op.create_index("ix_events_fight_type", "events", ["fight_id", "type"])
