"""Import a GURPS Character Sheet (GCS) file (``.gcs``, JSON data version 4 or 5) as a gurps sheet.

Why this shape: GCS works out every number (attributes, skill and weapon levels, parry,
DR by location) with its own logic and, since 5.36, JavaScript in the data; so the importer
reads GCS's computed ``calc`` values and never recomputes them (FORMAT.md in the shared
samples). Pure: bytes in, a sheet and the list of what it could not use out. Whatever the
rules cannot use is listed (``unused``) for the GM, never dropped silently.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from typing import Any, Iterator, Mapping

import attrs

from combat_server.errors import Rejected, reject
from combat_server.rules.gurps import derived, gcs_gulliver
from combat_server.rules.gurps.sheet import TRAITS, Sheet, sheet_to_json, validate_sheet
from combat_server.rules.gurps.tables import DAMAGE_TYPES, format_dice, parse_dice
from combat_server.rules.model import JSON

#: The GCS data versions this importer reads (FORMAT.md §8).
VERSIONS = (4, 5)
_LB = {"lb": 1.0, "#": 1.0, "oz": 1 / 16, "kg": 2.0, "g": 0.002, "tn": 2000.0, "t": 2000.0}
_ENC_LIMITS = (1, 2, 3, 6, 10)  # x Basic Lift (FORMAT.md §6)
#: Where in the file each sheet field comes from, to name it when the sheet's own bounds refuse it.
_SOURCE = {"st": "attributes[st]", "dx": "attributes[dx]", "iq": "attributes[iq]", "ht": "attributes[ht]",
           "hp": "attributes[hp]", "fp": "attributes[fp]", "will": "attributes[will]", "per": "attributes[per]",
           "speed_bonus_quarters": "attributes[basic_speed]", "move_bonus": "attributes[basic_move]",
           "sm": "profile.SM", "carried": "equipment[].calc.extended_weight", "db": "equipment[].features",
           "dr": "settings.body_type.locations[torso].calc.dr", "dr_locations": "settings.body_type.locations",
           "shield_skill": "weapons[].calc.level", "weapons": "weapons", "gulliver": "profile",
           "eyes": "traits"}


@attrs.frozen
class Imported:
    """One imported character: the sheet, its current HP and FP, and what was left out."""

    name: str
    sheet: Sheet
    hp: int  # current HP (HP max minus the damage the file stores)
    fp: int
    sha256: str
    unused: tuple[str, ...]

    def sheet_json(self) -> dict[str, JSON]:
        return sheet_to_json(self.sheet)


def _refuse(code: str, message: str, **details: Any) -> Exception:
    return reject(f"import/{code}", message, **details)


def read_gcs(content: str | bytes, file_name: str = "") -> Imported:
    """The character a ``.gcs`` file holds, or a clear ``import/...`` refusal."""
    raw = content.encode("utf-8") if isinstance(content, str) else content
    label = file_name or "the file"
    try:
        data = json.loads(raw.decode("utf-8-sig"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise _refuse("not_json", f"{label} is not a GCS character file (.gcs files are JSON)") from None
    if not isinstance(data, dict) or "version" not in data or not isinstance(data.get("attributes"), list):
        raise _refuse("not_a_character", f"{label} is not a GCS character (no version or attributes)")
    version = data["version"]
    if data.get("type", "character") != "character":
        raise _refuse("not_a_character", f"{label} is a GCS {data.get('type')!r} file, not a character")
    if not isinstance(version, int) or isinstance(version, bool) or version not in VERSIONS:
        raise _refuse("unknown_version", f"{label} has GCS data version {version!r}; this server reads versions "
                                         f"{' and '.join(map(str, VERSIONS))} (re-save it in a current GCS)")
    if not isinstance(data.get("calc"), dict):
        raise _refuse("no_calc", f"{label} has no computed values (calc); re-save it in a current GCS")
    at = ["the character"]  # the field being read, to name it when it is malformed
    try:
        return _character(data, version, hashlib.sha256(raw).hexdigest(), at)
    except Rejected as exc:
        if exc.code != "sheet/bad_field":
            raise
        field = str(exc.details.get("field", ""))
        source = _SOURCE.get(field.split("[")[0].split(".")[0], field)
        raise _refuse("out_of_range", f"{label}: {source}: {exc.message}", field=source) from None
    except (KeyError, TypeError, ValueError, AttributeError, IndexError, OverflowError, RecursionError) as exc:
        # What was wrong in the words of the file, not Python's (a black-box pass read "AttributeError: 'str'
        # object has no attribute 'get'"): the field, and that it is not what GCS writes there.
        raise _refuse("unreadable", f"{label}: {at[0]} cannot be read: it is not what GCS writes there",
                      field=at[0]) from None


# --------------------------------------------------------------------------- rows


def _kind(row: Mapping[str, Any], version: int) -> str:
    """The row's kind letter as in v5 TIDs (``t`` trait, ``w`` melee weapon, ``W`` ranged, ...)."""
    if version >= 5:
        return str(row.get("id", " "))[:1]
    kind = str(row.get("type", ""))
    return {"melee_weapon": "w", "ranged_weapon": "W"}.get(kind, kind[:1])


