"""The SHELL sheet: what a GM types in, validated field by field (``sheet/bad_field``
naming the path). Every derived number (S-03, S-04, S-07, S-11, S-26, S-28,
S-47, S-48) is computed here from it, never typed in; see ``derive``.

The JSON Schema the clients render the sheet form from is ``schema.py``."""

from __future__ import annotations

from typing import Mapping

import attrs

from combat_server.errors import reject
from combat_server.rules.kit.rolls import Mod
from combat_server.rules.model import JSON
from combat_server.rules.shell import bodies, charts
from combat_server.rules.shell._read import Reader, bad, unique

DAMAGE_TYPES = ("cut", "cr", "imp")
STYLE_KINDS = ("hand-to-hand", "ranged")
HANDS = ("one", "two", "either")
DIFFICULTIES = {"easy": 2, "average": 0, "hard": -3}  # S-01, S-10
ARMOUR_LOCATIONS = tuple(k for k in charts.LOCATION_AT if k != "weapon")


@attrs.frozen
class Style:
    """A fighting style (S-11) or a ranged weapon skill; bonuses are genre data (S-47)."""

    name: str
    level: int
    kind: str = "hand-to-hand"
    damage_bonus: bool = True  # a style may remove the S-11 bonus
    max_el: int | None = None
    at_bonus: int = 0
    block_bonus: int = 0
    dodge_bonus: int = 0


@attrs.frozen
class Spell:
    """S-12 / S-47: casting time (rounds), END cost, minimum level; hard unless stated."""

    name: str
    min_level: int
    end_cost: int = 0
    casting_time: int = 0
    difficulty: str = "hard"


@attrs.frozen
class Art:
    """A magical art: a major skill with its spells (S-12)."""

    name: str
    level: int
    spells: tuple[Spell, ...] = ()


@attrs.frozen
class Weapon:
    """S-47 / S-48. ``damage`` is relative to the wielder's ST damage ("+1 cr")."""

    name: str
    style: str
    damage: int = 0
    damage_types: tuple[str, ...] = ("cut",)
    at_mod: int = 0
    def_mod: int = 0
    min_st: int = 0  # 0: no ST requirement (not low-tech)
    hands: str = "one"
    hp: int = 10
    weight: float = 0.0
    ranged: bool = False
    range_yards: int = 0  # fixed max range, or
    range_st: float = 0.0  # low-tech max range as a multiple of ST (S-27)
    speed: int = 1  # S-27: thrown 1, bows 2, guns/magic 3
    low_tech: bool = True
    can_disarm: bool = False
    thrusting: bool = False  # may stop-thrust (S-40)
    close_combat: bool = False  # usable in close combat (S-41)
    armour_piercing: bool = False
    can_parry_ranged: bool = False


@attrs.frozen
class Shield:
    """S-25 / S-47: PR and HP default from the size; magic shields may set more."""

    name: str
    size: str
    pr: int
    hp: int
    weight: float = 0.0


@attrs.frozen
class Armour:
    """S-47: a piece of armour with its DR on the locations it protects."""

    name: str
    dr: int
    locations: tuple[str, ...]
    weight: float = 0.0


@attrs.frozen
class Sheet:
    st: int = 10
    ag: int = 10
    iq: int = 10
    ht: int = 10
    npc: bool = False
    # bought changes to the S-04 bases (the bases themselves are derived)
    hp_bonus: int = 0
    end_bonus: int = 0
    wp_bonus: int = 0
    cha_bonus: int = 0
    per_bonus: int = 0
    mv_bonus: int = 0
    flight: int = 0
    dr: int = 0  # natural DR (not halved by armour-piercing, A-75)
    dm: int = 0  # percent
    mr: int = 0
    at_mod: int = 0
    def_mod: int = 0
    max_enc: int | None = None  # GM data for ST outside the chart
    body_weight: float = 0.0
    gear_weight: float = 0.0
    ambidextrous: bool = False
    styles: tuple[Style, ...] = ()
    arts: tuple[Art, ...] = ()
    weapons: tuple[Weapon, ...] = ()
    shield: Shield | None = None
    armour: tuple[Armour, ...] = ()
    body: str = "humanoid"  # S-16 / A-63: the hit-location table attackers aim at (bodies.py)
    size: str = "normal"  # S-16: tiny or huge puts some locations out of reach

    def style(self, name: str) -> Style:
        for s in self.styles:
            if s.name == name:
                return s
        raise reject("sheet/unknown_style", f"no fighting style {name!r} on this sheet",
                     known=[s.name for s in self.styles])

    def weapon(self, name: str) -> Weapon:
        for w in self.weapons:
            if w.name == name:
                return w
        raise reject("sheet/unknown_weapon", f"no weapon {name!r} on this sheet",
                     known=[w.name for w in self.weapons])


