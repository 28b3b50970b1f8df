"""A GM and two players run a GURPS fight through the web page, each in their own
browser context, against a real server process (manual dice, so every number is
hand-checked).

Alice (DX 14) acts first, then the Orc (DX 12), then Bob (DX 11): Basic Speed
6, 5.75, 5.5. Broadsword sw+1 with ST 12 is 1d+3 cut.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from .conftest import LAPTOP, PHONE, ServerProcess

pytestmark = pytest.mark.browser

expect: Any = pytest.importorskip("playwright.sync_api").expect

BOB_SHEET = ('{"st": 12, "dx": 11, "ht": 11, "shield_skill": 12, '
             '"weapons": [{"name": "broadsword", "skill": 13, "damage": "sw+1", "damage_type": "cut"}]}')


def _page(browser: Any, url: str, viewport: dict[str, int] = LAPTOP) -> Any:
    ctx = browser.new_context(viewport=viewport)
    page = ctx.new_page()
    page.set_default_timeout(10_000)
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.js_errors = errors
    page.goto(url)
    return page


def _dice(scope: Any, faces: list[int]) -> None:
    inputs = scope.locator(".die-input")
    expect(inputs).to_have_count(len(faces))
    for i, f in enumerate(faces):
        inputs.nth(i).fill(str(f))


def _hp(page: Any, cid: str) -> Any:
    return page.locator(f"#roster li[data-cid={cid}] .bar.hp .bar-num")


def _add_by_form(gm: Any, name: str, side: str, dx: int, ht: int) -> None:
    form = gm.locator("#add-form")
    form.locator("[name=name]").fill(name)
    form.locator("[name=side]").select_option(side)
    form.locator("[data-path=st]").fill("12")
    form.locator("[data-path=dx]").fill(str(dx))
    form.locator("[data-path=ht]").fill(str(ht))
    form.locator("[data-path='weapons.#.name']").fill("broadsword")
    form.locator("[data-path='weapons.#.skill']").fill("13")
    form.locator("[data-path='weapons.#.damage']").fill("sw+1")
    form.locator("[data-path='weapons.#.damage_type']").select_option("cut")
    form.get_by_role("button", name="Add combatant").click()
    expect(gm.locator("#roster li", has_text=name)).to_be_visible()


def _demo(browser: Any, server: ServerProcess, start: bool = False) -> Any:
    """The GM's page with a fresh demo fight (four combatants), combat started if asked (Tam first)."""
    gm = _page(browser, server.url + "/")
    gm.get_by_role("button", name="Open a demo fight").click()
    expect(gm.locator("#roster li.combatant")).to_have_count(4)
    if start:
        gm.get_by_role("button", name="Start combat").click()
        expect(gm.locator("#current-name")).to_have_text("Tam Quickfingers")
    return gm


def _player(browser: Any, gm: Any, label: str) -> Any:
    """The page of a player of the GM's demo fight, from its invite link."""
    return _page(browser, gm.locator(f"#links li[data-label='{label}'] input").input_value())


def _act_for_current(gm: Any) -> Any:
    """The GM's maneuver form for the combatant whose turn it is (a player's PC)."""
    act = gm.locator("#act")
    act.locator("summary", has_text="Act for").click()
    return act


def _dispute(player: Any, text: str, etype: str = "combatant_added") -> None:
    """The player disputes the first logged event of ``etype`` with ``text``."""
    entry = player.locator(f"#log li[data-type={etype}]").first
    entry.hover()
    entry.get_by_role("button", name="Dispute").click()
    player.get_by_label("What is wrong?").fill(text)
    player.get_by_role("button", name="Send dispute").click()


