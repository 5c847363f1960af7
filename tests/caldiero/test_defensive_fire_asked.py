"""caldiero §11.4.5 "l'artiglieria può bombardare uno degli esagoni dove sono presenti unità attaccanti", with §10.2
"Le unità di artiglieria non possono bombardare in un esagono di palude": the defender is asked to fire only where a
ready gun of the assaulted hex may bombard an attacking hex (the kernel's assault_stages.fire_asked, since the
nineteenth session; Caldiero asked wherever a ready gun stood, and a question whose only answer is to hold fire is
none). Marsh 1905 next to 1906, south of the road: Massena's direction released (§19.1.2)."""

from __future__ import annotations

from arbitro.events import caldiero as ev
from arbitro.events import core
from arbitro.events.parabellum import DefensiveFireAwaited
from tests.caldiero.harness import Table
from tests.caldiero.test_combat import ATT, DEF, attack, table

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


def test_a_gun_on_its_moved_side_is_not_in_the_battery_nor_asked_again() -> None:
    """§11.4.5 with the kernel's bombardment.ready: a gun on its Moved side may not fire. From f4042e6c it stood in
    the frame's battery, so once the ready gun had fired the defender was asked again, holding fire the only answer
    (a question that is none); before f4042e6c Caldiero left it out, as now."""
    t = table({"fr-18-ligne": ATT}, {"au-mahoney-jager": DEF, "au-brabeck-3pdr": DEF, "au-sticker-3pdr": DEF})
    t.state.units["au-sticker-3pdr"].art_moved = True
    attack(t, ["fr-18-ligne"], [DEF], dice=[])
    assert t.awaited().ctx == DefensiveFireAwaited(battery=("au-brabeck-3pdr",))
    t.send("austria", {"type": "defensive_fire", "artillery": "au-brabeck-3pdr", "target": ATT}, dice=[1] * 6)
    assert len([e for e in t.of(core.DecisionOpened) if e.frame.kind == "defensive_fire"]) == 1
    assert t.awaited().kind == "ne_choice"  # on to the table


def test_the_guns_left_are_not_asked_again_once_no_attacker_is_left_to_fire_at() -> None:
    """§11.4.5 "può bombardare uno degli esagoni dove sono presenti unità attaccanti", asked again after a fire as when
    first asked (the kernel's fire_asked): the fire disordered the only attacker (§15.1, out of the assault), so the
    other gun has nothing to bombard and is not asked; till the twentieth session it was, holding fire its only answer."""
    t = table({"fr-18-ligne": ATT}, {"au-mahoney-jager": DEF, "au-brabeck-3pdr": DEF, "au-sticker-3pdr": DEF})
    attack(t, ["fr-18-ligne"], [DEF], dice=[])
    assert t.awaited().ctx == DefensiveFireAwaited(battery=("au-brabeck-3pdr", "au-sticker-3pdr"))
    t.send("austria", {"type": "defensive_fire", "artillery": "au-brabeck-3pdr", "target": ATT}, dice=[3] * 6)
    assert t.unit("fr-18-ligne").status == "disordered" and t.of(ev.AttackersWithdrawn)
    assert len([e for e in t.of(core.DecisionOpened) if e.frame.kind == "defensive_fire"]) == 1
    assert t.awaited() is None or t.awaited().kind != "defensive_fire"
