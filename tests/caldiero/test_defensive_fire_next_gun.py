"""The defensive fire frame carries only its guns; its answers are read at the hexes where the attackers of the
assault below now stand (parabellum/bombardment.defensive_fire_answers on World.assault: no copy of their hexes to go
stale). When one gun's fire takes attackers out of the assault (caldiero §11.4.5, §15.1: disordered attackers are
withdrawn), the next gun is asked again with the hexes of the attackers still in it: a hex whose attackers all left
the assault is not offered. Computing the next frame before the withdrawal passed every other fire test (rev-c's
review of 5bab30a)."""

from __future__ import annotations

from arbitro.events.parabellum import DefensiveFireAwaited

from tests.caldiero.test_combat import ATT, DEF, attack, table

OTHER = "1518"  # next to DEF too: the second attacking hex


def test_the_next_gun_is_offered_only_hexes_still_attacking() -> None:
    t = table({"fr-18-ligne": ATT, "fr-32-ligne": OTHER},
              {"au-mahoney-jager": DEF, "au-brabeck-3pdr": DEF, "au-sticker-3pdr": DEF})
    attack(t, ["fr-18-ligne", "fr-32-ligne"], [DEF], dice=[])
    assert t.awaited().kind == "defensive_fire"
    assert {o["target"] for o in t.legal("austria") if o["type"] == "defensive_fire"} == {ATT, OTHER}
    t.send("austria", {"type": "defensive_fire", "artillery": "au-brabeck-3pdr", "target": ATT}, dice=[6] * 6)
    assert t.unit("fr-18-ligne").status != "good", "the first gun's fire took the attacker in ATT out"
    if t.awaited() is not None and t.awaited().kind == "retreat":  # its retreat comes first (caldiero §11.4.4)
        t.send("france", t.legal("france")[0])
    assert t.awaited() is not None and t.awaited().kind == "defensive_fire", "the second gun is asked"
    assert t.awaited().ctx == DefensiveFireAwaited(battery=("au-sticker-3pdr",))
    targets = {o["target"] for o in t.legal("austria") if o["type"] == "defensive_fire" and o.get("target")}
    assert targets == {OTHER}
