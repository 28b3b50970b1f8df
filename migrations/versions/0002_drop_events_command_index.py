"""Drop the index on events (fight_id, command_id): nothing queries it (command ids are
looked up in `commands`), and every append paid for keeping it.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-22
"""

from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.drop_index("ix_events_fight_command", "events")


def downgrade() -> None:
    op.create_index("ix_events_fight_command", "events", ["fight_id", "command_id"])
