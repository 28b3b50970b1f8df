"""The fight aggregate: load, decide, append, fold, undo, replay, fork, export."""
