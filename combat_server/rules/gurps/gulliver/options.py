"""GULLIVER's per-fight options (catalogue section 2): one spec per `[combat-option]`
entry V-01 ... V-68 (39 switches, all off by default), plus the five "(cfg)" readings
the catalogue leaves to the GM, each defaulting to the catalogue's proposal, and the
fight's heat for V-48 (none by default).

Why ``requires`` and not silent implication: a GM who ticks "amputation" without
"crippled limbs" has asked for something the rules cannot do (V-12 measures from
V-11's amounts), so validation says so naming both options instead of guessing.
Only the ``OFFERED`` ones are attached to the gurps ruleset: those already wired through
its decide and apply (issue #11, second step)."""

from __future__ import annotations

from combat_server.rules.gurps.gulliver.fatigue import HEAT
from combat_server.rules.model import JSON
from combat_server.rules.options import OptionSpec, check_specs

DAMAGE = "GULLIVER: damage"
BLOWTHROUGH = "GULLIVER: blowthrough"
SHOCK = "GULLIVER: the damage-and-shock system"
DEATH = "GULLIVER: death and knockout"
FATIGUE = "GULLIVER: fatigue"
MONSTERS = "GULLIVER: monsters"
TOUGHNESS = "GULLIVER: Toughness"
ST_TABLES = "GULLIVER: ST damage tables"
LIGHT = "GULLIVER: light"
LOCATIONS = "GULLIVER: hit locations"
#: The switch the location-based options need (A-24: without it every hit is to the torso).
HIT_LOCATIONS = "hit_locations"
_LOCATED = (HIT_LOCATIONS,)


def _switch(name: str, label: str, group: str, rules: tuple[str, ...], help: str,
            excludes: tuple[str, ...] = (), requires: tuple[str, ...] = ()) -> OptionSpec:
    """A GULLIVER switch: boolean, off unless the GM turns it on (issue #11)."""
    return OptionSpec(name, "boolean", False, help, label=label, rules=rules, group=group,
                      excludes=excludes, requires=requires)


