"""What each SHELL rule id means at the table, in the project's own words (issue #13): every
S- rule of the catalogue, and the A- and R- readings that concern SHELL (A-56…A-82, R-02,
R-12…R-21). Titles are the catalogue's; the texts summarise, never quote, the seed
(tests/rules/test_rule_texts.py checks both). SHELL's Ruleset class attaches ``RULE_TEXTS``
as its ``rule_texts``."""

from __future__ import annotations

from combat_server.rules.rule_text import rule_texts

RULE_TEXTS = rule_texts(
    # ------------------------------------------------------------------ S: the SHELL rules
    ("S-01", "Attribute rolls",
     "Roll 3d6 at or under the attribute to succeed; an easy task adds 2, a hard one takes 3 off, and "
     "the GM may set other modifiers."),
    ("S-02", "Attribute contests",
     "Both sides roll against their attribute; the better margin of success (or the smaller margin of "
     "failure) wins, and a draw is a tie. Used for arm-wrestling, mind control and the stop-thrust push."),
    ("S-03", "Primary attributes and the Primary Attribute Chart",
     "ST, AG and IQ, 10 for an ordinary human. A chart turns ST into carrying capacity and base damage, "
     "and AG into attack and defence bonuses."),
    ("S-04", "Secondary attributes",
     "HT, HP, END, WP, CHA, PER and MV start from the primary attributes (HP and END from ST, MV from "
     "ST plus AG over 4); DR, DM, MR and flight are mostly for creatures."),
    ("S-05", "Character points, wealth, handedness",
     "The campaign sets starting points and experience; points can buy wealth, and being ambidextrous "
     "costs 5."),
    ("S-06", "Advantages, disadvantages, races",
     "A trait's cost is 5 times its severity times how often it matters, positive or negative; a race "
     "is a bundle of attribute changes and traits."),
    ("S-07", "Encumbrance level (EL)",
     "Your load as a share of your maximum gives an encumbrance level from 0 (a tenth or less) to 4 "
     "(the full amount); it slows you, hurts dodging and initiative and tires you faster."),
    ("S-08", "Skills: types and experience costs",
     "Skills are major (professions, fighting styles, magic) or minor; each level costs more experience "
     "than the last, twice as much for major skills."),
    ("S-09", "Skill groups",
     "Related major skills are cheaper together: the best one costs in full and each other costs four "
     "experience per level (two for minor skills)."),
    ("S-10", "Skill (task) rolls",
     "A task has a minimum skill level. Roll 3d6 under IQ or AG, plus the difficulty, plus how far your "
     "skill is above that minimum; below the minimum you cannot try."),
    ("S-11", "Combat skills (fighting styles)",
     "A fighting style is one skill covering its weapons; every three levels past the first add 1 to "
     "damage, and a style may cap encumbrance or give attack, block or dodge bonuses."),
    ("S-12", "Magic skills and spells",
     "Casting is a hard IQ task against the spell's minimum level. Success costs the spell's END, "
     "failure 1 END, and a target whose MR reaches the spell's minimum level is immune."),
    ("S-13", "Fatigue (END) thresholds",
     "At a third of END or less you lose 1 ST, AG and MV; at 0 or less you lose 2 ST and AG, move at half "
     "speed and must roll WP plus your END to stay conscious."),
    ("S-14", "END recovery",
     "An hour of rest or sleep gives back a fifth of your full END."),
    ("S-15", "Experience",
     "Each session earns 1 to 4 experience for how much a character did; the GM allows skill increases "
     "that play has earned."),
    ("S-16", "Animals and aliens",
     "Creatures with other body shapes use their own hit-location table, a very small or very large one "
     "puts some locations out of reach, and predators fight with a predator skill adjusted by their AG."),
    ("S-17", "Rounds, initiative, step-and-maneuver, MV points",
     "Fighters act once a round, highest AG minus twice EL first. On your turn either take a step and "
     "one maneuver, or move up to MV minus EL units and do nothing else."),
    ("S-18", "Maneuver chart",
     "Each maneuver adjusts your attack and defence until your next action: Guard +1 attack, Defend +2 "
     "defence, Disarm −2 and −1, Aim −2 defence."),
    ("S-19", "Attack maneuver: movement and charge",
     "An attacker may cover its whole movement before striking, at −2 to hit; rushing straight at the "
     "foe adds 1 damage for every 5 units covered."),
    ("S-20", "Guard",
     "Hold back and let the foe strike first: if its attack is stopped you hit back at once with +1 to "
     "hit, and if it does something else you may strike just before it."),
    ("S-21", "Defend",
     "Put everything into defence: +2 to it, and no attack this turn."),
    ("S-22", "Disarm",
     "Strike at the foe's weapon, at the weapon location's −2 on top of the maneuver's −2; a hit knocks "
     "it away. Bare hands take a further −2, and only some weapons can disarm."),
    ("S-23", "Aim",
     "Hold still to line up a shot: +1 to hit per turn, up to +3, while your defence is 2 lower."),
    ("S-24", "Cinematic or creative maneuvers",
     "In a cinematic game the GM may allow other maneuvers, each with its own attack and defence "
     "modifiers."),
    ("S-25", "Attack resolution (2d10)",
     "The defender says dodge or block, then the attacker rolls 2d10 + AT − DEF: 8 or less misses, 9–11 "
     "is defended, and higher hits, though a shield soaks the first results above 11 (its PR)."),
    ("S-26", "Base AT and DEF",
     "Attack is the style's level plus the AG bonus; a block uses the style level plus the AG defence "
     "bonus, and a dodge uses your best style level plus that bonus, less 1 and your EL."),
    ("S-27", "Ranged attacks: speed rating",
     "A missile's speed divides the target's base defence (1 thrown, 2 bows, 3 guns and magic); beyond "
     "half range old weapons count as speed 1, and only shields block missiles."),
    ("S-28", "Defence limits",
     "Dodging is unlimited, but you may block only 1 + (level − 1)/2 times a round, rounded down; a "
     "fighter knocked down may only dodge, at −4, and an unaware one cannot defend."),
    ("S-29", "AT modifier chart",
     "Attacks are adjusted for the maneuver, moving more than a step, swinging to the off side, the off "
     "hand, higher ground, not seeing the foe and the hit location (head −2, eye −5)."),
    ("S-30", "Ranged AT modifiers",
     "Shots lose 1 to hit for each range band past the nearest (bands grow half as long again), lose "
     "more for a moving target or cover, gain from aiming, and need the target in sight."),
    ("S-31", "DEF modifier chart",
     "Defences are adjusted for the last maneuver, a block to the off side or with the off hand, higher "
     "ground, being stunned, an unseen attacker and being knocked down."),
    ("S-32", "Damage, consciousness, death, stun",
     "Damage builds up against HP: at your full HP you fall unconscious and at twice it you die; one "
     "blow of half your HP stuns you, costing your next turn at −2 defence."),
    ("S-33", "DR, armour-piercing, DM",
     "Armour and natural DR come off every hit (armour-piercing weapons halve armour DR), then a damage "
     "modifier takes off a percentage of what is left."),
    ("S-34", "Cutting",
     "The plain damage type, with no special effects; burns and electric shocks work the same way."),
    ("S-35", "Crushing",
     "A crushing blow to head, torso or groin stuns at a third of HP instead of half, a stunning one to "
     "head or groin calls for a WP roll against blacking out, and it may be dealt as non-lethal stun damage."),
    ("S-36", "Impaling",
     "Impaling works like cutting but deals half again to the heart or groin, half to arms, legs, hands "
     "and feet, and half to objects."),
    ("S-37", "Hit-location crippling",
     "Enough damage to one location (a share of HP) disables a limb or eye and stuns; it heals unless it "
     "reached twice that share or a single-blow HT roll fails. Head and neck hits count fourfold."),
    ("S-38", "Location bookkeeping and area attacks",
     "Damage is kept per hit location and the running total decides knockout and death; blasts that "
     "catch the whole body land on the torso."),
    ("S-39", "HP recovery",
     "Each hurt location heals a share of HP every day, a tenth for HT 10 and more for a healthier body."),
    ("S-40", "Entering close combat; stop thrust; shield block",
     "Stepping into a foe's space lets it answer with a stop thrust or a shield block, using one of its "
     "blocks; if that hurts you or wins a ST contest you are kept out and lose the rest of the turn."),
    ("S-41", "Close-combat restrictions",
     "Once grappling, only bare hands, natural weapons and very short blades work, the only defence is "
     "a dodge, shields do nothing, and Takedown and Pin become possible."),
    ("S-42", "Takedown",
     "An attack roll adjusted by 1 per point of ST difference; if it lands, the defender is thrown to "
     "the ground."),
    ("S-43", "Pin and escaping a pin",
     "Against a downed foe, a takedown roll also adjusted by 1 per 20 lb of weight difference pins it; "
     "the pinned one escapes by winning a takedown back."),
    ("S-44", "Combat spellcasting",
     "A spell is a task roll, made at once or after its casting rounds of unbroken concentration; moving "
     "more than a step, defending or being hurt loses it."),
    ("S-45", "Damage to objects",
     "A blocked blow, a shield hit or an attack on a weapon damages the item; it breaks only if one hit's "
     "damage is more than its HP, and impaling does half."),
    ("S-46", "Combat fatigue",
     "Fighting wears you out: one END for every 25 rounds of moving, attacking or defending when "
     "unencumbered, down to one every 5 rounds at EL 4."),
    ("S-47", "Genre equipment defaults",
     "Standard gear: armour DR from cloth 1 to plate 7, shields with PR 1–3 and 10–16 HP, and weapons "
     "that state damage type, range, speed and modifiers."),
    ("S-48", "Weapon ST requirements and handedness",
     "A weapon's minimum ST costs 1 skill per point you lack, ST more than 5 above it adds no damage, and "
     "wielding a hand-and-a-half weapon in two hands lowers the minimum by 2 and adds 1 damage."),
    # ------------------------------------------------------------------ A: the catalogue's readings of SHELL's unclear text
    ("A-56", "Flattened tables",
     "The SHELL text lost its line breaks, so every table was rebuilt and checked row by row."),
    ("A-57", "Units, steps and the charge count",
     "One unit is one map cell, a step is one unit, and the charge bonus counts whole groups of five "
     "units moved."),
    ("A-58", "Attribute chart beyond 7–20",
     "Outside the chart, damage, attack and defence bonuses follow formulas that reproduce every row; "
     "carrying capacity beyond it comes from the GM."),
    ("A-59", "CHA and MV fractions",
     "Charisma and Move are rounded down: ST 12 and AG 13 give MV 6."),
    ("A-60", "Ambidexterity",
     "An ambidextrous fighter ignores the off-hand penalties to attack and to block."),
    ("A-61", "Loads above the maximum",
     "A load over the maximum cannot be carried: it is refused, or the fighter cannot move at all."),
    ("A-62", "Fatigue effects: which attributes, stacking",
     "The low-END penalties hit ST and AG (and what is looked up from them), the −1 and −2 do not add "
     "up, and MV is lowered directly."),
    ("A-63", "Creature hit locations",
     "A creature with another body shape uses its own hit-location table in place of the humanoid one."),
    ("A-64", "Initiative ties and recalculation",
     "Initiative is worked out again every round, since loads change; ties go to higher AG and then to "
     "a recorded roll."),
    ("A-65", "Guard trigger, counter and pre-emptive attack",
     "A guard counters only an attack that missed or was defended (11 or less), once, and a strike "
     "before a foe's other action gets no +1."),
    ("A-66", "Disarm and weapon damage",
     "A disarm knocks the weapon away without harming it; to break it, attack the weapon instead."),
    ("A-67", "Aim and the free step",
     "Aim turns must follow each other against the same target; a step or any other maneuver starts the "
     "count again."),
    ("A-68", "Shield cover when dodging; 9–11 against the helpless",
     "A shield's cover band counts whether the bearer blocks or dodges (not in close combat), and a 9–11 "
     "against someone who could not defend is a miss."),
    ("A-69", "Immobile targets",
     "A helpless target is hit automatically in melee; a missile still rolls, against defence 0."),
    ("A-70", "Speed division: rounding and order",
     "Base defence is divided by the missile's speed and rounded down, never below 0, before the "
     "maneuver and situation modifiers are added."),
    ("A-71", "Range bands beyond 40",
     "Each range band past 40 units reaches half as far again as the last, rounded down: 60, 90, 135, "
     "202, …"),
    ("A-72", "Moving targets",
     "How far the target moved last turn is looked up on the range-band table and that penalty is added."),
    ("A-73", "Attacker's or defender's DEF",
     "The defence modifiers apply to the defender's DEF."),
    ("A-74", "Negative damage, unconsciousness, stun",
     "A damage roll never goes below 0, waking from unconsciousness is the GM's call, and a stun always "
     "lasts exactly one lost turn."),
    ("A-75", "Order of DR, AP, DM and multipliers",
     "Damage is worked out in a fixed order: DR (armour halved for armour-piercing), then the damage "
     "modifier, then the type multiplier, then the location multiplier, rounding down and never below 0."),
    ("A-76", "WP roll for crushing head and groin blows",
     "The WP roll against unconsciousness after a stunning head or groin blow is for crushing blows only, "
     "unless the fight's option extends it."),
    ("A-77", "Which locations are limbs",
     "For impaling, arms, legs, hands and feet count as limbs."),
    ("A-78", "Location damage, caps and permanence",
     "A location's damage is tracked in full to judge crippling and permanence, but it adds to the HP "
     "total only up to its threshold; eye damage beyond it counts fourfold."),
    ("A-79", "A missed stop thrust",
     "If the stop thrust misses, the attacker gets in."),
    ("A-80", "Pin weight and the immediate pin",
     "The weight bonus counts whole 20 lb steps, and a pin straight after a takedown is an extra roll "
     "allowed that same turn."),
    ("A-81", "Object DR and accumulation",
     "Objects have no DR unless stated, and damage to them does not build up from hit to hit."),
    ("A-82", "Counting combat fatigue",
     "Each active round adds a fraction of an END point set by the current EL; a whole END is lost "
     "whenever those fractions make one."),
    # ------------------------------------------------------------------ R: the addendum's settled readings
    ("R-02", "Speed 1 beyond half range",
     "When the range changes, the range band, the attack and the missile's speed are all worked out "
     "again; past half the weapon's maximum range its speed is 1."),
    ("R-12", "Object damage equal to its HP",
     "An object hit for exactly its HP holds; it breaks only when a hit is larger."),
    ("R-13", "A block against a miss",
     "A block that was declared counts against the round's blocks even if the attack missed."),
    ("R-14", "Hand and arm on the same limb",
     "Damage to a hand also counts toward its arm, and a whole limb adds at most 40% of base HP, rounded "
     "up, to the total."),
    ("R-15", "Aim",
     "The aiming bonus is for missiles only; the aim is broken by moving beyond a step, by any dodge or "
     "block, and by an injury."),
    ("R-16", "A pinner who goes down",
     "A pinner lying on the ground counts as knocked down: it can only dodge, at −4."),
    ("R-17", "A spell lost to interruption",
     "A spell broken off before its roll costs no END."),
    ("R-18", "END lost to combat fatigue",
     "END lost to fatigue counts as spent: at 0 or below it calls for a fresh WP roll."),
    ("R-19", "Casting rounds and combat fatigue",
     "A round spent only casting does not tire the caster; one in which it also defends does."),
    ("R-20", "Style damage bonus",
     "Only hand-to-hand fighting styles get the extra damage for high levels; ranged skills do not."),
    ("R-21", "Tie-break roll-off",
     "Fighters tied for turn order each roll (2d10 here), the higher going first and remaining ties "
     "rolling again; the GM may set the order instead. Every roll and order is an event."),
)
