"""Caricat!'s numbered conformance cases (issue 19 point 17; docs/conformance/caricat.md): each a position file a
user can load (positions/case-NN.json), commands with the dice rolled and the outcome the rulebook prescribes, with
its citation."""
