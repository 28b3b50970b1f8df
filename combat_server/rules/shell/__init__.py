"""SHELL (seed 002, catalogue section 3): the pure calculation layer.

What is here computes; nothing here is a ruleset yet (no decide/apply, no
registration): ``sheet`` (the validated sheet and its derived numbers),
``charts`` (the tables), ``resolution`` (2d10 attack resolution and the roll
record), ``damage`` (the A-75 pipeline, locations, crippling, objects),
``endurance`` (END thresholds and combat fatigue), ``initiative`` (turn order
data) and ``options`` (the per-fight readings). Dice values are always inputs.
"""
