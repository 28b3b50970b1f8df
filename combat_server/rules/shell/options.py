"""SHELL's per-fight options: every "(cfg)" reading of section 3 with the
catalogue's default, and S-24 / S-44's cinematic options, as OptionSpecs."""

from __future__ import annotations

from combat_server.rules.options import OptionSpec, check_specs

OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec(
        "overload", "string", "reject", label="Loads over max encumbrance", group="Encumbrance",
        choices=("reject", "immobile"), rules=("S-07", "A-61"),
        help="A load above 100% of the ST's maximum encumbrance: refuse the sheet (reject), "
             "or accept it with EL 4 and no movement points (immobile)."),
    OptionSpec(
        "fatigue_rederives_mv", "boolean", False, label="Fatigue recomputes MV from ST and AG", group="Fatigue",
        rules=("S-13", "A-62"),
        help="Off: low END lowers MV directly (-1, or halved at 0). On: MV is recomputed from the "
             "fatigued ST and AG instead."),
    OptionSpec(
        "guard_preemptive_bonus", "boolean", False, label="Guard's pre-emptive attack gets +1", group="Maneuvers",
        rules=("S-20", "A-65"),
        help="Off: a guard striking before a non-attacking enemy makes a plain attack. On: it keeps "
             "the guard's +1 AT."),
    OptionSpec(
        "wp_roll_any_damage_type", "boolean", False, label="Head/groin stun WP roll for every damage type",
        group="Damage", rules=("S-35", "A-76"),
        help="Off: only stunning crushing blows to the head or groin call for a WP roll against "
             "unconsciousness. On: stunning blows of any type there do."),
    OptionSpec(
        "cinematic_casting", "boolean", False, label="Casters may keep concentrating", group="Spells",
        rules=("S-44",),
        help="A caster who moves more than a step or defends may roll WP to keep the spell; "
             "actual damage still loses it."),
    OptionSpec(
        "cinematic_maneuvers", "boolean", False, label="GM-defined maneuvers", group="Maneuvers",
        rules=("S-24", "S-18"),
        help="The GM may declare other maneuvers with their own AT and DEF modifiers, lasting like "
             "any maneuver until the character's next action."),
)

check_specs("shell", OPTIONS)
