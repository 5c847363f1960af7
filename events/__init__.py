"""What is stored: canonical encoding, the core events, the random source, the append-only store.

Nothing here knows any game's rules. Imports point one way: events <- projections <- adjudicator <- cli.
"""
