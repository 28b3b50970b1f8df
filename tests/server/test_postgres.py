"""The live server on PostgreSQL: the engine runs in worker threads, delivery stays ordered."""

from __future__ import annotations

import asyncio

from combat_server.client import CombatClient

from .conftest import MakeServer


async def test_postgres_server_runs_commands_of_many_fights_in_threads_in_order(
    make_server: MakeServer, pg_databases  # type: ignore[no-untyped-def]
) -> None:
    """Several fights racing on PostgreSQL: every subscriber still sees seqs 1..N once each, in order."""
    server = await make_server(url=pg_databases.new_url())
    assert server.engine_in_threads
    gms: list[CombatClient] = []
    watchers: list[CombatClient] = []
    for _ in range(3):
        gm = await CombatClient.connect(server.ws_url)
        created = await gm.create_fight("gurps", title="pg race")
        await gm.subscribe(created["token"], after=0)
        spectator = await gm.add_seat("spectator")
        watcher = await CombatClient.connect(server.ws_url)
        await watcher.subscribe(spectator["token"], after=0)
        gms.append(gm)
        watchers.append(watcher)

    async def send(client: CombatClient, n: int) -> None:
        for i in range(n):
            await client.command("note", {"text": f"note {i}"})

    await asyncio.gather(*(send(gm, 15) for gm in gms for _ in range(2)))
    try:
        for gm, watcher in zip(gms, watchers):
            fight_id = gm.fight_id
            assert fight_id is not None
            last = server.engine.load(fight_id).seq
            assert last == 1 + 30
            for client in (gm, watcher):
                await client.wait_for_seq(last)
                assert [e.seq for e in client.events] == list(range(1, last + 1))
    finally:
        for c in gms + watchers:
            await c.close()
