"""GULLIVER's death and knockout options wired through the gurps ruleset (issue #11, second
step), on the real engine (SQLite file and PostgreSQL): death checks every half HPmax (V-15,
A-36; E-16's human) and knockout from injury cited as GULLIVER's (V-14). Each test plays the
same blow on the same dice with the option on and off; numbers worked by hand."""

from __future__ import annotations

from combat_server.engine.fight import Engine

from tests.gurps.conftest import Table
from tests.gurps.gulliver.wired import blow, explained, fight

#: A maul of fixed 10d crushing (x1), so the dice give the injury directly.
HERO = {"st": 12, "dx": 12, "ht": 11, "weapons": [{"name": "maul", "skill": 14, "damage": "10d", "damage_type": "cr"}]}
#: E-16's human: 10 HP, HT 10.
HUMAN = {"st": 10, "ht": 10, "hp": 10}
#: 6 + 6 + 6 + 2 + six 1s = 26.
TWENTY_SIX = [6, 6, 6, 2, 1, 1, 1, 1, 1, 1]


def _death_prompts(table: Table) -> list[tuple[int, str]]:
    return [(int(p.options["threshold"]), p.text) for p in table.state.prompts
            if p.kind == "roll" and p.options.get("purpose") == "death_check"]


def test_v15_a_blow_to_minus_16_crosses_minus_10_and_minus_15(engine: Engine) -> None:
    """V-15 / A-36: 26 injury takes 10 HP to -16: G-45 crosses -1 x 10 only; V-15 crosses -1 x 10
    and -3/2 x 10 = -15, one HT roll each."""
    off = fight(engine, HERO, HUMAN)
    blow(off, "maul", TWENTY_SIX)
    table = fight(engine, HERO, HUMAN, "proportional_death")
    assert blow(table, "maul", TWENTY_SIX)["injury"] == 26
    injury = table.last("injury_applied").payload
    assert (injury["hp_after"], injury["death_thresholds"], injury["death_rule"]) == (-16, [1, 2], "V-15")
    assert off.last("injury_applied").payload["death_thresholds"] == [1]
    assert "death_rule" not in off.last("injury_applied").payload
    assert [k for k, _ in _death_prompts(table)] == [1, 2]
    assert "reached -3/2 x HP: HT roll or die (V-15 (in place of G-45))" in _death_prompts(table)[1][1]
    assert "Crossed -1xHP, -3/2xHP: HT roll each or die (V-15 (in place of G-45), A-36)." in \
        explained(table, "injury_applied")


def test_v15_a_failed_half_step_death_check_kills_citing_v15(engine: Engine) -> None:
    """V-15: the -15 check is a HT roll like G-45's: HT 10 rolls 12, fails: dead; the record cites V-15."""
    table = fight(engine, HERO, HUMAN, "proportional_death")
    blow(table, "maul", TWENTY_SIX)
    second = next(p for p in table.state.prompts if p.options.get("threshold") == 2)
    table.send("roll", {"prompt": second.id}, [[4, 4, 4]])
    check = table.last("check_rolled").payload
    assert (check["effect"], check["record"]["rule"], check["death_checks"]) == ("dead", "V-15", 2)
    assert table.cond("foe").dead


def test_v15_e16_human_eight_checks_down_to_minus_45(engine: Engine) -> None:
    """E-16 / V-15: 55 injury takes the human to -45: rolls at -10, -15, ..., -45 (eight); G-45 has
    four (-10 ... -40). Neither is automatic death (-50)."""
    fifty_five = [6] * 9 + [1]
    off = fight(engine, HERO, HUMAN)
    blow(off, "maul", fifty_five)
    table = fight(engine, HERO, HUMAN, "proportional_death")
    blow(table, "maul", fifty_five)
    assert off.last("injury_applied").payload["death_thresholds"] == [1, 2, 3, 4]
    on = table.last("injury_applied").payload
    assert (on["hp_after"], on["death_thresholds"], on["dead"]) == (-45, [1, 2, 3, 4, 5, 6, 7, 8], False)


def test_v14_the_roll_to_stay_conscious_cites_v14(engine: Engine) -> None:
    """V-14: the same HT roll as G-44 at 0 HP or below, cited as GULLIVER's: 11 injury takes 10 HP to
    -1; the major-wound roll passes (HT 10 rolls 9); the foe's turn asks for the consciousness roll."""
    texts, records = {}, {}
    for switches in ((), ("injury_knockout",)):
        table = fight(engine, HERO, HUMAN, *switches)
        blow(table, "maul", [2, 1, 1, 1, 1, 1, 1, 1, 1, 1])
        table.roll([3, 3, 3], "major_wound")
        prompt = table.prompt("roll")
        assert prompt.options["purpose"] == "consciousness"
        texts[switches] = (prompt.options.get("rule"), prompt.text, explained(table, "turn_started"))
        table.roll([3, 3, 3], "consciousness")
        records[switches] = table.last("check_rolled").payload["record"]["rule"]
    assert records == {(): "G-44", ("injury_knockout",): "V-14"}
    assert texts[()][0] is None and texts[()][1].endswith("(G-44)")
    rule, text, said = texts[("injury_knockout",)]
    assert rule == "V-14" and text.endswith("HT roll to stay conscious (V-14 (in place of G-44))")
    assert said.endswith("At 0 HP or below: HT roll to stay conscious (V-14 (in place of G-44)).")


def test_v09_slowdown_below_a_third_cites_v09(engine: Engine) -> None:
    """V-09 / A-31: the maul's ten 1s, 10 injury, take 10 HP to 0, below 10/3: Move and Dodge halve,
    as G-43 (the same threshold), cited as GULLIVER's."""
    said = {}
    for switches in ((), ("injury_slowdown",)):
        table = fight(engine, HERO, HUMAN, *switches)
        blow(table, "maul", [1] * 10)
        said[switches] = (table.last("injury_applied").payload.get("slowdown_rule"), explained(table, "injury_applied"))
    assert said[()][0] is None and "Move and Dodge halved (G-43)." in said[()][1]
    assert said[("injury_slowdown",)][0] == "V-09"
    assert "Move and Dodge halved (V-09 (in place of G-43), A-31)." in said[("injury_slowdown",)][1]
