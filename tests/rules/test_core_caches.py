"""rules/core.py's per-class caches (issue 16) answer what the class's attrs fields say."""

from __future__ import annotations

import attrs
import pytest

from combat_server.rules import core
from combat_server.rules.model import KEPT_BY_RULES
from combat_server.rules.ruleset import get_ruleset


@pytest.mark.parametrize("name", ["gurps", "shell"])
def test_kept_by_rules_is_each_fields_metadata(name: str) -> None:
    """_kept_by_rules (asked for each adjusted field) is the field's KEPT_BY_RULES metadata, for every field."""
    condition_type = get_ruleset(name).condition_type
    fields = attrs.fields_dict(condition_type)
    assert any(f.metadata.get(KEPT_BY_RULES) for f in fields.values()) or name == "shell"
    for field_name, field in fields.items():
        for _ in range(2):  # built, then cached
            assert core._kept_by_rules(condition_type, field_name) == str(field.metadata.get(KEPT_BY_RULES, ""))