#: The 39 `[combat-option]` entries, in the order the form shows them; each one's V id is ``rules[0]``.
SWITCHES: tuple[OptionSpec, ...] = (
    _switch("combat_load_st", "Combat ST and Load ST", DAMAGE, ("V-01",),
            "Blows, bites and muscle-powered weapons use the fighter's Combat ST; lifting and "
            "hauling use Load ST."),
    _switch("aoa_percent_damage", "All-Out Attack (Strong) adds a third", DAMAGE, ("V-02", "R-09", "A-29", "G-22"),
            "All-Out Attack (Strong) adds 33% of the rolled damage, rounded up, in place of +2 or +1 per die."),
    _switch("tiny_damage", "Fractional damage for weak creatures", DAMAGE, ("V-03", "V-66"),
            "Below ST 10, damage is the ST 10 roll scaled by ST/10; fractions count only against "
            "targets with fewer than 10 HP."),
    _switch("split_hp", "Split HP (two-part bodies)", DAMAGE, ("V-04",),
            "A creature with two body halves keeps one HP pool; blows to the other half are scaled "
            "by base HP / that half's HP."),
    _switch("blowthrough", "Blowthrough", BLOWTHROUGH, ("V-05",),
            "Piercing and impaling wounds stop growing at a cap; the base cap is the target's HP "
            "before bought HP, scaled for size."),
    _switch("blowthrough_improved", "Blowthrough cap of 10 x LS", BLOWTHROUGH, ("V-06",),
            "The blowthrough cap is 10 x Linear Scale for every creature (the recommended rule).",
            requires=("blowthrough",)),
    _switch("blowthrough_modifiers", "Blowthrough by location and weapon", BLOWTHROUGH, ("V-07", "A-30"),
            "The cap is x3 in the vitals or head, none in the brain, x1/2 on limbs, x1/3 on hands "
            "and feet; beams double it on the body, big or hollow-point bullets add x1.5 each.",
            requires=("blowthrough",)),
    _switch("damage_shock", "Damage-and-shock system", SHOCK, ("V-08",),
            "Shock is counted in points like damage, every threshold is a share of full HP, and "
            "Will's difference from IQ adjusts HT rolls against shock (not against damage)."),
    _switch("injury_slowdown", "Slowdown from injury", SHOCK, ("V-09", "A-31", "G-43"),
            "Below a third of full HP, Move and Dodge are halved (the rule's own threshold, not "
            "the dragon example's)."),
    _switch("knockdown", "Knockdown from a heavy blow", SHOCK, ("V-10", "A-32"),
            "A single blow of more than half full HP, anywhere on the body, knocks the victim "
            "down on a failed HT roll."),
    _switch("crippled_limbs", "Crippled limbs", SHOCK, ("V-11", "A-33"),
            "Arms and legs are crippled by a blow over HP/2, hands and feet over HP/3; the excess "
            "is lost and the blow's shock is doubled instead of stunning outright.",
            requires=_LOCATED),
    _switch("amputation", "Amputation", SHOCK, ("V-12", "A-34"),
            "A cutting blow of over twice the crippling amount severs the limb on a failed HT roll, "
            "and outright at twice that again; only the crippling amount is taken.",
            requires=("crippled_limbs",)),
    _switch("neck_injury", "Neck crippling and decapitation", SHOCK, ("V-13", "A-35"),
            "The neck cripples like a limb (paralysis); a cutting blow past the amputation amount "
            "beheads, a crushing one breaks the neck fatally.",
            requires=("crippled_limbs",)),
    _switch("shock_points", "Shock measured in points", SHOCK, ("V-17", "A-28"),
            "Shock is the final injury times the GM's multipliers for location, weapon or condition "
            "(x1 unless set), and stun weapons deal shock directly.",
            requires=("damage_shock",)),
    _switch("shock_penalty_bands", "Shock penalty scaled to HP", SHOCK, ("V-18", "A-37", "A-38"),
            "The one-turn DX and IQ penalty is -1 per tenth of full HP in shock (rounded in bands), "
            "with no -4 cap: small creatures suffer far more per point.",
            requires=("damage_shock",)),
    _switch("shock_stun", "Stun from shock", SHOCK, ("V-19", "R-08"),
            "More than half full HP in shock from one blow stuns outright; with Knockdown on, a "
            "major wound's failed roll only knocks down.",
            requires=("damage_shock",)),
    _switch("brain_shock", "Brain hits double shock", SHOCK, ("V-20",),
            "A hit to the brain doubles its shock before stun and knockout are judged, in place "
            "of the special brain-stun roll.",
            requires=("damage_shock", HIT_LOCATIONS)),
    _switch("limb_stun", "Stunned limbs drop what they hold", SHOCK, ("V-21", "A-39", "R-11"),
            "Shock to an arm over HP/2 (hand over HP/3) makes it drop what it holds; a grip roll is "
            "allowed when the shock only just passed the mark.",
            requires=("damage_shock", HIT_LOCATIONS)),
    _switch("shock_knockout", "Knockout from shock", SHOCK, ("V-22",),
            "More than full HP in shock from one blow calls for a HT roll against knockout; more "
            "than twice full HP knocks out outright.",
            requires=("damage_shock",)),
    _switch("shock_recovery", "Shock wears off with HT rolls", SHOCK, ("V-24", "R-10", "A-40"),
            "The shock penalty stays until a HT roll removes as many points as it succeeds by; "
            "stun and each stunned limb recover with their own roll.",
            requires=("damage_shock",)),
    _switch("injury_knockout", "Knockout from injury", DEATH, ("V-14", "G-44"),
            "At 0 HP or below, a HT roll each turn to stay conscious (GURPS's rule, cited as GULLIVER's)."),
    _switch("proportional_death", "Death checks every half HP", DEATH, ("V-15", "A-36"),
            "Death checks come at -1, -1.5, -2 ... -4.5 x full HP (eight rolls) and death at -5 x, "
            "one roll per threshold a blow crosses."),
    _switch("heart_attack", "Heart attacks from heart wounds", DEATH, ("V-44", "A-46"),
            "A heart wound of full HP or more calls for a HT roll (-4 at twice, -8 at three times); "
            "failure brings a minor, major or fatal heart attack.",
            requires=_LOCATED),
    _switch("light_levels", "Light levels", LIGHT, ("V-46", "A-47"),
            "Twelve light levels from blinding to total darkness give Vision, DX and IQ penalties; "
            "darkness penalties also count against sight-dependent attacks and defences."),
    _switch("movement_fatigue", "Fatigue from movement over time", FATIGUE, ("V-47", "A-48"),
            "Moving costs fatigue per unit of time by pace (a sprint costs 1 per 10 s), in place "
            "of the sprinting HT rolls."),
    _switch("effort_heat_fatigue", "Extra Effort and heat fatigue", FATIGUE, ("V-48",),
            "Any Extra Effort costs 1 fatigue a turn; heat adds +1 (or +2 when very hot) to every "
            "fatigue cost."),
    _switch("fatigue_skill_penalty", "Fatigue lowers DX and IQ", FATIGUE, ("V-50", "A-49"),
            "At two-thirds of full fatigue or less, -1 DX and IQ; at half, -2; at a third, -3."),
    _switch("encumbrance_fatigue", "Encumbrance multiplies fatigue", FATIGUE, ("V-52",),
            "Exertion fatigue is divided by the encumbrance Move multiplier; Extra-Heavy loads cost "
            "fatigue even standing still."),
    _switch("fatigue_on_st", "Fatigue based on ST", FATIGUE, ("V-53", "A-50"),
            "Fatigue equals Combat ST; each point is scaled by ST/10 and by a HT roll, ST falls with "
            "fatigue, and thresholds come at ST/3, ST/10 and 0.",
            excludes=("fatigue_on_ht",)),
    _switch("fatigue_on_ht", "Fatigue based on HT", FATIGUE, ("V-54", "A-51"),
            "Fatigue equals HT, 1 per point with no roll; Move and Dodge halve at 3 or less, "
            "collapse at 1, unconscious at 0.",
            excludes=("fatigue_on_st",)),
    _switch("finishing_blow", "Finishing a helpless monster", MONSTERS, ("V-59",),
            "A deliberate killing blow on a helpless foe may do maximum damage (brain x4), and "
            "follow-up twists past the skull ignore DR."),
    _switch("monster_ko_bonus", "Monsters resist knockout", MONSTERS, ("V-60",),
            "Non-PC races get +1 per point of racial IQ below 10 to stay conscious; once they "
            "succeed, only fresh damage of a tenth of full HP calls for another roll."),
    _switch("monster_ko_zone", "Monsters die sooner below 0 HP", MONSTERS, ("V-61", "A-52"),
            "For non-PC races with IQ below 10, every death threshold below 0 HP is scaled by IQ/10."),
    _switch("monster_combined", "Combined monster approach", MONSTERS, ("V-62",),
            "Both monster rules together; a PC whose sheet takes the low-IQ race trait counts too."),
    _switch("new_toughness", "Toughness from ST", TOUGHNESS, ("V-63",),
            "Every creature has Toughness ST/5, taken off the injury after the wound multipliers "
            "but never more than the hits that got past DR."),
    _switch("location_toughness", "Toughness by location and its shock", TOUGHNESS, ("V-64", "A-53"),
            "Toughness is halved in hands, feet, groin, neck and nose, none in the eyes, and the "
            "brain relies on DR; shock is measured after (or before) Toughness.",
            requires=("new_toughness",)),
    _switch("new_st_damage", "New ST damage table (thrust)", ST_TABLES, ("V-66", "A-54"),
            "Thrust grows about linearly with Combat ST (ST 10 1d, ST 20 2d, ST 1000 100d)."),
    _switch("new_swing_damage", "Swing under the new table", ST_TABLES, ("V-67", "A-55"),
            "Swing is the thrust of ST x 1.5; a weapon's weight limits the extra dice over thrust "
            "to the square root of its pounds.",
            requires=("new_st_damage",)),
    _switch("toughness_st_balance", "Toughness with the new table", ST_TABLES, ("V-68",),
            "Toughness and the new ST table together; attacks not powered by ST get +1 per die "
            "to make up for Toughness.",
            requires=("new_toughness", "new_st_damage")),
)

