"""Core's fold of a GM ``adjust`` gives the state its event's seq in the same copy (issue 16, session 12):
the state it folds is the one the definition folds (``with_condition``, ``after_core``, then a copy with
the seq), field for field, for any settable fields and values, on both rulesets; other events still get
their seq by the copy in ``core.apply``."""

from __future__ import annotations

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from combat_server.errors import Rejected
from combat_server.rules import core
from combat_server.rules.gurps.batch import Batch
from combat_server.rules.gurps.turns import settle
from combat_server.rules.model import GM_ACTOR, Combatant, Command, Event, EventDraft, FightState
from combat_server.rules.ruleset import get_ruleset


def _state(name: str) -> FightState:
    ruleset = get_ruleset(name)
    sheet = ruleset.validate_sheet({})
    state = FightState(fight_id="f", ruleset=name, ruleset_version=ruleset.version, options={}, dice_mode="server",
                       seq=6)
    for cid in ("a", "c"):
        state = state.with_combatant(Combatant(cid, cid.upper(), "npc", sheet, ruleset.new_condition(sheet)))
    return state


def _definition(name: str, state: FightState, event: Event) -> FightState:
    """What core.apply folded for condition_adjusted before session 12."""
    ruleset = get_ruleset(name)
    p = event.payload
    folded = ruleset.after_core(state.with_condition(p["combatant"], **p["changes"]), event)
    return attrs.evolve(folded, seq=event.seq)


@pytest.mark.parametrize("name", ["gurps", "shell"])
@settings(max_examples=80, deadline=None)
@given(data=st.data())
def test_an_adjust_folds_to_the_definitions_state(name: str, data: st.DataObject) -> None:
    ruleset = get_ruleset(name)
    state = _state(name)
    condition_type = type(state.combatants["c"].condition)
    settable = sorted(n for n in core.adjustable_fields(condition_type) if not core._kept_by_rules(condition_type, n))
    names = data.draw(st.lists(st.sampled_from(settable), min_size=1, max_size=4, unique=True))
    values = st.integers(-5, 20) | st.booleans() | st.text(max_size=3) | st.none()
    changes = {n: data.draw(values) for n in names}
    try:
        drafts = core._decide_adjust(ruleset, state,
                                     Command("adjust", {"combatant": "c", "changes": changes, "reason": "r"}, GM_ACTOR))
    except Rejected:
        return
    event = Event("f", 7, drafts[0].type, drafts[0].payload, "gm", "", "", ruleset.version, "", "")
    folded = core.apply(ruleset, state, event)
    expected = _definition(name, state, event)
    assert type(folded) is FightState and folded == expected and folded.seq == 7
    assert type(folded.combatants["c"]) is Combatant
    assert folded.combatants["a"] is state.combatants["a"]


def test_other_events_still_get_their_seq() -> None:
    ruleset = get_ruleset("gurps")
    state = _state("gurps")
    event = Event("f", 7, "note_added", {"text": "x", "by": "gm", "by_name": "GM"}, "gm", "", "", ruleset.version,
                  "", "")
    folded = core.apply(ruleset, state, event)
    assert folded.seq == 7 and folded.notes == ("x",) and state.seq == 6


@pytest.mark.parametrize("status", ["setup", "active", "ended"])
def test_gurps_follow_up_without_combat_drafts_what_settle_drafts(status: str) -> None:
    """GURPS follow_up returns at once where settle's first test would (no combat, or not active):
    what a Batch settled from the same state drafts, nothing (G-19)."""
    ruleset = get_ruleset("gurps")
    state = attrs.evolve(_state("gurps"), status=status)
    b = Batch(ruleset, state, None)  # type: ignore[arg-type]
    settle(b)
    assert ruleset.follow_up(state, None) == b.drafts == []  # type: ignore[arg-type]


def test_plain_draft_is_the_draft_attrs_builds() -> None:
    made = EventDraft.plain_draft("condition_adjusted", {"combatant": "c"})
    built = EventDraft("condition_adjusted", {"combatant": "c"}, plain=True)
    assert type(made) is EventDraft and made == built
    assert (made.before, made.after, made.plain) == (built.before, built.after, built.plain) == (None, None, True)
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        made.type = "x"  # type: ignore[misc]
