"""#13 links recovery from the GM page: ``new_link`` gives one seat a new token, the old one stops
joining (its open connections are closed with 4003), and the table's log says so
(``links_reissued``), on a real server over loopback."""

from __future__ import annotations

import pytest

from combat_server.client import ServerError
from combat_server.server.protocol import CLOSE_LINK_REPLACED

from .conftest import Connect, Table


async def test_a_seat_gets_a_new_link_and_the_old_one_no_longer_joins(table: Table, connect: Connect) -> None:
    seats = {s["label"]: s["seat_id"] for s in await table.gm.list_seats()}
    reply = await table.gm.request({"type": "new_link", "seat": seats["alice"]})
    assert reply["type"] == "seat_added" and reply["seat"]["seat_id"] == seats["alice"]
    assert reply["seat"]["combatants"] == ["alice"] and reply["link"].endswith("#token=" + reply["token"])
    # Alice's open connection, made with the old link, is closed: it cannot go on as her seat
    await table.alice.wait_until(lambda c: bool(c.close_codes), 5)
    assert table.alice.close_codes[0] == CLOSE_LINK_REPLACED
    late = await connect()
    with pytest.raises(ServerError) as refused:
        await late.subscribe(table.tokens["alice"])
    assert refused.value.code == "auth/bad_token"
    fresh = await connect()
    joined = await fresh.subscribe(reply["token"])
    assert joined["seat"]["seat_id"] == seats["alice"]
    await table.gm.wait_for_seq(joined["last_seq"])
    recorded = table.gm.events[-1]
    assert recorded.type == "links_reissued" and recorded.event["payload"]["seats"] == [seats["alice"]]
    assert "Alice" in recorded.explanation or "alice" in recorded.explanation

async def test_only_the_gm_asks_for_a_new_link(table: Table) -> None:
    with pytest.raises(ServerError) as refused:
        await table.alice.request({"type": "new_link", "seat": "gm"})
    assert refused.value.code == "auth/gm_only"


async def test_an_old_link_is_refused_saying_to_ask_the_gm(table: Table, connect: Connect) -> None:
    """The refusal of a replaced link names no command-line tool a player has no access to (links are
    also replaced from the GM page now): it says to ask the GM."""
    seats = {s["label"]: s["seat_id"] for s in await table.gm.list_seats()}
    await table.gm.request({"type": "new_link", "seat": seats["alice"]})
    late = await connect()
    with pytest.raises(ServerError) as refused:
        await late.subscribe(table.tokens["alice"])
    assert refused.value.code == "auth/bad_token"
    assert "ask the GM for the new one" in refused.value.message and "combat-server" not in refused.value.message
