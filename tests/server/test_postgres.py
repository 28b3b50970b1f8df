"""The live server on PostgreSQL: the engine runs in worker threads, delivery stays ordered."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

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


def _drop_pool_connections(store: Any) -> None:
    """PostgreSQL terminates the one connection left in the server's pool, as a restart would."""
    import sqlalchemy as sa

    store.engine.dispose()
    with store.engine.connect() as conn:
        victim = conn.exec_driver_sql("SELECT pg_backend_pid()").scalar()
    admin = sa.create_engine(store.engine.url.render_as_string(hide_password=False))
    with admin.connect() as conn:
        assert conn.execute(sa.text("SELECT pg_terminate_backend(:p)"), {"p": victim}).scalar()
    admin.dispose()


async def test_a_database_outage_is_a_retryable_store_error_not_a_server_bug(
    make_server: MakeServer, pg_databases  # type: ignore[no-untyped-def]
) -> None:
    """PostgreSQL drops the server's connection (as on a restart): a read in flight gets
    store/unavailable and works when asked again; a command's append retries on a fresh
    connection by itself and is applied once."""
    from combat_server.client import ServerError

    server = await make_server(url=pg_databases.new_url())
    gm = await CombatClient.connect(server.ws_url)
    created = await gm.create_fight("gurps", title="outage")
    await gm.subscribe(created["token"])
    await gm.command("note", {"text": "before"})
    store = server.engine.store
    _drop_pool_connections(store)
    with pytest.raises(ServerError) as err:
        await gm.state_at(1)
    assert err.value.code == "store/unavailable"
    assert (await gm.state_at(1))["seq"] == 1
    _drop_pool_connections(store)
    result = await gm.command("note", {"text": "during the outage"}, command_id="n-1")
    notes = [e for e in store.events(created["fight_id"]) if e.type == "note_added"]
    assert [n.seq for n in notes] == [2, result["first_seq"]] == [2, 3]
    await gm.close()


async def test_nul_in_text_is_refused_up_front_and_nothing_reaches_the_log(
    make_server: MakeServer, pg_databases  # type: ignore[no-untyped-def]
) -> None:
    """PostgreSQL cannot store NUL: a hidden sheet with one in a weapon name is a schema error
    before anything is decided (not an internal error whose message would carry the sheet)."""
    from combat_server.client import ServerError

    server = await make_server(url=pg_databases.new_url())
    gm = await CombatClient.connect(server.ws_url)
    created = await gm.create_fight("gurps", title="nul")
    await gm.subscribe(created["token"])
    sheet = {"st": 10, "weapons": [{"name": "axe\u0000", "skill": 12, "damage": "sw", "damage_type": "cut"}]}
    with pytest.raises(ServerError) as err:
        await gm.command("add_combatant", {"name": "Orc", "sheet": sheet, "hidden": True})
    assert err.value.code == "protocol/schema" and "NUL" in err.value.message
    assert server.engine.store.fight(created["fight_id"]).last_seq == 1
    await gm.close()


def test_driver_errors_do_not_carry_statement_values() -> None:
    """hide_parameters: a failing statement's message names the SQL, never the values it was given."""
    import sqlalchemy as sa

    from combat_server.store.sql import make_engine

    engine = make_engine("sqlite://")
    with pytest.raises(sa.exc.OperationalError) as err, engine.connect() as conn:
        conn.execute(sa.text("INSERT INTO nowhere VALUES (:secret)"), {"secret": "hidden-sheet-value"})
    assert "hidden-sheet-value" not in str(err.value)
    engine.dispose()
