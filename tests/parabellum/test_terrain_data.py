"""What a terrain does is the terrain effects table's (parabellum/data.TerrainTable), never its name in code: the
plain (caldiero §14.0, §20.2.1), the canal artillery crosses only at a bridge (caldiero §10.3, §10.4) and that
fights as a canal (§10.3.1, §10.4.2), the village and redoubt no order counts (arrivano §5.1.5) and where a rout
may stop (arrivano §15.2.2). Each answer is checked hex by hex against the shipped table, and again with the
table's entry changed, so that a name put back in code fails."""

from __future__ import annotations

import ast
import dataclasses
import json
from pathlib import Path

from arbitro.adjudicator.arrivano.retreats import stop_reason
from arbitro.adjudicator.arrivano.ruleset import ArrivanoRulesetImpl
from arbitro.adjudicator.arrivano.variant import ARRIVANO_VARIANT
from arbitro.adjudicator.caldiero.variant import CALDIERO_VARIANT
from arbitro.adjudicator.caldiero import ground
from arbitro.adjudicator.parabellum.data import TerrainTable
from arbitro.adjudicator.parabellum.world import World
from arbitro.adjudicator.ruleset import interpretation_in_force
from tests.caldiero.harness import RULESET, fresh

ROOT = Path(__file__).resolve().parents[2]
ADJUDICATOR = ROOT / "adjudicator"
TABLES = [ADJUDICATOR / "caldiero" / "data" / "tables" / "terrain.json", ADJUDICATOR / "arrivano" / "data" / "tables" / "terrain.json",
          ADJUDICATOR / "caldiero" / "data" / "tables" / "movement.json", ADJUDICATOR / "arrivano" / "data" / "tables" / "movement.json"]
"""The terrain effects tables and the movement tables (which name the roads, docs/hexmap-format.md)."""

# The names of the tables' entries still written in the games' code, each with why it stays.
STILL_NAMED = {
    ("caldiero/variant.py", "strada_minore"): "the minor road the minor_road_cost reading prices (movement.json)",
    ("caldiero/variant.py", "canale"): "the canal's modifier read from its entry (CaldieroVariant.assault_modifiers)",
    ("arrivano/data_model.py", "ridotta"): "a scenario's redoubt checked to stand on a redoubt hex of its map",
    ("arrivano/variant.py", "grano"): "wheat blocking sight by the wheat_blocks_los reading (line of sight)",
}


def _table_names() -> set[str]:
    names: set[str] = set()
    for path in TABLES:
        data = json.loads(path.read_text(encoding="utf-8"))
        for part in ("terrain", "hexsides", "hex_features", "roads"):
            names |= set(data.get(part, {}))
    return names


def test_no_rule_names_a_terrain_the_table_describes() -> None:
    names, found = _table_names(), set()
    for package in ("caldiero", "arrivano", "parabellum"):
        for path in sorted((ADJUDICATOR / package).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Constant) and node.value in names:
                    found.add((path.relative_to(ADJUDICATOR).as_posix(), node.value))
    assert found - set(STILL_NAMED) == set(), "a rule names a terrain: give the table a field saying what it does"
    assert set(STILL_NAMED) - found == set(), "a name left the code: take it out of STILL_NAMED"


def _caldiero(change: dict[str, dict[str, dict[str, object]]] | None = None) -> World:
    """Caldiero's set-up position read with the shipped terrain table, or with its entries changed."""
    data = RULESET.battle
    if change is not None:
        raw = data.terrain.model_dump()
        for part, entries in change.items():
            for name, fields in entries.items():
                raw[part][name].update(fields)
        tables = dataclasses.replace(data.tables, terrain=TerrainTable.model_validate(raw))
        data = dataclasses.replace(data, tables=tables)
    return World(fresh(), data, lambda name: RULESET.interpretations()[name].default, variant=CALDIERO_VARIANT)


