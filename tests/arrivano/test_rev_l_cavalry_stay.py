"""rev-l L1 (fifteenth session): the cavalry's stay before combat (arrivano §14.1), `{"type": "cavalry_retreat",
"to": null}`, was accepted up to 0466fc4a (its units defaulting to null, the listed stay) and is now malformed
("cavalry_retreat.units: Field required"): the schema's old promise held for the stay, whatever it did for a hex."""

from __future__ import annotations

from tests.arrivano.test_retreats import E, assaulted, at_edge


def test_the_cavalry_may_stay_without_naming_units() -> None:
    t = assaulted({"bussy": E}, at_edge(free=True), {"off_map_retreat": "farthest"})
    assert t.pending().kind == "cavalry_retreat"
    t.send("austria", {"type": "cavalry_retreat", "to": None})
    assert t.pending() is None or t.pending().kind != "cavalry_retreat"
