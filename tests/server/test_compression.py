"""permessage-deflate: off by default (issue 4: it halves broadcast throughput), on with ``--compression``."""

from __future__ import annotations

from combat_server.client import CombatClient

from .conftest import SHEET, MakeServer


async def _fight_over(url: str, compression: bool) -> tuple[CombatClient, CombatClient]:
    gm = await CombatClient.connect(url, compression=compression)
    created = await gm.create_fight("gurps", title="deflate")
    await gm.subscribe(created["token"])
    seat = await gm.add_seat("spectator")
    watcher = await CombatClient.connect(url, compression=compression)
    await watcher.subscribe(seat["token"])
    await gm.command("add_combatant", {"id": "orc", "name": "Orc", "side": "npc", "sheet": SHEET})
    await watcher.wait_for_seq(gm.last_seq)
    return gm, watcher


async def test_server_declines_compression_by_default_even_when_offered(make_server: MakeServer) -> None:
    server = await make_server()
    gm, watcher = await _fight_over(server.ws_url, compression=True)
    try:
        assert not gm.compressed and not watcher.compressed
    finally:
        await gm.close()
        await watcher.close()


async def test_compression_option_negotiates_deflate_and_pushes_the_same_state(make_server: MakeServer) -> None:
    plain_server = await make_server()
    deflate_server = await make_server(compression=True)
    plain = await _fight_over(plain_server.ws_url, compression=False)
    deflated = await _fight_over(deflate_server.ws_url, compression=True)
    try:
        assert deflated[0].compressed and deflated[1].compressed
        assert not plain[1].compressed
        last_plain, last_deflated = plain[1].events[-1], deflated[1].events[-1]
        assert last_deflated.seq == last_plain.seq and last_deflated.event["type"] == "combatant_added"
        assert last_deflated.state is not None and last_plain.state is not None
        assert last_deflated.state["combatants"]["orc"]["sheet"] == last_plain.state["combatants"]["orc"]["sheet"]
    finally:
        for c in (*plain, *deflated):
            await c.close()
