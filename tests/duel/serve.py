"""``python -m tests.duel.serve [serve options]``: the real server with the duel ruleset registered
too (a test-only ruleset has no entry point; docs/rulesets.md: tests call ``register``)."""

import sys

from combat_server.rules.ruleset import register
from combat_server.server.cli import main
from tests.duel.ruleset import DuelRuleset

register(DuelRuleset(), "tests/duel/serve.py")
sys.exit(main())
