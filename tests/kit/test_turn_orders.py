"""#9 "A kit for rulesets": turn orders as data. A fixed order for the whole fight (GURPS,
G-19) and an order decided anew each round (SHELL's initiative re-rolled every round), each
skipping those who cannot act."""

from __future__ import annotations

from combat_server.rules.kit.turns import FixedOrder, RoundOrder, RoundOver, Turn

ORDER = ("ann", "bob", "cy")


def everyone(cid: str) -> bool:
    return True


def test_a_fixed_order_starts_round_one_with_the_first_combatant() -> None:
    assert FixedOrder().next_turn(ORDER, -1, 0, everyone) == Turn("ann", 0, 1)


def test_a_fixed_order_wraps_into_the_next_round_G19() -> None:
    assert FixedOrder().next_turn(ORDER, 2, 1, everyone) == Turn("ann", 0, 2)


def test_a_fixed_order_skips_who_cannot_act_even_across_the_wrap_G19() -> None:
    assert FixedOrder().next_turn(ORDER, 1, 3, lambda cid: cid == "bob") == Turn("bob", 1, 4)


def test_a_fixed_order_where_nobody_can_act_has_no_next_turn() -> None:
    assert FixedOrder().next_turn(ORDER, 0, 1, lambda cid: False) is None


def test_a_round_order_goes_down_this_rounds_order() -> None:
    assert RoundOrder().next_turn(ORDER, 0, 2, everyone) == Turn("bob", 1, 2)


def test_a_round_order_skips_who_cannot_act_within_the_round() -> None:
    assert RoundOrder().next_turn(ORDER, 0, 2, lambda cid: cid != "bob") == Turn("cy", 2, 2)


def test_a_round_order_reports_the_end_of_the_round_instead_of_wrapping() -> None:
    """The next round's order is decided by the ruleset (as an event), not reused."""
    assert RoundOrder().next_turn(ORDER, 2, 2, everyone) == RoundOver(3)


def test_a_round_with_nobody_left_who_can_act_is_over_too() -> None:
    assert RoundOrder().next_turn(ORDER, 0, 1, lambda cid: cid == "ann") == RoundOver(2)


def test_a_new_rounds_order_is_taken_from_its_start() -> None:
    reordered = ("cy", "ann", "bob")
    assert RoundOrder().next_turn(reordered, -1, 3, everyone) == Turn("cy", 0, 3)


def test_before_any_round_the_first_round_needs_its_order() -> None:
    assert RoundOrder().next_turn((), -1, 0, everyone) is None
    assert RoundOrder().next_turn(ORDER, 2, 0, everyone) == RoundOver(1)


def test_a_round_order_where_nobody_can_act_has_no_next_round() -> None:
    assert RoundOrder().next_turn(ORDER, -1, 4, lambda cid: False) is None
