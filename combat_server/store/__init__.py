"""Event store: SQLAlchemy tables behind a narrow interface (SQLite file or PostgreSQL)."""

from combat_server.store.sql import SqlStore, default_database_url, open_store

__all__ = ["SqlStore", "open_store", "default_database_url"]
