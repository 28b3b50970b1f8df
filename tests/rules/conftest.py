"""Fixtures for the GURPS rules tests: a real engine on a SQLite file, manual dice.

``new_fight({"a": sheet_a, "b": sheet_b})`` adds the combatants (first one a PC,
the rest NPCs), starts combat in the given order (no initiative dice) and returns
a :class:`Fight` that sends GM commands with explicit dice faces.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable, Iterator, Mapping, Sequence

import pytest

from combat_server.engine.fight import Engine
from combat_server.store.sql import open_store
from tests.rules.gurps_helpers import Fight


@pytest.fixture(scope="session")
def rules_engine(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Engine]:
    """One engine on one SQLite file for the whole session; every test gets its own fight."""
    path: Path = tmp_path_factory.mktemp("rules") / "rules.sqlite"
    store = open_store(f"sqlite:///{path}", migrate=True)
    yield Engine(store)
    store.dispose()


@pytest.fixture
def new_fight(rules_engine: Engine) -> Callable[..., Fight]:
    def make(sheets: Mapping[str, Mapping[str, Any]], order: Sequence[str] | None = None) -> Fight:
        fight = Fight(rules_engine, rules_engine.create_fight("gurps", dice_mode="manual").fight_id)
        for i, (cid, sheet) in enumerate(sheets.items()):
            fight.run("add_combatant", {"name": cid.upper(), "id": cid, "side": "pc" if i == 0 else "npc",
                                        "sheet": dict(sheet)})
        fight.run("start_combat", {"order": list(order or sheets)})
        return fight

    return make
