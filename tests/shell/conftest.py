"""Sheets for the SHELL calculation tests, as a GM would type them."""

from __future__ import annotations

from typing import Any

import pytest

from combat_server.rules.shell.sheet import Sheet, validate_sheet


def fighter_json(**over: Any) -> dict[str, Any]:
    """E-13's character (ST 12, AG 13, IQ 10, HT 10) with a sword and a shield."""
    raw: dict[str, Any] = {
        "st": 12, "ag": 13, "iq": 10, "ht": 10,
        "styles": [{"name": "Swordsmanship", "level": 3}, {"name": "Brawling", "level": 5}],
        "weapons": [{"name": "long sword", "style": "Swordsmanship", "damage": 0, "damage_types": ["cut", "imp"],
                     "min_st": 10, "hands": "either", "hp": 10, "weight": 4}],
        "shield": {"size": "medium", "weight": 15},
        "armour": [{"material": "chain", "locations": ["torso", "arm", "leg"], "weight": 45}],
        "gear_weight": 6,
    }
    raw.update(over)
    return raw


@pytest.fixture
def fighter() -> Sheet:
    return validate_sheet(fighter_json())


@pytest.fixture
def engine(store: Any) -> Any:
    """The real store, once on a SQLite file and once on PostgreSQL (tests/conftest.py)."""
    from combat_server.engine.fight import Engine

    return Engine(store, snapshot_every=7)


@pytest.fixture
def table(engine: Any) -> Any:
    from tests.shell.table import Table

    return Table(engine, engine.create_fight("shell", dice_mode="manual").fight_id)
