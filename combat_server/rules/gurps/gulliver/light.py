"""Light levels (V-46, A-47): twelve levels from blinding to total darkness, what each
does to Vision, DX and IQ, and how eyes and eyewear shift them.

Why a shift and not a penalty per trait: V-46 describes Bad Sight, Night Vision,
sunglasses and goggles as moving the level, so they compose by adding steps."""

from __future__ import annotations

import attrs


@attrs.frozen
class Light:
    name: str
    vision: int = 0
    dx_iq: int = 0
    darkness: int = 0  # on Vision and sight-dependent attacks and active defences
    blind: bool = False


#: V-46, brightest first.
LEVELS: tuple[Light, ...] = (
    Light("blinding", blind=True),
    Light("near-blinding", vision=-8, dx_iq=-4),
    Light("harsh", vision=-4, dx_iq=-2),
    Light("very bright", vision=-2, dx_iq=-1),
    Light("bright"),
    Light("normal"),
    Light("slightly dim"),
    Light("dim", darkness=-1),
    Light("very dim", darkness=-2),
    Light("dark", darkness=-4),
    Light("very dark", darkness=-8),
    Light("total darkness", blind=True),
)
NAMES = tuple(level.name for level in LEVELS)
_SLIGHTLY_DIM = NAMES.index("slightly dim")
_TOTAL = NAMES.index("total darkness")
#: Where the table's examples say what each level looks like (V-46), for the GM's choice.
EXAMPLES: dict[str, str] = {
    "blinding": "a flash attack", "near-blinding": "a searchlight in the face", "harsh": "police interrogation",
    "very bright": "bright sun in the eyes", "bright": "a sunny day", "normal": "shade, a cloudy day, bright indoors",
    "slightly dim": "ordinary indoor light", "dim": "dim indoors, bright firelight", "very dim": "dim firelight",
    "dark": "moonlight", "very dark": "starlight", "total darkness": "no light",
}


def penalties(seen: Light) -> Light:
    """The numbers a viewer's rolls take at the level it sees. V-46 prints "blind" for the two ends
    of the table and no number; this layer reads a blind viewer as at least as badly off as at the
    next level that is not blind (blinding: near-blinding's -8 Vision, -4 DX and IQ; total darkness:
    very dark's -8 darkness penalty), the GM adding more as circumstances (G-35). Why a floor: a
    darker or brighter level never makes a roll easier."""
    if not seen.blind:
        return seen
    i = NAMES.index(seen.name)
    near = LEVELS[i + 1] if i == 0 else LEVELS[i - 1]
    return Light(seen.name, near.vision, near.dx_iq, near.darkness, blind=True)


@attrs.frozen
class Eyes:
    """What shifts the light a viewer sees (V-46): ``light_sensitivity`` levels brighter for
    slightly dim and brighter (Bad Sight 2, mild 1); ``night_vision`` "", "partial" (5-point)
    or "full"; ``night_blindness``; ``eyewear`` levels darker (sunglasses 1, goggles 2)."""

    light_sensitivity: int = 0
    night_vision: str = ""
    night_blindness: bool = False
    eyewear: int = 0


def seen_level(level: str, eyes: Eyes = Eyes()) -> Light:
    """The level a viewer effectively sees. V-46: Bad Sight makes slightly dim and brighter two
    levels brighter (the mild form one); the 5-point Night Vision moves slightly dim ... very dark
    one level brighter, Night Blindness one darker; eyewear darkens; full Night Vision removes
    darkness penalties short of total darkness."""
    i = NAMES.index(level)
    if i == _TOTAL:
        return LEVELS[i]
    if eyes.light_sensitivity and i <= _SLIGHTLY_DIM:
        i -= eyes.light_sensitivity
    if _SLIGHTLY_DIM <= i < _TOTAL:
        if eyes.night_vision == "partial":
            i -= 1
        if eyes.night_blindness:
            i += 1
    i += eyes.eyewear
    i = min(max(i, 0), _TOTAL)
    seen = LEVELS[i]
    if eyes.night_vision == "full" and seen.darkness and not seen.blind:
        return Light(seen.name)
    return seen
