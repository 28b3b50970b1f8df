"""The fight log: fights, events, commands, snapshots, seats.

Revision ID: 0001
Revises:
Create Date: 2026-11-22
"""

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

JSONType = sa.JSON().with_variant(postgresql.JSONB(), "postgresql")


def upgrade() -> None:
    op.create_table(
        "fights",
        sa.Column("fight_id", sa.String(64), primary_key=True),
        sa.Column("ruleset", sa.String(32), nullable=False),
        sa.Column("ruleset_version", sa.String(16), nullable=False),
        sa.Column("title", sa.String(200), nullable=False, server_default=""),
        sa.Column("created_at", sa.String(40), nullable=False),
    )
    op.create_table(
        "events",
        sa.Column("fight_id", sa.String(64), sa.ForeignKey("fights.fight_id"), primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("type", sa.String(64), nullable=False),
        sa.Column("payload", JSONType, nullable=False),
        sa.Column("actor", sa.String(64), nullable=False),
        sa.Column("command_id", sa.String(128), nullable=False),
        sa.Column("recorded_at", sa.String(40), nullable=False),
        sa.Column("ruleset_version", sa.String(16), nullable=False),
        sa.Column("prev_hash", sa.String(64), nullable=False),
        sa.Column("hash", sa.String(64), nullable=False),
    )
    op.create_index("ix_events_fight_command", "events", ["fight_id", "command_id"])
    op.create_index("ix_events_fight_type", "events", ["fight_id", "type"])
    op.create_table(
        "commands",
        sa.Column("fight_id", sa.String(64), sa.ForeignKey("fights.fight_id"), primary_key=True),
        sa.Column("command_id", sa.String(128), primary_key=True),
        sa.Column("first_seq", sa.Integer, nullable=False),
        sa.Column("last_seq", sa.Integer, nullable=False),
        sa.Column("actor", sa.String(64), nullable=False),
    )
    op.create_table(
        "snapshots",
        sa.Column("fight_id", sa.String(64), sa.ForeignKey("fights.fight_id"), primary_key=True),
        sa.Column("seq", sa.Integer, primary_key=True, autoincrement=False),
        sa.Column("ruleset_version", sa.String(16), nullable=False),
        sa.Column("state", JSONType, nullable=False),
    )
    op.create_table(
        "seats",
        sa.Column("fight_id", sa.String(64), sa.ForeignKey("fights.fight_id"), primary_key=True),
        sa.Column("seat_id", sa.String(64), primary_key=True),
        sa.Column("role", sa.String(16), nullable=False),
        sa.Column("label", sa.String(100), nullable=False, server_default=""),
        sa.Column("combatants", JSONType, nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("created_at", sa.String(40), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("seats")
    op.drop_table("snapshots")
    op.drop_table("commands")
    op.drop_index("ix_events_fight_type", "events")
    op.drop_index("ix_events_fight_command", "events")
    op.drop_table("events")
    op.drop_table("fights")
