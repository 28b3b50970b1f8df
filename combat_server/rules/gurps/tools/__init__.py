"""GURPS's GM tools (#12): the catalogue's ``[gm-tool]`` rules as calculators.

One module per family (falling, collisions, exposure, movement feats, ...), each
exporting ``SPECS: tuple[CalculatorSpec, ...]`` (rules/kit/calculators.py); the
ruleset gathers them into one table. Every tool is pure arithmetic with its steps
citing rule ids; applying a result to a combatant is an event of the ruleset.
"""