def test_gm_and_two_players_run_a_fight(browser: Any, server: ServerProcess, shoot: Any) -> None:
    """Setup, attack, defence by the defender's seat, damage, dispute and ruling, undo/redo,
    a server restart with a queued command, and the timeline, seen alike in every browser."""
    # --- the GM creates a fight from the landing page (manual dice)
    gm = _page(browser, server.url + "/")
    shoot(gm, "01-landing")
    gm.get_by_label("Title").fill("Browser test fight")
    gm.get_by_label("We roll physical dice").check()
    gm.get_by_role("button", name="Create fight").click()
    expect(gm.locator("#seat-badge")).to_have_text("GM")
    assert "#token=" in gm.url

    _add_by_form(gm, "Alice", "pc", dx=14, ht=10)
    _add_by_form(gm, "Orc", "npc", dx=12, ht=11)
    form = gm.locator("#add-form")
    form.locator("[name=name]").fill("Bob")
    form.locator("[name=side]").select_option("pc")
    form.locator("summary", has_text="paste a sheet").click()
    form.get_by_label("Sheet JSON").fill(BOB_SHEET)
    form.get_by_role("button", name="Add combatant").click()
    expect(gm.locator("#roster li[data-cid=bob]")).to_contain_text("Bob")

    # --- invite links, one per player
    gm.get_by_role("button", name="Player link: Alice").click()
    gm.get_by_role("button", name="Player link: Bob").click()
    gm.get_by_role("button", name="Spectator link").click()
    expect(gm.locator("#links li")).to_have_count(3)
    alice_link = gm.locator("#links li[data-label=Alice] input").input_value()
    bob_link = gm.locator("#links li[data-label=Bob] input").input_value()
    assert re.search(r"#token=[\w-]+$", alice_link)
    shoot(gm, "02-gm-setup")

    alice = _page(browser, alice_link)
    bob = _page(browser, bob_link, PHONE)
    expect(alice.locator("#seat-badge")).to_have_text("Player · Alice")
    expect(bob.locator("#seat-badge")).to_have_text("Player · Bob")
    expect(alice.locator("#gm-card")).to_be_hidden()

    gm.get_by_role("button", name="Start combat").click()
    for page in (gm, alice, bob):
        expect(page.locator("#current-name")).to_have_text("Alice")
        expect(page.locator(".order li")).to_have_text(["Alice", "Orc", "Bob"])

    # --- Alice attacks the Orc: effective skill before rolling, then her own dice (12 vs 13: hit)
    expect(alice.locator("#act-h")).to_have_text("Your turn: Alice")
    expect(bob.locator("#act")).to_contain_text("Waiting for Alice")
    alice.locator("#act").get_by_label("Target", exact=True).select_option("orc")
    alice.locator("#act").get_by_label("Weapon", exact=True).select_option("broadsword")
    expect(alice.locator("#effective-skill")).to_have_text("13")
    alice.locator("label.maneuver-choice", has_text="Move and Attack").click()
    expect(alice.locator("#effective-skill")).to_have_text("9")  # -4, and capped at 9 (G-32)
    # the number and its reasons come from the rules on the server (the preview message), not from the page
    expect(alice.locator("#preview")).to_contain_text("-4 Move and Attack, melee (G-32)")
    alice.locator("label.maneuver-choice", has_text="Attack with a ready weapon").click()
    expect(alice.locator("#effective-skill")).to_have_text("13")
    _dice(alice.locator("#attack-dice"), [3, 4, 5])
    shoot(alice, "03-alice-attack", focus=alice.locator("#preview"))
    alice.get_by_role("button", name="Attack with these dice").click()

    # --- the Orc's defence is the GM's (it runs the NPC): Dodge 8 with 17 fails
    prompt = gm.locator(".prompt-defend.mine")
    expect(prompt).to_contain_text("Alice hits Orc")
    expect(prompt.locator("button[data-defense=dodge] .d-num")).to_have_text("8")
    expect(alice.locator(".prompt-defend")).to_contain_text("Waiting for Orc")
    _dice(prompt, [6, 6, 5])
    shoot(gm, "04-gm-defence-prompt")
    prompt.locator("button[data-defense=dodge]").click()

    # --- Alice rolls damage: 1 + 3 = 4 cut x1.5 = 6 injury; Orc 12 -> 6 HP everywhere
    roll = alice.locator(".prompt-roll.mine")
    expect(roll).to_contain_text("damage")
    _dice(roll, [1])
    roll.get_by_role("button", name="Use these dice").click()
    for page in (gm, alice, bob):
        expect(_hp(page, "orc")).to_have_text("6/12")
        expect(page.locator("#log li[data-type=damage_rolled]").last.locator(".outcome")).to_have_text("6 injury")
        expect(page.locator("#roster li[data-cid=orc] .chip", has_text="shock")).to_have_text("shock -4 G-47")  # G-47, its id opens its text
        expect(page.locator("#current-name")).to_have_text("Orc")
    attack_entry = gm.locator("#log li[data-type=attack_rolled]").last
    expect(attack_entry).to_contain_text("3d [3, 4, 5] = 12 vs 13")
    expect(attack_entry.locator(".roll-detail .die-face")).to_have_text(["3", "4", "5"])
    expect(attack_entry.locator(".roll-detail .outcome")).to_have_text("hit")
    expect(attack_entry.locator(".rule").first).to_have_text("G-36")

    # --- the Orc attacks Bob at 13 - 4 shock = 9; Bob's own seat answers the defence
    gm.locator("#act").get_by_label("Target", exact=True).select_option("bob")
    expect(gm.locator("#effective-skill")).to_have_text("9")
    _dice(gm.locator("#attack-dice"), [2, 2, 2])
    gm.get_by_role("button", name="Attack with these dice").click()
    prompt = bob.locator(".prompt-defend.mine")
    expect(prompt).to_contain_text("Orc hits Bob")
    expect(prompt.locator("button[data-defense=block] .d-num")).to_have_text("9")
    expect(prompt.get_by_role("button", name=re.compile(r"^Parry \d+ \(broadsword\)"))).to_be_visible()
    expect(gm.locator(".prompt-defend")).to_contain_text("Waiting for Bob")
    shoot(bob, "05-bob-defence-phone", full_page=True)
    _dice(prompt, [6, 5, 5])
    prompt.locator("button[data-defense=block]").click()
    roll = gm.locator(".prompt-roll.mine")
    _dice(roll, [1])
    roll.get_by_role("button", name="Use these dice").click()
    for page in (gm, alice, bob):
        expect(_hp(page, "bob")).to_have_text("6/12")
        expect(page.locator("#current-name")).to_have_text("Bob")

    # --- Bob disputes the damage; the GM overrides it to 8 HP
    damage = bob.locator("#log li[data-type=damage_rolled]").last
    damage_seq = int(damage.get_attribute("data-seq"))
    damage.get_by_role("button", name="Dispute").click()
    bob.get_by_label("What is wrong?").fill("My shield was up, that should not hurt so much")
    bob.get_by_role("button", name="Send dispute").click()
    ruling = gm.locator(f"form.dispute-rule")
    expect(ruling).to_contain_text(f"disputes event {damage_seq}")
    ruling.get_by_label("Your ruling").fill("glancing blow")
    ruling.locator("summary").click()
    ruling.get_by_label("Combatant", exact=True).select_option("bob")
    ruling.get_by_label("HP", exact=True).fill("8")
    shoot(gm, "06-gm-dispute", focus=ruling)
    ruling.get_by_role("button", name="Override").click()
    for page in (gm, alice, bob):
        expect(_hp(page, "bob")).to_have_text("8/12")
        expect(page.locator("#log li[data-type=dispute_ruled]")).to_contain_text("overrode")
    expect(gm.locator("form.dispute-rule")).to_have_count(0)

    # --- undo the ruling: every browser is back at 6 HP, the ruling struck through; redo restores it
    gm.locator("#gm-undo summary").click()
    gm.get_by_role("button", name="Undo last command").click()
    for page in (gm, alice, bob):
        expect(_hp(page, "bob")).to_have_text("6/12")
        expect(page.locator("#log li[data-type=dispute_ruled]")).to_have_class(re.compile(r"\bundone\b"))
    expect(gm.locator("form.dispute-rule")).to_have_count(1)  # the dispute is open again
    shoot(gm, "07-gm-after-undo")
    gm.get_by_role("button", name="Redo").click()
    for page in (gm, alice, bob):
        expect(_hp(page, "bob")).to_have_text("8/12")

    # --- the server restarts; Bob's move, made while it is down, is sent on reconnect
    server.stop()
    for page in (gm, alice, bob):
        expect(page.locator("#banner")).to_contain_text("Connection lost")
    shoot(alice, "08-connection-lost")
    bob.locator("label.maneuver-choice", has_text="All-Out Defense").click()
    bob.locator("#act").get_by_label("Option", exact=True).select_option("increased_dodge")
    bob.get_by_role("button", name="Do it: All-Out Defense").click()
    server.start()
    for page in (gm, alice, bob):
        expect(page.locator("#banner")).to_contain_text("Reconnected", timeout=15_000)
        expect(page.locator("#conn")).to_have_text("live")
        expect(page.locator("#current-name")).to_have_text("Alice")
        expect(page.locator("#roster li[data-cid=bob] .chip", has_text="All-Out Defense")).to_have_count(1)
        expect(page.locator(".turn-now .round")).to_have_text("Round 2")
    seqs = [int(s) for s in gm.locator("#log li").evaluate_all("els => els.map(e => e.dataset.seq)")]
    assert seqs == list(range(1, len(seqs) + 1))  # gapless, nothing twice
    shoot(gm, "09-gm-reconnected")

    # --- scrub the timeline back to before the first attack, then return to live
    first_attack = int(alice.locator("#log li[data-type=maneuver_chosen]").first.get_attribute("data-seq"))
    alice.locator("#scrubber").evaluate(
        "(el, v) => { el.value = v; el.dispatchEvent(new Event('input', {bubbles: true})); }", first_attack - 1)
    expect(alice.locator("#past-bar")).to_be_visible()
    expect(alice.locator("#past-text")).to_contain_text(f"event #{first_attack - 1}")
    expect(_hp(alice, "orc")).to_have_text("12/12")
    expect(alice.locator(f"#log li[data-seq='{first_attack + 1}']")).to_have_class(re.compile(r"\bfuture\b"))
    shoot(alice, "10-alice-timeline")
    alice.locator("#scrubber").focus()
    alice.keyboard.press("ArrowRight")
    expect(alice.locator("#past-text")).to_contain_text(f"event #{first_attack}")
    alice.get_by_role("button", name="Back to live").click()
    expect(alice.locator("#past-bar")).to_be_hidden()
    expect(_hp(alice, "orc")).to_have_text("6/12")
    expect(alice.locator("#act-h")).to_have_text("Your turn: Alice")
    shoot(alice, "11-alice-live")
    shoot(bob, "12-bob-phone", full_page=True)

    for page in (gm, alice, bob):
        assert page.js_errors == []
        page.context.close()