# --- derived numbers ----------------------------------------------------------


def max_enc(sheet: Sheet) -> int:
    """S-03 max encumbrance for ST (GM data beyond the chart, A-58)."""
    return sheet.max_enc if sheet.max_enc is not None else charts.MAX_ENC[sheet.st]


def carried(sheet: Sheet) -> float:
    """S-07: gear, weapons, shield and armour, plus body weight over 75% of max Enc."""
    load = sheet.gear_weight + sum(w.weight for w in sheet.weapons) + sum(a.weight for a in sheet.armour)
    if sheet.shield is not None:
        load += sheet.shield.weight
    return load + max(0.0, sheet.body_weight - 0.75 * max_enc(sheet))


def encumbrance(sheet: Sheet) -> int | None:
    """S-07 EL; None when over 100% of max Enc (A-61; the option decides what follows)."""
    return charts.encumbrance_level(carried(sheet), max_enc(sheet))


@attrs.frozen
class Derived:
    """The S-04 secondary attributes and the numbers every roll starts from."""

    hp: int
    end: int
    wp: int
    cha: int
    per: int
    mv: int
    max_enc: int
    carried: float
    el: int  # 4 with ``overloaded`` under the "immobile" reading of A-61
    overloaded: bool
    mv_points: int
    initiative: int
    damage: charts.Dice
    at_ag: int
    def_ag: int
    dodge_def: int
    shield_pr: int | None
    armour_dr: Mapping[str, int]


def derive(sheet: Sheet) -> Derived:
    """Everything S-03/S-04/S-07/S-17/S-26 compute from the sheet at full END."""
    el = encumbrance(sheet)
    mv = (sheet.st + sheet.ag) // 4 + sheet.mv_bonus  # floor
    level = 4 if el is None else el
    dr: dict[str, int] = {}
    for piece in sheet.armour:
        for loc in piece.locations:
            dr[loc] = piece.dr
    return Derived(
        hp=sheet.st + sheet.hp_bonus, end=sheet.st + sheet.end_bonus, wp=sheet.iq + sheet.wp_bonus,
        cha=(sheet.st + sheet.iq) // 2 + sheet.cha_bonus, per=sheet.iq + sheet.per_bonus, mv=mv,
        max_enc=max_enc(sheet), carried=carried(sheet), el=level, overloaded=el is None,
        mv_points=0 if el is None else max(0, mv - level), initiative=initiative(sheet.ag, level),
        damage=charts.st_damage(sheet.st), at_ag=charts.ag_at_mod(sheet.ag), def_ag=charts.ag_def_mod(sheet.ag),
        dodge_def=dodge_def(sheet, sheet.ag, level),
        shield_pr=None if sheet.shield is None else sheet.shield.pr, armour_dr=dr,
    )


def initiative(ag: int, el: int) -> int:
    """S-17: AG - 2 x EL (recomputed every round, A-64)."""
    return ag - 2 * el


def best_style_level(sheet: Sheet) -> int:
    """S-26: the dodge uses the best combat skill the defender has, not the one in use."""
    return max((s.level for s in sheet.styles), default=0)


def dodge_def(sheet: Sheet, ag: int, el: int) -> int:
    """S-26: best style level (not only the one in use) + AG DEF mod - (1 + EL), plus DEF Mod."""
    best = max(sheet.styles, key=lambda s: (s.level, s.dodge_bonus), default=None)
    bonus = 0 if best is None else best.dodge_bonus
    return (0 if best is None else best.level) + bonus + charts.ag_def_mod(ag) - (1 + el) + sheet.def_mod


