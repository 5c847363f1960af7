"""A dispute committed before store schema 3 cites a note by its number in the game's one count and its hash then
(events.core.NoteEvidence); the upgrade numbers each chain 1, 2, 3 ... and hashes it again (docs/stores.md), so the
cited number may now be another note's. The report and the disputes listing name such a citation as the note's
pre-schema-3 number, never with the text of the note that holds that number now; a citation the upgrade left whole
keeps its text."""

from __future__ import annotations

from arbitro.adjudicator.admission import may_read, note_reference
from arbitro.adjudicator.cli_disputes import dispute_text
from arbitro.adjudicator.report import citing
from arbitro.adjudicator.report_phrases import NoteNames
from arbitro.events.rows import numbered_per_chain
from arbitro.events.sqlite import SQLiteStore
from arbitro.projections.disputes import Dispute, Message

from .test_note_numbers import per_game
from .test_store_contract import create

# public notes numbered 1, 3, 4 in the game's one count (red's private note is 2): 1, 2, 3 in their chain since
WRITTEN = [(1, "umpire", False, "the opening"), (2, "red", True, "red's plan"), (2, "blue", False, "a public answer"),
           (3, "red", False, "agreed")]


def test_a_citation_from_before_schema_3_is_named_by_its_old_number_not_as_the_note_that_now_holds_it() -> None:
    events = create(SQLiteStore(":memory:"), "g1", events=3)
    old = per_game("g1", events, WRITTEN)
    upgraded = numbered_per_chain(old)
    assert [(n.chain, n.id, n.text) for n in upgraded if n.chain == "public"] == [
        ("public", 1, "the opening"), ("public", 2, "a public answer"), ("public", 3, "agreed")]
    evidence = [note_reference(n) for n in old]  # public 1 (kept whole), red's private 2, public 3 (now 2), public 4
    opened = {"type": "dispute_opened", "dispute": 1, "by": "red", "about": [2], "text": "see", "private": True,
              "evidence": evidence}
    for reader, private_words in [("red", 'a private note cited under its pre-schema-3 number 2 (on #2, by red)'),
                                  ("umpire", 'a private note cited under its pre-schema-3 number 2 (on #2, by red)'),
                                  ("blue", "private note 2 (on #2, by red)")]:  # blue reads no private note of red's
        notes = [n for n in upgraded if may_read(n, reader)]
        named = citing([], notes, reader)(opened)
        listed = dispute_text([Dispute(number=1, status="open", about=[2], claim=Message(
            seq=4, by="red", text="see", private=True, evidence=evidence))], "g1", NoteNames(notes, reader))
        for shown in (named, [" ".join(listed.split())]):
            words = "; ".join(shown)
            assert 'note 1 (on #1, by umpire): "the opening"' in words  # its number and hash are unchanged
            assert private_words in words
            assert "a note cited under its pre-schema-3 number 3 (on #2, by blue)" in words
            assert "a note cited under its pre-schema-3 number 4 (on #3, by red)" in words
            assert "agreed" not in words and "a public answer" not in words, words  # no other note's text


def test_the_umpire_reads_every_private_chain_when_naming_a_cited_note() -> None:
    """Who reads a chain is admission.may_read's rule (projections.base.reads_chain), the umpire included: a private
    note of red's cited with a hash no note of its chain holds is named as a pre-schema-3 number to red and to the
    umpire, who read red's private chain, and only by its number to blue, who does not."""
    ref = {"kind": "note", "note": 1, "seq": 4, "by": "red", "private": True, "hash": "f" * 64}
    said = {reader: NoteNames([], reader)(ref) for reader in ("red", "umpire", "blue")}
    assert said["red"] == said["umpire"] and said["umpire"].startswith("a private note cited under its pre-schema-3")
    assert said["blue"] == "private note 1 (on #4, by red)"