def test_demo_button_builds_a_fight_with_player_links(browser: Any, server: ServerProcess, shoot: Any) -> None:
    """A newcomer on the landing page opens the demo: four combatants, player links, start combat."""
    gm = _page(browser, server.url + "/", PHONE)
    shoot(gm, "20-landing-phone", full_page=True)
    gm.get_by_role("button", name="Open a demo fight").click()
    expect(gm.locator("#roster li.combatant")).to_have_count(4)
    expect(gm.locator("#links li")).to_have_count(2)
    gm.get_by_role("button", name="Start combat").click()
    expect(gm.locator("#current-name")).to_have_text("Tam Quickfingers")
    expect(gm.locator("#log li[data-type=combat_started] .rule").first).to_be_visible()
    shoot(gm, "21-demo-gm-phone", full_page=True)
    link = gm.locator("#links li[data-label='Brenna the Bold'] input").input_value()
    brenna = _page(browser, link)
    expect(brenna.locator("#seat-badge")).to_have_text("Player · Brenna the Bold")
    expect(brenna.locator("#act")).to_contain_text("Waiting for Tam Quickfingers")
    shoot(brenna, "22-demo-player-laptop")
    assert gm.js_errors == [] and brenna.js_errors == []
    gm.context.close()
    brenna.context.close()


