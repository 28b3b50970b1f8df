"""docs/gm-tools.md and docs/rules-coverage.md say what the tool table holds (a doc that drifts fails here)."""

from __future__ import annotations

from pathlib import Path

from combat_server.rules.gurps.tools.catalog import CALCULATORS

DOCS = Path(__file__).resolve().parents[3] / "docs"


def test_gm_tools_doc_lists_every_tool_with_its_rules_and_inputs() -> None:
    text = (DOCS / "gm-tools.md").read_text(encoding="utf-8")
    for spec in CALCULATORS.values():
        heading = f"#### `{spec.name}`: {spec.title} ({', '.join(spec.rules)})"
        assert heading in text, spec.name
        section = text[text.index(heading):]
        section = section[:section.find("\n#### ", 1) if "\n#### " in section[1:] else len(section)]
        for name in spec.inputs:
            assert f"| `{name}` |" in section, (spec.name, name)


def test_rules_coverage_names_a_tool_test_for_every_gm_tool_rule() -> None:
    text = (DOCS / "rules-coverage.md").read_text(encoding="utf-8")
    for spec in CALCULATORS.values():
        for rule in spec.rules:
            if rule[0] in "GV" and rule[1] == "-":
                row = next((line for line in text.splitlines() if line.startswith(f"| {rule} |")), "")
                assert row and ("gm-tool" not in row or "test_" in row), rule
        assert f"`{spec.name}`" in text, spec.name
