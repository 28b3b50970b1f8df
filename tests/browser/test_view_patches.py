"""Protocol 2 in the web page (issue 16): it patches its copy of the seat's view with each push, checks
the pushed CRC-32 of the whole view, and asks for the whole view when its copy drifted. Protocol 3: it
rebuilds each pushed record from what it holds (fight, seq, ruleset version). Protocol 4: the page does not
ask for the chain, so a pushed record is what the event says and who did it, and patch ops are arrays."""

from __future__ import annotations


import zlib
from typing import Any

from playwright.sync_api import expect

from combat_server.patch import view_hash

from .conftest import ServerProcess
from .test_web_fight import _demo, _player

#: The page's copy (canonical JSON), the whole view the server sends on request, and the page's resync count.
COMPARE = """async () => {
  const mine = canonicalJson(S.state);
  const full = await request({ type: "view" });
  return [mine, canonicalJson(full.state), S.resyncs, S.stateSeq === full.seq];
}"""


#: The page's record of its last (live) event, and the stored one as ``replay`` reads it.
RECORDS = """async () => {
  const last = S.log[S.log.length - 1];
  const h = await request({ type: "replay", after: last.seq - 2 });
  return [S.log[S.log.length - 2].event, last.event, h.items[0].event, h.items[1].event];
}"""


def _hide_and_show_first_npc(gm: Any) -> None:
    npc = gm.locator("#roster li.combatant.side-npc").first
    cid = npc.get_attribute("data-cid")
    npc.get_by_role("button", name="Hide sheet").click()
    gm.locator(f"#roster li[data-cid='{cid}']").get_by_role("button", name="Show sheet").click()
    expect(gm.locator(f"#roster li[data-cid='{cid}']").get_by_role("button", name="Hide sheet")).to_be_visible()


def test_the_page_patches_its_view_into_the_one_the_server_sends_whole(browser: Any, server: ServerProcess) -> None:
    gm = _demo(browser, server, start=True)
    brenna = _player(browser, gm, "Brenna the Bold")
    _hide_and_show_first_npc(gm)
    for page in (gm, brenna):
        page.wait_for_function("() => S.stateSeq === S.lastSeq")
        mine, full, resyncs, same_seq = page.evaluate(COMPARE)
        assert same_seq and resyncs == 0 and mine == full
    assert gm.js_errors == [] and brenna.js_errors == []
    gm.context.close()
    brenna.context.close()


def test_a_page_whose_view_drifted_asks_for_the_whole_view(browser: Any, server: ServerProcess) -> None:
    gm = _demo(browser, server)
    title = gm.evaluate("S.state.title")
    gm.evaluate("S.state.title = 'not what the server has'")
    _hide_and_show_first_npc(gm)
    gm.wait_for_function("() => S.resyncs === 1 && !S.viewStale && S.stateSeq === S.lastSeq")
    assert gm.evaluate("S.state.title") == title
    assert gm.js_errors == []
    gm.context.close()


def test_the_page_rebuilds_the_record_of_each_live_push(browser: Any, server: ServerProcess) -> None:
    """The two events of the hide and the show were pushed live without fight_id, seq and ruleset_version
    (protocol 3) and, the page not asking for the chain, without command_id, recorded_at and hash
    (protocol 4): the page's records are the stored ones' fight, seq, type, payload, actor and ruleset
    version."""
    gm = _demo(browser, server)
    _hide_and_show_first_npc(gm)
    gm.wait_for_function("() => S.stateSeq === S.lastSeq")
    before, last, stored_before, stored_last = gm.evaluate(RECORDS)
    kept = ("fight_id", "seq", "type", "payload", "actor", "ruleset_version")
    assert (before, last) == ({k: stored_before[k] for k in kept}, {k: stored_last[k] for k in kept})
    assert gm.js_errors == []
    gm.context.close()