def test_controls_are_reachable_by_keyboard(browser: Any, server: ServerProcess) -> None:
    """Tab reaches the landing page's controls in order and the focused one shows a focus ring."""
    page = _page(browser, server.url + "/")
    expect(page.locator("#create-form")).to_be_visible()
    page.get_by_label("Title").focus()
    seen = []
    for _ in range(8):
        page.keyboard.press("Tab")
        seen.append(page.evaluate("document.activeElement.name || document.activeElement.textContent.trim()"))
    assert "Create fight" in seen and "Open a demo fight" in seen
    page.get_by_role("button", name="Open a demo fight").focus()
    outline = page.evaluate("getComputedStyle(document.activeElement).outlineStyle")
    assert outline == "solid"
    page.context.close()


def test_log_jump_moves_the_timeline_and_long_words_wrap(browser: Any, server: ServerProcess) -> None:
    """Clicking '#N' in the log shows event N and puts the slider there (arrow keys step from N,
    not from the live end); a 400-character word in a note wraps instead of widening the page."""
    gm = _demo(browser, server)
    gm.locator("summary", has_text="Note or end the fight").click()
    gm.locator("#note-form [name=text]").fill("x" * 400)
    gm.locator("#note-form").get_by_role("button").first.click()
    expect(gm.locator("#log li[data-type=note_added]", has_text="x" * 400)).to_have_count(1)
    assert gm.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    gm.locator("#log li .seq", has_text=re.compile(r"^#2$")).click()
    expect(gm.locator("#scrub-label")).to_have_text(re.compile(r"^event 2 of \d+$"))
    assert gm.locator("#scrubber").input_value() == "2"
    assert gm.js_errors == []
    gm.context.close()


