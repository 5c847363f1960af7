"""Caricat!'s data: every hex the rules name exists where they put it, the parity's evidence holds, the values the
text gives are the text's, and what it does not give is marked provisional (caricat §13, §14)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from arbitro.adjudicator.caricat.loader import DATA, default_data, load_data
from arbitro.adjudicator.datafiles import DataError

DATA_ = default_data()


def test_pastrengo_names_every_hex_the_rules_put_on_the_map():
    s = DATA_.scenarios["pastrengo"]
    grid = s.map.grid
    assert s.file.bridge is not None and (s.file.bridge.hex, s.file.bridge.across) == ("3601", "3700")  # §13.2.2
    assert grid.is_adjacent("3601", "3700")  # the bridge touches Ponton (§13.1.1): the parity's evidence
    assert set(s.file.loc["austrian"].hexes) == {"3700", "2417"}  # §13.1.1
    assert "2417" in s.map.place("strada per Bussolengo") and grid.is_edge("2417")  # §13.3.3
    assert grid.contains("1317")  # §13.1.2
    assert "ponte" in s.map.hexside_features("3601", "3700") and "fiume" in s.map.hexside_features("3601", "3700")
    for edge in s.file.loc["italian"].hexes:  # Sandrà, Lazise, S. Giustina roads reach the map's edge
        assert grid.is_edge(edge) and s.map.roads_at(edge)
    assert any(o.name == "Pastrengo" and "italian" in o.friendly_for for o in s.file.objectives)  # §13.1.4


def test_montebello_names_voghera_santa_giulietta_and_the_road_hex():
    s = DATA_.scenarios["montebello"]
    assert s.file.loc["italian"].hexes == ("1216",)
    assert set(s.file.loc["austrian"].hexes) == {"3808", "3800"}
    for h in ("1216", "3808", "3800"):
        assert s.map.roads_at(h), h  # the lines run along roads to them (§11)


def test_the_texts_values_are_the_texts():
    sysd = DATA_.system
    assert (sysd.movement.infantry, sysd.movement.cavalry, sysd.movement.leader) == (4, 9, 9)  # §6
    assert (sysd.cavalry_activation.italian, sysd.cavalry_activation.austrian) == (8, 6)  # §4.2
    bands = [(b.low, b.high, b.loser_losses, b.retreat) for b in sysd.melee_bands]
    assert bands == [(0, 0, 1, 0), (1, 3, 1, 1), (4, 6, 2, 1), (7, 8, 3, 2), (9, 99, 4, 0)]  # §7.2.1
    assert not sysd.meta.provisional
    p = DATA_.scenarios["pastrengo"].file
    assert p.turns == 10 and DATA_.scenarios["montebello"].file.turns == 10  # §13.1, §14.1
    assert p.leader("trotti").level == "reserve" and p.leader("sigismund").level == "reserve"  # §13.1.2-13.1.3
    m = DATA_.scenarios["montebello"].file
    assert [m.leader(k).level for k in ("blanchard", "schattgotsche", "gaal", "bils", "hessen")] == \
        ["hold", "hold", "reserve", "reserve", "reserve"]  # §14.1.2-14.1.6


@pytest.mark.parametrize("scenario", ["pastrengo", "montebello"])
def test_reconstructed_data_is_marked_provisional_and_reported(scenario):
    from arbitro.adjudicator.caricat import CaricatRuleset
    items = CaricatRuleset().provisional(scenario)
    assert any("terrain effects table" in i for i in items)
    assert any(f"{scenario} map" in i for i in items)
    assert any("counter values" in i for i in items)


def test_a_broken_data_file_reports_every_problem_with_file_and_path(tmp_path: Path):
    folder = tmp_path / "data"
    shutil.copytree(DATA, folder)
    p = json.loads((folder / "pastrengo.json").read_text())
    p["units"][0]["hex"] = "9999"
    p["units"][1]["hex"] = p["units"][2]["hex"]
    p["leaders"][0]["unit"] = "nobody"
    (folder / "pastrengo.json").write_text(json.dumps(p))
    with pytest.raises(DataError) as caught:
        load_data(folder)
    text = str(caught.value)
    assert "pastrengo.json: $.units[0].hex" in text and "off the grid" in text
    assert "pastrengo.json: $.units[2].hex" in text and "caricat §5" in text
    assert "pastrengo.json: $.leaders[0].unit" in text
