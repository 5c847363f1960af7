"""A combat unit's moves written once (parabellum/unit_moves.py): a Caldiero group and an Arrivano unit (a group of
one) are searched by the kernel's `moves`, each hex's move read on demand from the kept search (`Move`)."""

from __future__ import annotations

import pytest

from arbitro.adjudicator.arrivano import movement as arrivano_moves
from arbitro.adjudicator.arrivano.rules import CT_WEATHER
from arbitro.adjudicator.arrivano.variant import ARRIVANO_VARIANT
from arbitro.adjudicator.arrivano.world import in_command
from arbitro.adjudicator.caldiero import legal as caldiero_legal
from arbitro.adjudicator.caldiero import system_movement, system_moves
from arbitro.adjudicator.maps.hexgrid import HexId
from arbitro.adjudicator.maps.movement import MoveRules
from arbitro.adjudicator.parabellum import movement
from arbitro.adjudicator.parabellum.unit_moves import Move
from arbitro.adjudicator.parabellum.variant import Variant
from tests.arrivano import harness as arrivano
from tests.parabellum.test_move_search_parts import movement_positions
from tests.parabellum.test_movement import MAP, TABLE


def two_half_points(a: str, b: str) -> int:  # the plain map's step: clear, 1 MP
    return 2


def test_a_move_is_read_from_its_search_as_its_event_records_it(variant: Variant) -> None:
    """§9.1.1 in both: one hex is always possible; the minimum move's record is its one step's cost, beyond the
    allowance (the search prices it at the allowance). §15.4: a move onto the map starts with its entry hex and
    spends the entry hex's cost first (`spent`)."""
    short = movement.reach(variant, MAP, TABLE, "0303", MoveRules(unit_class="unit", budget=1))
    one = Move(short, HexId("0304"), 0, True, two_half_points)
    assert short.costs["0304"] == 1 and one.path == ("0304",) and one.cost_half == 2
    longer = movement.reach(variant, MAP, TABLE, "0303", MoveRules(unit_class="unit", budget=6, minimum_move=False))
    entering = Move(longer, HexId("0305"), 3, False, two_half_points)
    assert entering.path == ("0303", "0304", "0305") and entering.cost_half == 3 + 4
    staying = Move(longer, HexId("0303"), 3, False, two_half_points)
    assert staying.path == ("0303",) and staying.cost_half == 3
    from_map = Move(longer, HexId("0305"), 0, True, two_half_points)
    assert from_map.path == ("0304", "0305") and from_map.cost_half == 4


def waiting_at(entry: str, units: dict[str, str]) -> dict[str, tuple[str, ...]]:
    """The destinations of the 28e II, waiting at `entry` (arrivano §15.4), with `units` on the map."""
    state = arrivano.position(units, orders={"L": "manoeuvre"}, turn=3)
    state.units["28e-ii"].where, state.units["28e-ii"].hex = "waiting", entry
    t = arrivano.at_step(state, "L", "movement")
    w = arrivano.world(t.state)
    return arrivano_moves.destinations(w, "28e-ii", False, set(in_command(w, "L")))


def test_a_unit_entering_the_map_may_stay_on_its_entry_hex_unless_the_enemy_holds_it() -> None:
    """§15.4 in both (the entry hex is the move's, paid for) and §9.1.2 (never into a hex enemy units hold): the kernel
    lists the entry hex itself, walked alone, for a unit entering the map, but not where an enemy unit stands."""
    entry = "1110"
    free = waiting_at(entry, {})
    assert free[entry] == (entry,) and len(free) > 1
    held = waiting_at(entry, {"ir18-i": entry})
    assert entry not in held


def test_a_searched_move_is_the_path_given_at_the_cost_its_steps_cost() -> None:
    """Every move the kernel lists for a Caldiero group, the path it records given back as the player's own path
    (caldiero §9.1, `check_path`), is accepted at the cost the move records: what its steps cost (§9.2, §9.3.1, the
    entry hex first, §15.4), the minimum move its one step's (§9.1.1), whichever of §17.1.1's searches found it."""
    compared = 0
    for log in ("caldiero-tempo-regge.jsonl", "caldiero-full.jsonl"):
        ruleset, positions = movement_positions(log, 8)
        for rules in positions:
            w = ruleset.world(rules)
            for units in caldiero_legal._mover_groups(w, rules.seat):
                for column in (False, True):
                    for order, move in system_moves.move_options(w, units, column).values():
                        given = system_movement.check_path(w, system_movement.make_group(w, units, order, column),
                                                           tuple(move.path))
                        assert isinstance(given, system_movement.Route), (units, move.path, given)
                        assert given.cost_half == move.cost_half, (units, order, move.path)
                        compared += 1
    assert compared > 500


def test_a_charge_is_the_unit_s_own_move_with_its_limits(monkeypatch: pytest.MonkeyPatch) -> None:
    """A charge is a move (arrivano §14.2) through charge terrain only: the unit's own search with the charge's step
    veto added, so the limits of its move hold for it too: in a storm one hex at most (§17.2.7, here the hook forced
    on Montebello, whose charges run far: 12e Hussards at 3703 on Bach in 3708, test_fog_charge_beside)."""
    state = arrivano.position({"12e-hussards": "3703", "bach": "3708"}, leaders={"lannes": "3703"},
                              orders={"L": "attack", "R": "defence"})
    w = arrivano.world(arrivano.at_step(state, "L", "movement").state)
    ic = set(in_command(w, "L"))
    assert any(len(path) > 2 for path, _ in arrivano_moves.charges(w, "12e-hussards", ic).values())
    monkeypatch.setattr(type(ARRIVANO_VARIANT), "weather_one_hex", lambda self, world: CT_WEATHER)
    w = arrivano.world(arrivano.at_step(state, "L", "movement").state)
    assert all(len(path) <= 2 for path, _ in arrivano_moves.charges(w, "12e-hussards", ic).values())
