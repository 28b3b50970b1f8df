"""The duel ruleset is registered for these tests only, and forgotten after (docs/rulesets.md)."""

from __future__ import annotations

from typing import Iterator

import pytest

from combat_server.rules.ruleset import get_ruleset, register, unregister
from tests.duel.ruleset import DuelRuleset


@pytest.fixture
def duel() -> Iterator[DuelRuleset]:
    get_ruleset("gurps")  # the installed rulesets are loaded first
    ruleset = register(DuelRuleset(), "tests/duel")
    assert isinstance(ruleset, DuelRuleset)
    yield ruleset
    unregister("duel", "1.0")
