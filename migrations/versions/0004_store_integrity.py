"""Store integrity (#15 items 4, 6, 10).

- ``events.command_id`` and ``commands.command_id`` hold the seat id (up to 64
  characters), a colon and the client's command id (up to 128, the protocol
  schema's limit): 193 characters, so the columns are widened to 200 (item 10).
- On PostgreSQL, event payloads, snapshot states and seat combatants are stored
  as ``json`` (the text as written) instead of ``jsonb``: jsonb re-normalises
  numbers (``1e+16`` comes back as ``10000000000000000``), so the bytes read back
  were not the bytes hashed and the chain broke (item 4). SQLite keeps text.
- Snapshots gain ``hash`` (the event hash at their seq) and ``digest`` (sha256 of
  the hash and the stored state) so that a load can check them (item 6). Older
  snapshots keep NULL and are ignored (refolded) until a new one is written.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-24
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

_JSON_COLUMNS = (("events", "payload"), ("snapshots", "state"), ("seats", "combatants"))


def _retype_json(to_jsonb: bool) -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    target = "jsonb" if to_jsonb else "json"
    for table, column in _JSON_COLUMNS:
        op.execute(f"ALTER TABLE {table} ALTER COLUMN {column} TYPE {target} USING {column}::text::{target}")


def upgrade() -> None:
    with op.batch_alter_table("events") as batch:
        batch.alter_column("command_id", type_=sa.String(200), existing_type=sa.String(128), existing_nullable=False)
    with op.batch_alter_table("commands") as batch:
        batch.alter_column("command_id", type_=sa.String(200), existing_type=sa.String(128), existing_nullable=False)
    with op.batch_alter_table("snapshots") as batch:
        batch.add_column(sa.Column("hash", sa.String(64), nullable=True))
        batch.add_column(sa.Column("digest", sa.String(64), nullable=True))
    _retype_json(to_jsonb=False)


def downgrade() -> None:
    _retype_json(to_jsonb=True)
    with op.batch_alter_table("snapshots") as batch:
        batch.drop_column("digest")
        batch.drop_column("hash")
    with op.batch_alter_table("commands") as batch:
        batch.alter_column("command_id", type_=sa.String(128), existing_type=sa.String(200), existing_nullable=False)
    with op.batch_alter_table("events") as batch:
        batch.alter_column("command_id", type_=sa.String(128), existing_type=sa.String(200), existing_nullable=False)
