"""Caldiero's ground (caldiero/ground.py, the kernel World) against the rulebook on the shipped map (§9.3,
§10.3-§10.4), fixed from the map itself rather than asked of the code under test; the kernel World's `adjacent` on
hexes a malformed command can name (off the map, not neighbours); and the per-map answers keep no map alive."""

from __future__ import annotations

import copy
import sys
from types import SimpleNamespace

import pytest

from arbitro.adjudicator.caldiero import ground, map_rules
from arbitro.adjudicator.errors import IllegalCommand
from arbitro.adjudicator.parabellum.world import World
from tests.caldiero.harness import RULESET, position
from tests.caldiero.test_movement import moving


def _world() -> World:
    return RULESET.world(position({}))


def _canal_sides(w: World) -> list[tuple[str, str, tuple[str, ...]]]:
    out = []
    for a in w.hexmap.hexes():
        for b in w.grid.neighbours(a):
            if a < b and "canale" in w.hexmap.hexside_features(a, b):
                out.append((a, b, w.hexmap.hexside_features(a, b)))
    return out


def test_every_canal_hexside_is_crossed_by_guns_only_at_a_bridge_or_a_road() -> None:
    """§10.3 "solo se è presente un ponte"; §10.4 "I ponti sono presenti dove una strada o strada minore attraversa
    un lato di esagono di canale": a drawn bridge or a road over the hexside lets guns across, nothing else."""
    w = _world()
    sides = _canal_sides(w)
    assert len(sides) == 40
    for a, b, features in sides:
        bridged = "ponte" in features or bool(w.hexmap.roads_between(a, b))
        assert ground.canal_without_bridge(w, a, b) is (not bridged), (a, b)
        assert ground.canal_without_bridge(w, b, a) is (not bridged), (b, a)
        assert ground.canal_for_combat(w, a, b) and ground.canal_for_combat(w, b, a)  # §10.3.1, §10.4.2
    assert any(not ground.canal_without_bridge(w, a, b) for a, b, _ in sides)  # the map has bridges


def test_no_ground_answer_for_hexes_that_share_no_hexside() -> None:
    w = _world()
    assert not w.adjacent("1017", "0917") and not w.grid.contains("0917")  # one step off the map's west edge
    assert w.grid.is_adjacent("1017", "0917")  # the bare grid would call them neighbours
    for a, b in (("1017", "0917"), ("1417", "1419"), ("1417", "1417"), ("1417", "")):
        assert w.hexside_effects(a, b) == [] and not w.crossing_prohibited(a, b)
        assert not ground.road(w, a, b) and not ground.canal_without_bridge(w, a, b) and not ground.canal_for_combat(w, a, b)
    assert not ground.plain(w, "0917")


def test_a_gun_cannot_jump_a_canal_by_a_path_of_non_neighbours() -> None:
    """A malformed path (two hexes either side of a canal, not neighbours) finds no canal between them; the move
    must still be refused, for the step that is no step."""
    w = _world()
    a, b, _ = next((a, b, f) for a, b, f in _canal_sides(w) if ground.canal_without_bridge(w, a, b))
    beyond = next(n for n in w.grid.neighbours(b) if w.grid.distance(a, n) == 2 and n != a)
    t = moving({"fr-massena-iv-8pdr": a, "au-colloredo": "2717"})
    with pytest.raises(IllegalCommand) as e:
        t.send("france", {"type": "move", "units": ["fr-massena-iv-8pdr"], "to": beyond, "path": [beyond]})
    assert "not adjacent" in str(e.value), e.value


def test_a_path_through_a_hex_off_the_map_is_refused() -> None:
    t = moving({"fr-18-ligne": "1017", "au-colloredo": "2717"})
    with pytest.raises(IllegalCommand) as e:
        t.send("france", {"type": "move", "units": ["fr-18-ligne"], "to": "1018", "path": ["0917", "1018"]})
    assert "0917 is not on the map" in str(e.value), e.value


def test_the_road_rows_keep_no_map_alive_for_the_whole_process() -> None:
    """A direction's road's rows (caldiero §19.1) are kept per map in a size-capped memo (memo.Memo): a
    dict that never forgot kept every data folder a long-running server played in memory."""
    first = copy.copy(RULESET.battle.map)
    held = sys.getrefcount(first)
    road = ("1014", "2714")
    map_rules.north_south_of_road(SimpleNamespace(hexmap=first), road, "1413")  # type: ignore[arg-type]
    for _ in range(200):  # other games' maps since
        map_rules.north_south_of_road(SimpleNamespace(hexmap=copy.copy(RULESET.battle.map)), road, "1413")  # type: ignore[arg-type]
    assert sys.getrefcount(first) == held, "the first map is still held by the road rows' cache"
