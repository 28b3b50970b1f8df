"""A dice duel: a second, test-only ruleset that plays end to end through the generic engine,
server and clients (#9, "How we know it is done"). Nothing outside tests/ names it."""
