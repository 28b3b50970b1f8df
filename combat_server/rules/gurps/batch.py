"""The kit's event accumulator (rules/kit/batch.py) with typed readers of GURPS state."""

from __future__ import annotations

from functools import cached_property

from combat_server.errors import reject
from combat_server.rules.gurps.gulliver.policy import Policy, fight_policy
from combat_server.rules.gurps.sheet import Sheet
from combat_server.rules.gurps.state import Combat, Condition
from combat_server.rules.kit import batch
from combat_server.rules.model import DiceRequest


class Batch(batch.Batch):
    @property
    def combat(self) -> Combat:
        combat = self.state.combat
        # in setup a Combat may hold only the light the GM set (V-46): the sequence has not started
        if not isinstance(combat, Combat) or self.state.status == "setup":
            raise reject("combat/not_started", "combat has not started: the GM sends start_combat first")
        return combat

    @cached_property
    def policy(self) -> Policy:
        """The fight's GULLIVER policy (issue #11), built once per decision from its options:
        the rule modules call it instead of testing option flags."""
        return fight_policy(self.state.options)

    def cond(self, cid: str) -> Condition:
        cond = self.state.combatant(cid).condition
        assert isinstance(cond, Condition)
        return cond

    def sheet(self, cid: str) -> Sheet:
        sheet = self.state.combatant(cid).sheet
        assert isinstance(sheet, Sheet)
        return sheet


class StandInDice:
    """Dice for a trial run whose events are thrown away (a preview, a check that a declared
    maneuver is valid): low faces, so checks before the roll succeed."""

    def roll(self, request: DiceRequest) -> tuple[int, ...]:
        return (1,) * request.count
