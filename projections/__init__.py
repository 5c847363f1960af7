"""Folding events into state: the game state, snapshots and state hashes, per-seat views and redacted event
streams, read models. Pure: nothing here decides whether a command is legal."""
