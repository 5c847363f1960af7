"""What the position's "anything left?" asks after every command (issue 15: 28-31 % of a Caldiero verify) and what the
fog and the guns ask of it, asked once: the weather of an enemy's zones of control once per side and position, not per
unit (parabellum/zoc.enemy_zoc); a gun's targets among the enemy's hexes by their distance, no disc of its range
worked out (parabellum/bombardment.targets); a Caldiero group's march column asked only when its line moves found
nothing (caldiero/legal._first_movement). Each answers as before, on real positions of the shipped logs."""

from __future__ import annotations

from typing import Any

import pytest

from arbitro.adjudicator.caldiero import legal
from arbitro.adjudicator.maps.hexgrid import Grid
from arbitro.adjudicator.parabellum import bombardment, sight
from arbitro.adjudicator.parabellum import zoc as Z
from arbitro.adjudicator.parabellum.world import World
from tests.parabellum.log_positions import log_worlds

LOGS = ("caldiero-tempo-regge.jsonl", "arrivano-montebello.jsonl")


@pytest.mark.parametrize("log", LOGS)
def test_an_enemy_zoc_asks_the_weather_once_and_is_every_exerting_unit_s(log: str, monkeypatch: pytest.MonkeyPatch) -> None:
    asked = []
    in_force = World.zocs_in_force
    monkeypatch.setattr(World, "zocs_in_force", lambda w: asked.append(w) or in_force(w))
    for _, w in log_worlds(log, 40):
        for side in w.sides:
            asked.clear()
            found = Z.enemy_zoc(w, side)
            assert len(asked) <= 1, "the weather asked per unit"
            sources = {w.hex_of(u) or "" for u in w.units_of(w.enemy(side)) if Z.exerts_zoc(w, u)}
            assert found == Z.zoc_hexes(w.grid, sources, w.no_zoc_into)


def _targets_by_disc(variant: Any, w: World, guns: list[str]) -> list[str]:
    """bombardment.targets as it read the guns' reach before: the enemy's hexes in the disc of their range."""
    origin, side = w.hex_of(guns[0]), w.side_of(guns[0])
    if not w.artillery_fires() or origin is None:
        return []
    reach = min(bombardment.fire_range(w, u) for u in guns)
    held = w.hexes_held(w.enemy(side)).intersection(w.grid.within(origin, reach))
    return [h for h in sorted(held) if h != origin and not w.no_fire_into(h)
            and (variant.bombard_artillery_alone or any(w.arm(u) != "artillery" for u in w.units_at(h)
                                                        if w.side_of(u) != side))
            and sight.sees(w, origin, h, reach)]


@pytest.mark.parametrize("log", LOGS)
def test_a_gun_s_targets_are_found_without_a_disc_of_its_range(log: str, monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[tuple[str, int]] = []
    within = Grid.within
    monkeypatch.setattr(Grid, "within", lambda grid, h, r: asked.append((h, r)) or within(grid, h, r))
    found = 0
    for _, w in log_worlds(log, 25):
        variant = w.variant
        for gun in [u for u in w.on_map_units() if w.is_artillery(u)]:
            asked.clear()
            targets = bombardment.targets(variant, w, [gun])  # type: ignore[arg-type]
            assert not asked, "a disc of the gun's range was worked out"
            assert targets == _targets_by_disc(variant, w, [gun])
            found += len(targets)
    assert found, "some gun had a target"


def test_a_group_s_march_column_is_asked_only_when_its_line_moves_found_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    asked = []
    may_march = legal._may_march
    monkeypatch.setattr(legal, "_may_march", lambda w, g: asked.append(g) or may_march(w, g))
    line_moves = 0
    for _, w in log_worlds("caldiero-tempo-regge.jsonl", 3):
        state = w.state
        if state.step != "movement" or state.activation is None or not state.seat:
            continue
        asked.clear()
        first = next(iter(legal._first_movement(w, state.seat)), None)
        if first is not None and first["type"] == "move" and not first["column"]:
            line_moves += 1
            assert tuple(first["units"]) not in asked, f"{first['units']}' march column asked before its line move"
    assert line_moves > 10