#: Patches applied one after another to the page's view: for each, the page's (cached) hash of the patched view,
#: that view, and whether the view before was left as it was.
HASH_STEPS = """() => {
  const cid = Object.keys(S.state.combatants)[0];
  const steps = [
    [["/combatants/" + cid + "/name", "Renamed"]],
    [["/combatants/zz", { name: "New", sheet: { st: 10 } }], ["/title", "Another"]],
    [["/combatants/zz/sheet/st", 11]],
    [["/combatants/zz"], ["/derived", {}]],
    [["/combatants", {}]],
    [["/combatants", { a: 1 }], ["/derived", [1, 2]]],
  ];
  let view = S.state;
  return steps.map((ops) => {
    const was = canonicalJson(view);
    const next = applyPatch(view, ops);
    const step = [viewHash(next), next, canonicalJson(view) === was];
    view = next;
    return step;
  });
}"""


def test_the_page_hashes_each_patched_view_as_it_would_hash_the_whole_view(browser: Any,
                                                                             server: ServerProcess) -> None:
    """The page keeps the digests of the members and combatant entries a patch left alone (issue 16): its hash is
    still the server's view_hash of the whole patched view (protocol 5) after replacements, additions and
    removals, of entries and of whole members; a patch copies what it changes and leaves the view before as it was."""
    gm = _demo(browser, server)
    gm.wait_for_function("() => S.stateSeq === S.lastSeq")
    steps = gm.evaluate(HASH_STEPS)
    assert len(steps) == 6
    for digest, view, kept in steps:
        assert digest == view_hash(view) and kept
    assert gm.js_errors == []
    gm.context.close()


def test_a_page_whose_copy_of_a_combatant_the_push_left_alone_drifted_asks_for_the_whole_view(
        browser: Any, server: ServerProcess) -> None:
    """The page checks its whole view, not only what a patch changed: a PC's entry gone wrong after pushes were
    checked is found by the next push, which is about an NPC."""
    gm = _demo(browser, server)
    _hide_and_show_first_npc(gm)
    gm.wait_for_function("() => S.stateSeq === S.lastSeq && S.resyncs === 0")
    cid, name = gm.evaluate("""() => {
      const cid = Object.keys(S.state.combatants).find((k) => S.state.combatants[k].side === "pc");
      const c = S.state.combatants[cid];
      S.state = { ...S.state, combatants: { ...S.state.combatants, [cid]: { ...c, name: "not what the server has" } } };
      return [cid, c.name];
    }""")
    _hide_and_show_first_npc(gm)
    gm.wait_for_function("() => S.resyncs === 1 && !S.viewStale && S.stateSeq === S.lastSeq")
    assert gm.evaluate(f"S.state.combatants[{cid!r}].name") == name
    assert gm.js_errors == []
    gm.context.close()


def test_the_pages_crc32_is_zlibs_for_any_length_and_non_ascii_text(browser: Any, server: ServerProcess) -> None:
    """The hash a page compares with the pushed view_hash is zlib's CRC-32 of the text's UTF-8 bytes, as the
    server's (issue 16)."""
    gm = _demo(browser, server)
    texts = ["", "a", "ab", "abc", "abcd", "abcde", '{"a":"é","b":1}', "Ω≈ç√ 🗡" * 37, "x" * 1001]
    assert gm.evaluate("(texts) => texts.map(crc32hex)", texts) == [
        format(zlib.crc32(t.encode("utf-8")), "08x") for t in texts]
    gm.context.close()


def test_a_page_told_of_another_protocol_says_to_reload(browser: Any, server: ServerProcess) -> None:
    """A page left open across a server upgrade: its view hashes would never match the pushes', so it says
    why (and what to do) instead of asking for the whole view after every push in silence."""
    gm = _demo(browser, server)
    expect(gm.locator(".toast.error")).to_have_count(0)  # the server it was served by speaks its protocol
    gm.evaluate("() => dispatch({ ...S.welcome, protocol: 4 })")
    expect(gm.locator(".toast.error")).to_contain_text("reload the page")
    gm.context.close()
