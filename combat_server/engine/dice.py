"""Dice sources: where faces come from before ``decide`` writes them into events.

* ``server``: the OS's cryptographic randomness (``secrets``).
* ``seeded``: a per-fight seed; faces derive from (seed, fight, seq, draw number)
  by SHA-256, so a restarted server draws the same dice for the same command.
* ``manual``: faces come with the command (a table rolling physical dice); each
  request takes the next group of faces, which must match the request exactly.
"""

from __future__ import annotations

import hashlib
import secrets
from typing import Sequence

from combat_server.errors import reject
from combat_server.rules.model import DiceRequest

MAX_DICE = 100
MAX_SIDES = 100


def _check(request: DiceRequest) -> None:
    if not (1 <= request.count <= MAX_DICE and 2 <= request.sides <= MAX_SIDES):
        # Reached by a GM tool's result beyond any table (a fall lasting an hour at 1000 g): say why.
        raise reject("roll/bad_request",
                     f"cannot roll {request.count}d{request.sides} for {request.purpose}: one roll takes "
                     f"1 to {MAX_DICE} dice of 2 to {MAX_SIDES} sides",
                     count=request.count, sides=request.sides, purpose=request.purpose)


class ServerDice:
    def roll(self, request: DiceRequest) -> tuple[int, ...]:
        _check(request)
        return tuple(secrets.randbelow(request.sides) + 1 for _ in range(request.count))


class SeededDice:
    """Deterministic dice for demos and reproducible tests."""

    def __init__(self, seed: str, fight_id: str, nonce: int) -> None:
        self._prefix = f"{seed}|{fight_id}|{nonce}|"
        self._draw = 0

    def roll(self, request: DiceRequest) -> tuple[int, ...]:
        _check(request)
        faces = []
        for _ in range(request.count):
            self._draw += 1
            # Rejection sampling keeps every face equally likely.
            counter = 0
            while True:
                digest = hashlib.sha256(f"{self._prefix}{self._draw}|{counter}".encode()).digest()
                value = int.from_bytes(digest[:4], "big")
                limit = (2**32 // request.sides) * request.sides
                if value < limit:
                    faces.append(value % request.sides + 1)
                    break
                counter += 1
        return tuple(faces)


class ManualDice:
    """Faces typed in by a person; validated against each request."""

    def __init__(self, faces: Sequence[Sequence[int]]) -> None:
        self._groups = [list(g) for g in faces]
        self.used = 0

    def roll(self, request: DiceRequest) -> tuple[int, ...]:
        _check(request)
        if self.used >= len(self._groups):
            raise reject(
                "roll/faces_needed",
                f"manual dice: enter {request.count}d{request.sides} for {request.purpose}",
                count=request.count, sides=request.sides, purpose=request.purpose, index=self.used,
            )
        group = self._groups[self.used]
        if len(group) != request.count or not all(
            isinstance(f, int) and not isinstance(f, bool) and 1 <= f <= request.sides for f in group
        ):
            raise reject(
                "roll/bad_faces",
                f"{request.purpose} needs {request.count} {'value' if request.count == 1 else 'values'} from 1 to "
                f"{request.sides}, got {list(group)}",
                count=request.count, sides=request.sides, purpose=request.purpose, index=self.used,
            )
        self.used += 1
        return tuple(group)

    def unused(self) -> int:
        return len(self._groups) - self.used
