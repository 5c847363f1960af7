"""The kernel's data model (adjudicator/parabellum/data.py, loader.py), for both variants: each game's files are
read into the same models, and a fault is reported with the file, the JSON path and what is wrong."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from arbitro.adjudicator.arrivano import data_model as arrivano
from arbitro.adjudicator.caldiero import loader as caldiero
from arbitro.adjudicator.datafiles import DataError, DataProblem
from arbitro.adjudicator.parabellum import data as pb
from arbitro.adjudicator.parabellum.loader import check_counters, load_model, unknown_names
from arbitro.adjudicator.parabellum.stacking import SECTION_7_1
from arbitro.adjudicator.parabellum.variant import Variant

# Where each variant keeps the two tables the kernel reads (the books print neither: both are reconstructions).
TABLE_FILES: dict[str, tuple[Path, Path]] = {
    "caldiero": (caldiero.CALDIERO_DATA.folder / "tables" / "crt.json", caldiero.CALDIERO_DATA.folder / "tables" / "bombardment.json"),
    "arrivano": (arrivano.ARRIVANO_DATA.folder / "tables" / "crt.json", arrivano.ARRIVANO_DATA.folder / "tables" / "bombardment.json"),
}


def loaded_tables(variant: Variant) -> tuple[pb.CombatTable, pb.BombardmentTable]:
    tables = (caldiero.CALDIERO_DATA if variant.book == "caldiero" else arrivano.ARRIVANO_DATA).shipped().tables
    return tables.crt, tables.bombardment


def test_both_games_read_their_tables_into_the_kernel_models(variant: Variant) -> None:
    """§12.5 and §11.4 in both books: the CRT from 1-5 to 6-1 over the modified rolls -3..10, the bombardment
    table by bombardment value; each game's loader returns the kernel's models (or an extension of them)."""
    crt, bombardment = loaded_tables(variant)
    assert isinstance(crt, pb.CombatTable) and isinstance(bombardment, pb.BombardmentTable)
    assert crt.columns[0] == "1-5" and crt.columns[-1] == "6-1" and (crt.row(-99), crt.row(99)) == (-3, 10)
    assert crt.result(99, "6-1") == crt.result(10, "6-1") and crt.result(-9, "1-5") == crt.result(-3, "1-5")
    assert bombardment.columns == [str(n) for n in range(1, bombardment.max_column + 1)]


def test_the_crt_in_the_table_kits_shape_reads_the_same_cells(variant: Variant) -> None:
    crt, _ = loaded_tables(variant)
    kit = crt.odds_table("crt")
    low, high = crt.row(-99), crt.row(99)
    for roll in range(low, high + 1):
        for i, column in enumerate(crt.columns):
            assert kit.cell(roll, i) == crt.result(roll, column)


def test_a_table_fault_names_file_path_and_problem(variant: Variant, tmp_path: Path) -> None:
    """A row missing a column and a gap in the rolls are both reported, each at its JSON path."""
    crt_file, _ = TABLE_FILES[variant.book]
    raw = json.loads(crt_file.read_text(encoding="utf-8"))
    del raw["rows"]["4"]["6-1"]
    del raw["rows"]["7"]
    (tmp_path / "crt.json").write_text(json.dumps(raw), encoding="utf-8")
    problems: list[DataProblem] = []
    assert load_model(tmp_path / "crt.json", type(loaded_tables(variant)[0]), tmp_path, problems) is None
    assert [(p.file, p.path) for p in problems] == [("crt.json", "$.rows.4"), ("crt.json", "$.rows")]
    assert "missing ['6-1']" in problems[0].problem and "contiguous" in problems[1].problem


TERRAIN_FILES: dict[str, Path] = {
    "caldiero": caldiero.CALDIERO_DATA.folder / "tables" / "terrain.json",
    "arrivano": arrivano.ARRIVANO_DATA.folder / "tables" / "terrain.json",
}


def loaded_terrain(variant: Variant) -> pb.TerrainTable:
    if variant.book == "caldiero":
        return caldiero.CALDIERO_DATA.shipped().scenarios["caldiero"].terrain
    return arrivano.ARRIVANO_DATA.shipped().tables.terrain


def test_both_games_read_their_terrain_effects_into_the_one_kernel_model(variant: Variant) -> None:
    """The terrain effects table (caldiero's table; arrivano §10, reconstructed) is one model, not an extension: a
    village blocks sight, shifts an assault one column left, lets units stay put and is -1 to a bombardment in
    both books; what one book does not print keeps the plain's value (no effect)."""
    table = loaded_terrain(variant)
    assert type(table) is pb.TerrainTable
    village = table.terrain["villaggio"]
    assert (village.blocks_los, village.assault_shift_left, village.may_stay, village.bombard_drm) == (True, 1, True, -1)
    plain = table.terrain["pianura"]
    assert (plain.bombard_drm, plain.assault_drm, plain.assault_shift_left, plain.dr_becomes, plain.dr_options) == (0, 0, 0, None, [])
    assert not (plain.blocks_los or plain.halves_strength or plain.cavalry_halved or plain.no_zoc_into)
    climb = table.climb  # caldiero: -1 bombarding or assaulting uphill; arrivano §10.2: sight only
    expected = (-1, -1) if variant.book == "caldiero" else (0, 0)
    assert (climb.bombard_drm, climb.assault_drm) == expected


def test_a_terrain_table_fault_names_file_path_and_problem(variant: Variant, tmp_path: Path) -> None:
    """Every problem of the file at once: an unknown effect, a negative shift, a `cited` and a `provisional` field
    that is no effect."""
    raw = json.loads(TERRAIN_FILES[variant.book].read_text(encoding="utf-8"))
    raw["terrain"]["villaggio"]["smoke"] = True
    raw["terrain"]["pianura"]["assault_shift_left"] = -1
    raw["terrain"]["villaggio"]["cited"] = {"colour": "§1"}
    raw["terrain"]["villaggio"]["provisional"] = ["smell"]
    (tmp_path / "terrain.json").write_text(json.dumps(raw), encoding="utf-8")
    problems: list[DataProblem] = []
    assert load_model(tmp_path / "terrain.json", pb.TerrainTable, tmp_path, problems) is None
    assert sorted((p.file, p.path) for p in problems) == [
        ("terrain.json", "$.terrain.pianura.assault_shift_left"), ("terrain.json", "$.terrain.villaggio.cited"),
        ("terrain.json", "$.terrain.villaggio.provisional"), ("terrain.json", "$.terrain.villaggio.smoke")]
    assert any(p.problem == "names unknown fields: colour" for p in problems)


def test_a_terrain_of_the_map_missing_from_the_table_is_reported(variant: Variant, tmp_path: Path) -> None:
    """Every terrain a map uses has its entry in the terrain effects table: checked when the data are read, for both
    games, the problem naming the table's file and path with the map's other problems."""
    folder = caldiero.CALDIERO_DATA if variant.book == "caldiero" else arrivano.ARRIVANO_DATA
    copy = tmp_path / "data"
    shutil.copytree(folder.folder, copy)
    terrain_file = copy / TERRAIN_FILES[variant.book].relative_to(folder.folder)
    raw = json.loads(terrain_file.read_text(encoding="utf-8"))
    del raw["terrain"]["villaggio"]
    terrain_file.write_text(json.dumps(raw), encoding="utf-8")
    with pytest.raises(DataError) as e:
        folder.load(copy)
    named = {(p.file, p.path) for p in e.value.problems if "'villaggio'" in p.problem}
    assert named == {(terrain_file.relative_to(copy).as_posix(), "$.terrain")}


def test_a_hexside_fighting_as_another_must_name_a_known_one(tmp_path: Path) -> None:
    raw = json.loads(TERRAIN_FILES["caldiero"].read_text(encoding="utf-8"))
    raw["hexsides"]["ponte"]["combat_as"] = "fossato"
    (tmp_path / "terrain.json").write_text(json.dumps(raw), encoding="utf-8")
    problems: list[DataProblem] = []
    assert load_model(tmp_path / "terrain.json", pb.TerrainTable, tmp_path, problems) is None
    assert problems == [DataProblem("terrain.json", "$.hexsides.ponte.combat_as", "unknown hexside feature 'fossato'")]


def loaded_scenario(variant: Variant) -> pb.ScenarioFile:
    if variant.book == "caldiero":
        return caldiero.CALDIERO_DATA.shipped().scenarios["caldiero"].scenario
    return arrivano.ARRIVANO_DATA.shipped().scenarios["montebello"].scenario


def test_both_games_scenario_files_extend_the_kernels(variant: Variant) -> None:
    """One scenario file model in the kernel: the seats, the length, the longest line of sight (caldiero §11.3: 4
    hexes; Montebello's 3, arrivano §17.1.3) and §7.1's stacking limits, the same patterns in both books."""
    scenario = loaded_scenario(variant)
    assert isinstance(scenario, pb.ScenarioFile) and type(scenario) is not pb.ScenarioFile
    assert len(scenario.seats) == 2 and scenario.turns >= 1
    assert (scenario.los_range, scenario.los_rule) == ((4, "caldiero §11.3") if variant.book == "caldiero" else (3, scenario.los_rule))
    assert sorted(scenario.stacking.allowed, key=repr) == sorted(SECTION_7_1, key=repr)


def test_a_record_giving_a_hex_and_a_place_is_refused_when_the_place_does_not_hold_the_hex(variant: Variant) -> None:
    """rev-f F2: each name is checked on its own (unknown_names), and the pair too, once for both games: a victory hex
    whose place names another (caldiero §18: 2020 is Colognola's, not Caldiero's; arrivano §17.1.6: 2011 is
    Casteggio's, not Montebello's) is refused at the place's path."""
    data = caldiero.CALDIERO_DATA if variant.book == "caldiero" else arrivano.ARRIVANO_DATA
    name = "caldiero" if variant.book == "caldiero" else "montebello"
    files = data.read_folder(data.folder)
    raw = json.loads(files[f"{name}/scenario.json"])
    records = raw["victory_hexes"] if variant.book == "caldiero" else raw["victory"]["objectives"]
    wrong = next(r["place"] for r in records if r["place"] != records[0]["place"])
    records[0]["place"] = wrong
    files[f"{name}/scenario.json"] = json.dumps(raw)
    with pytest.raises(DataError) as caught:
        data.from_files(files)
    path = "$.victory_hexes[0].place" if variant.book == "caldiero" else "$.victory.objectives[0].place"
    assert [str(p) for p in caught.value.problems] == [
        f"{name}/scenario.json: {path}: the map's place {wrong!r} does not contain hex {records[0]['hex']}"]


def test_a_scenario_fault_names_file_path_and_problem(variant: Variant, tmp_path: Path) -> None:
    folder = caldiero.CALDIERO_DATA.folder / "caldiero" if variant.book == "caldiero" else arrivano.ARRIVANO_DATA.folder / "montebello"
    raw = json.loads((folder / "scenario.json").read_text(encoding="utf-8"))
    raw["seats"] = ["france"]
    raw["stacking"]["allowed"][0]["cavalry"] = -1
    del raw["los_range"]
    (tmp_path / "scenario.json").write_text(json.dumps(raw), encoding="utf-8")
    problems: list[DataProblem] = []
    assert load_model(tmp_path / "scenario.json", type(loaded_scenario(variant)), tmp_path, problems) is None
    assert sorted(p.path for p in problems) == ["$.los_range", "$.seats", "$.stacking.allowed[0].cavalry"]


def test_a_counter_is_checked_by_the_kernel(variant: Variant) -> None:
    """§2.1 and §11.4 in both books: artillery has a bombardment value and a range; `provisional` names fields."""
    unit = {"id": "u", "name": "U", "side": "france", "formation": "f", "arm": "artillery", "strength": 0,
            "efficiency": 3, "movement": 3, "setup": {"hexes": ["1112"]}}
    with pytest.raises(ValueError, match="2 validation errors.*\nbombard\n  artillery needs `bombard`.*\nrange\n  artillery needs `range`"):
        pb.UnitData.model_validate(unit)
    with pytest.raises(ValueError, match="provisional\n  Value error, names unknown fields: colour"):
        pb.UnitData.model_validate(unit | {"bombard": 2, "range": 3, "provisional": ["colour"]})
    assert pb.UnitData.model_validate(unit | {"bombard": 2, "range": 3}).bombard == 2
    foot = unit | {"arm": "infantry", "strength": 3}
    with pytest.raises(ValueError, match="only artillery has"):  # arrivano's stricter check, now both games'
        pb.UnitData.model_validate(foot | {"bombard": 2})
    with pytest.raises(ValueError, match="must be below `strength`"):
        pb.UnitData.model_validate(foot | {"reduced": 3})
    assert pb.Meta.model_validate({"title": "t"}).provisional  # a file that does not say is a reconstruction


def order_of_battle(variant: Variant) -> tuple[str, pb.OrderOfBattle, tuple[str, ...]]:
    if variant.book == "caldiero":
        return "caldiero/oob.json", caldiero.CALDIERO_DATA.shipped().scenarios["caldiero"].oob, ("france", "austria")
    scenario = arrivano.ARRIVANO_DATA.shipped().scenarios["montebello"]
    return "montebello/oob.json", scenario.oob, tuple(scenario.scenario.seats)


def test_each_games_order_of_battle_passes_the_kernels_checks(variant: Variant) -> None:
    ob, oob, sides = order_of_battle(variant)
    assert check_counters(ob, oob, sides) == []


def test_the_kernel_finds_every_fault_of_an_order_of_battle(variant: Variant) -> None:
    """Ids used twice, a side that is no seat, a unit of an unknown formation or of the other side's, and a
    formation whose general is not one of its commanders: each reported at its JSON path."""
    ob, oob, sides = order_of_battle(variant)
    units, formations = list(oob.units), list(oob.formations)
    enemy = next(f for f in formations if f.side != units[0].side)
    units = [units[0].model_copy(update={"formation": "nobody"}), units[1].model_copy(update={"id": units[2].id}),
             units[2], units[3].model_copy(update={"formation": enemy.id}), units[4].model_copy(update={"side": "x"})]
    formations = [formations[0].model_copy(update={"general": units[0].id}), *formations[1:]]
    broken = oob.model_copy(update={"units": units, "formations": formations, "reinforcements": []})
    hexmap = (caldiero.CALDIERO_DATA if variant.book == "caldiero" else arrivano.ARRIVANO_DATA).shipped().scenarios[
        ob.split("/")[0]].map
    problems = [*check_counters(ob, broken, sides), *unknown_names(ob, broken, sides, broken, hexmap, "map.json")]
    found = {(p.path, p.problem.split(" ")[0]) for p in problems
             if ".arrival." not in p.path}  # the units taken out of their groups: the next test
    assert found == {("$", "id"), ("$.units[0].formation", "unknown"), ("$.units[3].formation", "formation"),
                     ("$.units[4].side", "unknown"), ("$.units[4].formation", "formation"),
                     ("$.formations[0].general", "unknown")}, found  # a unit's id: no leader


def test_the_kernel_checks_reinforcement_groups() -> None:
    """arrivano §15.4: a counter arriving with a group is listed by it, and a group lists only its own counters;
    a commander in chief named for a side must be that side's."""
    oob = arrivano.ARRIVANO_DATA.shipped().scenarios["montebello"].oob
    group = oob.reinforcements[0]
    stray = next(u for u in oob.units if u.arrival is not None and u.arrival.group != group.id)
    units = [u.model_copy(update={"arrival": pb.Arrival(group=group.id)}) if u is stray else u for u in oob.units]
    side = sorted(oob.sides)[0]
    sides = oob.sides | {side: oob.sides[side].model_copy(update={"commander_in_chief": "nobody"})}
    problems = check_counters("oob.json", oob.model_copy(update={"units": units, "sides": sides}), tuple(oob.sides))
    at = units.index(next(u for u in units if u.id == stray.id))
    assert {(p.path, p.problem) for p in problems} >= {
        (f"$.units[{at}].arrival.group", f"group {group.id!r} does not list {stray.id!r}"),
        (f"$.sides.{side}.commander_in_chief", f"'nobody' is not a commander in chief of {side}")}
    assert any(p.path.startswith("$.reinforcements[") and stray.id in p.problem for p in problems)


def test_placement_is_either_setup_or_arrival() -> None:
    """caldiero §21, arrivano §17: a counter starts on the map or arrives, never both, never neither (Caldiero's
    commanders are held to it too now, issue 19); an arrival gives a turn and an entry, or a group; a piece that may
    choose between two hexes starts on one of them."""
    leader = {"id": "l", "name": "L", "side": "france", "formation": "f", "role": "general", "initiative": 2,
              "command_range": 3}
    with pytest.raises(ValueError, match="a leader needs exactly one of `setup` and `arrival`"):
        pb.LeaderData.model_validate(leader)
    with pytest.raises(ValueError, match="a leader needs exactly one of"):
        pb.LeaderData.model_validate(leader | {"setup": {"hexes": ["1112"]}, "arrival": {"group": "g"}})
    for bad in ({"turn": 3}, {"turn": 3, "entry": "1014", "group": "g"}, {}):
        with pytest.raises(ValueError, match="either `turn` and `entry` or its `group`"):
            pb.Arrival.model_validate(bad)
    with pytest.raises(ValueError, match="`start` must be one of"):
        pb.Setup.model_validate({"hexes": ["2014", "2114"], "start": "2015"})
    assert pb.Setup.model_validate({"hexes": ["1614"], "area": "F", "start": "1613"}).start_hex == "1613"
    assert pb.Setup.model_validate({"hexes": ["3115", "3113"]}).start_hex == "3115"


def test_the_orders_table_is_the_kernels_model() -> None:
    """D6: the orders table as data (§5.1 in both books). Arrivano's tables/orders.json reads into the kernel's
    model, and a table without one of the four orders is refused with its path; one still carrying
    `obligation_excludes` is refused naming it: who an obligation counts is each game's code (caldiero §5.1.1 reads
    the hex an activation began in, arrivano §5.1.5 the hex the unit stands in), and no code ever read that list."""
    orders_file = arrivano.ARRIVANO_DATA.folder / "tables" / "orders.json"
    problems: list[DataProblem] = []
    table = load_model(orders_file, pb.OrdersTable, arrivano.ARRIVANO_DATA.folder, problems)
    assert problems == [] and table is not None and sorted(table.orders) == ["advance", "attack", "defence", "manoeuvre"]
    assert table.orders["defence"].assault == "no" and table.orders["attack"].assault == "must"  # arrivano §5.1
    raw = json.loads(orders_file.read_text(encoding="utf-8"))
    del raw["orders"]["manoeuvre"]
    with pytest.raises(ValueError, match="missing orders: manoeuvre"):
        pb.OrdersTable.model_validate(raw)
    raw = json.loads(orders_file.read_text(encoding="utf-8")) | {"obligation_excludes": ["artillery", "in_village"]}
    with pytest.raises(ValueError, match="obligation_excludes"):
        pb.OrdersTable.model_validate(raw)
    # §5.3's Defence out of command is the system's, in both books' words and in every refusal that explains it:
    # a table's `out_of_command_order` (read by no code) is refused naming it
    raw = json.loads(orders_file.read_text(encoding="utf-8")) | {"out_of_command_order": "defence"}
    with pytest.raises(ValueError, match="out_of_command_order"):
        pb.OrdersTable.model_validate(raw)


def test_the_order_of_battle_finds_every_counter_by_id(variant: Variant) -> None:
    """Both games' oob.json read into the kernel's OrderOfBattle, each counter in the variant's own model."""
    oob = caldiero.CALDIERO_DATA.shipped().scenarios["caldiero"].oob if variant.book == "caldiero" else arrivano.ARRIVANO_DATA.shipped().scenarios["campotenese"].oob
    assert isinstance(oob, pb.OrderOfBattle)
    for unit in oob.units:
        assert oob.unit(unit.id) is unit and isinstance(unit, pb.UnitData)
    for leader in oob.leaders:
        assert oob.leader(leader.id) is leader
    for formation in oob.formations:
        assert oob.formation(formation.id) is formation
    with pytest.raises(KeyError):
        oob.unit("no-such-unit")


OOB_FILES: dict[str, tuple[Path, str]] = {
    "caldiero": (caldiero.CALDIERO_DATA.folder / "caldiero" / "oob.json", "caldiero/oob.json"),
    "arrivano": (arrivano.ARRIVANO_DATA.folder / "montebello" / "oob.json", "montebello/oob.json"),
}


def test_every_problem_of_a_counters_file_is_reported_at_once(variant: Variant, tmp_path: Path) -> None:
    """Issue 18's one data error: four faults of one counter, faults of three other counters and a mistyped value
    elsewhere in the file are all reported by one load, each at its own JSON path (a record's checks no longer stop
    at its first fault). A counter whose arrival is itself faulty is reported for that alone: how its fields agree
    is checked once each field is valid. Scalars are strict: "3" is no number, 1 no yes."""
    source, name = OOB_FILES[variant.book]
    raw = json.loads(source.read_text(encoding="utf-8"))
    units, leaders = raw["units"], raw["leaders"]
    foot = [i for i, u in enumerate(units) if u["arm"] == "infantry"]
    gun = next(i for i, u in enumerate(units) if u["arm"] == "artillery")
    general = next(i for i, leader in enumerate(leaders) if leader["role"] == "general")
    strength = units[foot[0]]["strength"]
    units[foot[0]] |= {"bombard": 2, "horse": True, "reduced": strength, "arrival": {"turn": 2, "entry": "1014"}}
    units[foot[1]] |= {"arrival": {"turn": 2}}
    del units[gun]["range"]
    leaders[general] |= {"formation": None, "cavalry": True}
    units[-1]["efficiency"] = "3"  # strict: a number written as a string is a typo, not a number
    units[-2]["charge"] = 1  # nor is 1 a yes
    path = tmp_path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(raw), encoding="utf-8")
    problems: list[DataProblem] = []
    assert load_model(path, pb.OrderOfBattle, tmp_path, problems) is None
    assert {p.file for p in problems} == {name}
    assert {(p.path, p.problem) for p in problems} == {
        (f"$.units[{foot[0]}].bombard", "only artillery has `bombard`"),
        (f"$.units[{foot[0]}].horse", "only artillery has `horse`"),
        (f"$.units[{foot[0]}].reduced", f"`reduced` ({strength}) must be below `strength` ({strength})"),
        (f"$.units[{foot[0]}]", "a unit needs exactly one of `setup` and `arrival`"),
        (f"$.units[{foot[1]}].arrival", "an arrival gives either `turn` and `entry` or its `group`"),
        (f"$.units[{gun}].range", "artillery needs `range`"),
        (f"$.leaders[{general}].formation", "generals and officers belong to a formation"),
        (f"$.leaders[{general}].cavalry", "only officers can be cavalry officers (arrivano §4.6)"),
        (f"$.units[{len(units) - 1}].efficiency", "Input should be a valid integer"),
        (f"$.units[{len(units) - 2}].charge", "Input should be a valid boolean"),
    }, problems


