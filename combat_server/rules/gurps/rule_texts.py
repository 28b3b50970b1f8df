"""Short explanations of the rules the gurps ruleset cites, in this project's own words (#13).

Why here: a rule id in the web page (the log, a badge, a threshold) opens one of these, so a
player learns what G-43 means at the table without the rulebook. They summarise what the rules
in this package do (rules/gurps), never the seed's text; the catalogue
(/work/shared/rules/CATALOGUE.md) stays the reference. The A- and R- texts say how this server
settles a gap or an ambiguity of the rule it names. tests/gurps/test_rule_texts.py checks that
every G-, A- and R- id cited in rules/gurps has one.
"""

from __future__ import annotations

from typing import Mapping

RULE_TEXTS: Mapping[str, str] = {
    "G-01": "A roll succeeds when 3d6 comes up at or under the effective skill; the gap is the margin. "
            "In a Quick Contest both sides roll and the better margin wins.",
    "G-02": "Carried weight against Basic Lift gives an encumbrance level from 0 to 4. Each level cuts Move "
            "(by a fifth of Basic Move) and takes 1 off Dodge; neither drops below 1.",
    "G-07": "How high and how far a character jumps follows from Basic Move; a run-up helps, up to double.",
    "G-08": "What a character can lift, carry, shove or drag is a multiple of Basic Lift; helpers add their "
            "Basic Lift together.",
    "G-09": "Move in combat is Basic Move after encumbrance. Running straight ahead a second time in a row "
            "sprints: a fifth more yards.",
    "G-12": "Throwing something is an Attack: DX-3 to hit a chosen target, DX to land it in an area. It must "
            "weigh no more than 8 times Basic Lift.",
    "G-13": "How far an object flies: ST times a factor that shrinks as the object gets heavier against Basic Lift.",
    "G-14": "A thrown object hits for the thrower's thrust damage, crushing, more or less per die by its weight.",
    "G-18": "The GM calls for a Fright Check: a Will roll. Failing stuns for the margin plus 2d seconds; a "
            "critical failure makes the character faint.",
    "G-19": "Turns are one second each, in one order fixed when combat starts: highest Basic Speed first, "
            "then DX for ties with a PC, then a roll.",
    "G-20": "Each turn a combatant picks one maneuver; it decides what it does, how far it moves and which "
            "defences it keeps until its next turn.",
    "G-21": "Aim takes the turn. An attack next turn with the same weapon at the same foe adds its Acc, plus "
            "1 or 2 for longer aiming. Defending spoils the aim.",
    "G-22": "All-Out Attack in melee: +4 to hit, or two attacks, or a feint then an attack, or extra damage. "
            "The price: no defence at all until the next turn.",
    "G-23": "All-Out Attack at range: +1 to hit, or (with a fast weapon) spraying an area, which the GM judges. "
            "No defence until the next turn either.",
    "G-24": "All-Out Defense: no attack, but +2 to one defence (with Dodge, half Move too), or a second "
            "different defence when the first fails.",
    "G-25": "Attack: one attack with a ready weapon (or bare hands) at a foe in reach or range, and a step.",
    "G-26": "Standing, kneeling, sitting, crawling or lying. Anything but standing hurts attack, defence and "
            "movement but makes a smaller target for ranged attacks.",
    "G-27": "Concentrate on a mental task for the turn. Being hurt or having to defend calls for Will-3 to keep at it.",
    "G-28": "Do Nothing: what a stunned combatant must take. At the end of it, a HT (or IQ) roll can end the stun.",
    "G-29": "Evaluate a foe in reach: +1 to hit it next turn, up to +3 over three turns in a row.",
    "G-30": "Feint: a Quick Contest of skills. Winning takes the margin off that foe's defence against "
            "the next turn's attack.",
    "G-31": "Move: up to full Move in yards, nothing else; defences as usual.",
    "G-32": "Move and Attack: full Move and an attack, at -4 in melee (skill no better than 9) or -2/Bulk at "
            "range; until the next turn only Dodge or Block.",
    "G-33": "Ready: draw, pick up or prepare an item, or get a weapon back under control after using it.",
    "G-34": "Wait: name a trigger and an action. If it happens before the next turn, the action interrupts "
            "whoever is acting.",
    "G-35": "Ranged attacks add the target's size and a penalty for range plus speed, Acc when aimed, and the "
            "GM's circumstance modifiers.",
    "G-36": "An attack hits on 3d6 at or under the effective skill. A very low roll is a critical hit: no "
            "defence, and a 3 does maximum damage. 17 and 18 always miss.",
    "G-37": "A defender who knows of the attack picks one defence (Dodge, Parry or Block), as its last "
            "maneuver allows.",
    "G-38": "A defence succeeds on 3d6 at or under its number; 3 or 4 always succeeds, 17 or 18 always fails.",
    "G-39": "Dodge is Basic Speed + 3, less the encumbrance level; it works against any attack seen coming.",
    "G-40": "Block needs a ready shield or cloak: 3 + half the Shield skill. One block per turn, and none "
            "against bullets or beams.",
    "G-41": "Parry needs a ready weapon or a free hand: 3 + half the weapon skill. An unbalanced weapon that "
            "attacked this turn cannot parry.",
    "G-42": "Damage less DR is what gets through; cutting multiplies it by 1.5 and impaling by 2 to give the "
            "HP lost.",
    "G-43": "Below a third of full HP a combatant is reeling: Move and Dodge are halved, rounding up.",
    "G-44": "At 0 HP or less, a HT roll every turn to stay conscious.",
    "G-45": "At -1 x HP, and at each further multiple down to -4 x HP, a HT roll or die. At -5 x HP death is certain.",
    "G-46": "One injury of more than half of full HP is a major wound: a HT roll or be stunned and knocked down, "
            "or out cold on a bad failure.",
    "G-47": "Every injury gives a shock penalty, at most -4, to DX, IQ and skills during the victim's next turn.",
    "G-48": "A stunned combatant defends at -4 and must Do Nothing; a HT roll at the end of that turn can end it.",
    "G-49": "An unconscious combatant wakes with time, or with HT rolls, depending on how low the HP is.",
    "G-51": "Fatigue: below a third of full FP, Move, Dodge and ST are halved. At 0 FP or less each maneuver "
            "needs a Will roll and lost FP also costs HP; at -FP the combatant passes out.",
    # how this server reads the rules where they are silent or unclear (the catalogue's A- and R- rulings)
    "A-01": "Tables the rules refer to but do not give (the damage table, falling) come from configuration data.",
    "A-03": "Criticals on rolls other than attacks and defences: 3-4 (5 or 6 with high skill) succeed "
            "critically, 18 (17 at skill 15 or less, or 10 over the skill) fails critically. An option.",
    "A-06": "A sprint's extra fifth of Move is kept exactly for the distance; a move allows its whole yards.",
    "A-07": "The throwing-distance table is used as given: a ratio between rows takes the heavier row; "
            "over 8 times Basic Lift cannot be thrown.",
    "A-08": "Half a point per die, rounded down: 3 dice lose 1.",
    "A-09": "A Fright Check's stun lasts its rolled seconds; no recovery roll ends it sooner.",
    "A-10": "Equal Basic Speed: the GM may set the order; else higher DX goes first when a PC is tied; "
            "else a roll decides, logged.",
    "A-11": "Where a maneuver's movement or defences are not stated, this server follows the usual "
            "table; a step is one yard (an option).",
    "A-12": "Half Move rounds down, but is never less than a step.",
    "A-13": "Posture changes attack and defence by the usual table (an option).",
    "A-14": "When the foe fails to resist a feint, only the feinter's own margin counts.",
    "A-17": "From the 1/2D range on, damage is halved; the range penalty comes from range plus speed.",
    "A-18": "Every critical hit skips the defence; 5 is critical from skill 15 and 6 from skill 16.",
    "A-19": "Any number of parries per turn; an option adds -4 for each parry after the first.",
    "A-20": "Multiplied injury rounds down but is at least 1 when anything got through; other damage "
            "types multiply by 1 (an option gives piercing its own).",
    "A-21": "Move and Dodge: encumbrance first (down, at least 1), then halve for wounds, then for "
            "fatigue (each rounding up), then the maneuver's and posture's changes.",
    "A-22": "The roll to stay conscious at 0 HP or less comes at the start of each of the combatant's "
            "turns; after waking, none until hurt again.",
    "A-23": "One blow that crosses several -HP lines calls for a HT roll per line; any failure kills.",
    "A-24": "A failed major-wound roll stuns and knocks down; failing by 5 or more knocks out. Every hit "
            "counts as a torso hit.",
    "A-25": "Shock is injury times 10 over full HP, rounded down; several injuries add up to -4 at most; "
            "defences do not suffer it.",
    "A-26": "At 0 FP or less, only points lost once already at 0 or below cost HP too; below -FP every "
            "point comes off HP.",
    "R-04": "Fatigue's combat effects start below a third of full FP; running and swimming slow at a third or less.",
    "R-05": "Shock from an injury taken during the victim's own turn counts on its next turn.",
    "R-06": "HP lost through fatigue is injury: it causes shock and death checks, never a major wound.",
    "R-07": "An unbalanced weapon that attacked, hit or miss, cannot parry until its wielder's next turn.",
    "R-21": "Tied fighters each roll 3d6, higher first, rolling again among those still tied; the GM may "
            "set the order instead.",
}