def test_caldieros_plain_is_the_tables() -> None:
    """caldiero §14.0 "in Pianura", §20.2.1: the table's plain at level 0; a table with no plain has none."""
    w = _caldiero()
    hexes, terrain = w.hexmap.hexes(), w.hexmap.terrain
    plain = [h for h in hexes if ground.plain(w, h)]
    assert plain and all(terrain(h) == "pianura" and w.elevation(h) == 0 for h in plain)
    assert all(ground.plain(w, h) for h in hexes if terrain(h) == "pianura" and w.elevation(h) == 0)
    flat = _caldiero({"terrain": {"pianura": {"plain": False}, "collina": {"plain": True}}})
    assert {h for h in hexes if ground.plain(flat, h)} == {
        h for h in hexes if terrain(h) == "collina" and w.elevation(h) == 0}


def _hexsides(w: World) -> list[tuple[str, str]]:
    return sorted({tuple(sorted((h, n))) for h in w.hexmap.hexes() for n in w.grid.neighbours(h)})  # type: ignore[misc]


def test_caldieros_canals_and_bridges_are_the_tables() -> None:
    """caldiero §10.3: artillery crosses a canal only at a bridge (§10.4: where a road crosses it); §10.3.1, §10.4.2:
    the canal and the bridge fight as a canal. With the entries changed the answers follow the table."""
    w = _caldiero()
    sides = _hexsides(w)
    barred = [(a, b) for a, b in sides if ground.canal_without_bridge(w, a, b)]
    fights = [(a, b) for a, b in sides if ground.canal_for_combat(w, a, b)]
    assert barred and fights and set(barred) < set(fights)
    for a, b in sides:
        features = set(w.hexmap.hexside_features(a, b))
        assert ground.canal_for_combat(w, a, b) == bool({"canale", "ponte"} & features), (a, b)
        assert ground.canal_without_bridge(w, a, b) == (
            "canale" in features and "ponte" not in features and not w.hexmap.roads_between(a, b)), (a, b)
    open_canals = _caldiero({"hexsides": {"canale": {"artillery_needs_bridge": False, "assault_drm": 0}}})
    assert not any(ground.canal_without_bridge(open_canals, a, b) or ground.canal_for_combat(open_canals, a, b)
                   for a, b in sides)


def _campotenese(change: dict[str, dict[str, object]] | None = None) -> World:
    arrivano = ArrivanoRulesetImpl()
    scenario, tables = arrivano.data.scenarios["campotenese"], arrivano.data.tables
    if change is not None:
        raw = tables.terrain.model_dump()
        for name, fields in change.items():
            raw["terrain"][name].update(fields)
        scenario = dataclasses.replace(scenario, tables=dataclasses.replace(tables, terrain=TerrainTable.model_validate(raw)))
    state = arrivano.new_state("campotenese", ())
    return World(state, scenario, lambda name: interpretation_in_force(ArrivanoRulesetImpl(), state.interpretations, name), variant=ARRIVANO_VARIANT)


def test_arrivanos_rout_stops_and_order_counts_are_the_tables() -> None:
    """arrivano §15.2.2 "se in Villaggio, Ridotta" (a farm is not named), §5.1.5 "quelle in ridotta o villaggio"
    (a farm counted as a village, §10.1): every hex of Campotenese answers from its terrains' entries."""
    w = _campotenese()
    unit = sorted(w.state.units)[0]
    seen: dict[str, set[str]] = {}
    for h in w.grid.hexes():
        names = set(w.hexmap.hex(h).terrains)
        why = stop_reason(w, unit, h) if not w.leaders_at(h) else None
        expected = "village" if "villaggio" in names else "redoubt" if "ridotta" in names else None
        if not w.leaders_at(h):
            assert why == expected, h
        exempt = any(t.not_counted_for_orders for t in w.terrains(h))
        assert exempt == bool(names & {"villaggio", "cascina", "ridotta"}), h
        seen.setdefault(str(why), set()).update(names)
    assert "ridotta" in seen["redoubt"] and "villaggio" in seen["village"]
    changed = _campotenese({"bosco": {"rout_stop": "woods"}})
    woods = next(h for h in changed.grid.hexes() if changed.hexmap.hex(h).terrains == ("bosco",)
                 and not changed.leaders_at(h))
    assert stop_reason(changed, unit, woods) == "woods"