def wield_st(weapon: Weapon, two_handed: bool) -> int:
    """S-48: the weapon's minimum ST, 2 lower when an either-handed weapon is used two-handed."""
    if weapon.min_st == 0:
        return 0
    return weapon.min_st - 2 if two_handed and weapon.hands == "either" else weapon.min_st


def st_shortfall(sheet: Sheet, weapon: Weapon, two_handed: bool = False, st: int | None = None) -> int:
    """S-48: -1 to skill (so AT) per point of ST under the minimum."""
    need = wield_st(weapon, two_handed)
    return min(0, (sheet.st if st is None else st) - need) if need else 0


def weapon_damage(sheet: Sheet, weapon: Weapon, two_handed: bool = False, st: int | None = None) -> charts.Dice:
    """S-32 / S-48 / S-11 / R-20: ST damage (capped at min ST + 5), the weapon's
    adjustment, +1 two-handed on an either-handed weapon, and the style bonus for
    hand-to-hand styles. ``st`` is the current ST (S-13 lowers it)."""
    return damage_parts(sheet, weapon, two_handed, st)[0]


def damage_parts(sheet: Sheet, weapon: Weapon, two_handed: bool = False,
                 st: int | None = None) -> tuple[charts.Dice, tuple[Mod, ...]]:
    """:func:`weapon_damage` and each of its adds with its reason and rule id, for the damage roll's record."""
    strength = sheet.st if st is None else st
    need = wield_st(weapon, two_handed)
    if need and strength > need + 5:
        strength = need + 5
    st_dice = charts.st_damage(strength)
    mods = [Mod(st_dice.add, f"ST {strength} damage {st_dice}", "S-03" if strength == (sheet.st if st is None else st)
                else "S-48"), Mod(weapon.damage, weapon.name, "S-47")]
    if two_handed and weapon.hands == "either":
        mods.append(Mod(1, "two-handed", "S-48"))
    style = sheet.style(weapon.style)
    if style.damage_bonus:
        mods.append(Mod(charts.style_damage_bonus(style.level, style.kind == "hand-to-hand"), f"{style.name} level",
                        "S-11"))
    kept = tuple(m for m in mods if m.value)
    return charts.Dice(st_dice.dice, sum(m.value for m in kept)), kept


def bare_hand(style: str) -> Weapon:
    """S-32 / S-47: bare hands do -4 crushing; they can stop-thrust (S-40) and fight in
    close combat (S-41). Every character has them, so they are not typed in."""
    return Weapon(name="bare hand", style=style, damage=-4, damage_types=("cr",), hp=0, thrusting=True,
                  close_combat=True)


def max_range(sheet: Sheet, weapon: Weapon) -> float:
    """S-27: a fixed range in yards, or low-tech ST x multiple."""
    return float(weapon.range_yards) if weapon.range_yards else weapon.range_st * sheet.st


# --- validation ---------------------------------------------------------------

_SHEET_FIELDS = [f.name for f in attrs.fields(Sheet)]


def _style(raw: JSON, path: str) -> Style:
    r = Reader(raw, path, [f.name for f in attrs.fields(Style)])
    return Style(
        name=r.get_str("name"), level=r.get_int("level", 1, 0, 40),
        kind=r.get_str("kind", "hand-to-hand", STYLE_KINDS), damage_bonus=r.get_bool("damage_bonus", True),
        max_el=r.opt_int("max_el", 0, 4), at_bonus=r.get_int("at_bonus", 0, -20, 20),
        block_bonus=r.get_int("block_bonus", 0, -20, 20), dodge_bonus=r.get_int("dodge_bonus", 0, -20, 20),
    )


