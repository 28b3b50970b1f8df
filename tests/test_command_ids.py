"""The command ids ``CombatClient`` makes (issue 16, the append): each later than the last, so the server's
per-command row lands beside the seat's previous one; random enough that two clients of a seat never meet."""

from __future__ import annotations

from typing import Callable

from combat_server.client import CommandIds


def _clock(*readings: int) -> Callable[[], int]:
    it = iter(readings)
    return lambda: next(it)


def test_ids_grow_with_the_clock() -> None:
    ids = CommandIds(clock=_clock(1_000, 2_000, 3_000), entropy=lambda n: "ab" * n)
    made = [ids(), ids(), ids()]
    assert made == ["00000000000003e8abababab", "00000000000007d0abababab", "0000000000000bb8abababab"]


def test_ids_still_grow_when_the_clock_stands_still_or_goes_back() -> None:
    ids = CommandIds(clock=_clock(5_000, 5_000, 4_000, 6_000), entropy=lambda n: "00" * n)
    made = [ids() for _ in range(4)]
    assert made == sorted(made) and len(set(made)) == 4
    assert [int(i[:16], 16) for i in made] == [5_000, 5_001, 5_002, 6_000]


def test_ids_sort_in_the_order_they_were_made_with_the_real_clock() -> None:
    ids = CommandIds()
    made = [ids() for _ in range(2_000)]
    assert made == sorted(made) and len(set(made)) == len(made)


def test_two_clients_at_the_same_instant_make_different_ids() -> None:
    one, two = CommandIds(clock=lambda: 7), CommandIds(clock=lambda: 7)
    assert one() != two()


def test_an_id_fits_the_protocols_limit_and_is_plain_hex() -> None:
    made = CommandIds()()
    assert len(made) == 24 and int(made, 16) >= 0  # command_id: at most 128 characters (docs/protocol.md)