def test_gm_hides_and_shows_an_npc_already_in_the_fight(browser: Any, server: ServerProcess) -> None:
    """The GM's roster has 'Hide sheet' on every combatant: a player then sees the NPC's name and
    'hidden', no HP numbers; 'Show sheet' gives them back."""
    gm = _demo(browser, server)
    link = gm.locator("#links li[data-label='Brenna the Bold'] input").input_value()
    brenna = _page(browser, link)
    npc = gm.locator("#roster li.combatant.side-npc").first
    cid = npc.get_attribute("data-cid")
    player_view = brenna.locator(f"#roster li[data-cid='{cid}']")
    expect(player_view.locator(".bar.hp .bar-num")).to_contain_text(re.compile(r"\d"))
    npc.get_by_role("button", name="Hide sheet").click()
    expect(player_view.locator(".tag", has_text="hidden")).to_be_visible()
    expect(player_view.locator(".bar.hp .bar-num")).not_to_contain_text(re.compile(r"\d"))
    expect(brenna.locator("#roster .hide-toggle")).to_have_count(0)  # players get no such button
    gm.locator(f"#roster li[data-cid='{cid}']").get_by_role("button", name="Show sheet").click()
    expect(player_view.locator(".tag", has_text="hidden")).to_have_count(0)
    expect(player_view.locator(".bar.hp .bar-num")).to_contain_text(re.compile(r"\d"))
    assert gm.js_errors == [] and brenna.js_errors == []
    gm.context.close()
    brenna.context.close()


def test_a_wait_is_triggered_from_the_page_on_another_turn(browser: Any, server: ServerProcess) -> None:
    """G-34: Tam waits ('when the orc steps in', then attack); on the next combatant's turn the
    GM (running Tam here) gets 'Trigger the Wait', and the attack interrupts the sequence."""
    gm = _demo(browser, server, start=True)
    act = _act_for_current(gm)
    act.locator("label.maneuver-choice", has_text="Wait").click()
    act.get_by_label("Trigger", exact=True).fill("when the orc steps in")
    act.get_by_label("Then", exact=True).select_option("attack")
    act.locator("#go-btn").click()
    expect(gm.locator("#current-name")).not_to_have_text("Tam Quickfingers")
    card = gm.locator("#waits .wait-card")
    expect(card).to_contain_text("when the orc steps in")
    card.get_by_role("button", name="Trigger the Wait").click()
    expect(gm.locator("#log li[data-type=wait_triggered]")).to_have_count(1)
    expect(gm.locator("#waits .wait-card")).to_have_count(0)
    assert gm.js_errors == []
    gm.context.close()


def test_a_combatant_added_mid_turn_appears_in_the_target_list(browser: Any, server: ServerProcess) -> None:
    """While the GM has Tam's maneuver form open (a target chosen), the GM adds a troll: the troll is
    in the Target list at once and the choice already made is kept."""
    gm = _demo(browser, server, start=True)
    act = _act_for_current(gm)
    target = act.get_by_label("Target", exact=True)
    chosen = target.locator("option").nth(1).get_attribute("value")
    target.select_option(chosen)
    gm.locator("summary", has_text="Add a combatant").click()
    _add_by_form(gm, "Troll", "npc", 10, 10)
    expect(act.get_by_label("Target", exact=True).locator("option", has_text="Troll")).to_have_count(1)
    expect(act.get_by_label("Target", exact=True)).to_have_value(chosen)
    assert gm.js_errors == []
    gm.context.close()


