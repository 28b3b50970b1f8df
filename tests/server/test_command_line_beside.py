"""The command line beside a running server on the same SQLite file (store/sqlite_watch.py): what
``combat-server links`` and ``import-character`` write reaches the open connections without waiting for
the fight's next command, and a link ``links`` revoked stops acting at once (a black-box pass found both
waiting, and the revoked links acting, until the next command)."""

from __future__ import annotations

import pytest

from combat_server.client import ServerError
from combat_server.engine.fight import Engine
from combat_server.rules.model import GM_ACTOR, Command
from combat_server.server.links import reissue_links
from combat_server.server.protocol import CLOSE_LINK_REPLACED
from combat_server.store.sql import open_store

from .conftest import Connect, Table

#: Seconds a change from the command line may take to show (POLL_SECONDS is 0.5), with room for a busy machine.
SHOWS_WITHIN = 15


def _command_line(table: Table) -> Engine:
    """A second engine on the server's file, as ``combat-server`` run beside it opens one."""
    return Engine(open_store(table.server.engine.store.url))


async def test_links_run_beside_the_server_close_the_old_links_connections(table: Table, connect: Connect) -> None:
    engine = _command_line(table)
    try:
        reissue_links(engine, table.fight_id, reason="lost links")
    finally:
        engine.store.dispose()
    for client in (table.alice, table.bob, table.spectator, table.gm):
        await client.wait_until(lambda c: bool(c.close_codes), SHOWS_WITHIN)
        assert client.close_codes[0] == CLOSE_LINK_REPLACED
    late = await connect()
    with pytest.raises(ServerError) as refused:
        await late.subscribe(table.tokens["alice"])
    assert refused.value.code == "auth/bad_token"


async def test_an_event_written_beside_the_server_is_pushed_without_a_command(table: Table) -> None:
    engine = _command_line(table)
    try:
        result = engine.execute(table.fight_id, Command("note", {"text": "from the command line"}, GM_ACTOR))
    finally:
        engine.store.dispose()
    for client in (table.gm, table.alice, table.spectator):
        await client.wait_for_seq(result.last_seq, timeout=SHOWS_WITHIN)
        assert client.events[-1].type == "note_added"
    assert table.server.watcher is not None and table.server.watcher.changes > 0


async def test_a_page_opened_with_the_new_link_at_once_is_not_closed(table: Table, connect: Connect) -> None:
    """Only the connections opened with a replaced token are closed: a page that joins with the new link before
    the server has seen the change keeps going (a black-box pass saw it closed with 4003)."""
    engine = _command_line(table)
    try:
        links = reissue_links(engine, table.fight_id, reason="lost links")
    finally:
        engine.store.dispose()
    new_gm = await connect()
    await new_gm.subscribe(next(s.link for s in links if s.role == "gm").split("#token=", 1)[1])
    await table.gm.wait_until(lambda c: bool(c.close_codes), SHOWS_WITHIN)
    result = await new_gm.command("note", {"text": "with the new link"})
    assert not new_gm.close_codes and result["last_seq"] > 0