def test_every_die_roll_table_is_one_kernel_model_read_one_way(variant: Variant) -> None:
    """The CRT (§12.5), the bombardment table (caldiero §11.4.4, arrivano §11.4.3) and Arrivano's infantry fire table
    (§16.3.2) are one kernel `DieTable`: checked alike (a row missing a column is named at its path) and read alike,
    a modified roll beyond the first or last row reading that row (§12.5.2 in both; the fire table read so too)."""
    data = (caldiero.CALDIERO_DATA if variant.book == "caldiero" else arrivano.ARRIVANO_DATA).shipped().tables
    found = [data.crt, data.bombardment, *data.own.values()]
    assert all(isinstance(t, pb.DieTable) for t in found) and len(found) == (2 if variant.book == "caldiero" else 3)
    for table in found:
        rolls = sorted(int(r) for r in table.rows)
        assert (table.row(rolls[0] - 9), table.row(rolls[-1] + 9), table.row(rolls[1])) == (rolls[0], rolls[-1], rolls[1])
        first = str(rolls[0])
        broken = table.model_copy(update={"rows": {**table.rows, first: dict(list(table.rows[first].items())[1:])}})
        assert [path for path, _ in broken.checks()] == [f"$.rows.{first}"]


def test_a_commanders_movement_is_his_counters_else_the_scenarios_and_one_is_required(variant: Variant) -> None:
    """D31 as data, one rule for both books: a commander moves by his counter's allowance (caldiero §2.2.1: every
    Caldiero counter prints 6), else by the scenario's `commander_movement` (arrivano §9.1.4 with §17.1.2: 6 at
    Montebello; no Arrivano counter prints one). A folder giving neither is refused at load at the counter's path (a
    Caldiero counter without it moved 0 MP before), and a counter's own value wins over the scenario's; the scenario's
    names the rule giving it (required with it, `ScenarioFile.problems`), which his refusals cite."""
    data = caldiero.CALDIERO_DATA if variant.book == "caldiero" else arrivano.ARRIVANO_DATA
    name = "caldiero" if variant.book == "caldiero" else "montebello"
    shipped = data.shipped().scenarios[name]
    assert {shipped.commander_movement(le.id) for le in shipped.oob.leaders} == {6}
    files = data.read_folder(data.folder)
    oob, scenario = json.loads(files[f"{name}/oob.json"]), json.loads(files[f"{name}/scenario.json"])
    for leader in oob["leaders"][1:]:
        leader["movement"] = 4
    oob["leaders"][0].pop("movement", None)
    scenario.pop("commander_movement", None)
    files[f"{name}/oob.json"], files[f"{name}/scenario.json"] = json.dumps(oob), json.dumps(scenario)
    with pytest.raises(DataError) as caught:
        data.from_files(files)
    assert [(p.file, p.path) for p in caught.value.problems] == [(f"{name}/oob.json", "$.leaders[0].movement")]
    assert "caldiero §2.2.1" in caught.value.problems[0].problem
    scenario["commander_movement"], scenario["commander_movement_rule"] = 2, f"{variant.book} §17.1.2"
    files[f"{name}/scenario.json"] = json.dumps(scenario)
    mine = data.from_files(files).scenarios[name]
    assert [mine.commander_movement(le.id) for le in mine.oob.leaders[:2]] == [2, 4]
    # the scenario's rule is cited for the commander it gives the movement of, none for a counter printing his own
    assert [mine.commander_movement_cited(le.id) for le in mine.oob.leaders[:2]] == [f"{variant.book} §17.1.2", ""]
