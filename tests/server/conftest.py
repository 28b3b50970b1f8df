"""Real servers on a loopback port and real websocket clients, for the server tests.

``make_server(**config)`` starts an in-process :class:`CombatServer` on port 0
over a fresh SQLite file; ``connect()`` opens a :class:`CombatClient` to it.
``table`` is a ready fight: the GM subscribed, two PCs (``alice``, ``bob``), a
hidden NPC (``orc``), and connected player, player and spectator seats.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, AsyncIterator, Awaitable, Callable

import attrs
import pytest
import sqlalchemy as sa

from combat_server.client import CombatClient
from combat_server.engine.fight import Engine
from combat_server.server import CombatServer, ServerConfig
from combat_server.server.hub import Seat
from combat_server.store import tables as t
from combat_server.store.sql import SqlStore, open_store

SHEET: dict[str, Any] = {
    "st": 12, "dx": 12, "ht": 11, "shield_skill": 12,
    "weapons": [{"name": "broadsword", "skill": 13, "damage": "sw+1", "damage_type": "cut"}],
}

MakeServer = Callable[..., Awaitable[CombatServer]]
Connect = Callable[..., Awaitable[CombatClient]]


@pytest.fixture
async def make_server(tmp_path: Path) -> AsyncIterator[MakeServer]:
    servers: list[CombatServer] = []
    stores: list[SqlStore] = []

    async def make(url: str | None = None, snapshot_every: int = 100, **config: Any) -> CombatServer:
        store = open_store(url or f"sqlite:///{tmp_path / f'server-{len(stores)}.sqlite'}", migrate=True)
        stores.append(store)
        config.setdefault("port", 0)
        server = CombatServer(Engine(store, snapshot_every=snapshot_every), ServerConfig(**config))
        await server.start()
        servers.append(server)
        return server

    yield make
    for server in servers:
        await server.close()
    for store in stores:
        store.dispose()


@pytest.fixture
async def server(make_server: MakeServer) -> CombatServer:
    return await make_server()


@pytest.fixture
async def connect(server: CombatServer) -> AsyncIterator[Connect]:
    clients: list[CombatClient] = []

    async def open_client(url: str | None = None, **kwargs: Any) -> CombatClient:
        client = await CombatClient.connect(url or server.ws_url, **kwargs)
        clients.append(client)
        await client.wait_until(lambda c: bool(c.welcome), 5)
        return client

    yield open_client
    for client in clients:
        await client.close()


@attrs.define
class Table:
    server: CombatServer
    fight_id: str
    gm: CombatClient
    alice: CombatClient
    bob: CombatClient
    spectator: CombatClient
    tokens: dict[str, str]

    @property
    def seats(self) -> dict[str, CombatClient]:
        return {"gm": self.gm, "player": self.alice, "spectator": self.spectator}


@pytest.fixture
async def table(server: CombatServer, connect: Connect) -> Table:
    gm = await connect()
    created = await gm.create_fight("gurps", dice_mode="seeded", seed="t", title="test fight",
                                    server_key=server.config.server_key)
    await gm.subscribe(created["token"])
    for cid, name, side, hidden in (("alice", "Alice", "pc", False), ("bob", "Bob", "pc", False),
                                    ("orc", "Orc", "npc", True)):
        await gm.command("add_combatant", {"id": cid, "name": name, "side": side, "sheet": SHEET,
                                           "hidden": hidden})
    tokens = {"gm": created["token"]}
    clients: dict[str, CombatClient] = {}
    for label, role, combatants in (("alice", "player", ["alice"]), ("bob", "player", ["bob"]),
                                    ("spectator", "spectator", [])):
        seat = await gm.add_seat(role, combatants, label)
        tokens[label] = seat["token"]
        clients[label] = await connect()
        await clients[label].subscribe(seat["token"])
    for c in clients.values():
        await c.wait_for_seq(gm.last_seq)
    return Table(server, created["fight_id"], gm, clients["alice"], clients["bob"], clients["spectator"], tokens)


def dump_log(store: SqlStore) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of the log's tables (events, commands, snapshots, seats): compare around a refusal."""
    out: dict[str, list[tuple[Any, ...]]] = {}
    with store.engine.connect() as conn:
        for table in (t.events, t.commands, t.snapshots, t.seats):
            out[table.name] = sorted(tuple(repr(v) for v in r) for r in conn.execute(sa.select(table)).all())
    return out


class Keeper:
    """A subscriber that keeps every message it is sent (the text its connection would write)."""

    def __init__(self, seat: Seat, chain: bool = False) -> None:
        self.seat = seat
        self.chain = chain
        self.sent: list[str] = []

    def deliver(self, text: str) -> bool:
        self.sent.append(text)
        return True

    def drop_too_slow(self) -> None:
        raise AssertionError("nobody is too slow here")