def test_undo_to_a_seq_asks_first(browser: Any, server: ServerProcess) -> None:
    """'Undo to there' names how many events it would revert; dismissing changes nothing."""
    gm = _demo(browser, server)
    gm.locator("summary", has_text="Undo / redo").click()
    gm.locator("#undo-to-form [name=seq]").fill("2")
    asked: list[str] = []
    gm.once("dialog", lambda d: (asked.append(d.message), d.dismiss()))
    gm.locator("#undo-to-form").get_by_role("button", name="Undo to there").click()
    expect(gm.locator("#log li[data-type=reverted]")).to_have_count(0)
    assert asked and "after event #2" in asked[0]
    gm.once("dialog", lambda d: d.accept())
    gm.locator("#undo-to-form").get_by_role("button", name="Undo to there").click()
    expect(gm.locator("#log li[data-type=reverted]")).to_have_count(1)
    assert gm.js_errors == []
    gm.context.close()


def test_a_player_looking_at_the_past_is_told_the_table_waits_for_them(browser: Any, server: ServerProcess) -> None:
    gm = _demo(browser, server, start=True)
    tam = _player(browser, gm, "Tam Quickfingers")
    expect(tam.locator("#current-name")).to_have_text("Tam Quickfingers")
    tam.locator("#log li .seq", has_text=re.compile(r"^#2$")).click()
    expect(tam.locator("#past-text")).to_contain_text("it is Tam Quickfingers's turn: yours")
    assert tam.js_errors == []
    gm.context.close()
    tam.context.close()


def test_a_ruling_being_typed_survives_a_look_at_the_past(browser: Any, server: ServerProcess) -> None:
    """The GM starts a ruling, looks at the disputed event and comes back: the text is still there."""
    gm = _demo(browser, server)
    brenna = _player(browser, gm, "Brenna the Bold")
    _dispute(brenna, "that sheet is wrong")
    ruling = gm.locator("form.dispute-rule")
    ruling.get_by_label("Your ruling").fill("the sheet stands")
    ruling.get_by_role("button", name=re.compile(r"^View event #\d+$")).click()
    expect(gm.locator("form.dispute-rule")).to_have_count(0)
    gm.locator("#live-btn").click()
    expect(gm.locator("form.dispute-rule").get_by_label("Your ruling")).to_have_value("the sheet stands")
    assert gm.js_errors == [] and brenna.js_errors == []
    gm.context.close()
    brenna.context.close()


def test_an_unarmed_combatants_stats_line_has_no_dangling_separator(browser: Any, server: ServerProcess) -> None:
    gm = _demo(browser, server)
    gm.locator("details:has(#add-form)").evaluate("d => { d.open = true; }")
    form = gm.locator("#add-form")
    form.locator("[name=name]").fill("Brawler")
    form.locator("summary", has_text="paste a sheet").click()
    form.get_by_label("Sheet JSON").fill('{"st": 11, "dx": 11}')
    form.get_by_role("button", name="Add combatant").click()
    stats = gm.locator("#roster li.combatant", has_text="Brawler").locator(".c-stats")
    expect(stats).to_have_text(re.compile(r"^Brawler \(\w+\): HP \d+/\d+, FP \d+/\d+, Move \d+, Dodge \d+$"))
    gm.context.close()


def test_a_dispute_of_only_spaces_is_refused_in_the_dialog(browser: Any, server: ServerProcess) -> None:
    gm = _demo(browser, server)
    brenna = _player(browser, gm, "Brenna the Bold")
    _dispute(brenna, "   ")
    expect(brenna.locator("#dispute-dialog")).to_be_visible()
    assert "Say what is wrong" in brenna.get_by_label("What is wrong?").evaluate("t => t.validationMessage")
    expect(gm.locator("form.dispute-rule")).to_have_count(0)
    gm.context.close()
    brenna.context.close()


