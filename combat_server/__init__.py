"""combat-server: an event-sourced, turn-based combat server.

Layers, from the inside out: ``rules`` (pure rulesets) -> ``engine`` (the fight
aggregate) -> ``store`` (SQLAlchemy) and ``server`` (websockets) -> clients.
"""

__version__ = "0.1.0"
