"""Caches of answers worked out from the data are keyed by the data's content, never by a scenario's name (issue 19
point 15): two loads of different data in one process never share an answer."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from arbitro.adjudicator.arrivano.data_model import ARRIVANO_DATA
from arbitro.adjudicator.parabellum.loader import GameData as ArrivanoData
from arbitro.adjudicator.arrivano.ruleset import ArrivanoRulesetImpl
from arbitro.adjudicator.arrivano.variant import ARRIVANO_VARIANT
from arbitro.adjudicator.parabellum.world import World
from arbitro.adjudicator.ruleset import interpretation_in_force


def _world(data: ArrivanoData) -> World:
    state = ArrivanoRulesetImpl().new_state("montebello", ())
    return World(state, data.scenarios["montebello"], lambda name: interpretation_in_force(ArrivanoRulesetImpl(), state.interpretations, name), variant=ARRIVANO_VARIANT)


def _clear_terrain(tmp_path: Path) -> Path:
    """A copy of the data in which no terrain blocks a line of sight (tables/terrain.json)."""
    copy = tmp_path / "data"
    shutil.copytree(ARRIVANO_DATA.folder, copy)
    terrain = copy / "tables" / "terrain.json"
    doc = json.loads(terrain.read_text(encoding="utf-8"))
    for effect in doc["terrain"].values():
        effect["blocks_los"] = False
    terrain.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    return copy


def test_line_of_sight_answers_follow_the_data_not_the_scenario_name(tmp_path: Path) -> None:
    """arrivano §11.3.1 over a terrain table in which woods and villages block: a line blocked by such terrain
    (and not by height) is blocked; then, in the same process, the same scenario name over a table in which nothing
    blocks: the same line is clear. Keyed by the scenario's name, the second answer was the first one's."""
    shipped, changed = ARRIVANO_DATA.load(), ARRIVANO_DATA.load(_clear_terrain(tmp_path))
    assert shipped.scenarios["montebello"].digest != changed.scenarios["montebello"].digest
    blocked, clear = _world(shipped), _world(changed)
    hexes = sorted(shipped.scenarios["montebello"].map.hexes())[::7]
    pairs = [(a, b) for a in hexes[:40] for b in hexes if a < b and 2 <= blocked.grid.distance(a, b) <= 4]
    shut = [(a, b) for a, b in pairs if not blocked.clear_line(a, b)]
    assert shut, "the shipped map has lines blocked (by terrain or height)"
    opened = [(a, b) for a, b in shut if clear.clear_line(a, b)]
    assert opened, "without blocking terrain some of those lines are clear (a stale cache answers as before)"
    a, b = opened[0]
    assert not _world(shipped).clear_line(a, b) and _world(changed).clear_line(a, b)


def test_one_content_one_digest() -> None:
    """Two loads of the same files share their digest (and so their cached answers)."""
    assert ARRIVANO_DATA.load().scenarios["montebello"].digest == ARRIVANO_DATA.shipped().scenarios["montebello"].digest