def _spell(raw: JSON, path: str) -> Spell:
    r = Reader(raw, path, [f.name for f in attrs.fields(Spell)])
    if "min_level" not in r.raw:
        raise bad(r.at("min_level"), "is required: the art level below which the spell cannot be tried (S-12)")
    return Spell(
        name=r.get_str("name"), min_level=r.get_int("min_level", 0, 0, 40),
        end_cost=r.get_int("end_cost", 0, 0, 100), casting_time=r.get_int("casting_time", 0, 0, 100),
        difficulty=r.get_str("difficulty", "hard", tuple(DIFFICULTIES)),
    )


def _art(raw: JSON, path: str) -> Art:
    r = Reader(raw, path, [f.name for f in attrs.fields(Art)])
    spells = tuple(_spell(s, f"{path}.spells[{i}]") for i, s in enumerate(r.get_list("spells")))
    unique([s.name for s in spells], f"{path}.spells")
    return Art(name=r.get_str("name"), level=r.get_int("level", 1, 0, 40), spells=spells)


def _weapon(raw: JSON, path: str, styles: tuple[Style, ...]) -> Weapon:
    r = Reader(raw, path, [f.name for f in attrs.fields(Weapon)])
    style = r.get_str("style")
    if style not in {s.name for s in styles}:
        raise bad(r.at("style"), f"names no fighting style on this sheet ({style!r})")
    ranged = r.get_bool("ranged", False)
    w = Weapon(
        name=r.get_str("name"), style=style, damage=r.get_int("damage", 0, -20, 40),
        damage_types=r.get_strs("damage_types", DAMAGE_TYPES, ("cut",)),
        at_mod=r.get_int("at_mod", 0, -20, 20), def_mod=r.get_int("def_mod", 0, -20, 20),
        min_st=r.get_int("min_st", 0, 0, 100), hands=r.get_str("hands", "one", HANDS),
        hp=r.get_int("hp", 10, 0, 1000), weight=r.get_num("weight", 0.0), ranged=ranged,
        range_yards=r.get_int("range_yards", 0, 0, 100000), range_st=r.get_num("range_st", 0.0),
        speed=r.get_int("speed", 1, 1, 10), low_tech=r.get_bool("low_tech", True),
        can_disarm=r.get_bool("can_disarm", False), thrusting=r.get_bool("thrusting", False),
        close_combat=r.get_bool("close_combat", False), armour_piercing=r.get_bool("armour_piercing", False),
        can_parry_ranged=r.get_bool("can_parry_ranged", False),
    )
    if ranged and not (w.range_yards or w.range_st):
        raise bad(r.at("range_yards"), "a ranged weapon needs a range: range_yards, or range_st (x ST)")
    if w.range_yards and w.range_st:
        raise bad(r.at("range_st"), "give range_yards or range_st, not both")
    if w.hands == "either" and w.min_st and w.min_st < 2:
        raise bad(r.at("min_st"), "an either-handed weapon's minimum ST must allow the 2 lower two-handed ST")
    return w


def _shield(raw: JSON) -> Shield:
    r = Reader(raw, "shield", [f.name for f in attrs.fields(Shield)])
    size = r.get_str("size", None, tuple(charts.SHIELDS))
    pr, hp = charts.SHIELDS[size]
    hp_value = r.opt_int("hp", 0, 1000)
    if hp_value is None and hp is None:
        raise bad(r.at("hp"), f"a {size} shield has no standard HP: give it one")
    return Shield(name=r.get_str("name", size + " shield"), size=size, pr=r.get_int("pr", pr, 0, 20),
                  hp=hp_value if hp_value is not None else int(hp or 0), weight=r.get_num("weight", 0.0))


def _armour(raw: JSON, path: str) -> Armour:
    r = Reader(raw, path, ["name", "dr", "material", "locations", "weight"])
    material = r.raw.get("material")
    if material is not None:
        kind = r.get_str("material", None, tuple(charts.ARMOUR_DR))
        dr = r.get_int("dr", charts.ARMOUR_DR[kind], 0, 100)
    elif "dr" in r.raw:
        dr = r.get_int("dr", 0, 0, 100)
    else:
        raise bad(r.at("dr"), "give the armour's DR, or a material (" + ", ".join(charts.ARMOUR_DR) + ")")
    return Armour(name=r.get_str("name", str(material) if material else "armour"), dr=dr,
                  locations=r.get_strs("locations", ARMOUR_LOCATIONS), weight=r.get_num("weight", 0.0))


