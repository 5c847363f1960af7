"""caldiero §11.4.5 "l'artiglieria può bombardare uno degli esagoni dove sono presenti unità attaccanti", with §10.2
"Le unità di artiglieria non possono bombardare in un esagono di palude": the defender is asked to fire only where a
ready gun of the assaulted hex may bombard an attacking hex (the kernel's assault_stages.fire_asked, since the
nineteenth session; Caldiero asked wherever a ready gun stood, and a question whose only answer is to hold fire is
none). Marsh 1905 next to 1906, south of the road: Massena's direction released (§19.1.2)."""

from __future__ import annotations

from arbitro.events import caldiero as ev
from arbitro.events import core
from tests.caldiero.harness import Table
from tests.caldiero.test_combat import attack, table

MARSH, DRY = "1905", "1906"


def assaulted(attacker_at: str, defender_at: str) -> Table:
    t = table({"fr-18-ligne": attacker_at}, {"au-mahoney-jager": defender_at, "au-brabeck-3pdr": defender_at},
              leaders={"massena": attacker_at})
    t.state.direction_released.append("massena")
    attack(t, ["fr-18-ligne"], [defender_at], dice=[1, 1])
    return t


def test_a_gun_that_may_not_bombard_the_attackers_marsh_is_not_asked() -> None:
    t = assaulted(MARSH, DRY)
    assert not [e for e in t.of(core.DecisionOpened) if e.frame.kind == "defensive_fire"]
    assert [e.result for e in t.of(ev.AssaultResolved)] == ["Ne"]  # on to the table at once


def test_the_same_gun_is_asked_where_it_may_bombard_them() -> None:
    t = assaulted(DRY, MARSH)
    assert t.awaited().kind == "defensive_fire" and not t.of(ev.AssaultResolved) and not t.rolls
