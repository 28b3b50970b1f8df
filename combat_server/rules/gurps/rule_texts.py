"""What each rule id the gurps package cites means at the table, in the project's own words
(``GurpsRuleset.rule_texts``, issue #13): every G- and V- rule of the catalogue, the A- readings
of both (A-01…A-55, and A-63 for body types) and the addendum's R-01, R-03…R-11 and R-21.
Titles are the catalogue's; the texts summarise, never quote, the seeds
(tests/rules/test_rule_texts.py checks both)."""

from __future__ import annotations

from combat_server.rules.rule_text import rule_texts

RULE_TEXTS = rule_texts(
    # ------------------------------------------------------------------ G: the GURPS-Lite mechanics
    ("G-01", "Success rolls, margins, Quick Contests",
     "Roll three dice and you succeed if the total is at most your effective skill; how far you beat "
     "or missed it is your margin. In a Quick Contest both sides roll and the better margin wins."),
    ("G-02", "Encumbrance levels and Move/Dodge",
     "What you carry, compared with your Basic Lift, sets an encumbrance level from 0 to 4. Each "
     "level cuts Move by a fifth of Basic Move and takes 1 off Dodge, but neither drops below 1."),
    ("G-03", "Encumbrance as a skill penalty",
     "Your encumbrance level comes off Climbing and Stealth rolls, and twice that level comes off Swimming."),
    ("G-04", "Unlisted physical feats",
     "For a feat no rule covers, the GM calls for DX when it needs precision and HT when it needs "
     "stamina; effort scales with Basic Lift and speed with Basic Move."),
    ("G-05", "Climbing",
     "A climber rolls Climbing, adjusted for the surface and minus encumbrance, at the start and every "
     "five minutes; a failed roll is a fall, and climbing at combat pace costs 1 FP per roll."),
    ("G-06", "Hiking",
     "A day's march covers ten miles per point of Move, more with a good Hiking roll, scaled for the "
     "terrain and the weather."),
    ("G-07", "Jumping",
     "How high (in inches) and how far (in feet) you can jump follows from Basic Move; a run-up helps, "
     "but never past twice the standing jump."),
    ("G-08", "Lifting and moving things",
     "What you can lift, shove, carry or budge is a multiple of Basic Lift, from twice it in one hand "
     "to fifty times it for a slight shift; helpers pool their Basic Lift."),
    ("G-09", "Running and sprinting in combat",
     "Your Move on the ground is Basic Move after encumbrance. Running straight ahead for a second "
     "turn in a row is a sprint and earns one fifth more Move."),
    ("G-10", "Paced running and running fatigue",
     "A steady run goes at half sprinting speed. Long running calls for HT rolls that cost 1 FP when "
     "failed, and a runner low on FP moves at half speed."),
    ("G-11", "Swimming",
     "Deep water calls for Swimming rolls; each failure costs 1 FP and another roll soon after, until "
     "you make it, are pulled out or drown at 0 FP. Swimmers move at a fifth of Basic Move."),
    ("G-12", "Throwing as an attack",
     "Throwing something is an Attack maneuver. Anything up to eight times Basic Lift can be thrown "
     "(one-handed up to twice it); you hit a chosen target on DX−3, or land it in an area on plain DX."),
    ("G-13", "Throwing distance",
     "Divide the object's weight by your Basic Lift, find that ratio in the table (taking the next "
     "heavier row), and multiply your ST by the factor found to get the range in yards."),
    ("G-14", "Thrown-object damage",
     "A thrown object hits for the thrower's thrust damage, crushing, adjusted up or down per die by "
     "how heavy it is compared with Basic Lift; a fragile object takes the same damage it deals."),
    ("G-15", "Sense rolls",
     "Seeing, hearing, tasting and smelling are rolls against Perception; noticing a hidden or sneaking "
     "person may be a Quick Contest with their concealment or Stealth."),
    ("G-16", "Influence rolls",
     "Persuading, bluffing or scaring someone is a Quick Contest of your social skill against their "
     "Will: win for a good reaction, otherwise the reaction turns bad."),
    ("G-17", "Will rolls",
     "Under stress or distraction you roll Will; success lets you carry on, failure means you give in."),
    ("G-18", "Fright Checks",
     "Something truly terrifying calls for a Will roll. Failing stuns you for a number of seconds "
     "(margin of failure plus 2d); a critical failure makes you faint for minutes."),
    ("G-19", "Combat time and turn sequence",
     "Each turn lasts one second and everyone acts once per second. The order, highest Basic Speed "
     "first, is set when the fight begins and stays fixed; ties involving a PC go to higher DX."),
    ("G-20", "Maneuver choice (summary)",
     "On your turn you pick one maneuver. It decides what you can do, how far you may move and which "
     "defences you keep until your next turn."),
    ("G-21", "Aim",
     "Spend a turn aiming a weapon at one target you can see; if your next maneuver attacks that target "
     "with it, add the weapon's Acc, plus 1 or 2 more for a longer aim. Defending throws the aim away."),
    ("G-22", "All-Out Attack, melee",
     "Give up all defence until your next turn to attack harder: +4 to hit, two attacks, a feint and an "
     "attack, or extra damage. You may go forward up to half your Move."),
    ("G-23", "All-Out Attack, ranged",
     "A ranged all-out attack gains +1 to hit (or sprays an area with a fast-firing weapon), and, as in "
     "melee, leaves you with no defence until your next turn."),
    ("G-24", "All-Out Defense",
     "Spend the turn only defending: either +2 to one kind of defence, or a second, different defence "
     "if the first one fails. No attack this turn."),
    ("G-25", "Attack",
     "One attack with a ready weapon or bare hands against a foe in reach, or in range for a missile; "
     "you may take one step."),
    ("G-26", "Change Posture",
     "Stand, kneel, sit, crawl or lie down. Low postures slow you and worsen your attacks and defences, "
     "but make you harder to hit from afar; getting up from lying takes two turns."),
    ("G-27", "Concentrate",
     "A full turn on a mental task such as a spell or a sense roll. Being hurt, knocked down or forced "
     "to defend before it is done calls for a Will−3 roll or the task starts again."),
    ("G-28", "Do Nothing",
     "Standing still for a turn. A stunned fighter must do this, defends at −4, and at the end of the "
     "turn rolls HT (IQ for a mental stun) to shake the stun off."),
    ("G-29", "Evaluate",
     "Study one foe you could reach for a turn: your next attack or feint against it gets +1, and up "
     "to three turns of study in a row add up to +3."),
    ("G-30", "Feint",
     "A fake attack: a Quick Contest of your weapon skill against the foe's best fighting skill or DX. "
     "If you win, your margin comes off that foe's defences against your attack next turn."),
    ("G-31", "Move",
     "Move up to your full Move and do nothing else; your defences stay normal."),
    ("G-32", "Move and Attack",
     "Move your full Move and attack on the way. A melee attack takes −4 and cannot end above 9, a "
     "ranged one takes −2 or its Bulk; parrying is off until your next turn (dodges and blocks stay)."),
    ("G-33", "Ready",
     "Draw, pick up or prepare an item, get an unwieldy weapon back under control, or similar; you may "
     "step and defend normally."),
    ("G-34", "Wait",
     "Name a trigger and what you will do. If it happens before your next turn, you act at once (an "
     "attack, feint, all-out attack or ready), interrupting the order; otherwise the turn is lost."),
    ("G-35", "Ranged attacks",
     "A shot can reach no farther than the weapon's Max range. Skill is adjusted by Acc when aimed, the "
     "target's size, and one combined range-and-speed penalty; damage halves past the ½D range."),
    ("G-36", "Attack roll and critical hits",
     "Roll 3d at or under your effective skill to hit; 17 or 18 always misses. A 3 or 4 (a 5 at skill "
     "15+, a 6 at 16+) is a critical hit that cannot be defended, and a 3 deals maximum damage."),
    ("G-37", "Defending: which defence, when",
     "Against an ordinary hit the target tries one active defence (a dodge, a parry or a block), as its "
     "last maneuver allows; someone unaware or helpless gets none."),
    ("G-38", "Active defence roll",
     "The defender rolls 3d at or under the defence score to avoid the blow; 3 or 4 always works and "
     "17 or 18 always fails."),
    ("G-39", "Dodge",
     "Dodge is Basic Speed plus 3, rounded down, less your encumbrance level, and works against any "
     "attack you know of; against rapid fire a good dodge avoids extra hits by its margin."),
    ("G-40", "Block",
     "With a shield or cloak ready, Block is 3 plus half its skill, rounded down. It stops melee blows "
     "and thrown or muscle-powered missiles, not bullets, and only once per turn."),
    ("G-41", "Parry",
     "Parry with a ready weapon (or a bare hand) is 3 plus half the weapon skill, rounded down, against "
     "melee blows and thrown weapons; an unbalanced weapon that just attacked cannot parry."),
    ("G-42", "Damage, DR, penetration, wounding",
     "The target's DR is taken off the damage rolled; what gets through becomes injury, multiplied by "
     "1½ for cutting and 2 for impaling attacks."),
    ("G-43", "Reeling: HP < ⅓",
     "Below a third of full HP you are reeling: your Move and Dodge are halved, rounding up."),
    ("G-44", "At 0 HP or below: staying conscious",
     "At 0 HP or less you must make an HT roll every turn or pass out."),
    ("G-45", "Death checks",
     "Each time HP falls past another whole multiple of −HPmax (−1×, −2×, …) you roll HT or die; at "
     "−5×HPmax you die outright."),
    ("G-46", "Major wounds",
     "A single injury greater than half your HP is a major wound: roll HT or be stunned and knocked "
     "down, or fall unconscious if you miss the roll by 5 or more."),
    ("G-47", "Shock",
     "Every injury costs you DX and IQ (and the skills on them) on your next turn only: 1 per HP lost, "
     "or per tenth of full HP for big creatures, never more than 4."),
    ("G-48", "Stunning",
     "A stunned fighter defends at −4 and must Do Nothing; at the end of each such turn an HT roll (IQ "
     "for a mental stun) ends the stun."),
    ("G-49", "Recovering from unconsciousness",
     "Someone knocked out with positive HP wakes after a quarter of an hour; deeper below 0 HP it takes "
     "hourly or twelve-hourly HT rolls, and the worst cases need a doctor."),
    ("G-50", "Natural HP recovery",
     "Each day of rest and proper food, an HT roll gives back 1 HP."),
    ("G-51", "Fatigue Points and low-FP effects",
     "Below a third of your FP, Move, Dodge and ST are halved; at 0 FP or less every further FP spent "
     "also costs 1 HP and acting needs a Will roll; at −FPmax you pass out."),
    ("G-52", "Recovering FP",
     "Quiet rest gives back 1 FP every ten minutes; a good meal, potions or spells may give more."),
    # ------------------------------------------------------------------ V: the GULLIVER options and tools
    ("V-01", "Combat ST vs Load ST",
     "A creature may have one ST for fighting and another for hauling: blows, bites and hand weapons "
     "take their damage from Combat ST, while Load ST covers lifting and carrying."),
    ("V-02", "All-Out Attack damage +33%",
     "With this option, an all-out attack for extra damage adds a third of the damage rolled, rounded "
     "up, in place of the flat bonus."),
    ("V-03", "Tiny damage and damage scaling",
     "Damage should grow in step with ST, so very weak creatures deal a fraction of an ST 10 blow; small "
     "targets keep those fractions, big ones can ignore them."),
    ("V-04", "Split HP (e.g. centaurs)",
     "A creature with two body halves uses one half's HP as its pool; hits on the other half are scaled "
     "by the ratio of the two halves' HP before they come off it."),
    ("V-05", "Blowthrough (base rule)",
     "A bullet or impaling wound can only do so much before it passes through: on the torso, no more than "
     "the target's size-scaled base HP; anything beyond is wasted."),
    ("V-06", "Blowthrough (improved rule, recommended)",
     "The most a piercing wound can inflict before passing through is 10 points times the target's linear "
     "scale, whatever its HT or bought HP."),
    ("V-07", "Blowthrough modifiers",
     "The pass-through limit changes with where the hit lands (three times for vitals and head, none for "
     "the brain, less for limbs, hands and feet) and rises for beams, big calibres and hollow points."),
    ("V-08", "Damage & Shock meta-system: principles",
     "Shock is counted in points like damage, every threshold is a share of HPmax and HT resists both; "
     "Strong or Weak Will helps or hurts only against shock."),
    ("V-09", "Slowdown from injury",
     "Below a third of full HP a creature of any size moves and dodges at half its usual rate."),
    ("V-10", "Knockdown",
     "A single blow of more than half the victim's HPmax knocks it off its feet unless it makes an HT roll."),
    ("V-11", "Crippled limbs",
     "One blow of more than half HPmax cripples an arm or leg (a third for a hand or foot); the rest of the "
     "blow is wasted, and the shock from the wound counts double instead of an automatic stun."),
    ("V-12", "Amputation",
     "A cutting blow far beyond the crippling amount may sever the limb on a failed HT roll, and surely "
     "severs it past twice that; only the crippling amount counts as injury, with double shock."),
    ("V-13", "Neck: crippling and decapitation",
     "The neck cripples like a limb, leaving the body paralysed; a blow big enough to sever a limb takes "
     "the head off, or breaks the neck fatally if it crushes."),
    ("V-14", "Knockout from injury",
     "At 0 HP or less the creature rolls HT every turn to stay conscious, exactly as in ordinary GURPS."),
    ("V-15", "Death",
     "Death checks start at −HPmax and come again at every further half of HPmax, eight in all, with "
     "certain death at −5×HPmax; this replaces the usual whole-HPmax steps."),
    ("V-16", "Healing scaled to size",
     "A night's rest and an HT roll heal a tenth of HPmax, more for a great roll; regrowing parts is slower "
     "for bigger creatures."),
    ("V-17", "Measuring shock",
     "A wound's shock equals the damage it finally does after type and location multipliers, doubled for "
     "crippling and brain hits; stun weapons deal shock straight away."),
    ("V-18", "Shock IQ/DX penalty",
     "Each tenth of HPmax in shock costs 1 DX and IQ for a turn, so tiny creatures lose several points per "
     "point of shock and huge ones need many points for −1; there is no −4 limit."),
    ("V-19", "Stunning (general)",
     "A blow whose shock exceeds half of HPmax stuns; with the alternative rule, shock over a third calls "
     "for an HT roll and over two thirds stuns outright."),
    ("V-20", "Brain hits",
     "Shock from a hit to the brain counts double toward stunning and knockout."),
    ("V-21", "Limb stun: dropping items",
     "Enough shock to one limb numbs it and makes it drop what it holds, with an HT roll to keep hold when "
     "the shock only just reached the limit; the shock still counts toward a general stun."),
    ("V-22", "Knockout from shock",
     "Shock above HPmax from one blow calls for an HT roll against being knocked out; above twice HPmax "
     "the knockout is certain."),
    ("V-23", "Continuous pain and torture",
     "Lasting pain beyond what the body can take is handled with Fright Checks and the GM's judgement."),
    ("V-24", "Recovering from shock",
     "Stuns end on an HT roll each turn and the DX/IQ penalty fades after a turn; in the advanced rule an HT "
     "roll takes its margin off the penalty."),
    ("V-25", "Exposure hazards (acid, flame, heat, cold, sunburn, gas, electricity)",
     "Burns, acid, cold and similar hazards hurt a large creature more in points but less for its size: "
     "multiply the damage by the square root of its linear scale."),
    ("V-26", "Jet attacks (fixed-size jets)",
     "A jet of fixed width carries a set damage; how much reaches a small target depends on its size next "
     "to the jet, and a giant takes no more than the jet carries."),
    ("V-27", "Exposure without damage",
     "Radiation and exposure fatigue scale like damage, and HT rolls against exposure get half the "
     "creature's Size as a modifier."),
    ("V-28", "Cold, heat and water temperature",
     "Fat helps against freezing, a failed heat or cold roll costs 1 FP or HP per 3 points missed, and cold "
     "water chills like air three times as far from comfortable."),
    ("V-29", "Collisions: speed of impact",
     "Two things meeting head-on collide at the sum of their speeds, one catching up on another at the "
     "difference; at a right angle only the striker's speed counts."),
    ("V-30", "Collisions: speed change",
     "Each object's speed changes by the collision speed times the other's share of the total mass, so "
     "the lighter one is thrown about more."),
    ("V-31", "Collision damage: speed, mass, applying the higher",
     "Each side works out 1d per 10 mph of its speed change, scaled by the square root of its mass over "
     "150 lb; the bigger of the two figures hits both sides, each rolled separately."),
    ("V-32", "Hardness multipliers",
     "Collision and falling dice are multiplied by how hard the thing struck is: ×2 for stone or metal, "
     "down to ×⅓ for a cushion; landing on a sharp point is treated as very hard, and it impales."),
    ("V-33", "Collision damage absorption",
     "The body soaks part of a crash: half of HPmax for a whole-body impact, a quarter for a local one, "
     "none for a weapon-like point; DR also counts."),
    ("V-34", "After collisions: knockdown, splat, overrun",
     "After a crash a balance roll decides whether you stay up; being pinned against a wall takes the "
     "striker's damage, and a big enough vehicle can run you over for trampling dice."),
    ("V-35", "Powered collisions",
     "A creature or vehicle pushing with its own power hits as if heavier: its strength or engine power "
     "adds to its mass, limited by traction on the ground."),
    ("V-36", "Falling: the speed table (1 g)",
     "A table turns the height of a fall into an impact speed and base damage, roughly 1d per 10 mph."),
    ("V-37", "Falling: gravity, skills, leg power",
     "Stronger gravity means a faster impact; Acrobatics, a DX or Breakfall roll, or landing on your feet "
     "take some miles per hour off it."),
    ("V-38", "Terminal velocity",
     "A falling body stops speeding up at its terminal velocity, about 100 mph for a sprawled human; "
     "diving or falling limp raises it."),
    ("V-39", "Tripping",
     "A trip is a fall from your own height (half that with a good balance roll), shorter still for low "
     "postures."),
    ("V-40", "Falling impact damage",
     "A fall deals 1d for each 10 mph of landing speed, scaled by mass and by how hard the ground is (water "
     "softens it, more so for a good dive), minus part of HPmax and DR."),
    ("V-41", "Falling objects, catching, formulas",
     "Something dropped on you is a collision; catching a falling thing takes your throwing speed off "
     "its impact. Fall distance and time follow from d = ½·a·t²."),
    ("V-42", "Poison and drugs",
     "Gases and sprays follow the exposure rules and contact poisons the jet rules; poisons that do HP "
     "damage already scale with HP, and drugs are the GM's call."),
    ("V-43", "Diseases",
     "A fixed amount of disease damage overwhelms tiny people far faster than humans; a milder option "
     "scales it with size."),
    ("V-44", "Heart attack from heart injury",
     "A heart hit of HPmax or more calls for an HT roll (harder for bigger hits) against a heart attack, "
     "minor, major or fatal by how badly the roll fails."),
    ("V-45", "Acceleration and gravity",
     "Acceleration and heavy gravity strain the body: HT rolls against stun or worse, helped or hurt by the "
     "creature's load."),
    ("V-46", "Light levels",
     "A scale from blinding glare to total darkness: bright light costs Vision, DX and IQ, dim light gives "
     "a darkness penalty from −1 to −8; night vision and goggles shift the level."),
    ("V-47", "Fatigue from movement (either Fatigue basis)",
     "Moving costs fatigue by time spent, faster for faster paces: an hour of walking, twenty seconds of "
     "running or ten of sprinting costs one point."),
    ("V-48", "Extra Effort and heat",
     "Extra effort costs 1 fatigue a turn, and hot surroundings or hot armour add to every fatigue cost."),
    ("V-49", "Lack of sleep",
     "Missing sleep costs fatigue and lowers DX and IQ until you sleep it off."),
    ("V-50", "Non-ST losses from fatigue",
     "As fatigue falls to two thirds, half and a third of its full value, DX and IQ drop by 1, 2 and 3."),
    ("V-51", "Fatigue recovery",
     "Rest gives back a tenth of full fatigue every ten minutes, faster or slower with an optional HT roll."),
    ("V-52", "Encumbrance and fatigue; fighting gravity",
     "Carrying more makes every exertion more tiring, from a quarter more at Light to ten times at "
     "Super-Heavy; flying or swimming against buoyancy costs extra."),
    ("V-53", "Fatigue based on ST",
     "Fatigue equals Combat ST: exertion costs more for stronger creatures, an HT roll can reduce each "
     "loss, ST falls as fatigue does, and low fatigue slows, then fells, the creature."),
    ("V-54", "Fatigue based on HT",
     "Fatigue equals HT and each point of exertion costs one: at 3 or less Move and Dodge halve, at 1 the "
     "creature collapses, at 0 it passes out."),
    ("V-55", "Food requirements",
     "How much a creature eats grows with its size, metabolism, diet and activity."),
    ("V-56", "Starvation",
     "Each missed meal costs fatigue; once fatigue is low, missed meals eat into HP instead."),
    ("V-57", "Water, air, dehydration, suffocation",
     "Water and air needs scale like food; going without water costs fatigue and HP until death."),
    ("V-58", "Life span and aging",
     "Bigger creatures start aging later and smaller ones sooner; aging losses scale with size."),
    ("V-59", "Finishing a helpless monster",
     "A deliberate blow on a helpless creature may do maximum damage and more, and follow-up blows inside "
     "the skull may ignore DR; the GM may simply rule it dead."),
    ("V-60", "Monster bonuses vs knockout",
     "Dull-witted non-human races get a bonus to stay conscious; once a roll succeeds, only a fresh wound "
     "of a tenth of HPmax calls for another."),
    ("V-61", "Reduced knockout zone",
     "For non-human races with IQ under 10 the death checks come sooner below 0 HP, in proportion to IQ."),
    ("V-62", "Combined monster approach",
     "The knockout bonus and the shorter road to death for low-IQ races, used together."),
    ("V-63", "New Toughness",
     "Every creature gets Toughness of a fifth of its Combat ST, taken off a wound after DR and multipliers "
     "but never more than got through DR, so cutting and impaling extra still hurts."),
    ("V-64", "Toughness and shock; location Toughness",
     "Shock is measured after or before Toughness, by option; Toughness is halved in weak spots such as "
     "hands, feet and groin and is nil in the eyes."),
    ("V-65", "Toughness point cost",
     "Extra Toughness costs about two thirds of what the same DR costs."),
    ("V-66", "New ST damage table (thrust)",
     "Thrust damage grows steadily with Combat ST by a repeating pattern of ten (ST 10 is 1d, ST 20 is 2d, "
     "ST 30 is 3d), and very weak creatures divide an ST 10 roll."),
    ("V-67", "Swing damage under New ST damage",
     "A swing does the thrust damage of one and a half times your ST, but its extra over thrust is limited "
     "by the weapon's weight."),
    ("V-68", "Both rules together",
     "New Toughness and the new damage table used together keep fights between similar creatures as "
     "balanced as in plain GURPS."),
    # ------------------------------------------------------------------ A: the catalogue's readings of unclear text
    ("A-01", "Dangling references",
     "The rules point to pages and tables the source does not contain, such as the damage table and "
     "falling; we fill them from configured data and the GULLIVER falling rules."),
    ("A-02", "Typos",
     "Obvious slips in the rules text (a wrong symbol for ×, misspelt headings, a missing word) are read "
     "as what was plainly meant."),
    ("A-03", "Critical success and failure for other rolls",
     "For rolls other than attacks, 3–4 always succeed critically (5 at skill 15+, 6 at 16+), and 18, "
     "17 at skill 15 or less, or missing by 10 or more is a critical failure."),
    ("A-04", "Dodge with no encumbrance",
     "Carrying no more than Basic Lift takes nothing off Dodge."),
    ("A-05", "Climbing table",
     "The garbled climbing speeds are read as the sensible values, and climbing down a rope is at −1 "
     "with or without gear."),
    ("A-06", "Sprint gives fractional Move",
     "A sprint can give a Move like 8.4: we keep the exact figure for distance and allow its whole part "
     "on the grid."),
    ("A-07", "Throwing distance table",
     "We use the throwing table as written, take the next heavier row for in-between weights, treat very "
     "light objects as the lightest row and refuse anything over eight times Basic Lift."),
    ("A-08", "Half a point per die",
     "For a heavy thrown object the −½ per die becomes −1 for every two whole dice (3d gives −1)."),
    ("A-09", "Fright Check stun duration",
     "A stun from a failed Fright Check lasts its full rolled time; no recovery roll ends it early."),
    ("A-10", "Initiative tie-breaks",
     "Ties in turn order: the GM may set the order (recorded as an event); otherwise higher DX goes "
     "first when a PC is tied, then a recorded roll decides."),
    ("A-11", "Movement and defences of four maneuvers; the step",
     "Where the rules are silent on movement and defences (Change Posture, Concentrate, Evaluate, "
     "Wait) we follow the usual GURPS values, and a step is one yard unless the fight says otherwise."),
    ("A-12", "Rounding of half Move",
     "Half Move (all-out attack, increased dodge) rounds down, but always allows at least a step."),
    ("A-13", "Posture penalties",
     "Kneeling and sitting give −2 to melee attacks and defences, crawling and lying −4 and −3, and any "
     "low posture −2 to be hit by ranged attacks; low postures also cut movement."),
    ("A-14", "Feint margin when the foe fails",
     "When you succeed and the foe fails the feint contest, only your own margin of success comes off "
     "their defence."),
    ("A-15", "Move and Attack cap",
     "For a melee Move and Attack, every other modifier is applied first, and only then is the result "
     "limited to 9."),
    ("A-16", "Defences and movement while waiting",
     "A waiting fighter may defend normally but stays put until its trigger comes; an unused Wait wastes "
     "the turn."),
    ("A-17", "Half damage range and the range table",
     "Past a weapon's ½D range its damage is halved, and range plus target speed is turned into one "
     "penalty with the usual GURPS speed/range table."),
    ("A-18", "Which critical hits bypass defence",
     "Every critical hit, a 3 included, gets past the defence roll; the 5 needs skill 15 or more and the "
     "6 skill 16 or more."),
    ("A-19", "Number of parries per turn",
     "A fighter may parry any number of times a turn unless the fight's option makes each extra parry "
     "with the same hand cumulatively harder."),
    ("A-20", "Injury fractions and other damage types",
     "Injury after the wounding multiplier rounds down but is at least 1 whenever any damage got "
     "through; damage types the rules do not list count ×1."),
    ("A-21", "Order and rounding of halvings",
     "Move and Dodge are worked out in a fixed order: encumbrance first (rounded down, at least 1), then "
     "halving for injury and for fatigue (each rounded up), then situational modifiers."),
    ("A-22", "When the 0-HP consciousness roll happens",
     "A fighter at 0 HP or less rolls HT to stay conscious at the start of each of its own turns, before "
     "choosing a maneuver."),
    ("A-23", "Several death thresholds at once",
     "A wound that carries HP past more than one multiple of −HPmax calls for one HT roll per threshold "
     "passed; failing any of them kills."),
    ("A-24", "Major wound: stunned or knocked out",
     "Failing the major-wound HT roll stuns the victim and knocks it down; missing by 5 or more, or "
     "critically, knocks it out. Without hit locations every hit is to the torso."),
    ("A-25", "Shock for big creatures; several injuries",
     "The shock penalty is injury × 10 ÷ HPmax rounded down, injuries before the victim's next turn add "
     "up to at most −4, and shock never lowers active defences."),
    ("A-26", "Which FP losses also cost HP",
     "Only FP lost while FP was already 0 or less also costs HP, one for one; FP that would fall below "
     "−FPmax comes off HP instead."),
    ("A-27", "Base HP",
     "Where GULLIVER speaks of base HP, it means the creature's HPmax for its race and size, before any "
     "bought extra or reduced HP."),
    ("A-28", "Missing tables and the traction cap",
     "Where the GULLIVER text lacks a formula we use a stated stand-in; for powered collisions the bonus "
     "from motive power on the ground is capped at half the object's weight."),
    ("A-29", "All-Out Attack +33%: basis and rounding",
     "The third-more damage is worked out on the damage rolled, rounded up, and added before DR."),
    ("A-30", "Blowthrough factors",
     "The bullet factors raise the pass-through limit itself; fractional limits are kept exact and the "
     "injury kept is rounded down."),
    ("A-31", "When a dragon slows down",
     "Slowing starts below a third of HPmax, as the rule says, even where an example suggests otherwise."),
    ("A-32", "Knockdown per blow",
     "The knockdown check looks at one blow at a time, not the injury added up."),
    ("A-33", "How much a crippling blow costs",
     "A crippling blow removes just enough HP to cripple (one more than the fraction of HPmax), and its "
     "doubled shock comes from that amount; doubling the whole blow is an option."),
    ("A-34", "Automatic amputation",
     "A blow severs a limb without a roll when it is more than twice the amputation threshold."),
    ("A-35", "Crushing neck blows",
     "A crushing blow big enough to sever a neck breaks it fatally instead; piercing and impaling only "
     "cripple it."),
    ("A-36", "Several death thresholds at once",
     "A blow that passes more than one death-check step calls for one HT roll per step; any failure kills."),
    ("A-37", "No −4 shock cap",
     "With the GULLIVER shock penalty in use, the usual −4 limit on shock does not apply."),
    ("A-38", "Shock penalty bands",
     "For HPmax 8 and up, the points of shock per −1 are (HPmax + 5) ÷ 10, rounded down; creatures under "
     "1 HP lose 10 ÷ HPmax per point."),
    ("A-39", "A grip roll for a stunned limb",
     "A numbed hand may roll HT to keep hold only when the shock was over the limit by less than a tenth "
     "of HPmax (at least 1)."),
    ("A-40", "Shock recovery by exactly 0",
     "An HT roll made exactly, with margin 0, takes nothing off the shock penalty."),
    ("A-41", "Half of an odd Size",
     "Half of an odd Size rounds toward zero."),
    ("A-42", "Fractional collision dice",
     "When the dice for a collision come out fractional, roll the whole dice and multiply the total by "
     "the mass and hardness factors, rounding down only at the end."),
    ("A-43", "Fractional absorption",
     "A quarter of HPmax absorbed by the body is kept exact; only the final damage is rounded down, and "
     "never below 0."),
    ("A-44", "Trampling dice",
     "A vehicle's trampling dice are the square root of its weight in pounds, divided by 20: a 10,000 lb "
     "truck tramples for 5d."),
    ("A-45", "Falls between table rows",
     "A fall between two rows of the speed table uses the first row at least as far, then the speed "
     "reductions, then 1d per 10 mph."),
    ("A-46", "Heart attack thresholds",
     "All heart-attack thresholds are multiples of HPmax."),
    ("A-47", "Where darkness penalties apply",
     "Darkness penalties apply to Vision rolls and to attacks and defences that depend on sight; the "
     "fight's option may limit them to Vision."),
    ("A-48", "Sprint fatigue",
     "With GULLIVER's movement fatigue in use, it replaces the ordinary HT rolls for running."),
    ("A-49", "Fatigue fractions for DX and IQ",
     "The DX and IQ losses from fatigue are measured against full fatigue, whichever basis is used."),
    ("A-50", "Fractional fatigue",
     "Fatigue halved by HT rolls is kept as an exact fraction and compared with thresholds exactly."),
    ("A-51", "Passing out under HT-based fatigue",
     "Under HT-based fatigue the creature passes out at 0, and these thresholds replace the ordinary "
     "low-FP ones."),
    ("A-52", "Automatic death in the reduced knockout zone",
     "For a low-IQ race, certain death comes at five times its shortened death-check step."),
    ("A-53", "Halved Toughness",
     "Toughness halved in a weak spot rounds down."),
    ("A-54", "Odd-looking damage table entries",
     "Entries like ST 14 doing 2d−2 are meant: average damage still rises smoothly with ST."),
    ("A-55", "Swing damage rounding",
     "One and a half times ST rounds down, and when two damage values must be compared the one with the "
     "lower average is the lower."),
    ("A-63", "Hit-location tables by body type",
     "A creature with another body shape uses its own hit-location table, which replaces the humanoid one "
     "rather than adding to it."),
    # ------------------------------------------------------------------ R: the addendum's settled readings
    ("R-01", "Rounding of collision and falling damage",
     "Collision and falling damage stay exact through every multiplier and subtraction and are rounded "
     "down once, at the very end."),
    ("R-03", "Fractional collision dice",
     "A speed change that is not a whole number of 10 mph steps gives fractional dice: roll the next "
     "whole number of dice and scale the total down in proportion."),
    ("R-04", "“⅓ or less” vs “less than ⅓”",
     "Fatigue's combat effects start below a third of FP; the halved running and swimming speed starts "
     "at a third or less."),
    ("R-05", "Shock from an injury on your own turn",
     "Shock from an injury taken during your own turn (say, by a waiting foe) applies to your next turn "
     "that starts after it."),
    ("R-06", "Shock from FP spill-over",
     "HP lost because FP ran out is real injury: it causes shock and may call for death checks, yet it "
     "never counts as a major wound."),
    ("R-07", "Unbalanced weapons",
     "An unbalanced weapon that attacked, hit or miss, cannot parry again until its wielder's next turn."),
    ("R-08", "Major wounds with the GULLIVER shock options",
     "With GULLIVER's knockdown and stunning rules in use, a failed major-wound roll only knocks the "
     "victim down; stuns come from the shock rules alone."),
    ("R-09", "+33% instead of the Strong bonus",
     "With the +33% option, an all-out attack for damage adds a third of the damage rolled, rounded up, "
     "and not the flat bonus."),
    ("R-10", "Advanced shock recovery",
     "Whatever shock penalty is left after a partial recovery stays and is rolled against again next "
     "turn; a general stun and each numbed limb recover on their own rolls."),
    ("R-11", "Grip roll",
     "Keeping hold of an item with a numbed limb does not un-numb it: the limb still recovers with its "
     "own HT roll."),
    ("R-21", "Tie-break roll-off",
     "Fighters tied for turn order each roll (3d here), the higher going first and remaining ties rolling "
     "again; the GM may set the order instead. Every roll and order is an event."),
)