def validate_sheet(raw: JSON, overload: str = "reject") -> Sheet:
    """A :class:`Sheet`, or ``sheet/...`` naming the first wrong field.

    ``overload`` is the A-61 option: "reject" refuses a load over max Enc
    (``sheet/overloaded``); "immobile" accepts it (EL 4, no MV points)."""
    r = Reader(raw, "", _SHEET_FIELDS)
    attrs_ = {k: r.get_int(k, 10, 1, 100) for k in ("st", "ag", "iq", "ht")}
    npc = r.get_bool("npc", False)
    styles = tuple(_style(s, f"styles[{i}]") for i, s in enumerate(r.get_list("styles")))
    unique([s.name for s in styles], "styles")
    arts = tuple(_art(a, f"arts[{i}]") for i, a in enumerate(r.get_list("arts")))
    unique([a.name for a in arts], "arts")
    weapons = tuple(_weapon(w, f"weapons[{i}]", styles) for i, w in enumerate(r.get_list("weapons")))
    unique([w.name for w in weapons], "weapons")
    armour = tuple(_armour(a, f"armour[{i}]") for i, a in enumerate(r.get_list("armour")))
    covered: dict[str, str] = {}
    for i, piece in enumerate(armour):
        for loc in piece.locations:
            if loc in covered:
                raise bad(f"armour[{i}].locations", f"{loc} is already protected by {covered[loc]!r}")
            covered[loc] = piece.name
    sheet = Sheet(
        **attrs_, npc=npc,
        **{k: r.get_int(k, 0, -50, 100) for k in
           ("hp_bonus", "end_bonus", "wp_bonus", "cha_bonus", "per_bonus", "mv_bonus")},
        flight=r.get_int("flight", 0, 0, 100), dr=r.get_int("dr", 0, 0, 100), dm=r.get_int("dm", 0, 0, 100),
        mr=r.get_int("mr", 0, 0, 100), at_mod=r.get_int("at_mod", 0, -20, 20),
        def_mod=r.get_int("def_mod", 0, -20, 20), max_enc=r.opt_int("max_enc", 1, 1000000),
        body_weight=r.get_num("body_weight", 0.0), gear_weight=r.get_num("gear_weight", 0.0),
        ambidextrous=r.get_bool("ambidextrous", False), styles=styles, arts=arts, weapons=weapons,
        shield=None if raw_get(r, "shield") is None else _shield(raw_get(r, "shield")), armour=armour,
        body=r.get_str("body", bodies.HUMANOID, tuple(bodies.BODIES)),
        size=r.get_str("size", bodies.NORMAL, tuple(bodies.SIZES)),
    )
    if sheet.max_enc is None and sheet.st not in charts.MAX_ENC:
        raise bad("max_enc", f"ST {sheet.st} is off the Primary Attribute Chart (7-20): give max_enc")
    if not npc and sheet.mv_bonus > 2:
        raise bad("mv_bonus", f"a PC may buy at most +2 MV (S-04), got {sheet.mv_bonus}")
    if sheet.st + sheet.hp_bonus < 1:
        raise bad("hp_bonus", "would leave fewer than 1 HP")
    if encumbrance(sheet) is None and overload == "reject":
        raise reject("sheet/overloaded",
                     f"carried weight {carried(sheet):g} lb is over the maximum encumbrance {max_enc(sheet)} lb "
                     "for this ST (S-07, A-61)", field="gear_weight")
    return sheet


def raw_get(r: Reader, key: str) -> JSON:
    return r.raw.get(key)


def sheet_to_json(sheet: Sheet) -> dict[str, JSON]:
    data: dict[str, JSON] = attrs.asdict(sheet, recurse=True)
    # A humanoid of normal size (S-16's default) is written as before the fields existed, so stored
    # fights and their hashes read the same.
    if data["body"] == bodies.HUMANOID:
        del data["body"]
    if data["size"] == bodies.NORMAL:
        del data["size"]
    return data
