"""marengo §4-§6 data: the reconstructed map and order of battle load, are consistent, and bad files fail precisely."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from arbitro.adjudicator.datafiles import DataError
from arbitro.adjudicator.marengo.data_loader import (
    ARMIES_FILE,
    MAP_FILE,
    load_data,
    load_from,
)


def test_data_loads_with_every_symbol_kind() -> None:
    d = load_data()
    aps = list(d.approaches.values())
    assert {a.width for a in aps} == {"narrow", "wide"}
    assert any(a.penalty.infantry for a in aps)
    assert any(a.penalty.cavalry for a in aps)
    assert any(a.penalty.artillery for a in aps)
    assert any(a.impassable for a in aps)
    assert any(a.cavalry_obstacle for a in aps)
    assert {z.star for z in d.zones.values() if z.star} == {"red", "green", "blue"}
    assert sum(1 for z in d.zones.values() if z.star) == 8
    assert {r.kind for r in d.roads.values()} == {"main", "secondary"}
    assert d.map.pontoon.zone in d.zones
    for name in ("testa_di_ponte", "pedrabona", "stortigliona", "marengo", "castel_ceriolo", "spinetta",
                 "fontanone", "cascina_grossa", "san_giuliano", "strada_tortona", "strada_sale"):
        assert name in d.zones


def test_approach_pairs_are_symmetric() -> None:
    d = load_data()
    for aid, a in d.approaches.items():
        opp = d.opposite(aid)
        assert (opp.zone, opp.toward) == (a.toward, a.zone)
        assert d.opposite(opp.id).id == aid
        assert d.is_passable(a.zone, a.toward) == d.is_passable(a.toward, a.zone)


def test_roads_run_through_passable_approach_pairs_and_one_pair_carries_two_roads() -> None:
    d = load_data()
    crossings: dict[str, list[str]] = {}
    for r in d.roads.values():
        for x, y in zip(r.zones, r.zones[1:]):
            assert d.is_passable(x, y)
            crossings.setdefault("|".join(sorted((x, y))), []).append(r.id)
    assert any(len(v) > 1 for v in crossings.values())  # marengo §8: capacity per road on a shared approach


def test_armies_one_artillery_each_side_and_strengths_in_range() -> None:
    d = load_data()
    for side in ("france", "austria"):
        arts = [b for b in d.blocks.values() if b.side == side and b.arm == "artillery"]
        assert len(arts) == 1
    assert all(1 <= b.strength <= 3 for b in d.blocks.values())
    assert len(d.armies.at_start.blocks) == sum(z.at_start for z in d.zones.values())
    assert len([t for t in d.tables.values() if t.side == "france"]) == 3
    assert len([t for t in d.tables.values() if t.side == "austria"]) == 1


def test_piece_set_bounds_every_block_marengo_4(tmp_path: Path) -> None:
    """The published piece set (infantry 3/2/1, cavalry 2/1, artillery 1; cited in armies.json) bounds every
    block's strength: a 3-strength cavalry or a 2-strength artillery is a data error naming the block."""
    d = load_data()
    assert {b.strength for b in d.blocks.values() if b.arm == "cavalry"} <= {1, 2}
    assert {b.strength for b in d.blocks.values() if b.arm == "artillery"} == {1}

    def mutate(a: dict) -> None:
        cav = next(i for i, b in enumerate(a["blocks"]) if b["arm"] == "cavalry")
        a["blocks"][cav]["strength"] = 3
    mp, ap = _corrupt(tmp_path, "armies", mutate)
    with pytest.raises(DataError) as exc:
        load_from(mp, ap)
    assert "no cavalry piece of strength 3" in exc.value.problem


def test_board_facts_of_issue_19_hold_and_cite_their_source() -> None:
    """Points 18-23 of issue 19: Marengo and Pedrabona adjacent on the main road; Victor's and Lannes' corps
    at start (no Lannes reinforcement); the eight stars at the east end; the missing places present."""
    d = load_data()
    assert d.is_passable("marengo", "pedrabona") and "Extras.html" in d.approaches["marengo/pedrabona"].source
    main = d.roads["strada_principale"].zones
    assert main[main.index("pedrabona") + 1] == "marengo"
    at_start = set(d.armies.at_start.blocks)
    assert {"FRA_WATRIN_A", "FRA_MAINONI", "FRA_GARDANNE_A", "FRA_CHAMBARLHAC_A"} <= at_start
    assert "lannes" not in d.tables and "Board.html" in d.armies.at_start.source
    stars = [z for z, spec in d.zones.items() if spec.star]
    assert not {"marengo", "castel_ceriolo", "spinetta", "cascina_grossa"} & set(stars)
    for place in ("villanova", "li_poggi", "la_buzana", "lobbi", "cascina_bianca", "frugarolo",
                  "san_giuliano_vecchio", "barbotta"):
        assert place in d.zones
    assert any(e.id == "sale" for e in d.map.entry_points)
    assert all(a.impassable or a.penalty.infantry >= 1 for a in d.approaches.values())
    assert all(a.impassable or a.penalty.artillery >= 1 for a in d.approaches.values() if a.zone == "marengo")
    assert d.approaches["marengo/pedrabona"].cavalry_obstacle  # the Fontanone shelters the French bank