def _walk(rows: Any, enabled_only: bool = True) -> Iterator[Mapping[str, Any]]:
    """Rows and their children, skipping disabled rows and everything under them."""
    for row in rows or ():
        if not isinstance(row, Mapping) or (enabled_only and row.get("disabled")):
            continue
        yield row
        yield from _walk(row.get("children"), enabled_only)


def _equipped(rows: Any) -> Iterator[Mapping[str, Any]]:
    """Really equipped carried items: each one and every container above it equipped, quantity > 0."""
    for row in rows or ():
        if isinstance(row, Mapping) and row.get("equipped") and row.get("quantity", 1) > 0:
            yield row
            yield from _equipped(row.get("children"))


def _weight_lb(text: Any) -> float:
    m = re.fullmatch(r"\s*([-\d.,]+)\s*([a-z#]*)\s*", str(text))
    if not m:
        raise ValueError(f"weight {text!r}")
    return float(m.group(1).replace(",", "")) * _LB.get(m.group(2) or "lb", 1.0)


def _int_prefix(text: Any) -> int | None:
    m = re.match(r"\s*([-+]?\d+)", str(text)) if text is not None else None
    return int(m.group(1)) if m else None


def _calc(w: Mapping[str, Any], key: str) -> Any:
    c = w.get("calc") or {}
    return c.get(key, w.get(key))


# --------------------------------------------------------------------------- the character