def test_the_override_form_picks_the_attacks_target(browser: Any, server: ServerProcess) -> None:
    """A disputed attack roll: the ruling's Combatant is the one attacked, not the first in the list."""
    gm = _demo(browser, server, start=True)
    act = _act_for_current(gm)
    act.locator("label.maneuver-choice", has_text="Attack with a ready weapon").click()
    target = act.get_by_label("Target", exact=True)
    victim = target.locator("option").last.get_attribute("value")
    target.select_option(victim)
    act.locator("#go-btn").click()
    rolled = gm.locator("#log li[data-type=attack_rolled]").first
    expect(rolled).to_be_visible()
    brenna = _player(browser, gm, "Brenna the Bold")
    _dispute(brenna, "that should have missed", "attack_rolled")
    ruling = gm.locator("form.dispute-rule")
    ruling.locator("summary").click()
    expect(ruling.get_by_label("Combatant", exact=True)).to_have_value(victim)
    gm.context.close()
    brenna.context.close()


def test_rebuilding_the_maneuver_form_keeps_the_chosen_option(browser: Any, server: ServerProcess) -> None:
    gm = _demo(browser, server, start=True)
    act = _act_for_current(gm)
    act.locator("label.maneuver-choice", has_text="All-Out Attack").click()
    act.get_by_label("Option", exact=True).select_option("strong")
    gm.locator("summary", has_text="Add a combatant").click()
    _add_by_form(gm, "Troll", "npc", 10, 10)
    expect(act.get_by_label("Target", exact=True).locator("option", has_text="Troll")).to_have_count(1)
    expect(act.get_by_label("Option", exact=True)).to_have_value("strong")
    gm.context.close()


def test_a_ruling_draft_keeps_the_text_but_not_an_old_hp(browser: Any, server: ServerProcess) -> None:
    """The HP the override form pre-fills follows the live state when the form is rebuilt; what the
    GM typed stays."""
    gm = _demo(browser, server)
    brenna = _player(browser, gm, "Brenna the Bold")

    _dispute(brenna, "first")
    first = gm.locator("form.dispute-rule").first
    first.get_by_label("Your ruling").fill("considering it")
    first.locator("summary").click()
    cid = first.get_by_label("Combatant", exact=True).input_value()
    old_hp = first.get_by_label("HP", exact=True).input_value()
    adjust = gm.locator("#adjust-form")
    gm.locator("details:has(#adjust-form)").evaluate("d => { d.open = true; }")
    adjust.get_by_label("Combatant", exact=True).select_option(cid)
    adjust.get_by_label("HP", exact=True).fill(str(int(old_hp) - 3))
    adjust.get_by_label("Reason").fill("arrow")
    adjust.get_by_role("button", name="Apply").click()
    _dispute(brenna, "second")
    expect(gm.locator("form.dispute-rule")).to_have_count(2)
    first = gm.locator("form.dispute-rule").first
    expect(first.get_by_label("Your ruling")).to_have_value("considering it")
    expect(first.get_by_label("HP", exact=True)).to_have_value(str(int(old_hp) - 3))
    gm.context.close()
    brenna.context.close()


def test_a_wait_that_readies_an_item_is_triggered_with_it(browser: Any, server: ServerProcess) -> None:
    """The Wait card asks for what the waited maneuver needs: Ready names an item."""
    gm = _demo(browser, server, start=True)
    act = _act_for_current(gm)
    act.locator("label.maneuver-choice", has_text="Wait").click()
    act.get_by_label("Trigger", exact=True).fill("when someone falls")
    act.get_by_label("Then", exact=True).select_option("ready")
    act.locator("#go-btn").click()
    expect(gm.locator("#current-name")).not_to_have_text("Tam Quickfingers")
    card = gm.locator("#waits .wait-card")
    card.get_by_label("item to ready").fill("healing potion")
    card.get_by_role("button", name="Trigger the Wait").click()
    expect(gm.locator("#log li[data-type=wait_triggered]")).to_have_count(1)
    expect(gm.locator("#log li[data-type=maneuver_chosen]").last).to_contain_text("chooses Ready")
    expect(gm.locator(".toast.error")).to_have_count(0)
    assert gm.js_errors == []
    gm.context.close()