def test_provisional_items_are_listed() -> None:
    items = load_data().provisional_items()
    assert any("map.json" in i for i in items)
    assert any("morale" in i for i in items)


_MAP = json.loads(MAP_FILE.read_text())
_FIRST_STAR = next(i for i, z in enumerate(_MAP["zones"]) if z["star"])
_FIRST = _MAP["approaches"][0]
_OPPOSITE_OF_FIRST = next(i for i, a in enumerate(_MAP["approaches"])
                          if (a["zone"], a["toward"]) == (_FIRST["toward"], _FIRST["zone"]))


def _corrupt(tmp_path: Path, which: str, mutate) -> tuple[Path, Path]:
    m = json.loads(MAP_FILE.read_text())
    a = json.loads(ARMIES_FILE.read_text())
    mutate(m if which == "map" else a)
    mp, ap = tmp_path / "map.json", tmp_path / "armies.json"
    mp.write_text(json.dumps(m))
    ap.write_text(json.dumps(a))
    return mp, ap


@pytest.mark.parametrize(
    ("which", "mutate", "path", "words"),
    [
        ("map", lambda m: m["zones"][0].update(capacity="four"), "$.zones[0].capacity", "integer"),
        ("map", lambda m: m["approaches"][0].update(width="medium"), "$.approaches[0].width", "narrow"),
        ("map", lambda m: m["approaches"].pop(0), f"$.approaches[{_OPPOSITE_OF_FIRST - 1}]", "no opposite"),
        ("map", lambda m: m["roads"][0]["zones"].insert(1, "san_giuliano"), "$.roads[0].zones[1]", "not an approach pair"),
        ("map", lambda m: m["zones"][_FIRST_STAR].update(star=None), "$.zones", "eight star zones"),
        ("armies", lambda a: a["blocks"][0].update(strength=4), "$.blocks[0].strength", "less than or equal"),
        ("armies", lambda a: a["at_start"]["blocks"].append("FRA_NOBODY"), "$.at_start.blocks[13]", "unknown block"),
        ("armies", lambda a: a["reinforcements"][0].update(entry="genova"), "$.reinforcements[0].entry", "unknown entry"),
    ],
)
def test_corrupted_data_gives_precise_error(tmp_path: Path, which, mutate, path: str, words: str) -> None:
    mp, ap = _corrupt(tmp_path, which, mutate)
    with pytest.raises(DataError) as exc:
        load_from(mp, ap)
    assert exc.value.path == path
    assert words in exc.value.problem
    assert exc.value.file.endswith(f"{which}.json")


def test_not_json_gives_line_and_column(tmp_path: Path) -> None:
    bad = tmp_path / "map.json"
    bad.write_text('{"meta": ')
    with pytest.raises(DataError) as exc:
        load_from(bad, ARMIES_FILE)
    assert "line 1" in exc.value.path


def test_every_problem_of_a_file_is_reported_at_once(tmp_path: Path) -> None:
    """A data author fixing a file sees all its problems in one run, each with its path."""
    def mutate(m: dict) -> None:
        m["zones"][0].update(capacity="four")
        m["approaches"][0].update(width="medium")
    mp, ap = _corrupt(tmp_path, "map", mutate)
    with pytest.raises(DataError) as exc:
        load_from(mp, ap)
    assert [p.path for p in exc.value.problems] == ["$.zones[0].capacity", "$.approaches[0].width"]
    assert "map.json: $.zones[0].capacity" in str(exc.value) and "map.json: $.approaches[0].width" in str(exc.value)


def test_every_cross_reference_problem_is_reported_at_once(tmp_path: Path) -> None:
    def mutate(a: dict) -> None:
        a["at_start"]["blocks"].append("FRA_NOBODY")
        a["reinforcements"][0].update(entry="genova")
    mp, ap = _corrupt(tmp_path, "armies", mutate)
    with pytest.raises(DataError) as exc:
        load_from(mp, ap)
    paths = [p.path for p in exc.value.problems]
    assert "$.at_start.blocks[13]" in paths and "$.reinforcements[0].entry" in paths
