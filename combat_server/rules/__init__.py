"""Pure rules: rulesets, their commands, events and state.

Nothing under this package may do I/O, read a clock or draw random numbers
(tests/test_purity.py enforces the imports). Dice arrive through a
:class:`~combat_server.rules.model.DiceSource` handed to ``decide``.
"""
