"""GULLIVER for gurps (catalogue section 2, V-xx): every combat option as a
per-fight switch, the policy the GURPS modules will consult instead of testing
flags, hit-location tables and size per combatant.

This package is the pure layer only (issue #11, first step): nothing here is wired
into the ruleset yet. With every option off, each policy function returns what the
gurps modules compute today (tests/gurps/gulliver/test_policy_off.py)."""
