"""Links that can be found again (#13): new tokens for every seat of a stored fight, the old ones revoked.

Why new tokens and not the old links: only a hash of each token is stored (a stolen
database gives no seat), so a lost link cannot be shown again, only replaced. The
replacement is recorded in the fight's log (``links_reissued``) so the table can see
when old links stopped working.
"""

from __future__ import annotations

import argparse
import datetime as dt
import urllib.parse

import attrs

from combat_server.engine.fight import Engine
from combat_server.rules.model import SYSTEM_ACTOR, Command
from combat_server.server.app import new_token, token_hash
from combat_server.store.recorder import SeatRow

#: Where `serve` listens unless told otherwise: the links' default base.
DEFAULT_BASE_URL = "http://127.0.0.1:8765"


def public_url_arg(text: str) -> str:
    """``--public-url``'s argparse type: ``text`` unchanged when it is an absolute http(s) URL a link can
    start with (no query, no fragment: the link appends ``/#token=...``), else ``ArgumentTypeError``.

    Why at parse time: ``links`` revokes the old tokens, so a URL that gives no working links must be
    refused before anything is replaced (``links F --public-url notaurl`` used to do both).
    """
    example = "write it like https://combat.example.org or http://203.0.113.5:8765"
    try:
        parts = urllib.parse.urlsplit(text)
        parts.port  # raises ValueError for a port that is not 0-65535
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not an absolute http(s) URL: {example}") from None
    if parts.scheme not in ("http", "https") or not parts.hostname or any(c.isspace() for c in text) \
            or not text.isprintable():
        raise argparse.ArgumentTypeError(f"{text!r} is not an absolute http(s) URL: {example}")
    if parts.query or parts.fragment or text.endswith(("?", "#")):
        raise argparse.ArgumentTypeError(f"{text!r} has a query or fragment, which the links' own "
                                         f"'/#token=...' would follow: {example}")
    return text


@attrs.frozen
class SeatLink:
    seat_id: str
    role: str
    label: str
    link: str


def reissue_links(engine: Engine, fight_id: str, base_url: str = DEFAULT_BASE_URL,
                  reason: str = "") -> list[SeatLink]:
    """A new link for every seat (a GM seat, a player seat for each PC and a spectator seat where
    there is none), the old tokens revoked in the same step; recorded as a ``links_reissued`` event."""
    store = engine.store
    store.fight(fight_id)  # fight/unknown, named
    state = engine.load(fight_id)
    seats = store.seats(fight_id)
    now = dt.datetime.now(dt.timezone.utc).isoformat(timespec="microseconds")
    taken = {s.seat_id for s in seats}

    def free(role: str) -> str:
        n = 1
        while f"{role}-{n}" in taken:
            n += 1
        taken.add(f"{role}-{n}")
        return f"{role}-{n}"

    new_seats = [] if any(s.role == "gm" for s in seats) else [
        SeatRow(fight_id, "gm" if "gm" not in taken else free("gm"), "gm", "GM", (), "")]
    taken.add("gm")
    seated = {c for s in seats if s.role == "player" for c in s.combatants}
    new_seats += [SeatRow(fight_id, free("player"), "player", c.name, (c.id,), "")
                  for c in state.combatants.values() if c.side == "pc" and c.id not in seated]
    if not any(s.role == "spectator" for s in seats):
        new_seats.append(SeatRow(fight_id, free("spectator"), "spectator", "spectators", (), ""))
    tokens = {s.seat_id: new_token() for s in [*seats, *new_seats]}
    if seats:  # old links to revoke, recorded; a fight with no seat yet (the CLI's demo, an import) has none
        # The tokens first, then the record: a running server closes the old links' connections when it sees
        # the record (hub.py, _revoke), and by then the old links must join nowhere.
        store.replace_tokens(fight_id, {s.seat_id: token_hash(tokens[s.seat_id]) for s in seats})
        engine.execute(fight_id, Command("reissue_links", {"seats": [s.seat_id for s in seats], "reason": reason},
                                         SYSTEM_ACTOR))
    for s in new_seats:
        store.add_seat(attrs.evolve(s, token_hash=token_hash(tokens[s.seat_id])), now)
    base = base_url.rstrip("/")
    order = {"gm": 0, "player": 1, "spectator": 2}
    return sorted((SeatLink(s.seat_id, s.role, s.label, f"{base}/#token={tokens[s.seat_id]}")
                   for s in [*seats, *new_seats]), key=lambda s: (order.get(s.role, 3), s.seat_id))