#: What several options stand on without being a V entry themselves.
SUPPORT: tuple[OptionSpec, ...] = (
    OptionSpec(HIT_LOCATIONS, "boolean", False, label="Hit locations", group=LOCATIONS, rules=("A-24", "A-63", "V-08"),
               help="Blows land on a body location (rolled, or aimed at its penalty) with its own wound "
                    "multipliers and DR; each creature uses its body type's table. Off: every hit is to the torso."),
)

#: The catalogue's "(cfg)" readings of those options, each defaulting to its proposal, and the
#: fight's heat (V-48), which the GM sets like a reading.
READINGS: tuple[OptionSpec, ...] = (
    OptionSpec("stun_rule", "string", "standard", label="Stun from shock: rule", group=SHOCK,
               choices=("standard", "ht_roll"), rules=("V-19",), requires=("shock_stun",),
               help="standard: stunned outright over HP/2 of shock. ht_roll: a HT roll over HP/3, "
                    "stunned outright over 2/3 HP."),
    OptionSpec("crippling_shock", "string", "applied", label="Shock of a crippling blow", group=SHOCK,
               choices=("applied", "full_blow"), rules=("V-11", "A-33"), requires=("crippled_limbs",),
               help="applied: doubled shock of the HP actually taken. full_blow: doubled shock of "
                    "the whole blow (far deadlier)."),
    OptionSpec("shock_penalty_cap", "boolean", False, label="Keep the -4 shock cap", group=SHOCK,
               rules=("V-18", "A-37", "G-47"), requires=("shock_penalty_bands",),
               help="Keep GURPS's -4 limit on the shock penalty even with the scaled bands."),
    OptionSpec("darkness_penalties", "string", "vision_and_combat", label="What darkness penalises", group=LIGHT,
               choices=("vision_and_combat", "vision_only"), rules=("V-46", "A-47"), requires=("light_levels",),
               help="vision_and_combat: darkness penalties count on Vision rolls and on attacks and active "
                    "defences that need sight. vision_only: on Vision rolls alone."),
    OptionSpec("fatigue_heat", "string", "none", label="Heat", group=FATIGUE,
               choices=tuple(HEAT), rules=("V-48",), requires=("effort_heat_fatigue",),
               help="none: no heat surcharge. hot: +1 to every fatigue cost in this fight. very_hot: +2 "
                    "(very hot weather, or everyone in hot clothing or armour)."),
    OptionSpec("toughness_shock", "string", "after", label="Shock and Toughness", group=TOUGHNESS,
               choices=("after", "before"), rules=("V-64",), requires=("location_toughness",),
               help="after: shock is the injury Toughness let through (none if it stopped it all). "
                    "before: shock is the injury before Toughness, less Toughness once."),
)

