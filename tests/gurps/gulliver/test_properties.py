"""Properties that hold under every legal combination of GULLIVER options: whatever a GM
switches on, a wound never grows past the blow, caps only ever cap, crippling takes no
more than the blow, death checks come in order, and damage never falls as ST rises."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from combat_server.rules.gurps.gulliver.blow import Hit, Target, resolve
from combat_server.rules.gurps.gulliver.blowthrough import Projectile, capped_injury
from combat_server.rules.gurps.gulliver.locations import BODIES, HUMANOID
from combat_server.rules.gurps.gulliver.options import OPTION_SPECS, READINGS, SWITCHES, SUPPORT
from combat_server.rules.gurps.gulliver.policy import Policy, policy_for
from combat_server.rules.gurps.gulliver.size import Scale
from combat_server.rules.gurps.tables import DAMAGE_TYPES
from combat_server.rules.model import JSON
from combat_server.rules.options import validate

from tests.gurps.gulliver.policies import wound

SETTINGS = settings(max_examples=60, deadline=None)
BY_NAME = {s.name: s for s in OPTION_SPECS}


def _legal(chosen: list[str], readings: dict[str, JSON]) -> dict[str, JSON]:
    """The chosen switches plus what they require, minus one side of each exclusion, plus the
    readings whose option is on: a combination validation accepts."""
    on: set[str] = set()
    todo = list(chosen)
    while todo:
        name = todo.pop()
        if name in on or any(name in BY_NAME[o].excludes for o in on):
            continue
        on.add(name)
        todo.extend(BY_NAME[name].requires)
    raw: dict[str, JSON] = {name: True for name in on}
    for name, value in readings.items():
        if all(r in on for r in BY_NAME[name].requires):
            raw[name] = value
    return raw


@st.composite
def policies(draw: st.DrawFn) -> Policy:
    chosen = draw(st.lists(st.sampled_from([s.name for s in SWITCHES + SUPPORT]), unique=True))
    readings = {s.name: draw(st.sampled_from(s.choices or (True, False))) for s in READINGS}
    return policy_for(validate("gurps", OPTION_SPECS, _legal(chosen, readings)))


@SETTINGS
@given(policies(), st.integers(0, 60), st.sampled_from(DAMAGE_TYPES), st.sampled_from(sorted(HUMANOID)),
       st.integers(1, 60))
def test_a_wound_never_exceeds_its_multiplied_blow(p: Policy, pen: int, damage_type: str, where: str,
                                                  st_: int) -> None:
    """V-63: Toughness only removes; the injury is between 0 and the multiplied hits."""
    got = p.injury(pen, damage_type, where=HUMANOID[where], st=st_)
    assert 0 <= got.hp <= got.before_toughness and got.before_toughness >= (1 if pen else 0)


@SETTINGS
@given(policies(), st.integers(0, 200), st.sampled_from(sorted(HUMANOID)), st.integers(1, 60),
       st.booleans(), st.booleans(), st.booleans())
def test_blowthrough_only_ever_lowers_injury(p: Policy, injury: int, where: str, hp_max: int, beam: bool,
                                             big: bool, hollow: bool) -> None:
    """V-05 ... V-07 / A-30: the applied injury is at most the injury and at most the cap."""
    cap = p.blowthrough_cap(Projectile("imp", beam, big, hollow), hp_max, where=HUMANOID[where])
    applied = capped_injury(injury, cap)
    assert applied <= injury and (cap is None or applied <= cap)


@SETTINGS
@given(policies(), st.integers(0, 100), st.sampled_from(sorted(HUMANOID)), st.integers(1, 60),
       st.sampled_from(("cr", "cut", "imp", "pi")))
def test_maiming_takes_no_more_than_the_blow(p: Policy, blow: int, where: str, hp_max: int, damage_type: str) -> None:
    """V-11 / A-33: the HP removed is at most the blow, and a crippled limb took more than its share."""
    loc = HUMANOID[where]
    got = p.maim(blow, loc, hp_max, damage_type)
    assert got.taken <= blow
    if got.crippled:
        assert loc.cripple is not None and blow > loc.cripple * hp_max and got.taken > loc.cripple * hp_max


@SETTINGS
@given(policies(), st.integers(-400, 5), st.integers(1, 80), st.integers(0, 8), st.integers(1, 15),
       st.booleans())
def test_death_checks_come_in_order(p: Policy, new_hp: int, hp_max: int, already: int, iq: int,
                                    monster: bool) -> None:
    """G-45 / V-15 / V-61: the thresholds reached are new (beyond those rolled) and in order;
    automatic death means every threshold was reached."""
    scale = Scale(non_pc_race=monster, low_iq_trait=monster)
    crossed, dead = p.death_checks(new_hp, hp_max, already, iq=iq, scale=scale)
    assert crossed == sorted(crossed) and all(k > already for k in crossed)
    if dead:
        assert p.death_checks(new_hp, hp_max, 0, iq=iq, scale=scale)[0] == list(
            range(1, 9 if p.proportional_death else 5))


@SETTINGS
@given(policies(), st.integers(0, 300), st.integers(1, 200))
def test_shock_penalty_never_negative_and_grows_with_the_blow(p: Policy, hp: int, hp_max: int) -> None:
    """G-47 / V-18: the penalty is a non-negative number that does not fall as the blow grows."""
    low, high = p.shock(wound(hp), hp_max).penalty, p.shock(wound(hp + 1), hp_max).penalty
    assert 0 <= low <= high


@SETTINGS
@given(policies())
def test_damage_never_falls_as_st_rises(p: Policy) -> None:
    """G's table, V-66, V-67 and V-03: the average thrust and swing do not fall from ST 1 to 150."""
    thrust = [p.thrust(s).average() for s in range(1, 151)]
    swing = [p.swing(s).average() for s in range(1, 151)]
    assert all(a <= b for a, b in zip(thrust, thrust[1:])) and all(a <= b for a, b in zip(swing, swing[1:]))


def test_every_body_table_is_usable_by_the_policy() -> None:
    """A-63: for each body type, a rolled blow lands somewhere on that body."""
    on = policy_for({"hit_locations": True})
    for body, table in BODIES.items():
        assert {on.where(Scale(body=body), roll=r).name for r in range(3, 19)} <= set(table)


@SETTINGS
@given(policies(), st.integers(-3, 40), st.sampled_from(("cr", "cut", "imp", "pi", "burn", "tox")),
       st.sampled_from(sorted(HUMANOID) + [None]), st.integers(1, 60), st.integers(-30, 60), st.integers(0, 8),
       st.booleans())
def test_any_blow_resolves_with_cited_rules(p: Policy, rolled: int, damage_type: str, aimed: str | None,
                                            hp_max: int, hp: int, dr: int, monster: bool) -> None:
    """Whatever the options, a blow resolves: HP lost is never negative, and every step, roll and
    effect cites a rule id of the catalogue (G-, V-, A- or R-)."""
    hit = Hit(rolled, p.thrust(12), damage_type, aimed=aimed, beam=damage_type == "burn")
    got = resolve(p, hit, Target(hp_max=hp_max, hp=hp, dr=dr, iq=6, scale=Scale(non_pc_race=monster)))
    assert got.hp_lost >= 0
    for rule in [s.rule for s in got.steps] + [r.rule for r in got.rolls] + [e.rule for e in got.effects]:
        assert rule[:2] in ("G-", "V-", "A-", "R-"), rule
