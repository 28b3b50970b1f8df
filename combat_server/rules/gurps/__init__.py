"""The ``gurps`` ruleset: the GURPS-Lite combat chapter (G-xx), with GULLIVER (V-xx)
options as named per-fight switches."""

from __future__ import annotations

from typing import Any, Mapping

from combat_server.rules.gurps.ruleset import GurpsRuleset
from combat_server.rules.ruleset import register

GURPS = register(GurpsRuleset())

__all__ = ["GURPS", "GurpsRuleset"]
