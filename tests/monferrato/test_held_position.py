"""A position held unchanged (monferrato/common.unchanged, issue 15) answers as the position searched afresh:
who is in a zone, whether it holds the enemy, the supply lines; and a state changed or another state is never
answered from the held one."""

from __future__ import annotations

from arbitro.adjudicator.monferrato import supply
from arbitro.adjudicator.monferrato.common import data, enemy_combat_in, enemy_in, unchanged, units_in
from tests.monferrato.harness import state


def test_a_held_position_answers_as_the_searched_one() -> None:
    s = state()
    zones = sorted(data().zones)
    seats = ("pro_spain", "pro_france")
    searched = [(units_in(s, z), [enemy_in(s, z, x) for x in seats], [enemy_combat_in(s, z, x) for x in seats])
                for z in zones]
    lines = {u: supply.supplied(s, u) for u in sorted(s.units) if s.units[u].zone in data().zones}
    with unchanged(s):
        held = [(units_in(s, z), [enemy_in(s, z, x) for x in seats], [enemy_combat_in(s, z, x) for x in seats])
                for z in zones]
        assert {u: supply.supplied(s, u) for u in lines} == lines
    assert held == searched


def test_only_the_held_state_is_answered_from_it() -> None:
    s, other = state(), state()
    unit = next(u for u in sorted(s.units) if s.units[u].zone in data().zones)
    zone = s.units[unit].zone
    with unchanged(s):
        other.units[unit].zone = "nowhere"  # a different state object: searched afresh
        assert unit not in units_in(other, zone)
        assert unit in units_in(s, zone)
    s.units[unit].zone = "nowhere"  # no longer held: the change is seen
    assert unit not in units_in(s, zone)
