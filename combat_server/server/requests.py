"""What a client request asks for and whether this seat may ask it, sans I/O (issue 16, "A sans-I/O
connection"): the checks and the arithmetic of the request handlers, as plain functions of the message,
the seat and what the fight holds, raising the refusal the client gets. The handlers
(``connection.Connection``, sans I/O too) call these and ask for the rest (the fight's lock, the engine
and the store, worker threads) as effects; these are tested by feeding messages, without sockets
(tests/server/test_requests.py).
"""

from __future__ import annotations

import hmac
from typing import Any, Collection, Mapping

from combat_server.errors import reject
from combat_server.server.protocol import ProtocolError

#: Requests a connection may send before it holds a seat; every other one needs ``subscribe`` first.
WITHOUT_SEAT = frozenset({"create_fight", "subscribe"})


def needs_seat(kind: str) -> bool:
    """Whether a request of this type is refused with ``auth/not_joined`` on a connection without a seat."""
    return kind not in WITHOUT_SEAT


def check_server_key(policy: str, server_key: str | None, message: Mapping[str, Any]) -> None:
    """``create_fight`` under the ``key`` policy: the message must carry the server key (compared in
    constant time, so timing tells nothing of it), else ``auth/server_key``."""
    if policy != "key":
        return
    given = str(message.get("server_key") or "")
    if not server_key or not hmac.compare_digest(given.encode(), server_key.encode()):
        raise ProtocolError("auth/server_key")


def gm_only(role: str, what: str) -> None:
    """``auth/gm_only`` unless the seat is the GM's; ``what`` says what only the GM does."""
    if role != "gm":
        raise ProtocolError("auth/gm_only", f"only the GM {what}")


def seat_request(role: str, message: Mapping[str, Any], combatants: Collection[str]) -> tuple[str, tuple[str, ...], str]:
    """An ``add_seat`` by a seat of ``role`` in a fight of ``combatants``: the new seat's role, the
    combatants it controls (each once, in the order given) and its label, or the refusal: only the GM
    adds seats, a player controls at least one combatant of the fight, a spectator none."""
    gm_only(role, "adds seats")
    new_role = str(message["role"])
    controls = tuple(dict.fromkeys(message.get("combatants", [])))
    unknown = [c for c in controls if c not in combatants]
    if unknown:
        raise ProtocolError("seat/unknown_combatant", f"no combatant {unknown[0]!r} in this fight",
                            known=sorted(combatants))
    if new_role == "player" and not controls:
        raise ProtocolError("seat/no_combatants")
    if new_role == "spectator" and controls:
        raise reject("command/bad_field", "a spectator seat controls no combatants", field="combatants")
    return new_role, controls, str(message.get("label", ""))


def new_link_target(role: str, seat_id: str, message: Mapping[str, Any]) -> str:
    """The seat a ``new_link`` replaces the link of: the GM's, never its own (its own connection would
    be closed by it; ``combat-server links FIGHT`` replaces it from the command line)."""
    gm_only(role, "issues new links")
    target = str(message["seat"])
    if target == seat_id:
        raise ProtocolError("seat/own_link", "a seat cannot replace its own link here: combat-server links FIGHT")
    return target


def replay_window(message: Mapping[str, Any], last_seq: int, max_page: int) -> tuple[int, int, int]:
    """A ``replay``'s (after, upto, limit): ``upto`` defaults to, and stops at, the fight's last seq;
    ``limit`` defaults to a whole page (docs/protocol.md, "Reading a long log")."""
    after = int(message.get("after", 0))
    upto = min(int(message.get("upto", last_seq)), last_seq)
    return after, upto, int(message.get("limit", max_page))


def subscribe_after(message: Mapping[str, Any], last_seq: int, fight_id: str) -> int:
    """A ``subscribe``'s ``after`` (default 0), or ``replay/bad_seq`` past the fight's last seq: nothing
    is subscribed then."""
    after = int(message.get("after", 0))
    if after > last_seq:
        raise ProtocolError("replay/bad_seq", f"fight {fight_id} has only {last_seq} events", last_seq=last_seq)
    return after


__all__ = ["WITHOUT_SEAT", "needs_seat", "check_server_key", "gm_only", "seat_request", "new_link_target",
           "replay_window", "subscribe_after"]
