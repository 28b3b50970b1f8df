"""#9 "A kit for rulesets": the roll record, prompts and argument checks every ruleset shares."""

from __future__ import annotations

import pytest

from combat_server.errors import Rejected
from combat_server.rules.kit import args
from combat_server.rules.kit.prompts import fold_prompts, open_prompt, roll_prompt
from combat_server.rules.kit.rolls import Mod, record
from combat_server.rules.model import Event, FightState


def roll_over(total: int, effective: int) -> str:
    """A judge of another rule system: meet or beat the target."""
    return "hit" if total >= effective else "miss"


def test_a_roll_record_shows_each_modifier_with_its_reason_and_rule_and_the_rulesets_outcome() -> None:
    rec = record(purpose="attack", roller="ann", dice=[7, 4], base=10, base_reason="AT", rule="X-1",
                 mods=[Mod(2, "charge", "X-2"), Mod(0, "nothing", "X-3")], judge=roll_over)
    assert rec == {"purpose": "attack", "roller": "ann", "dice": [7, 4], "total": 11, "base": 10,
                   "base_reason": "AT", "modifiers": [{"value": 2, "reason": "charge", "rule": "X-2"}],
                   "target": 12, "margin": 1, "outcome": "miss", "rule": "X-1"}


def test_a_capped_roll_record_says_what_capped_it() -> None:
    rec = record(purpose="p", roller="ann", dice=[1], base=20, base_reason="skill", mods=[], judge=roll_over,
                 rule="X-1", cap=(16, "a cap", "X-9"))
    assert (rec["target"], rec["cap"]) == (16, "capped at 16: a cap (X-9)")


def _state() -> FightState:
    return FightState(fight_id="f", ruleset="r", ruleset_version="1.0", options={}, dice_mode="server")


def _event(seq: int, payload: dict[str, object]) -> Event:
    return Event("f", seq, "x", payload, "", "", "", "1.0", "", "")


def test_an_event_opens_prompts_in_order_and_the_answering_event_closes_one() -> None:
    opens = [dict(roll_prompt("ann", "damage", "Ann rolls damage", count=2), id="p2-1"),
             dict(open_prompt("defend", "bob", "Bob defends", choices=["dodge"]), id="p2-2")]
    state = fold_prompts(_state(), _event(2, {"opens": opens}))
    assert [(p.id, p.kind, p.options.get("count")) for p in state.prompts] == [("p2-1", "roll", 2),
                                                                                ("p2-2", "defend", None)]
    state = fold_prompts(state, _event(3, {"answers": "p2-2"}))
    assert [p.id for p in state.prompts] == ["p2-1"]


def test_argument_checks_name_the_field_and_what_it_must_be() -> None:
    with pytest.raises(Rejected) as missing:
        args.text({"target": ""}, "target", "act")
    assert (missing.value.code, missing.value.details.get("field")) == ("command/missing_field", "target")
    with pytest.raises(Rejected) as bad:
        args.whole({"yards": True}, "yards", "act", lo=0, hi=5)
    assert bad.value.code == "command/bad_field" and "0..5" in bad.value.message
    assert args.text({}, "option", "act", required=False) == ""
    assert args.whole({}, "shots", "act", default=1, lo=1, hi=3) == 1