def _character(data: Mapping[str, Any], version: int, digest: str, at: list[str]) -> Imported:
    unused: list[str] = []
    at[0] = "attributes"
    attrs_calc = {a["attr_id"]: a.get("calc") or {} for a in data["attributes"] if isinstance(a, Mapping)}

    def value(attr: str) -> Any:
        if "value" not in attrs_calc.get(attr, {}):
            raise _refuse("not_a_character", f"the file has no computed {attr.upper()} (attributes[{attr}].calc)")
        return attrs_calc[attr]["value"]

    calc = data["calc"]
    at[0] = "attributes[st/dx/iq/ht/basic_speed/basic_move].calc.value"
    st, dx, iq, ht = (_whole_attribute(value(a), a, unused) for a in ("st", "dx", "iq", "ht"))
    speed, basic_move = float(value("basic_speed")), int(value("basic_move"))
    at[0] = "attributes[hp/fp/will/per].calc.value, profile.SM"
    sheet: dict[str, Any] = {
        "st": st, "dx": dx, "iq": iq, "ht": ht, "hp": int(value("hp")), "fp": int(value("fp")),
        "will": int(value("will")), "per": int(value("per")),
        "speed_bonus_quarters": round(speed * 4) - (dx + ht), "move_bonus": basic_move - math.floor(speed),
        "sm": int((data.get("profile") or {}).get("SM", 0) or 0),
    }
    if round(speed * 4) != speed * 4:
        unused.append(f"Basic Speed {speed} rounded to the nearest quarter")
    at[0] = "attributes[hp].calc.current"
    hp_now = _whole(attrs_calc["hp"].get("current", sheet["hp"]), at[0])
    at[0] = "attributes[fp].calc.current"
    fp_now = _whole(attrs_calc["fp"].get("current", sheet["fp"]), at[0])
    known = {"st", "dx", "iq", "ht", "hp", "fp", "will", "per", "basic_speed", "basic_move", "fright_check",
             "vision", "hearing", "taste_smell", "touch"}
    extra = sorted(set(attrs_calc) - known)
    if extra:
        unused.append(f"attributes the rules do not use: {', '.join(extra)}")

    at[0] = "traits"
    # Traits the rules use, by name (FORMAT.md §2); the others are listed.
    traits = [t for t in _walk(data.get("traits", data.get("advantages"))) if not t.get("children")]
    names = sorted({str(t.get("name", "")) for t in traits})
    sheet["traits"] = [n for n in names if n in TRAITS]
    armed = {str(t.get("name", "")) for t in traits if t.get("weapons")}  # their attacks are imported below
    # GULLIVER's size block and eyes (#11): SM, striking/lifting ST, weight, body type, the eye traits
    at[0] = "profile, calc.striking_st_bonus, calc.lifting_st_bonus, settings.body_type, traits"
    scale = gcs_gulliver.read(data, traits, st, _weight_lb)
    if scale.gulliver:
        sheet["gulliver"] = scale.gulliver
    if scale.eyes:
        sheet["eyes"] = scale.eyes
    unused.extend(scale.unused)
    at[0] = "traits"
    others = [n for n in names if n and n not in TRAITS and n not in armed and n not in scale.traits_used]
    if others:
        unused.append(f"traits the rules do not use: {', '.join(others)}")

    # Skills and spells: their computed levels (0 and no level: not usable).
    skills: dict[str, int] = {}
    at[0] = "skills"
    for row in _walk(data.get("skills")):
        level = (row.get("calc") or {}).get("level")
        if row.get("children") is not None or not level:
            continue
        name = str(row.get("name", "")) + (f" ({row['specialization']})" if row.get("specialization") else "")
        skills[name] = max(0, min(40, int(level)))
    sheet["skills"] = skills
    spells = [str(r.get("name")) for r in _walk(data.get("spells")) if r.get("children") is None]
    if spells:
        unused.append(f"{len(spells)} spells (the rules have no magic; their attacks are imported where they "
                      f"have a level): {', '.join(spells)}")

    at[0] = "equipment[].calc.extended_weight, calc.basic_lift"
    # Encumbrance: carried weight against GCS's Basic Lift (FORMAT.md §6).
    carried = sum(_weight_lb((r.get("calc") or {}).get("extended_weight", "0 lb"))
                  for r in data.get("equipment") or () if isinstance(r, Mapping))
    bl = _weight_lb(calc.get("basic_lift", "0 lb"))
    level = next((i for i, k in enumerate(_ENC_LIMITS) if carried <= k * bl), 4) if bl > 0 else 0
    sheet["carried"] = round(carried, 3)
    sheet["encumbrance"] = level

    # DR by hit location (GCS's computed totals; split DR is added to "all" as GCS shows it).
    at[0] = "settings.body_type.locations"
    body = (data.get("settings") or {}).get("body_type") or (data.get("settings") or {}).get("hit_locations") or {}
    dr_locations: dict[str, int] = {}
    for loc in body.get("locations") or ():
        dr = (loc.get("calc") or {}).get("dr") or {}
        total = int(dr.get("all", 0))
        split = {k: v for k, v in dr.items() if k != "all" and v}
        if split:
            unused.append(f"split DR on {loc['id']} ({', '.join(f'+{v} vs {k}' for k, v in split.items())}): "
                          f"the rules use one DR")
        dr_locations[str(loc["id"])] = max(dr_locations.get(str(loc["id"]), 0), total)
    sheet["dr_locations"] = dr_locations
    sheet["dr"] = dr_locations.get("torso", 0)
    if len(set(dr_locations.values())) > 1:
        unused.append(f"DR differs by hit location; the rules use the torso's DR {sheet['dr']} (no hit locations)")

    # Shield DB: the really-equipped item whose features add to block (FORMAT.md §4).
    at[0] = "equipment"
    equipped = list(_equipped(data.get("equipment")))
    db_items = [(r, f) for r in equipped for f in r.get("features") or ()
                if f.get("type") == "attribute_bonus" and f.get("attribute") == "block"]
    sheet["db"] = sum(int(f.get("amount", 0)) for _, f in db_items)
    bonus = sheet["db"] + (1 if "Combat Reflexes" in sheet["traits"] else 0)
    for key in ("dodge_bonus", "parry_bonus", "block_bonus"):
        at[0] = f"calc.{key}"
        if int(calc.get(key, 0)) != bonus:
            unused.append(f"{key.replace('_', ' ')} {int(calc.get(key, 0)):+d} in the file: the rules give "
                          f"{bonus:+d} (shield DB and Combat Reflexes only)")

    for key in ("traits", "advantages", "skills", "spells"):
        for row in _walk(data.get(key), enabled_only=False):
            if row.get("disabled") and row.get("weapons"):
                unused.append(f"attacks of {row.get('name')}: it is disabled in the file")
    at[0] = "weapons"
    sheet["weapons"] = _weapons(data, version, equipped, sheet, bonus, unused)
    shields = [w for w in _all_weapon_rows(data, version, equipped) if w[1].get("calc", {}).get("block")
               or w[1].get("block")]
    if shields:
        owner, w = max(shields, key=lambda s: _int_prefix(_calc(s[1], "block")) or 0)
        sheet["shield_skill"] = int((w.get("calc") or {}).get("level", 0))
        sheet["shield_name"] = owner

    built = validate_sheet(sheet)
    at[0] = "calc.move, calc.dodge"
    _check_derived(built, calc, level, unused)
    hp_now = _current(hp_now, built.hp_max, "attributes[hp].calc.current", "HP", -5, unused)
    fp_now = _current(fp_now, built.fp_max, "attributes[fp].calc.current", "FP", -1, unused)
    name = str((data.get("profile") or {}).get("name") or "").strip() or "Imported character"
    imported = Imported(name=name, sheet=built, hp=hp_now, fp=fp_now, sha256=digest, unused=tuple(unused))
    _check_texts(imported.name, "profile.name")
    _check_texts(imported.sheet_json(), "the sheet")
    return imported


