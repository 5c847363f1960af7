"""What a retreat's own stack decides, for both variants (parabellum/retreat_ground): whether enemy ZoC counts
(`lines` with `ignore_ezoc` None: §8.1.1 in both, "Le unità in Rotta ignorano le EZoC", whatever made the stack
retreat: a Dr, a bombardment, a fire, a rout), and whether a retreat's end is an arrival next to routed enemies
(`arrived` under `rout_trigger` any_arrival, §15.2 in both: only an end on the map is)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from arbitro.adjudicator.parabellum import retreat_ground
from arbitro.adjudicator.parabellum.retreat import Line
from arbitro.adjudicator.parabellum.variant import Variant
from arbitro.adjudicator.parabellum.zoc import enemy_zoc
from tests.parabellum.position import Piece
from tests.parabellum.test_before_combat import Ground

START = "1610"
ENEMIES = ("1609", "1612")  # both next to START: their ZoC covers 1509, 1611, 1709, 1711 of its neighbours


def stack(*statuses: str) -> Ground:
    """Austrian units a0, a1... with `statuses` stacked at START, French units at ENEMIES."""
    units = {f"a{i}": Piece("austria", START, status=s) for i, s in enumerate(statuses)}
    return Ground(units=units | {f"fr{i}": Piece("france", h) for i, h in enumerate(ENEMIES)})


def test_a_stack_all_routed_ignores_enemy_zoc_whatever_made_it_retreat(variant: Variant) -> None:
    """§8.1.1 in both: with no `ignore_ezoc` given, a stack whose units are all routed retreats as if no enemy ZoC
    were there: lines through hexes the ZoC covers, none of them marked for §12.6.1's extra level; counting the ZoC
    (a stack not all routed) the lines keep out of it where they can."""
    w = stack("routed", "routed")
    ezoc = enemy_zoc(w, "austria")
    found = retreat_ground.lines(variant, w, ["a0", "a1"], 2)
    assert found == retreat_ground.lines(variant, w, ["a0", "a1"], 2, ignore_ezoc=True)
    assert any(set(ln.path) & ezoc for ln in found) and not any(ln.through_ezoc for ln in found)
    counted = retreat_ground.lines(variant, w, ["a0", "a1"], 2, ignore_ezoc=False)
    assert counted and counted != found and not any(set(ln.path) & ezoc for ln in counted)


@dataclass
class Spy:
    """A variant's reading of §12.6 that records the ground it is handed."""

    grounds: list[Any] = field(default_factory=list)

    def retreat_lines(self, ground: Any, hexes: int, reading: Any) -> list[Line]:
        self.grounds.append(ground)
        return []


def test_a_stack_not_all_routed_counts_enemy_zoc_for_every_unit() -> None:
    """The kernel's reading where §8.1.1 is silent (a routed unit stacked with one not routed, §7.1.1 aside: after a
    result that routs one of them): the stack retreats together, so the enemy ZoC counts for all of it, the routed
    unit too. All routed: none counts."""
    spy = Spy()
    for statuses in (("routed", "good"), ("disordered", "routed"), ("routed", "routed")):
        retreat_ground.lines(spy, stack(*statuses), ["a0", "a1"], 2)  # type: ignore[arg-type]
    mixed, other_mixed, routed = (g.ezoc for g in spy.grounds)
    assert mixed == other_mixed == enemy_zoc(stack("good"), "austria") and mixed
    assert routed == frozenset()


@dataclass
class Arriving:
    """A game whose rout tests are recorded (standing in for parabellum/act.Act), on a World where an Austrian unit stays at the
    retreat's end hex next to a routed French unit."""

    w: Ground
    tests: list[str] = field(default_factory=list)

    def world(self) -> Ground:
        return self.w

    def rout_test(self, h: str, units: list[str]) -> dict[str, bool]:
        self.tests.append(h)
        return {u: True for u in units}

    def rout_retreat(self, units: list[str]) -> None:
        pass

    def emit(self, event: Any) -> None:
        pass


def test_a_retreat_off_the_map_is_no_arrival_next_to_a_routed_enemy(variant: Variant) -> None:
    """§15.2 under `rout_trigger` any_arrival: a line ending on the map makes the routed enemy next to its end test;
    one leaving the map (§12.8.1) arrives nowhere, even where a unit of its side stays in the edge hex it left
    through (`Line.to`), next to a routed enemy."""
    edge = "1001"
    units = {"stays": Piece("austria", edge), "fr": Piece("france", "1002", status="routed")}
    w = Ground(units=units, readings={retreat_ground.ROUT_TRIGGER: "any_arrival"})
    game = Arriving(w)
    retreat_ground.arrived(game, variant, Line(path=(), to=edge, off_map=True))  # type: ignore[arg-type]
    assert game.tests == []
    retreat_ground.arrived(game, variant, Line(path=(edge,), to=edge))  # type: ignore[arg-type]
    assert game.tests == ["1002"]
    w.readings[retreat_ground.ROUT_TRIGGER] = "end_of_move"
    retreat_ground.arrived(game, variant, Line(path=(edge,), to=edge))  # type: ignore[arg-type]
    assert game.tests == ["1002"]
