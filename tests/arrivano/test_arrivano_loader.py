"""The Arrivano data loader validates every file and reports corruption precisely (file, JSON path, fault)."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from arbitro.adjudicator.arrivano.data_model import ARRIVANO_DATA
from arbitro.adjudicator.arrivano.ruleset import ArrivanoRulesetImpl
from arbitro.adjudicator.datafiles import DataError


def test_every_data_file_loads() -> None:
    data = ARRIVANO_DATA.load()
    assert sorted(data.scenarios) == ["campotenese", "montebello"]
    assert data.scenarios["montebello"].movement.keys() == {0}
    assert data.scenarios["campotenese"].movement.keys() == {1, 2, 3}


def test_every_json_file_is_validated_by_the_loader() -> None:
    """No data file escapes validation: the files the loader reads are exactly the files present."""
    data = ARRIVANO_DATA.load()
    read = {"tables/crt.json", "tables/bombardment.json", "tables/infantry_fire.json", "tables/terrain.json",
            "tables/orders.json", "tables/movement.json", "tables/rules.json", "options.json", "interpretations.json"}
    for name, s in data.scenarios.items():
        read |= {f"{name}/scenario.json", f"{name}/oob.json", f"{name}/map.json"}
        if s.weather:
            read.add(f"{name}/weather.json")
            read |= {box.movement_table for box in s.weather.boxes}  # type: ignore[misc]
    present = {p.relative_to(ARRIVANO_DATA.folder).as_posix() for p in ARRIVANO_DATA.files()}
    assert present == read


def test_provisional_items_name_the_reconstructions() -> None:
    """What campotenese's reconstructions are, as its files mark them (tests/parabellum/test_provisional.py checks
    the report against every mark)."""
    text = "\n".join(ArrivanoRulesetImpl().provisional("campotenese"))
    for word in ("combat results table", "bombardment table", "campotenese/map.json", "turns_provisional", "units ("):
        assert word in text


# --- corrupted copies ------------------------------------------------------------------------------------
Mutator = Callable[[Any], None]


def _corrupt(tmp_path: Path, relative: str, mutate: Mutator) -> Path:
    copy = tmp_path / "data"
    shutil.copytree(ARRIVANO_DATA.folder, copy)
    target = copy / relative
    doc = json.loads(target.read_text(encoding="utf-8"))
    mutate(doc)
    target.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    return copy


def _problems(data_dir: Path) -> list[str]:
    with pytest.raises(DataError) as caught:
        ARRIVANO_DATA.load(data_dir)
    return [str(p) for p in caught.value.problems]


def _index(items: list[dict[str, Any]], item_id: str) -> int:
    return next(i for i, item in enumerate(items) if item["id"] == item_id)


def _unit(doc: dict[str, Any], unit_id: str) -> dict[str, Any]:
    return doc["units"][_index(doc["units"], unit_id)]


def test_wrong_type_names_file_path_and_fault(tmp_path: Path) -> None:
    def mutate(doc: Any) -> None:
        _unit(doc, "ir18-i")["strength"] = "five"

    problems = _problems(_corrupt(tmp_path, "montebello/oob.json", mutate))
    at = _index(json.loads((ARRIVANO_DATA.folder / "montebello/oob.json").read_text(encoding="utf-8"))["units"], "ir18-i")
    assert any(p.startswith(f"montebello/oob.json: $.units[{at}].strength: ") and "integer" in p for p in problems), problems


def test_invalid_json_names_file_and_line(tmp_path: Path) -> None:
    copy = tmp_path / "data"
    shutil.copytree(ARRIVANO_DATA.folder, copy)
    (copy / "tables/crt.json").write_text('{"meta": {\n  "title": ,}', encoding="utf-8")
    problems = _problems(copy)
    assert any(p.startswith("tables/crt.json: line 2 column 12: not valid JSON") for p in problems), problems


def test_unknown_key_is_an_error(tmp_path: Path) -> None:
    def mutate(doc: Any) -> None:
        doc["turnz"] = 12

    problems = _problems(_corrupt(tmp_path, "campotenese/scenario.json", mutate))
    assert any(p.startswith("campotenese/scenario.json: $.turnz: ") for p in problems), problems


def test_setup_hex_off_the_map(tmp_path: Path) -> None:
    def mutate(doc: Any) -> None:
        _unit(doc, "art-centro")["setup"]["hexes"] = ["9950"]

    problems = _problems(_corrupt(tmp_path, "campotenese/oob.json", mutate))
    at = _index(json.loads((ARRIVANO_DATA.folder / "campotenese/oob.json").read_text(encoding="utf-8"))["units"], "art-centro")
    assert f"campotenese/oob.json: $.units[{at}].setup.hexes[0]: hex 9950 is not on the map campotenese/map.json" in problems
    # the redoubt check sees it too
    assert any(p.startswith("campotenese/scenario.json: $.redoubts[1].battery: ") for p in problems), problems


def test_unknown_entry_letter(tmp_path: Path) -> None:
    def mutate(doc: Any) -> None:
        doc["reinforcements"][0]["entry"] = "Z"

    problems = _problems(_corrupt(tmp_path, "montebello/oob.json", mutate))
    assert ("montebello/oob.json: $.reinforcements[0].entry: entry flag 'Z' is not defined in "
            "montebello/scenario.json $.entry_hexes") in problems


def test_entry_hex_not_on_the_edge(tmp_path: Path) -> None:
    def mutate(doc: Any) -> None:
        doc["entry_hexes"]["B"]["hex"] = "2208"

    problems = _problems(_corrupt(tmp_path, "campotenese/scenario.json", mutate))
    assert "campotenese/scenario.json: $.entry_hexes.B.hex: hex 2208 is not on the map edge" in problems


def test_reinforcement_group_and_units_must_agree(tmp_path: Path) -> None:
    def mutate(doc: Any) -> None:
        _unit(doc, "28e-i")["arrival"] = {"group": "mb-fr-t6-A"}

    problems = _problems(_corrupt(tmp_path, "montebello/oob.json", mutate))
    assert any(".arrival.group: group 'mb-fr-t6-A' does not list '28e-i'" in p for p in problems), problems
    assert any(p.startswith("montebello/oob.json: $.reinforcements[0].units[0]: '28e-i' does not arrive") for p in problems)


def test_setup_over_stacking_limit(tmp_path: Path) -> None:
    def mutate(doc: Any) -> None:
        _unit(doc, "rf-granatieri")["setup"]["hexes"] = ["2811"]  # two infantry: arrivano §17.2.3 forbids

    problems = _problems(_corrupt(tmp_path, "campotenese/oob.json", mutate))
    assert any("set-up hex 2811 holds" in p and "arrivano §17.2.3" in p for p in problems), problems


def test_redoubt_terrain_must_be_a_redoubt(tmp_path: Path) -> None:
    def mutate(doc: Any) -> None:
        doc["hexes"]["2712"]["terrain"] = "pianura"

    problems = _problems(_corrupt(tmp_path, "campotenese/map.json", mutate))
    assert "campotenese/scenario.json: $.redoubts[0].hex: hex 2712 is 'pianura' on the map, not 'ridotta'" in problems


def test_map_errors_come_from_the_shared_map_loader(tmp_path: Path) -> None:
    def mutate(doc: Any) -> None:
        doc["roads"][0]["hexes"][3] = "1520"

    problems = _problems(_corrupt(tmp_path, "montebello/map.json", mutate))
    assert any(p.startswith("montebello/map.json: $.roads[0].hexes[") and "adjacent" in p for p in problems), problems


def test_map_terrain_needs_a_terrain_table_entry(tmp_path: Path) -> None:
    def mutate(doc: Any) -> None:
        del doc["terrain"]["grano"]

    problems = _problems(_corrupt(tmp_path, "tables/terrain.json", mutate))
    assert "tables/terrain.json: $.terrain: no entry for terrain 'grano' of montebello/map.json" in problems


def test_crt_result_code_and_completeness(tmp_path: Path) -> None:
    def mutate(doc: Any) -> None:
        doc["rows"]["3"]["2-1"] = "XX"
        del doc["rows"]["4"]["6-1"]

    problems = _problems(_corrupt(tmp_path, "tables/crt.json", mutate))
    assert any(p.startswith("tables/crt.json: $.rows.3.2-1: ") for p in problems), problems


def test_crt_missing_column(tmp_path: Path) -> None:
    def mutate(doc: Any) -> None:
        del doc["rows"]["4"]["6-1"]

    problems = _problems(_corrupt(tmp_path, "tables/crt.json", mutate))
    assert any(p.startswith("tables/crt.json: $.rows.4: must give exactly the columns") and "missing ['6-1']" in p
               for p in problems), problems


def test_weather_transitions_must_name_boxes(tmp_path: Path) -> None:
    def mutate(doc: Any) -> None:
        doc["change"]["2"] = [1, 2, 2, 2, 4, 3]

    problems = _problems(_corrupt(tmp_path, "campotenese/weather.json", mutate))
    assert "campotenese/weather.json: $.change.2: must give 6 boxes (one per die face) among [1, 2, 3]" in problems


def test_interpretation_default_must_be_a_choice(tmp_path: Path) -> None:
    def mutate(doc: Any) -> None:
        doc["interpretations"][0]["default"] = "nonsense"

    problems = _problems(_corrupt(tmp_path, "interpretations.json", mutate))
    assert any(p.startswith("interpretations.json: $.interpretations[0].default: ") and "'nonsense'" in p
               for p in problems), problems


def test_provisional_list_names_real_fields(tmp_path: Path) -> None:
    def mutate(doc: Any) -> None:
        _unit(doc, "ir18-i")["provisional"] = ["strenght"]

    problems = _problems(_corrupt(tmp_path, "montebello/oob.json", mutate))
    assert any(p.startswith("montebello/oob.json: $.units[") and p.endswith("].provisional: names unknown fields: strenght")
               for p in problems), problems


def test_march_order_unit_of_another_formation(tmp_path: Path) -> None:
    def mutate(doc: Any) -> None:
        doc["march_orders"][0]["units"].append("ir18-i")

    problems = _problems(_corrupt(tmp_path, "montebello/scenario.json", mutate))
    assert any(p.startswith("montebello/scenario.json: $.march_orders[0].units[") and "'ir18-i' is not a unit of "
               "formation 'O'" in p for p in problems), problems


def test_franceschi_column_is_checked_as_a_march_order(tmp_path: Path) -> None:
    """arrivano §17.2.9's column and §17.1.5's march orders: one check that a column's commander and units are of its
    formation (data_model._members), the same words for both."""
    def mutate(doc: Any) -> None:
        doc["franceschi"].update(leader="verdier", units=[*doc["franceschi"]["units"][:5], "art-centro"])

    problems = _problems(_corrupt(tmp_path, "campotenese/scenario.json", mutate))
    assert [p for p in problems if "$.franceschi" in p] == [
        "campotenese/scenario.json: $.franceschi.leader: 'verdier' is not a leader of formation 'C'",
        "campotenese/scenario.json: $.franceschi.units[5]: 'art-centro' is not a unit of formation 'C'"]


def test_missing_file(tmp_path: Path) -> None:
    copy = tmp_path / "data"
    shutil.copytree(ARRIVANO_DATA.folder, copy)
    (copy / "campotenese/weather.json").unlink()
    assert "campotenese/weather.json: $: file not found" in _problems(copy)


def test_every_problem_is_reported_at_once(tmp_path: Path) -> None:
    copy = _corrupt(tmp_path, "options.json", lambda doc: doc["options"]["open_order"].pop("rule"))
    target = copy / "tables/orders.json"
    doc = json.loads(target.read_text(encoding="utf-8"))
    del doc["orders"]["attack"]
    target.write_text(json.dumps(doc), encoding="utf-8")
    problems = _problems(copy)
    assert any(p.startswith("options.json: $.options.open_order.rule: ") for p in problems), problems
    assert any(p.startswith("tables/orders.json: $.orders: ") and "missing orders: attack" in p for p in problems), problems


def test_ruleset_views_of_the_data() -> None:
    ruleset = ArrivanoRulesetImpl()
    scenarios = ruleset.scenarios()
    assert scenarios["montebello"].seats == ("france", "austria")
    assert scenarios["campotenese"].seats == ("france", "naples")
    assert scenarios["campotenese"].options == ("hq_orders", "independent_columns", "light_troops_retreat", "open_order",
                                                "physical_exhaustion")
    readings = ruleset.interpretations()
    assert readings["dr_rout_retreat"].default == "additional_2"
    assert all(r.default in r.choices and r.phrase and r.rule.startswith("arrivano §") for r in readings.values())


def test_every_name_scenario_json_gives_is_checked_once(tmp_path: Path) -> None:
    """The kernel's one check of names (parabellum/loader.unknown_names), for every field that names a side, a
    commander, a place or a hex, however deep: each problem at once with its file and path (a step differential's
    side, arrivano §17.2.12, was never checked before)."""
    def mutate(doc: Any) -> None:
        doc["initiative_tie_winner"] = "prussia"
        victory = doc["victory"]
        victory["objectives"][0]["place"] = "Atlantis"
        victory["automatic"][0].update(winner="prussia", leaders=["nobody"], hexes=["9950"])
        victory["step_differential"] = {"side": "prussia", "vp_per_step": 1, "commander_steps": 1}

    problems = _problems(_corrupt(tmp_path, "montebello/scenario.json", mutate))
    seats = "(seats: france, austria)"
    assert [p for p in problems if p.startswith("montebello/scenario.json")] == [
        f"montebello/scenario.json: $.initiative_tie_winner: unknown side 'prussia' {seats}",
        "montebello/scenario.json: $.victory.objectives[0].place: no place 'Atlantis' on the map montebello/map.json",
        f"montebello/scenario.json: $.victory.step_differential.side: unknown side 'prussia' {seats}",
        f"montebello/scenario.json: $.victory.automatic[0].winner: unknown side 'prussia' {seats}",
        "montebello/scenario.json: $.victory.automatic[0].leaders[0]: unknown leader 'nobody'",
        "montebello/scenario.json: $.victory.automatic[0].hexes[0]: hex 9950 is not on the map montebello/map.json"]


def test_the_options_offered_are_options_json_s() -> None:
    """The optional rules a game may choose (arrivano §16) are options.json's, as Caldiero's are its scenario file's:
    a folder without hq_orders (§16.1) offers it in no scenario."""
    ruleset = ArrivanoRulesetImpl()
    files = ruleset.read_data(ARRIVANO_DATA.folder)
    doc = json.loads(files["options.json"])
    del doc["options"]["hq_orders"]
    files["options.json"] = json.dumps(doc, ensure_ascii=False)
    with ruleset.using_data(files):
        offered = {name: s.options for name, s in ruleset.scenarios().items()}
    assert offered == {name: ("independent_columns", "light_troops_retreat", "open_order", "physical_exhaustion")
                       for name in ("campotenese", "montebello")}


def test_an_option_no_code_implements_is_refused(tmp_path: Path) -> None:
    """What an option does is code (data_model.IMPLEMENTED_OPTIONS, the set its readers use): an options.json key
    outside it is refused with its path, beside the file's other problems, not offered and played as if absent."""
    def mutate(doc: dict[str, Any]) -> None:
        doc["options"]["ritirata_notturna"] = {"title": "Night retreat", "rule": "arrivano §16.9", "summary": "",
                                               "scenario_rules": []}
        doc["options"]["open_order"]["requires"] = ["nope"]
    assert _problems(_corrupt(tmp_path, "options.json", mutate)) == [
        "options.json: $.options.ritirata_notturna: no rule of this build implements it (implemented: hq_orders, "
        "independent_columns, light_troops_retreat, open_order, physical_exhaustion)",
        "options.json: $.options.open_order.requires[0]: option open_order requires unknown option 'nope'"]