#: The longest text a message may hold (the protocol's ``MAX_TEXT``, docs/protocol.md "Limits"; a test checks
#: they agree): an imported name or weapon name is held to it as a typed one is.
MAX_TEXT = 2000


def _check_texts(value: Any, where: str) -> None:
    """Refuse (``import/bad_field``) a text of the import that a client could not have typed: one holding a NUL or
    a lone surrogate, or longer than :data:`MAX_TEXT` (a black-box pass imported a name with a NUL, and one of
    5,000 characters, past the limits every typed text is held to)."""
    if isinstance(value, str):
        if "\x00" in value:
            raise _refuse("bad_field", f"{where} holds a NUL character", field=where)
        if len(value) > MAX_TEXT:
            raise _refuse("bad_field", f"{where} is longer than {MAX_TEXT} characters", field=where)
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise _refuse("bad_field", f"{where} holds a lone surrogate (not a character)", field=where) from None
    elif isinstance(value, Mapping):
        for key, item in value.items():
            _check_texts(key, where)
            _check_texts(item, f"{where}.{key}" if where != "the sheet" else str(key))
    elif isinstance(value, (list, tuple)):
        for i, item in enumerate(value):
            _check_texts(item, f"{where}[{i}]")


def _whole_attribute(raw: Any, attr: str, unused: list[str]) -> int:
    """An attribute's computed value as the whole number the rules use, said in ``unused`` when the file's was not
    one (``12.7`` is taken as 12), rather than changed without a word."""
    whole = int(raw)
    if isinstance(raw, float) and whole != raw:
        unused.append(f"{attr.upper()} {raw} taken as {whole} (the rules use whole numbers)")
    return whole


