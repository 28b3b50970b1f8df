"""The schema. Tables are created only by the alembic migrations in ``migrations/``;
this module mirrors them for queries (a test checks the two agree)."""

from __future__ import annotations

import sqlalchemy as sa

metadata = sa.MetaData()

#: ``json`` on PostgreSQL too, not ``jsonb``: the stored text must be the canonical text that was
#: hashed, and jsonb rewrites numbers (migration 0004, #15 item 4).
JSONType = sa.JSON()
#: A stored command id: the seat id (64), ":" and the client's id (128 in the protocol schema).
COMMAND_ID_LENGTH = 200
#: The event types ``ix_events_control`` holds: the undo/redo events (``rules.core.CONTROL_EVENTS``, a test
#: checks they agree), the only rows :meth:`SqlStore.control_events` asks the index for (migration 0005).
CONTROL_EVENT_TYPES = ("reverted", "restored")
_CONTROL = sa.text(f"type IN ({', '.join(repr(kind) for kind in CONTROL_EVENT_TYPES)})")

fights = sa.Table(
    "fights",
    metadata,
    sa.Column("fight_id", sa.String(64), primary_key=True),
    sa.Column("ruleset", sa.String(32), nullable=False),
    sa.Column("ruleset_version", sa.String(16), nullable=False),
    sa.Column("title", sa.String(200), nullable=False, server_default=""),
    sa.Column("created_at", sa.String(40), nullable=False),
)

events = sa.Table(
    "events",
    metadata,
    sa.Column("fight_id", sa.String(64), sa.ForeignKey("fights.fight_id"), primary_key=True),
    sa.Column("seq", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("type", sa.String(64), nullable=False),
    sa.Column("payload", JSONType, nullable=False),
    sa.Column("actor", sa.String(64), nullable=False),
    sa.Column("command_id", sa.String(COMMAND_ID_LENGTH), nullable=False),
    sa.Column("recorded_at", sa.String(40), nullable=False),
    sa.Column("ruleset_version", sa.String(16), nullable=False),
    sa.Column("prev_hash", sa.String(64), nullable=False),
    sa.Column("hash", sa.String(64), nullable=False),
    # Partial: an ordinary append never touches it; the control events of a fight, in seq order (migration 0005).
    sa.Index("ix_events_control", "fight_id", "seq", sqlite_where=_CONTROL, postgresql_where=_CONTROL),
    # SQLite: the rows live in the (fight_id, seq) key's B-tree, no rowid tree beside it (migration 0005).
    sqlite_with_rowid=False,
)

# One row per applied command: unique (fight, command id) makes retries idempotent.
commands = sa.Table(
    "commands",
    metadata,
    sa.Column("fight_id", sa.String(64), sa.ForeignKey("fights.fight_id"), primary_key=True),
    sa.Column("command_id", sa.String(COMMAND_ID_LENGTH), primary_key=True),
    sa.Column("first_seq", sa.Integer, nullable=False),
    sa.Column("last_seq", sa.Integer, nullable=False),
    sa.Column("actor", sa.String(64), nullable=False),
    # What the command asked for (a hash of its type and args): a retry with the same id must
    # be the same command; the same id for another command is refused (migration 0003).
    sa.Column("digest", sa.String(64), nullable=True),
    sqlite_with_rowid=False,  # the rows live in the (fight_id, command_id) key's B-tree (migration 0005)
)

snapshots = sa.Table(
    "snapshots",
    metadata,
    sa.Column("fight_id", sa.String(64), sa.ForeignKey("fights.fight_id"), primary_key=True),
    sa.Column("seq", sa.Integer, primary_key=True, autoincrement=False),
    sa.Column("ruleset_version", sa.String(16), nullable=False),
    sa.Column("state", JSONType, nullable=False),
    # The event hash at ``seq`` and sha256(hash + canonical state): a load checks both (migration 0004);
    # NULL in snapshots written before it, which are ignored.
    sa.Column("hash", sa.String(64), nullable=True),
    sa.Column("digest", sa.String(64), nullable=True),
)

seats = sa.Table(
    "seats",
    metadata,
    sa.Column("fight_id", sa.String(64), sa.ForeignKey("fights.fight_id"), primary_key=True),
    sa.Column("seat_id", sa.String(64), primary_key=True),
    sa.Column("role", sa.String(16), nullable=False),
    sa.Column("label", sa.String(100), nullable=False, server_default=""),
    sa.Column("combatants", JSONType, nullable=False),
    sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
    sa.Column("created_at", sa.String(40), nullable=False),
)
