"""Leaving the map (monferrato §6, "Tutte le unità che escono dalla mappa, volontariamente o meno, sono eliminate"):
from a zone on the map's edge (map.json `edges`, a provisional reconstruction) a move's last step may be `off_map`,
one movement point as entering a zone; a defeated force in an edge zone may retreat off the map. Either way the units
that leave are eliminated, citing monferrato §6."""

from __future__ import annotations

import json
from typing import Any

import pytest

from arbitro.adjudicator.datafiles import DataError
from arbitro.adjudicator.monferrato.common import OFF_MAP
from arbitro.adjudicator.monferrato.data import FILES, build, load
from tests.monferrato.harness import Game, from_state, state

D = load()


def of(events: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [e for e in events if e["type"] == kind]


def spanish_at(zone: str, transcribed: bool = False, **placed: str) -> Game:
    g = from_state(state(placed=placed), transcribed=transcribed)
    g.send("pro_spain", type="activate", zones=[zone], commander=None)
    return g


def test_the_edge_zones_are_data_marked_provisional_and_the_program_says_so() -> None:
    assert D.on_edge("tortona") and D.on_edge("valtellina") and not D.on_edge("valenza") and not D.on_edge("casale")
    assert D.map.edges is not None and D.map.edges.provisional
    assert any("edge zones" in item for item in D.provisional_items())


def test_units_leave_the_map_from_an_edge_zone_and_are_eliminated() -> None:
    g = spanish_at("alessandria")
    move = {"type": "move", "units": ["spa_inf1"], "path": ["tortona", OFF_MAP]}
    assert move in g.legal("pro_spain")
    events = g.send("pro_spain", **move)
    assert of(events, "units_moved")[0]["path"] in (["tortona"], ("tortona",))
    gone = of(events, "eliminated")[0]
    assert list(gone["units"]) == ["spa_inf1"] and gone["rule"] == "monferrato §6" and "left the map" in gone["reason"]
    assert g.state.units["spa_inf1"].zone == "eliminated"


def test_leaving_the_map_is_refused_off_the_edge_mid_path_and_beyond_the_allowance() -> None:
    g = spanish_at("alessandria")
    g.reject("pro_spain", "monferrato §6", "not on the map's edge", type="move", units=["spa_inf1"],
             path=["valenza", OFF_MAP])
    g.reject("pro_spain", "monferrato §6", "last step", type="move", units=["spa_inf1"], path=[OFF_MAP, "tortona"])
    g.reject("pro_spain", "monferrato §6", "costs 4", type="move", units=["spa_inf1"],
             path=["tortona", "pavia", "lodi", OFF_MAP])
    g.reject("pro_spain", "monferrato §11", "does not leave", type="raid", units=["spa_inf1"], path=["tortona", OFF_MAP])
    exits = [o for o in g.legal("pro_spain") if o["type"] == "move" and o["path"][-1] == OFF_MAP]
    assert exits and all(D.on_edge(o["path"][-2]) for o in exits if len(o["path"]) > 1)
    listed = [o["path"] for o in exits if o["units"] == ["spa_inf1"]]
    assert ["tortona", OFF_MAP] in listed and ["tortona", "pavia", OFF_MAP] in listed
    for path in listed[:3]:  # listed exactly: each is accepted (a fresh position each time)
        spanish_at("alessandria").send("pro_spain", type="move", units=["spa_inf1"], path=path)


def test_units_leave_the_map_straight_from_an_edge_zone_as_their_one_action() -> None:
    g = spanish_at("tortona", spa_inf1="tortona")
    events = g.send("pro_spain", type="move", units=["spa_inf1"], path=[OFF_MAP])
    assert [e["type"] for e in events] == ["units_acted", "eliminated"] and g.state.activation.acted
    g.reject("pro_spain", "monferrato §5", "", type="draw_chit")


def test_raiders_going_on_may_leave_the_map_and_go_on_no_more() -> None:
    g = spanish_at("acqui", transcribed=True, spa_inf1="acqui", spa_inf2="acqui")
    g.send("pro_spain", type="raid", units=["spa_inf1", "spa_inf2"], path=[])
    g.enter(5)  # neither a one nor a six, and over two raiders: no effect; they may go on (§11)
    assert {"type": "move", "units": ["spa_inf1", "spa_inf2"], "path": [OFF_MAP]} in g.legal("pro_spain")
    g.send("pro_spain", type="move", units=["spa_inf1", "spa_inf2"], path=[OFF_MAP])
    assert not any(g.state.units[u].raiding for u in ("spa_inf1", "spa_inf2"))
    assert not [o for o in g.legal("pro_spain") if o["type"] in ("move", "raid")]


def test_units_left_behind_stay_on_the_map() -> None:
    g = spanish_at("alessandria")
    g.send("pro_spain", type="move", units=["spa_inf1", "spa_inf2"], path=["tortona", OFF_MAP], leave={"spa_inf2": "tortona"})
    assert g.state.units["spa_inf2"].zone == "tortona" and g.state.units["spa_inf1"].zone == "eliminated"


def test_a_defeated_force_in_an_edge_zone_may_retreat_off_the_map_and_is_eliminated() -> None:
    g = spanish_at("alessandria", transcribed=True, gon_inf2="tortona")
    g.send("pro_spain", type="move", units=["spa_inf1", "spa_inf2"], path=["tortona"])
    g.send("pro_france", type="respond", chit=None)
    g.enter(1, 6)  # Spanish fire 3 and 2: one hit
    g.enter(6)  # Gonzaga misses
    assert g.awaited == "retreat"
    options = [o["to"] for o in g.legal("pro_france")]
    assert OFF_MAP in options and "pavia" in options and "alessandria" not in options  # the enemy holds Alessandria
    events = g.send("pro_france", type="retreat", to=OFF_MAP)
    gone = of(events, "eliminated")[0]
    assert list(gone["units"]) == ["gon_inf2"] and gone["rule"] == "monferrato §6" and "off the map" in gone["reason"]


def test_attackers_retreat_whence_they_came_never_off_the_map() -> None:
    """§7.5: attackers go back to the zone they came from, an edge zone of the map or not."""
    g = spanish_at("tortona", transcribed=True, spa_inf1="tortona", gon_inf2="pavia")
    g.send("pro_spain", type="move", units=["spa_inf1"], path=["pavia"])
    g.send("pro_france", type="respond", chit=None)
    g.enter(6)  # the Spanish miss
    events = g.enter(1)  # Gonzaga hits: the attacker lost, and retreats whence it came with no choice to make
    assert of(events, "retreated")[0]["to"] == "tortona" and g.state.units["spa_inf1"].zone == "tortona"
    assert g.awaited != "retreat" and not of(events, "eliminated")


def test_an_edge_zone_the_map_does_not_have_is_a_data_problem() -> None:
    texts = {path.name: path.read_text(encoding="utf-8") for path in FILES}
    broken = json.loads(texts["map.json"])
    broken["edges"]["zones"].append("atlantide")
    with pytest.raises(DataError) as exc:
        build({**texts, "map.json": json.dumps(broken)})
    assert [(p.path, p.problem) for p in exc.value.problems] == [("$.edges.zones[20]", "unknown zone 'atlantide'")]