def _all_weapon_rows(data: Mapping[str, Any], version: int,
                     equipped: list[Mapping[str, Any]]) -> list[tuple[str, Mapping[str, Any]]]:
    """(owner name, weapon row) for the live weapons: enabled traits, skills, spells, equipped gear."""
    out: list[tuple[str, Mapping[str, Any]]] = []
    sources = [(r, "name") for key in ("traits", "advantages", "skills", "spells") for r in _walk(data.get(key))]
    sources += [(r, "description") for r in equipped]
    for row, label in sources:
        for w in row.get("weapons") or ():
            if isinstance(w, Mapping) and not w.get("hide") and _kind(w, version) in ("w", "W"):
                out.append((str(row.get(label, "")), w))
    return out


def _range(text: Any) -> tuple[int, int] | None:
    parts = [p.strip().replace(",", "") for p in str(text or "").split("/")]
    vals = []
    for p in parts:
        mult = 1760 if p.endswith("mi") else 1
        m = re.fullmatch(r"(\d+(?:\.\d+)?)\s*(mi)?", p)
        if not m:
            return None
        vals.append(int(float(m.group(1)) * mult))
    if len(vals) == 1:
        return 0, vals[0]
    return (vals[0], vals[1]) if len(vals) == 2 else None


def _weapons(data: Mapping[str, Any], version: int, equipped: list[Mapping[str, Any]], sheet: Mapping[str, Any],
             bonus: int, unused: list[str]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    seen: set[str] = set()
    for owner, w in _all_weapon_rows(data, version, equipped):
        ranged = _kind(w, version) == "W"
        usage = str(w.get("usage") or "").strip()
        name = usage.lower() if owner == "Natural Attacks" and usage else (f"{owner} ({usage})" if usage else owner)
        label = name
        n = 1
        while name in seen:
            n += 1
            name = f"{label} #{n}"
        level = (w.get("calc") or {}).get("level")
        dmg = (w.get("calc") or {}).get("damage") or ""
        if not level:
            unused.append(f"attack {label}: no skill level in the file")
            continue
        parsed = _damage(w.get("damage") or {}, str(dmg), sheet)
        if parsed is None:
            unused.append(f"attack {label}: damage {dmg!r} is not one the rules can roll")
            continue
        skill = max(0, min(40, int(level)))
        if isinstance(level, (int, float)) and skill != level:
            unused.append(f"attack {label}: skill {level} taken as {skill} (the rules' range is 0-40)")
        weapon: dict[str, Any] = {"name": name, "skill": skill, **parsed}
        strength = str(_calc(w, "strength") or "")
        if _int_prefix(strength):
            weapon["min_st"] = _int_prefix(strength)
        if "†" in strength or "‡" in strength:
            weapon["two_handed"] = True
        if "‡" in strength:
            weapon["needs_ready"] = True
        if ranged:
            rng = _range(_calc(w, "range"))
            thrown = usage.lower() == "thrown" or str(_calc(w, "shots") or "").strip().upper() == "T"
            if rng is None or rng[1] <= 0:
                unused.append(f"attack {label}: range {_calc(w, 'range')!r} cannot be read")
                continue
            weapon.update(kind="thrown" if thrown else "ranged", parry=None, half_damage=rng[0], max_range=rng[1])
            acc = str(_calc(w, "accuracy") or "0")
            weapon["acc"] = sum(int(x) for x in re.findall(r"[-+]?\d+", acc)) if re.search(r"\d", acc) else 0
            if not re.search(r"\d", acc) and acc.strip():
                unused.append(f"attack {label}: accuracy {acc!r} cannot be read; taken as 0")
            rof = _int_prefix(_calc(w, "rate_of_fire"))
            weapon["rof"] = max(1, rof or 1)
            if "x" in str(_calc(w, "rate_of_fire") or ""):
                unused.append(f"attack {label}: RoF {_calc(w, 'rate_of_fire')} (several projectiles per shot): "
                              f"each shot rolls as one")
            shots = str(_calc(w, "shots") or "")
            weapon["shots"] = sum(int(x) for x in re.findall(r"\d+", shots.split("(")[0])) if not thrown else 0
            reload = re.search(r"\((\d+)", shots)  # GCS "1(2)": one shot, two seconds of Ready to reload (G-33)
            if weapon["shots"] and reload and int(reload.group(1)) > 1:
                weapon["reload"] = min(100, int(reload.group(1)))
            weapon["bulk"] = max(-20, min(0, _int_prefix(_calc(w, "bulk")) or 0))
            recoil = _int_prefix(_calc(w, "recoil"))
            if recoil:
                weapon["recoil"] = recoil
                weapon["firearm"] = True
        else:
            reach = str(_calc(w, "reach") or "")
            if not reach:
                unused.append(f"attack {label}: no reach (an area or special attack)")
                continue
            weapon["reach"] = reach.replace("*", "")
            if "*" in reach:
                weapon["needs_ready"] = True
            parry = str(_calc(w, "parry") or "")
            value = _int_prefix(parry)
            if value is None or "no" in parry.lower():
                weapon["parry"] = None
            else:
                # the weapon's own modifier, so that 3 + skill/2 + modifier + bonus = GCS's parry
                weapon["parry"] = max(-5, min(5, value - 3 - weapon["skill"] // 2 - bonus))
                weapon["unbalanced"] = "U" in parry.upper()
        seen.add(name)
        out.append(weapon)
    return out


def _damage(raw: Mapping[str, Any], resolved: str, sheet: Mapping[str, Any]) -> dict[str, Any] | None:
    """``damage`` and ``damage_type`` for the sheet: ST-based (thr/sw+N) when it resolves as GCS's, else fixed dice."""
    m = re.fullmatch(r"\s*(\d+d(?:[-+]\d+)?|\d+d\(\d+\)|\d+)\s+(\S+)\s*", resolved)
    if not m:
        return None
    dice_text, dtype = m.group(1), m.group(2)
    if dtype not in DAMAGE_TYPES or "(" in dice_text:
        return None
    try:
        fixed = parse_dice(dice_text if "d" in dice_text else f"0d+{dice_text}")
    except ValueError:
        return None
    st_kind = raw.get("st")
    adds = _int_prefix(raw.get("base")) if raw.get("base") else 0
    if st_kind in ("thr", "sw") and adds is not None and not raw.get("modifier_per_die") and not raw.get("base_leveled"):
        spec = f"{st_kind}{adds:+d}" if adds else st_kind
        probe = validate_sheet({"st": sheet["st"], "weapons": [{"name": "probe", "damage": spec}]})
        if derived.weapon_damage(probe, probe.weapons[0]) == fixed:
            return {"damage": spec, "damage_type": dtype}
    if fixed[0] <= 0:
        return None
    return {"damage": format_dice(*fixed).replace(" ", ""), "damage_type": dtype, "st_based": False}


def _whole(v: Any, field: str) -> int:
    """A whole number from the file (GCS writes some as 12.0); anything else is refused, naming the field."""
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v) or v != int(v):
        raise _refuse("bad_field", f"{field} must be a whole number, got {v!r}", field=field)
    return int(v)


def _current(now: int, top: int, field: str, what: str, floor: int, unused: list[str]) -> int:
    """Current HP or FP within what the rules can hold: never above the maximum (refused); HP below
    -5xHP is dead as at -5xHP (G-45) and FP below -FP is unconscious as at -FP, so those are clamped."""
    if now > top:
        raise _refuse("out_of_range", f"{field}: current {what} {now} is above its maximum {top}", field=field)
    if now < floor * top:
        unused.append(f"current {what} {now} counted as {floor * top} (the rules go no lower)")
        return floor * top
    return now


def _check_derived(sheet: Sheet, calc: Mapping[str, Any], level: int, unused: list[str]) -> None:
    """Say so when the rules derive Move or Dodge differently from the values GCS computed."""
    for key, what, ours in (("move", "Move", derived.move(sheet)), ("dodge", "Dodge", derived.dodge(sheet))):
        by_level = calc.get(key)
        if by_level is None:
            continue
        if not isinstance(by_level, list) or len(by_level) != len(_ENC_LIMITS) or not all(
                v is None or (isinstance(v, int) and not isinstance(v, bool)) for v in by_level):
            raise _refuse("bad_field", f"calc.{key} must list {len(_ENC_LIMITS)} whole numbers (one per "
                                       f"encumbrance level), got {by_level!r}"[:300], field=f"calc.{key}")
        theirs = by_level[level]
        if theirs is not None and ours != theirs:
            unused.append(f"{what} {theirs} in the file: the rules derive {ours}")
