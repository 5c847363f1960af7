"""rev-trust: an upgrade keeps a damaged chain's hashes "so that `arbitro check` and `verify` still report it", but it
renumbers that chain's notes anyway, and the number is in each note's digest: every note of it after a gap in the
old count then fails its hash, and verify names an intact note as edited, not the one that was."""

from __future__ import annotations

import msgspec

from arbitro.adjudicator.verify import check_annotations
from arbitro.events.rows import numbered_per_chain

from .test_note_numbers import WRITTEN, per_game
from .test_store_contract import create
from arbitro.events.sqlite import SQLiteStore


def test_an_upgraded_damaged_chain_names_the_note_that_was_edited() -> None:
    events = create(SQLiteStore(":memory:"), "g1", events=3)
    notes = per_game("g1", events, WRITTEN)  # public notes hold old numbers 1, 4, 6
    edited = msgspec.structs.replace(notes[5], text="agreed, said nobody")  # the third public note, old number 6
    upgraded = numbered_per_chain([*notes[:5], edited])
    problem = check_annotations("g1", upgraded, {e.seq: e.hash for e in events})
    assert problem is not None
    assert "(by red on #3)" in problem.detail, f"verify blames another note: {problem.detail}"
