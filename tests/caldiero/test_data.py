"""The data files: they load, they agree with the rulebook (caldiero §21, §18, terrain table), and a bad
file gives a precise error (file, JSON path, problem)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from arbitro.adjudicator.caldiero import ground
from arbitro.adjudicator.caldiero.loader import CALDIERO_DATA
from arbitro.adjudicator.datafiles import DataError, DataProblem

DATA = CALDIERO_DATA.load().scenarios["caldiero"]


def units_in(pi: str) -> set[str]:
    return {u.name for u in DATA.oob.units if u.setup and "|".join(u.setup.hexes) == pi}


def test_austrian_setup_areas_match_21_1() -> None:
    assert units_in("2120") == {"Combined Banal Grenz"}
    assert units_in("1916") == {"Colloredo Line Btn", "Sticker 3 pdr Foot Art."}
    assert units_in("1711") == {"Comb. Gyulai Line Btn", "AvGuard Foot 3\" Bty."}
    assert units_in("1707") == {"Callenberg Line Btn", "Foot Art. 6\" Reserve Sect."}
    assert units_in("2318") == {"2 Hussar Sq. Erz. Jozsef", "Wurmsers Hussars"}
    assert units_in("1614") == {"7 Carlstadt Combined Grenz Btn", "Comb. Hungarian Btn", "AvGuard 6\" Horse Art. Sect."}
    assert units_in("2014|2114") == {"Erdödy Hussars (1)", "Erdödy Hussars (2)"}
    assert DATA.formation("hohenzollern").initial_order == "defence"


def test_french_setup_areas_match_21_2() -> None:
    assert len(units_in("1119")) == 4 and len(units_in("1117")) == 3 and len(units_in("1115")) == 2
    assert len(units_in("1112")) == 4
    assert DATA.leader("massena").setup.hexes == ["1117"] and DATA.leader("augereau").setup.hexes == ["1112"]
    assert DATA.formation("massena").initial_order is None  # chosen by the French at set-up (§21.2)


def arrivals(side: str) -> dict[int, int]:
    out: dict[int, int] = {}
    for u in DATA.oob.units:
        if u.side == side and u.arrival:
            out[u.arrival.turn] = out.get(u.arrival.turn, 0) + 1
    return out


def test_reinforcements_match_21_3_and_21_4() -> None:
    assert arrivals("austria") == {2: 2, 3: 3, 4: 5, 5: 4, 6: 3}
    assert arrivals("france") == {3: 5, 4: 3, 5: 2, 6: 4, 7: 2}
    assert {u.arrival.entry for u in DATA.oob.units if u.side == "austria" and u.arrival} == {"2714"}
    asterisk = {u.id for u in DATA.oob.units if u.arrival and u.arrival.entry == "1005"}
    assert asterisk == {"fr-15-dragons", "fr-24-chasseurs"}
    assert DATA.leader("alvinczy").arrival.turn == 3 and DATA.leader("bonaparte").arrival.turn == 5
    assert DATA.leader("provera").arrival.turn == 5 and DATA.formation("provera").initial_order == "manoeuvre"


def test_counter_values_are_marked_provisional() -> None:
    for u in DATA.oob.units:
        assert {"strength", "efficiency", "movement"} <= set(u.provisional), u.id
    assert DATA.crt.meta.provisional and DATA.bombardment.meta.provisional and DATA.weather.change_provisional
    assert DATA.scenario.turns_provisional and not DATA.terrain.meta.provisional


def test_movement_ranges_respect_9_0() -> None:
    for u in DATA.oob.units:
        if u.arm == "infantry":
            assert 3 <= u.movement <= 5, u.id
        if u.arm == "cavalry" and u.id != "fr-1-cavalry":
            assert 6 <= u.movement <= 9, u.id
    assert all(leader.movement == 6 for leader in DATA.oob.leaders)  # §2.2.1


def test_terrain_table_as_printed() -> None:
    t = DATA.terrain
    assert (t.terrain["villaggio"].bombard_drm, t.terrain["villaggio"].assault_shift_left, t.terrain["villaggio"].dr_becomes) == (-1, 1, "Ex")
    assert (t.terrain["fortificazione"].bombard_drm, t.terrain["fortificazione"].assault_shift_left, t.terrain["fortificazione"].dr_becomes) == (-2, 2, "Dd")
    assert (t.climb.bombard_drm, t.climb.assault_drm, t.hexsides["canale"].assault_drm) == (-1, -1, -1)
    assert t.hexsides["fiume"].prohibited and t.hexsides["fiume"].assault_prohibited


def test_movement_tables_as_printed() -> None:
    """The table's movement column in movement.json (half MP): plain 1 MP, marsh 2 MP, climbing +1 MP, a canal +1 MP
    unless a bridge crosses it, no river crossing, the main road 1/2 MP in march column, a minor road 1 MP (§9.3.1);
    weather.json gives every box its table (the ice storm's own: §17.1.3, the minor road doubled) and multiplier."""
    m = DATA.movement[0]
    assert m.terrain["pianura"].cost == {"default": 2} and m.terrain["palude"].cost == {"default": 4}
    assert m.climb == {"default": 2} and m.hexside["fiume"].cost == {"default": "prohibited"}
    assert m.hexside["canale"].cost == {"default": 2} and m.hexside["canale"].cancelled_by == ("ponte",)
    assert m.roads["strada"].in_column.cost == 1 and m.roads["strada_minore"].always.cost == 2  # type: ignore[union-attr]
    assert sorted(DATA.movement) == [0, 1, 2, 3] and DATA.movement[1] is m and DATA.movement[2] is m
    assert DATA.movement[3].roads["strada_minore"].always.scaled and not m.roads["strada_minore"].always.scaled  # type: ignore[union-attr]
    assert [b.terrain_cost_multiplier for b in DATA.weather.boxes] == [1, 1, 2, 2]
    assert [b.off_road_mp_less for b in DATA.weather.boxes] == [0, 1, 0, 0]  # §17.1.1, the cloudburst


def test_victory_data_match_18() -> None:
    points = {v.hex: v.vp for v in DATA.scenario.victory_hexes}
    assert points == {"2020": 3, "2119": 3, "1612": 2, "1613": 2, "1712": 2, "1607": 2, "2013": 1, "2115": 1}
    assert [(l.min, l.level) for l in DATA.scenario.victory_levels] == [(14, "decisive"), (8, "marginal"), (4, "tactical"), (0, "draw")]


def test_crt_covers_every_code_of_12_5_4() -> None:
    codes = {r for row in DATA.crt.rows.values() for r in row.values()}
    assert codes == {"Ae", "De", "Ad", "Dd", "Ne", "Ex", "Dr"}
    assert DATA.crt.columns[0] == "1-5" and DATA.crt.columns[-1] == "6-1"


@pytest.fixture
def data_copy(tmp_path: Path) -> Path:
    shutil.copytree(CALDIERO_DATA.folder, tmp_path, dirs_exist_ok=True)  # every file is read with the others
    return tmp_path


def test_bad_unit_arm_names_file_and_path(data_copy: Path) -> None:
    raw = json.loads((data_copy / "caldiero" / "oob.json").read_text())
    raw["units"][3]["arm"] = "dragoons"
    (data_copy / "caldiero" / "oob.json").write_text(json.dumps(raw))
    with pytest.raises(DataError, match=r"oob\.json: \$\.units\[3\]\.arm: Input should be"):
        CALDIERO_DATA.load(data_copy)


def test_unknown_formation_is_reported(data_copy: Path) -> None:
    raw = json.loads((data_copy / "caldiero" / "oob.json").read_text())
    raw["units"][0]["formation"] = "davidovich"
    (data_copy / "caldiero" / "oob.json").write_text(json.dumps(raw))
    with pytest.raises(DataError, match=r"oob\.json: \$\.units\[0\]\.formation: unknown formation 'davidovich'"):
        CALDIERO_DATA.load(data_copy)


def test_the_kernel_checks_caldiero_s_set_up_and_arrivals_as_arrivano_s(data_copy: Path) -> None:
    """parabellum/loader.placement_problems, one check for both books: a set-up hex off the map, an arrival after the
    scenario's last turn or off the map, a fixed set-up hex (no PI area) over §7.1's limits, each named at once
    (Caldiero's loader checked none of them before)."""
    raw = json.loads((data_copy / "caldiero" / "oob.json").read_text())
    placed = [i for i, u in enumerate(raw["units"]) if u.get("setup") and u["arm"] == "infantry"]
    arriving = next(i for i, u in enumerate(raw["units"]) if u.get("arrival"))
    raw["units"][placed[0]]["setup"]["hexes"] = ["9999"]
    raw["units"][placed[0]]["setup"].pop("start", None)
    raw["units"][arriving]["arrival"] = {"turn": 11, "entry": "9998"}
    crowd = raw["units"][placed[1]]["setup"]["hexes"][0]
    for i in placed[1:4]:  # fixed there (no PI area, no start)
        raw["units"][i]["setup"] = {"hexes": [crowd]}
    (data_copy / "caldiero" / "oob.json").write_text(json.dumps(raw))
    with pytest.raises(DataError) as caught:
        CALDIERO_DATA.load(data_copy)
    found = {(p.path, p.problem) for p in caught.value.problems if p.file == "caldiero/oob.json"}
    assert (f"$.units[{placed[0]}].setup.hexes[0]", "hex 9999 is not on the map caldiero/map.json") in found, found
    assert (f"$.units[{arriving}].arrival.entry", "hex 9998 is not on the map caldiero/map.json") in found, found
    assert (f"$.units[{arriving}].arrival.turn", "turn 11 is after the last turn 10") in found, found
    assert any(path == "$.units" and problem.startswith(f"set-up hex {crowd} holds ") for path, problem in found), found


def test_four_units_listed_at_one_pi_load_as_the_book_prints_them(data_copy: Path) -> None:
    """caldiero §21.0: PI 1 (1119) lists four units, each placed "entro un esagono" of it, so the folder need not
    spread them (`start`) to load: their stacking holds when the set-up ends (flow.setup_problems)."""
    raw = json.loads((data_copy / "caldiero" / "oob.json").read_text())
    at_pi = [u for u in raw["units"] if u.get("setup") and u["setup"].get("start") and u["setup"]["hexes"][0] == "1119"]
    assert at_pi, "the shipped folder spreads PI 1's units with `start`"
    for u in at_pi:
        u["setup"].pop("start")
    (data_copy / "caldiero" / "oob.json").write_text(json.dumps(raw))
    assert CALDIERO_DATA.load(data_copy) is not None


def test_commander_limits_are_data_and_checked(data_copy: Path) -> None:
    """caldiero §4.2.2's limits on the commanders in chief are scenario data (`commander_limits`), not names in
    code: each names a commander in chief, a map hex, an optional rule lifting it and a reading's choices, every
    problem at once."""
    raw = json.loads((data_copy / "caldiero" / "scenario.json").read_text())
    bonaparte, alvinczy = raw["commander_limits"]
    assert (bonaparte["leader"], bonaparte["near"], bonaparte["max_distance"]) == ("bonaparte", "1014", 2)
    assert (alvinczy["leader"], alvinczy["min_column"], alvinczy["reading_columns"]) == ("alvinczy", 24, {"east_of_24": 25})
    raw["commander_limits"].append({"leader": "alvinczy", "near": "1014"})
    (data_copy / "caldiero" / "scenario.json").write_text(json.dumps(raw))
    with pytest.raises(DataError) as caught:
        CALDIERO_DATA.load(data_copy)
    found = {(p.file, p.path) for p in caught.value.problems}
    assert ("caldiero/scenario.json", "$.commander_limits[2].near") in found, found  # the model's: near without max_distance
    raw["commander_limits"].pop()
    bonaparte.update(leader="massena", near="9999", lifted_by="no_such_option")
    alvinczy["reading_columns"] = {"west_of_24": 23}
    (data_copy / "caldiero" / "scenario.json").write_text(json.dumps(raw))
    with pytest.raises(DataError) as caught:
        CALDIERO_DATA.load(data_copy)
    found = {(p.file, p.path) for p in caught.value.problems}
    assert {("caldiero/scenario.json", "$.commander_limits[0].leader"), ("caldiero/scenario.json", "$.commander_limits[0].near"),
            ("caldiero/scenario.json", "$.commander_limits[0].lifted_by"),
            ("caldiero/scenario.json", "$.commander_limits[1].reading_columns.west_of_24")} <= found, found


def test_incomplete_crt_row_is_reported(data_copy: Path) -> None:
    raw = json.loads((data_copy / "tables" / "crt.json").read_text())
    del raw["rows"]["3"]["6-1"]
    (data_copy / "tables" / "crt.json").write_text(json.dumps(raw))
    with pytest.raises(DataError, match=r"crt\.json: \$\.rows\.3: must give exactly the columns .*missing \[.6-1.\]"):
        CALDIERO_DATA.load(data_copy)


def test_every_problem_of_every_file_is_reported_at_once(data_copy: Path) -> None:
    raw = json.loads((data_copy / "caldiero" / "oob.json").read_text())
    raw["units"][3]["arm"] = "dragoons"
    raw["units"][4]["strength"] = -1
    (data_copy / "caldiero" / "oob.json").write_text(json.dumps(raw))
    (data_copy / "caldiero" / "weather.json").write_text('{"meta": ')
    (data_copy / "tables" / "bombardment.json").unlink()
    with pytest.raises(DataError) as caught:
        CALDIERO_DATA.load(data_copy)
    found = {(p.file, p.path) for p in caught.value.problems}
    assert {("caldiero/oob.json", "$.units[3].arm"), ("caldiero/oob.json", "$.units[4].strength"), ("caldiero/weather.json", "line 1 column 10"),
            ("tables/bombardment.json", "$")} <= found, found
    assert caught.value.problems[0] == DataProblem(caught.value.file, caught.value.path, caught.value.problem)


def test_invalid_json_is_located(data_copy: Path) -> None:
    (data_copy / "caldiero" / "weather.json").write_text('{"meta": ')
    with pytest.raises(DataError, match=r"weather\.json: line 1 column"):
        CALDIERO_DATA.load(data_copy)


def test_default_setup_is_legal() -> None:
    from tests.caldiero.harness import RULESET, fresh

    assert RULESET.validate_position(fresh()) == []


def test_named_hexes_exist_on_the_map() -> None:
    from tests.caldiero.harness import RULESET, fresh

    w = RULESET.world(fresh())
    named = ["1014", "1005", "2714", "1712", "1607", "2013", "2115", "2020", "2119", "1612", "1613"]
    named += [u.setup.start_hex for u in DATA.oob.units if u.setup]
    assert all(w.grid.contains(h) for h in named)
    assert ground.fortress(w, "1712")


def test_docs_name_every_interpretation() -> None:
    from tests.caldiero.harness import RULESET

    doc = (Path(__file__).resolve().parents[2] / "docs" / "rulesets" / "caldiero.md").read_text(encoding="utf-8")
    for name, item in RULESET.interpretations().items():
        assert f"`{name}`" in doc and f"`{item.default}`" in doc, name


def test_a_folder_in_the_old_flat_layout_is_refused_naming_where_each_file_goes(tmp_path: Path) -> None:
    """docs/exchange-format.md (twelfth session): Caldiero's data had every file at the root; such a user's folder is
    refused before anything is read, each file named with its place in the one layout of both games."""
    for path in CALDIERO_DATA.files():
        shutil.copy(path, tmp_path / path.name)
    shutil.copy(tmp_path / "movement.json", tmp_path / "movement_3.json")  # the ice storm's own table, then
    with pytest.raises(DataError) as caught:
        CALDIERO_DATA.load(tmp_path)
    moves = {p.file: p.problem.rsplit(" ", 1)[-1] for p in caught.value.problems if p.file != "movement_3.json"}
    assert "delete it" in next(p.problem for p in caught.value.problems if p.file == "movement_3.json")  # b059fc9
    assert moves == {"bombardment.json": "tables/bombardment.json", "crt.json": "tables/crt.json",
                     "map.json": "caldiero/map.json", "movement.json": "tables/movement.json",
                     "oob.json": "caldiero/oob.json",
                     "orders.json": "tables/orders.json", "rules.json": "tables/rules.json",
                     "scenario.json": "caldiero/scenario.json",
                     "terrain.json": "tables/terrain.json", "weather.json": "caldiero/weather.json"}


def test_the_provisional_report_is_the_version_s() -> None:
    """The weather table (`change`) is a reconstruction only a version that rolls on it rests on: the historical battle
    (caldiero §17), not 'Il tempo regge' (§19.2.1: no weather roll). Only the parts marked are reported: scenario.json's
    turns and weather.json's table, not the whole files (their `meta` says they are not reconstructions)."""
    from tests.caldiero.harness import RULESET

    historical, holds = RULESET.provisional("historical"), RULESET.provisional("il_tempo_regge")
    assert any(line.startswith("caldiero/weather.json") and line.endswith("reconstructed: change_provisional")
               for line in historical), historical
    assert not any(line.startswith("caldiero/weather.json") for line in holds), holds
    assert [line for line in historical if not line.startswith("caldiero/weather.json")] == holds
    assert any(line.startswith("caldiero/scenario.json") and line.endswith("): reconstructed: turns_provisional")
               for line in holds), holds


def test_a_victory_hex_off_the_map_and_a_version_without_weather_are_refused(data_copy: Path) -> None:
    """caldiero §18's victory hexes are on the map (a user's folder could load one nobody can ever hold, scoring
    nothing silently), and every version is played with its weather track (§17): both named at load."""
    raw = json.loads((data_copy / "caldiero" / "scenario.json").read_text())
    raw["victory_hexes"][1]["hex"] = "9999"
    raw["weather"] = False
    (data_copy / "caldiero" / "scenario.json").write_text(json.dumps(raw))
    with pytest.raises(DataError) as caught:
        CALDIERO_DATA.load(data_copy)
    found = {(p.file, p.path) for p in caught.value.problems}
    assert ("caldiero/scenario.json", "$.weather") in found, found
    raw["weather"] = True
    (data_copy / "caldiero" / "scenario.json").write_text(json.dumps(raw))
    with pytest.raises(DataError) as caught:
        CALDIERO_DATA.load(data_copy)
    assert [str(p) for p in caught.value.problems] == [
        "caldiero/scenario.json: $.victory_hexes[1].hex: hex 9999 is not on the map caldiero/map.json"]


def test_a_victory_hex_in_the_old_words_is_refused_naming_the_fields(data_copy: Path) -> None:
    """caldiero §18's victory hexes are the kernel's one record (`vp`, `provisional`): a folder copied before the
    nineteenth session (`points`) is refused at load, each field named, never scored as nothing."""
    raw = json.loads((data_copy / "caldiero" / "scenario.json").read_text())
    old = raw["victory_hexes"][0]
    old["points"] = old.pop("vp")
    (data_copy / "caldiero" / "scenario.json").write_text(json.dumps(raw))
    with pytest.raises(DataError) as caught:
        CALDIERO_DATA.load(data_copy)
    assert {p.path for p in caught.value.problems} >= {"$.victory_hexes[0].vp", "$.victory_hexes[0].points"}


def test_every_name_scenario_json_gives_is_checked(data_copy: Path) -> None:
    """The kernel's one check of names (parabellum/loader.unknown_names) reads Caldiero's scenario file as Arrivano's:
    a commander limit's hex (§4.2.2), a victory hex's place (§18), a place costing the French points (§19.2.3) and an
    optional rule's unit (§20.2), every problem at once with its file and path."""
    raw = json.loads((data_copy / "caldiero" / "scenario.json").read_text())
    raw["commander_limits"][0]["near"] = "9999"
    raw["victory_hexes"][0]["place"] = "Atlantis"
    raw["options"]["cavalry_charges"]["units"][1] = "au-nobody"
    raw["scenarios"]["il_tempo_regge"]["french_vp_malus_places"][0] = "Atlantide"
    (data_copy / "caldiero" / "scenario.json").write_text(json.dumps(raw))
    with pytest.raises(DataError) as caught:
        CALDIERO_DATA.load(data_copy)
    assert [str(p) for p in caught.value.problems] == [
        "caldiero/scenario.json: $.commander_limits[0].near: hex 9999 is not on the map caldiero/map.json",
        "caldiero/scenario.json: $.victory_hexes[0].place: no place 'Atlantis' on the map caldiero/map.json",
        "caldiero/scenario.json: $.scenarios.il_tempo_regge.french_vp_malus_places[0]: no place 'Atlantide' on the map "
        "caldiero/map.json",
        "caldiero/scenario.json: $.options.cavalry_charges.units[1]: unknown unit 'au-nobody'"]
