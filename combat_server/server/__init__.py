"""The live server: websockets protocol, seats and roles, ordered push, replay.

Public surface: :class:`CombatServer` and :class:`ServerConfig` (embed a server,
e.g. in tests), ``add_serve_command``/``run_serve`` (the ``combat-server serve``
subcommand, in :mod:`combat_server.server.cli`).
"""

from combat_server.server.app import CombatServer, ServerConfig
from combat_server.server.protocol import PROTOCOL_VERSION

__all__ = ["CombatServer", "ServerConfig", "PROTOCOL_VERSION"]
