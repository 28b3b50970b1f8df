"""Seat tokens: secret, URL-safe, and usable as a command-line argument."""

from __future__ import annotations

from combat_server.server.app import new_token, token_hash


def test_tokens_never_start_with_a_dash() -> None:
    """A token typed after --token must not read as an option (it once failed one run in 64)."""
    tokens = [new_token() for _ in range(2000)]
    assert not any(t.startswith("-") for t in tokens)
    assert len(set(tokens)) == len(tokens)


def test_only_the_hash_of_a_token_is_kept() -> None:
    """The store keeps sha256 of the token, never the token itself."""
    token = new_token()
    digest = token_hash(token)
    assert len(digest) == 64 and token not in digest