OPTION_SPECS: tuple[OptionSpec, ...] = SWITCHES + SUPPORT + READINGS

#: V id -> option name, for explanations and docs.
OPTION_FOR_RULE: dict[str, str] = {s.rules[0]: s.name for s in SWITCHES}

check_specs("gurps/gulliver", OPTION_SPECS)

#: The GURPS rule (or table, A-01) each option stands in for, so an explanation can name both.
REPLACES: dict[str, str] = {
    "V-02": "G-22", "V-09": "G-43", "V-10": "G-46", "V-14": "G-44", "V-15": "G-45", "V-17": "G-47",
    "V-18": "G-47", "V-19": "G-46", "V-24": "G-47", "V-47": "G-10", "V-48": "G-51", "V-52": "G-51",
    "V-53": "G-51", "V-54": "G-51",
    "V-63": "G-42", "V-66": "A-01", "V-67": "A-01",
    "V-01": "A-01", "V-03": "A-01", "V-60": "G-44", "V-61": "G-45",
}


def rule_option(rule: str, default: str) -> dict[str, JSON]:
    """A prompt's ``rule`` option when a GULLIVER rule stands in for the GURPS ``default``; empty
    for the default, so a fight without the option opens the prompts it always did."""
    return {} if rule == default else {"rule": rule}


def cite(rule: str) -> str:
    """A rule id as an explanation shows it: ``V-15 (in place of G-45)``, or the id alone."""
    return f"{rule} (in place of {REPLACES[rule]})" if rule in REPLACES else rule


#: The switches wired through the gurps ruleset's decide and apply and tested through the real
#: engine (tests/gurps/gulliver/test_wired_*.py): only these are offered to GMs (issue #11, second
#: step). The others stay in the pure layer until their wiring lands ("not yet offered",
#: docs/gulliver.md); a spec here may only require offered ones (checked below).
WIRED: tuple[str, ...] = (
    "aoa_percent_damage", "new_st_damage", "new_swing_damage", "new_toughness", "toughness_st_balance",
    "blowthrough", "blowthrough_improved", "hit_locations", "crippled_limbs", "knockdown", "injury_knockout",
    "proportional_death", "location_toughness", "injury_slowdown", "amputation", "heart_attack",
    "neck_injury", "damage_shock", "shock_penalty_bands", "shock_penalty_cap", "shock_stun", "stun_rule",
    "shock_knockout", "brain_shock", "shock_recovery", "limb_stun",
    "fatigue_skill_penalty", "light_levels", "darkness_penalties", "fatigue_on_st", "fatigue_on_ht", "encumbrance_fatigue", "effort_heat_fatigue",
    "fatigue_heat", "movement_fatigue",
    "combat_load_st", "tiny_damage", "split_hp", "monster_ko_bonus", "monster_ko_zone", "monster_combined",
    "blowthrough_modifiers", "shock_points", "finishing_blow", "crippling_shock", "toughness_shock",
)
OFFERED: tuple[OptionSpec, ...] = tuple(s for s in OPTION_SPECS if s.name in WIRED)

check_specs("gurps/gulliver offered", OFFERED)
