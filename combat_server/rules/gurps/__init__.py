"""The ``gurps`` ruleset: the GURPS-Lite combat chapter (G-xx), with GULLIVER (V-xx)
options as named per-fight switches. Registered through the ``combat_server.rulesets``
entry point ``gurps`` (pyproject.toml)."""

from __future__ import annotations

from combat_server.rules.gurps.ruleset import GurpsRuleset

__all__ = ["GurpsRuleset"]
