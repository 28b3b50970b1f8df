"""#9 events: one spec per event type, registered once (rules/kit/events.py; core's in
rules/core_events.py, GURPS's in rules/gurps/events.py). Its payload class declares the
fields stored fights really carry, its fold and explanation are the ones dispatched, and
server/views.py hides what its secrets declare."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import attrs
import pytest

from combat_server.rules.core_events import CORE_EVENT_SPECS
from combat_server.rules.gurps.events import EVENTS
from combat_server.rules.kit.events import EventRegistry, EventSpec, Secret, payload_problems, redact
from tests.fixtures import fixturekit

DOCS = Path(__file__).resolve().parents[2] / "docs"


def _stored_events() -> list[dict[str, Any]]:
    out = []
    for name in fixturekit.fight_names():
        lines = fixturekit.export_path(name).read_text(encoding="utf-8").splitlines()
        out.extend(json.loads(line) for line in lines[1:])
    return out


def test_every_event_type_is_registered_once_either_by_core_or_by_the_ruleset() -> None:
    assert not set(CORE_EVENT_SPECS) & set(EVENTS)


def test_a_type_registered_twice_is_refused() -> None:
    @attrs.frozen
    class Ping:
        who: str

    with pytest.raises(ValueError, match="'ping' is registered twice"):
        EventRegistry(EventSpec("ping", Ping, None, None), EventSpec("ping", Ping, None, None))


def test_every_stored_event_has_a_spec_and_fits_its_declared_payload() -> None:
    """Stored fights (tests/fixtures/fights) are checked against the declarations."""
    problems = []
    for event in _stored_events():
        spec = CORE_EVENT_SPECS.get(event["type"]) or EVENTS.get(event["type"])
        assert spec is not None, f"no spec for {event['type']}"
        problems.extend(payload_problems(spec, event["payload"]))
    assert problems == []


def test_a_payload_with_an_undeclared_field_or_a_wrong_type_does_not_fit() -> None:
    spec = EVENTS["turn_started"]
    assert payload_problems(spec, {"combatant": "a", "round": 1, "index": 0, "shock": 0, "opens": []}) == []
    assert payload_problems(spec, {"combatant": "a", "round": "1", "index": 0, "colour": "red"}) == [
        "turn_started: missing field 'shock'", "turn_started: field 'round' is not <class 'int'>: '1'",
        "turn_started: undeclared field 'colour'"]


def test_docs_gurps_lists_exactly_the_registered_gurps_events() -> None:
    text = (DOCS / "gurps.md").read_text(encoding="utf-8")
    section = text.split("## Events", 1)[1].split("Every roll event", 1)[0]
    assert set(re.findall(r"`([a-z_]+)`", section)) == set(EVENTS)


def test_a_hidden_attackers_roll_and_attack_lose_their_numbers_but_keep_the_dice() -> None:
    """The specs declare what server/views.py hides (its golden views: tests/test_fixtures.py)."""
    payload = {"attack": {"attacker": "orc", "target": "ann", "effective": 13, "margin": 4, "damage_dice": 2},
               "record": {"roller": "orc", "dice": [3, 3, 3], "total": 9, "base": 13, "target": 13, "margin": 4,
                          "outcome": "hit", "rule": "G-36"}}
    shown = redact(EVENTS["attack_rolled"], payload, frozenset({"orc"}))
    assert shown == {"attack": {"attacker": "orc", "target": "ann"},
                     "record": {"roller": "orc", "dice": [3, 3, 3], "total": 9, "outcome": "hit", "rule": "G-36"}}
    assert redact(EVENTS["attack_rolled"], payload, frozenset({"ann"})) is payload


def test_a_hidden_targets_armour_and_injury_are_not_shown_but_the_attackers_damage_roll_is() -> None:
    payload = {"attacker": "ann", "target": "orc", "dice": [4], "basic": 4, "adds": 1, "dr": 2, "injury": 3}
    assert redact(EVENTS["damage_rolled"], payload, frozenset({"orc"})) == {
        "attacker": "ann", "target": "orc", "dice": [4], "basic": 4, "adds": 1}


def test_a_secret_within_a_list_hides_only_the_hidden_entries() -> None:
    @attrs.frozen
    class Started:
        basis: list[dict[str, Any]]

    spec = EventSpec("started", Started, None, None, secrets=(Secret("id", ("speed",), within="basis"),))
    payload = {"basis": [{"id": "a", "speed": 5}, {"id": "b", "speed": 6}]}
    assert redact(spec, payload, frozenset({"b"})) == {"basis": [{"id": "a", "speed": 5}, {"id": "b"}]}
    assert redact(spec, payload, frozenset({"c"})) is payload
