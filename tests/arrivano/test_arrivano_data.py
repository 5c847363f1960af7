"""The Arrivano data agrees with the rulebook: every hex the rules name, set-ups, reinforcements, scenario rules.

The expectations below are transcribed from arrivano-i-francesi.it.md independently of the data files, so a
data edit that contradicts the text fails here. Names are the data's unit/leader display names.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from arbitro.adjudicator.arrivano.data_model import ARRIVANO_DATA
from arbitro.adjudicator.parabellum.loader import GameData as ArrivanoData, ScenarioData
from arbitro.adjudicator.parabellum.stacking import SECTION_7_1, fits_stacking
from arbitro.adjudicator.maps.costs import step_cost

DOC = Path(__file__).resolve().parents[2] / "docs" / "rulesets" / "arrivano.md"


@pytest.fixture(scope="module")
def data() -> ArrivanoData:
    return ARRIVANO_DATA.load()


@pytest.fixture(scope="module")
def montebello(data: ArrivanoData) -> ScenarioData:
    return data.scenarios["montebello"]


@pytest.fixture(scope="module")
def campotenese(data: ArrivanoData) -> ScenarioData:
    return data.scenarios["campotenese"]


# --- every hex the rulebook names, with the section naming it --------------------------------------------------
# (scenario, hex, terrain the text implies or None when it says nothing, section)
NAMED_HEXES = [
    ("montebello", "2815", "villaggio", "arrivano §17.1.5 (Corvino, march objective of Vogelsang)"),
    ("montebello", "2312", "villaggio", "arrivano §17.1.5 (Mairano, march objective of Retz)"),
    ("montebello", "2011", "villaggio", "arrivano §17.1.5 (Casteggio, march objective of Schellenberg)"),
    ("campotenese", "2712", "ridotta", "arrivano §17.2 set-up, §17.2.6 (Art. destra della Ridotta)"),
    ("campotenese", "2713", "ridotta", "arrivano §17.2 set-up, §17.2.6 (Art. Centro della Ridotta)"),
    ("campotenese", "2615", "ridotta", "arrivano §17.2 set-up, §17.2.6 (Art. Sinistra della Ridotta)"),
    ("campotenese", "1401", None, "arrivano §17.2 set-up (entry A, turns 1 and 4)"),
    ("campotenese", "2201", None, "arrivano §17.2 set-up (entry B, turn 2)"),
    ("campotenese", "3418", None, "arrivano §17.2.12 (Neapolitan automatic victory hex)"),
]

# arrivano §17.1 set-up table ("Uno scontro di avanguardie - piazzamento iniziale")
MONTEBELLO_SETUP = {
    "FML Ott": "2912", "O'Reilly": "3109", "Schustekh": "2811", "Mariassy Jäger": "3509",
    "Light bataillon Bach": "3312", "Light bataillon Am Ende": "3309", "Light Cavalry Jäger de Bussy": "2909",
    "Otočac Grenzer": "3310", "Warasdin Kreuzer Grenzer": "3110", "Banat Grenzer": "3208",
    "Nauendorff Hussars I": "2810", "Nauendorff Hussars II": "2809", "Art. O'Reilly": "2710",
    "Art. Schustekh": "2811",
    "Gottesheim": "2715", "Art. Gottesheim": "2914", "IR Graf Stuart 18 - I": "2514", "IR Graf Stuart 18 - II": "3114",
    "IR Graf Stuart 18 - III": "2616", "IR Colloredo Waldsee 57 - I": "2815", "IR Colloredo Waldsee 57 - II": "2415",
    "IR Colloredo Waldsee 57 - III": "3016",
    "Vogelsang": "1315", "Art. Vogelsang": "1515", "IR Fröhlich 28 - I": "1715", "IR Fröhlich 28 - II": "1416",
    "IR Fröhlich 28 - III": "1616",
    "Schellenberg": "1311", "Letzenyi": "1310", "Retz": "1613", "Sticker": "1411", "Art. Schellenberg": "1510",
    "Ogulin Grenzer": "1309", "IR Hohenlohe 17 - I": "1410", "IR Hohenlohe 17 - II": "1310",
    "IR Mittrowski 40 - I": "1712", "IR Mittrowski 40 - II-III": "1513", "IR Reisky 13 - I": "1713",
    "IR Reisky 13 - II-III": "1613", "Lobkowitz Dragoons (1)": "1311", "Lobkowitz Dragoons (2)": "1411",
    "Lobkowitz Dragoons (3)": "1212", "IR Splenyi 51 - I": "1610", "IR Splenyi 51 - II": "1709",
}

# arrivano §17.2 set-up table ("A lento passo - piazzamento iniziale"); two hexes where the text prints a range
CAMPOTENESE_SETUP = {
    "Damas": ["3316"], "Nunziante": ["3115"], "Pignatelli Cerchiara": ["3115"], "Pinedo": ["3014"],
    "Avallon": ["3015"], "Real Principessa": ["3115", "3113"], "Real Sanniti": ["3214", "3215"],
    "Cacciatori Calabri": ["3014"], "Cavalleria Principe II": ["3015"],
    "Tschudy": ["2812"], "Maggiore (Tschudy)": ["2813"], "Reg.na Carolina I fucilieri": ["2811", "2813"],
    "Reg.na Carolina I reclute": ["2712", "2812"], "Real Ferdinando granatieri": ["2710"],
    "Art. destra della Ridotta": ["2712"],
    "Ricci": ["2814"], "Roth": ["3016"], "Maggiore (Ricci)": ["2713"], "Real Ferdinando 1° fucilieri": ["2713", "2815"],
    "Real Ferdinando 2° granatieri": ["2814"], "Cavalleria Principessa": ["3016"], "Cavalleria Re 1": ["3316"],
    "Art. Centro della Ridotta": ["2713"],
    "Zimmermann": ["2616"], "Mirabelli": ["1611"], "Maggiore (Zimmermann)": ["2516"],
    "Reg. Carolina II fucilieri": ["2515", "2616"], "Real Principe I fucilieri": ["2415", "2715"],
    "Re Ferdinando reclute": ["1611"], "Real Abruzzi 1° fucilieri": ["2615", "2314"],
    "Art. Sinistra della Ridotta": ["2615"],
}

# arrivano §17.1 set-up, "Corpo di Lannes": (turn, entry flag, names arriving)
MONTEBELLO_REINFORCEMENTS = [
    (1, "B", {"Lannes", "Mainoni", "28e de Ligne - I", "28e de Ligne - II", "28e de Ligne - III"}),
    (2, "B", {"Rivaud (Jean)", "Garde consulaire", "12e Hussars"}),
    (2, "C", {"Watrin", "Gency", "Art. Watrin", "6e Légère - I", "6e Légère - II", "6e Légère - III"}),
    (3, "C", {"Malher", "22e de Ligne - I", "22e de Ligne - II", "22e de Ligne - III", "40e de Ligne - I",
              "40e de Ligne - II", "40e de Ligne - III"}),
    (5, "A", {"Chambarlac", "Herbin", "Art. Herbin", "24e Légère - I", "24e Légère - II", "24e Légère - III"}),
    (6, "A", {"Rivaud (Olivier)", "Art. Rivaud", "96e de Ligne - I", "96e de Ligne - II", "96e de Ligne - III",
              "43e de Ligne - I", "43e de Ligne - II", "43e de Ligne - III"}),
]

# arrivano §17.2 set-up, "Divisione Reynier": (turn, hex, leaders, counts of counters by name prefix)
CAMPOTENESE_REINFORCEMENTS = [
    (1, "1401", {"Reynier", "Compère", "Bourgeois", "Huard"}, {"42° di linea (": 2, "1° Leggero (": 4, "1° Svizzero (": 2}),
    (2, "2201", {"Verdier", "Abbé", "Peiry"},
     {"1° Leggero (": 2, "1° Polacco (": 2, "42° di linea III bat.": 1, "23° Leggero I bat.": 1, "Art. 3pdr. da montagna": 1}),
    (4, "1401", {"Franceschi"}, {"6° Chasseurs (": 2, "9° Chasseurs (": 4}),
]


def _names_at(s: ScenarioData) -> dict[str, list[str]]:
    return {item.name: item.setup.hexes for item in [*s.oob.leaders, *s.oob.units] if item.setup is not None}


@pytest.mark.parametrize(("scenario", "hex_id", "terrain", "section"), NAMED_HEXES)
def test_named_hex_exists_with_stated_terrain(data: ArrivanoData, scenario: str, hex_id: str, terrain: str | None,
                                              section: str) -> None:
    hexmap = data.scenarios[scenario].map
    assert hexmap.grid.contains(hex_id), f"{hex_id} ({section}) is not on the {scenario} map"
    if terrain is not None:
        assert hexmap.terrain(hex_id) == terrain, f"{hex_id} ({section})"


def test_montebello_named_places(montebello: ScenarioData) -> None:
    places = montebello.map.places
    assert places["Corvino"] == ("2815",)  # arrivano §17.1.5
    assert places["Mairano"] == ("2312",)  # arrivano §17.1.5
    assert "2011" in places["Casteggio"]  # arrivano §17.1.5
    # arrivano §10.1: every village covers one hex except Casteggio, and every village has a road
    villages = {h for h in montebello.map.hexes() if montebello.map.terrain(h) == "villaggio"}
    by_name: dict[str | None, set[str]] = {}
    for h in villages:
        by_name.setdefault(montebello.map.hex(h).name, set()).add(h)
    assert None not in by_name, "arrivano §10.1: villages carry their name"
    assert len(by_name["Casteggio"]) > 1
    assert all(len(hexes) == 1 for name, hexes in by_name.items() if name != "Casteggio")
    for name, hexes in sorted((k or "", v) for k, v in by_name.items()):
        assert any(montebello.map.roads_at(h) for h in hexes), f"arrivano §10.1: village {name} has no road"


def test_campotenese_named_places(campotenese: ScenarioData) -> None:
    morano = campotenese.map.places["Morano Calabro"]  # arrivano §17.2.12
    assert len(morano) == 1 and campotenese.map.terrain(morano[0]) == "villaggio"
    assert sorted(campotenese.map.places["Ridotte di Campotenese"]) == ["2615", "2712", "2713"]  # §17.2.6
    for h in campotenese.map.hexes():
        if campotenese.map.terrain(h) == "villaggio":
            assert campotenese.map.roads_at(h), f"arrivano §10.1: village at {h} has no road"


def test_montebello_setup_matches_the_rulebook(montebello: ScenarioData) -> None:
    placed = _names_at(montebello)
    assert {name: hexes[0] for name, hexes in placed.items()} == MONTEBELLO_SETUP
    assert all(len(hexes) == 1 for hexes in placed.values())


def test_campotenese_setup_matches_the_rulebook(campotenese: ScenarioData) -> None:
    assert _names_at(campotenese) == CAMPOTENESE_SETUP


@pytest.mark.parametrize("scenario", ["montebello", "campotenese"])
def test_setup_hexes_are_on_the_map(data: ArrivanoData, scenario: str) -> None:
    s = data.scenarios[scenario]
    for name, hexes in sorted(_names_at(s).items()):
        for h in hexes:
            assert s.map.grid.contains(h), f"{name} sets up in {h}, off the {scenario} map"


def test_campotenese_setup_ranges_obey_stacking_both_ways(campotenese: ScenarioData) -> None:
    # interpretation campotenese_setup_ranges: 'either_hex' (first hex: checked by the loader) or 'two_counters'
    stacks: dict[str, list[tuple[str, str]]] = {}
    for u in campotenese.oob.units:
        assert u.setup is not None or u.arrival is not None
        for h in (u.setup.hexes if u.setup else []):
            stacks.setdefault(h, []).append((u.arm, u.formation))
    patterns = campotenese.scenario.stacking.allowed
    for h, stack in sorted(stacks.items()):
        arms, formations = [a for a, _ in stack], [f for _, f in stack]
        assert fits_stacking(arms, formations, patterns), f"{h}: {stack} (arrivano §17.2.3)"


def test_stacking_patterns_reject_what_the_rules_forbid(montebello: ScenarioData, campotenese: ScenarioData) -> None:
    general, strict = montebello.scenario.stacking.allowed, campotenese.scenario.stacking.allowed
    assert fits_stacking(["infantry", "infantry"], ["S", "S"], general)  # arrivano §7.1
    assert not fits_stacking(["infantry", "infantry"], ["S", "G"], general)
    assert not fits_stacking(["infantry", "cavalry"], ["S", "S"], general)
    assert fits_stacking(["artillery", "cavalry"], ["S", "G"], general)
    assert fits_stacking(["artillery", "artillery"], ["S", "G"], general)
    assert not fits_stacking(["artillery", "artillery", "infantry"], ["S", "S", "S"], general)
    assert not fits_stacking(["infantry", "infantry"], ["T", "T"], strict)  # arrivano §17.2.3 c)
    assert fits_stacking(["cavalry", "cavalry"], ["R", "R"], strict)  # §17.2.3 a)
    assert fits_stacking(["artillery", "infantry"], ["T", "Z"], strict)  # §17.2.3 b)
    assert not fits_stacking(["artillery", "artillery"], ["T", "Z"], strict)


def test_montebello_prints_the_systems_stacking(montebello: ScenarioData) -> None:
    """arrivano §7.1 is caldiero §7.1: Montebello's data file holds the kernel's SECTION_7_1, no more, no less."""
    printed = [p for p in montebello.scenario.stacking.allowed]
    assert sorted(printed, key=repr) == sorted(SECTION_7_1, key=repr)


def test_montebello_reinforcements(montebello: ScenarioData) -> None:
    names = {item.id: item.name for item in [*montebello.oob.leaders, *montebello.oob.units]}
    schedule = [(g.turn, g.entry, {names[i] for i in [*g.leaders, *g.units]}) for g in montebello.oob.reinforcements]
    assert sorted(schedule, key=lambda x: (x[0], x[1])) == MONTEBELLO_REINFORCEMENTS
    assert all(g.order == "any" for g in montebello.oob.reinforcements)  # arrivano §17.1.2


def test_campotenese_reinforcements(campotenese: ScenarioData) -> None:
    names = {item.id: item.name for item in [*campotenese.oob.leaders, *campotenese.oob.units]}
    got = []
    for g in sorted(campotenese.oob.reinforcements, key=lambda g: g.turn):
        counts: dict[str, int] = {}
        for unit_id in g.units:
            name = names[unit_id]
            prefix = name.split("(")[0] + "(" if "(" in name else name
            counts[prefix] = counts.get(prefix, 0) + 1
        got.append((g.turn, campotenese.scenario.entry_hexes[g.entry].hex, {names[i] for i in g.leaders}, counts))
    assert got == CAMPOTENESE_REINFORCEMENTS
    assert {g.order for g in campotenese.oob.reinforcements} == {"advance"}  # set-up '(Avanzata)', §15.4.1


def test_entry_hexes_exist_on_the_map_edge(data: ArrivanoData) -> None:
    for name, s in sorted(data.scenarios.items()):
        for group in s.oob.reinforcements:
            h = s.scenario.entry_hexes[group.entry].hex
            assert s.map.grid.contains(h), f"{name}: entry {group.entry} ({h})"
            assert len(s.map.grid.neighbours(h)) < 6, f"{name}: entry {group.entry} ({h}) is not on the map edge"
    campotenese = data.scenarios["campotenese"].scenario
    assert campotenese.entry_hexes["A"].hex == "1401" and campotenese.entry_hexes["B"].hex == "2201"
    montebello = data.scenarios["montebello"]
    # arrivano §17.1.5: the Austrians march toward Stradella, whence the French come: the Stradella edge
    stradella = set(montebello.map.places[montebello.scenario.march_direction.place])  # type: ignore[union-attr]
    assert {f.hex for f in montebello.scenario.entry_hexes.values()} <= stradella
    assert sorted(montebello.scenario.entry_hexes) == ["A", "B", "C"]


def test_march_orders(montebello: ScenarioData) -> None:
    objectives = {(o.leader, o.objective) for o in montebello.scenario.march_orders}
    assert objectives == {("vogelsang", "2815"), ("retz", "2312"), ("schellenberg", "2011")}  # arrivano §17.1.5
    stradella = montebello.scenario.march_direction
    assert stradella is not None and stradella.toward == "Stradella"
    # marching toward Stradella moves every group closer to the Stradella edge
    edge = montebello.map.places[stradella.place]
    grid = montebello.map.grid
    for order in montebello.scenario.march_orders:
        start = montebello.leader(order.leader).setup.hexes[0]  # type: ignore[union-attr]
        assert min(grid.distance(order.objective, e) for e in edge) < min(grid.distance(start, e) for e in edge)
    vogelsang = next(o for o in montebello.scenario.march_orders if o.leader == "vogelsang")
    assert set(vogelsang.units) == {u.id for u in montebello.oob.units if u.formation == "O"}


def test_initial_orders(montebello: ScenarioData, campotenese: ScenarioData) -> None:
    assert {f.initial_order for f in montebello.oob.formations if f.side == "austria"} == {"manoeuvre"}
    assert {f.initial_order for f in montebello.oob.formations if f.side == "france"} == {None}  # §17.1.2
    assert {f.id: f.initial_order for f in campotenese.oob.formations} == {
        "N": "defence", "T": "defence", "R": "defence", "Z": "defence", "C": "advance", "V": "advance"}


def test_printed_values_and_provisional_marking(campotenese: ScenarioData, montebello: ScenarioData) -> None:
    by_name = {u.name: u for u in campotenese.oob.units}
    assert by_name["Reg.na Carolina I fucilieri"].efficiency == 3  # arrivano §17.2 set-up '(Eff. 3)'
    assert by_name["Reg.na Carolina I reclute"].efficiency == 2
    assert by_name["Real Ferdinando 2° granatieri"].efficiency == 4
    # Every counter value is provisional except those the text gives (the three efficiencies above, and the
    # values fixed by rules: artillery strength 0, arrivano §11.0.2; redoubt batteries never move, §17.2.6).
    printed = set()
    for s in (montebello, campotenese):
        for u in s.oob.units:
            for field in ("strength", "efficiency", "movement"):
                if field not in u.provisional:
                    printed.add((u.name, field))
    expected = {("Reg.na Carolina I fucilieri", "efficiency"), ("Reg.na Carolina I reclute", "efficiency"),
                ("Real Ferdinando 2° granatieri", "efficiency")}
    expected |= {(u.name, "strength") for s in (montebello, campotenese) for u in s.oob.units if u.arm == "artillery"}
    expected |= {(u.name, "movement") for u in campotenese.oob.units if u.redoubt_battery}
    assert printed == expected


def test_scenario_rules(montebello: ScenarioData, campotenese: ScenarioData) -> None:
    m, c = montebello.scenario, campotenese.scenario
    assert (m.los_range, c.los_range) == (3, 2)  # arrivano §17.1.3, §17.2.4
    assert (m.commander_movement, c.commander_movement) == (6, 3)  # arrivano §17.1.2, §17.2.2
    assert m.march_column_forbidden == ["austria"]  # arrivano §17.1.4
    assert m.charges_allowed and not c.charges_allowed  # arrivano §17.2.5
    assert m.first_turn is not None and m.first_turn.only_side_activates == "france"  # arrivano §17.1.2
    assert m.initiative_tie_winner == c.initiative_tie_winner == "france"  # arrivano §6.1.1
    assert m.hq_counters.by_side() == {"france": "Lannes AvGd", "austria": "Ott Div."}  # arrivano §17.1.6
    assert set(c.hq_counters.by_side().values()) == {"Minutolo", "General-staff"}  # arrivano §17.2.10
    assert c.light_infantry.basis == "infantry_movement_3"  # arrivano §17.2.11
    assert {(r.hex, campotenese.unit(r.battery).name) for r in c.redoubts} == {
        ("2712", "Art. destra della Ridotta"), ("2713", "Art. Centro della Ridotta"),
        ("2615", "Art. Sinistra della Ridotta")}
    assert c.franceschi is not None and c.franceschi.general == "compere"  # arrivano §17.2.9


def test_campotenese_weather(campotenese: ScenarioData) -> None:
    w = campotenese.weather
    assert w is not None and w.start_box == 1  # arrivano §17.2.7: turn 1 is always snowfall
    assert [w.next_box(1, d) for d in range(1, 7)] == [1, 1, 1, 1, 1, 2]
    assert [w.next_box(2, d) for d in range(1, 7)] == [1, 2, 2, 2, 2, 3]
    assert [w.next_box(3, d) for d in range(1, 7)] == [1, 3, 3, 3, 3, 2]
    assert [w.box(b).artillery_range_max for b in (1, 2, 3)] == [None, 1, 0]
    assert [w.box(b).artillery_fires for b in (1, 2, 3)] == [True, True, False]
    assert [w.box(b).defence_efficiency_bonus.get("naples", 0) for b in (1, 2, 3)] == [0, 1, 2]
    assert [w.box(b).zoc for b in (1, 2, 3)] == [True, True, False]
    assert [w.box(b).open_order_allowed for b in (1, 2, 3)] == [True, True, False]
    # arrivano §17.2.8: road hexes cost 1/2, 1, all MP
    road = [campotenese.movement[b].roads["strada"].always for b in (1, 2, 3)]
    assert [r.cost for r in road if r is not None] == [1, 2, "all"]


def test_victory(montebello: ScenarioData, campotenese: ScenarioData) -> None:
    mv, cv = montebello.scenario.victory, campotenese.scenario.victory
    assert mv.most_steps_eliminated_vp == 5  # arrivano §17.1.8
    assert [(a.winner, a.leaders) for a in mv.automatic] == [("austria", ["lannes"])]
    assert sorted(mv.objectives_score_for) == ["austria", "france"]
    auto = cv.automatic[0]  # arrivano §17.2.12
    assert (auto.winner, auto.places, auto.hexes, auto.when) == ("naples", ["Morano Calabro"], ["3418"], "end_of_last_turn")
    assert [(lv.min, lv.max, lv.level) for lv in cv.levels] == [
        (13, None, "french_victory"), (10, 12, "draw"), (None, 9, "neapolitan_victory")]
    assert cv.flag_capture is not None and cv.flag_capture.die_min == 4
    assert {campotenese.leader(i).name.split(" ")[0] for i in cv.flag_capture.leaders} == {"Maggiore"}
    assert cv.step_differential is not None and cv.step_differential.commander_steps == 1
    for s in (montebello, campotenese):
        for o in s.scenario.victory.objectives:
            assert s.map.grid.contains(o.hex) and o.provisional  # star positions are not in the text


def test_tables_shape(data: ArrivanoData) -> None:
    t = data.tables
    assert t.crt.columns[0] == "1-5" and t.crt.columns[-1] == "6-1"  # arrivano §12.4.2, §12.4.3
    assert t.crt.excess_odds_drm_per_level == 0 and t.crt.drm_cap == 4  # arrivano §12.4.3, §12.5.2
    assert (t.crt.row(-99), t.crt.row(99)) == (-3, 10)
    assert t.crt.result(99, "6-1") == t.crt.result(10, "6-1") and t.crt.result(-9, "1-5") == t.crt.result(-3, "1-5")
    assert {r for row in t.own["infantry_fire"].rows.values() for r in row.values()} == {"•", "D", "D1", "DR"}  # §16.3.3
    assert t.own["infantry_fire"].commander_drm == 1  # arrivano §16.3.2
    assert t.crt.meta.provisional and t.bombardment.meta.provisional and t.own["infantry_fire"].meta.provisional
    assert t.terrain.terrain["grano"].bombard_drm == -1 and not t.terrain.terrain["grano"].charge_allowed  # §10.3
    assert t.terrain.terrain["bosco"].cavalry_halved  # arrivano §10.4
    assert t.terrain.terrain["ridotta"].no_zoc_into  # arrivano §8
    assert t.orders.orders["defence"].max_hexes == 1 and t.orders.orders["defence"].ezoc_to_ezoc_test  # §5.1.3
    assert t.orders.reinforcement_order == "advance"  # arrivano §15.4.1
    grain = data.scenarios["montebello"].movement[0].terrain["grano"].cost["default"]
    assert grain == 4  # arrivano §10.3: 2 MP
    assert data.scenarios["montebello"].movement[0].terrain["collina"].cost["cavalry"] == "all"  # arrivano §10.2


def test_options_are_the_optional_rules(data: ArrivanoData) -> None:
    assert {name: o.rule for name, o in data.own["options"].options.items()} == {
        "hq_orders": "arrivano §16.1", "independent_columns": "arrivano §16.2", "open_order": "arrivano §16.3",
        "physical_exhaustion": "arrivano §16.3.4", "light_troops_retreat": "arrivano §16.3.5"}
    assert data.own["options"].options["light_troops_retreat"].requires == ["open_order", "physical_exhaustion"]


def test_interpretations_are_documented(data: ArrivanoData) -> None:
    text = DOC.read_text(encoding="utf-8")
    table = text.split("## 4. Ambiguities and interpretations", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| `([a-z0-9_]+)` \| [^|]+ \| [^|]+ \| `([a-z0-9_]+)`", table, flags=re.MULTILINE)
    assert dict(rows) == {i.name: i.default for i in data.interpretations.interpretations}
    for i in data.interpretations.interpretations:
        assert i.phrase.split("(")[0].strip()[:20] in text, f"{i.name}: phrase not quoted in the doc"


# --- the movement tables say what the text says, through the shared step-cost function -------------------------
def _first_step(s: ScenarioData, want: Callable[[str, str], bool]) -> tuple[str, str]:
    for a in s.map.hexes():
        for b in s.map.grid.neighbours(a):
            if want(a, b):
                return a, b
    raise AssertionError("no such step on the map")


def test_movement_costs_follow_the_text(montebello: ScenarioData, campotenese: ScenarioData) -> None:
    m, table = montebello.map, montebello.movement[0]
    off_road = lambda a, b: not m.roads_between(a, b)
    a, b = _first_step(montebello, lambda a, b: off_road(a, b) and m.terrain(b) == "collina")
    assert step_cost(m, table, a, b, "cavalry").all_points  # arrivano §10.2
    assert step_cost(m, table, a, b, "artillery").all_points
    assert not step_cost(m, table, a, b, "infantry").all_points
    a, b = _first_step(montebello, lambda a, b: m.roads_between(a, b) and m.terrain(b) == "collina")
    assert not step_cost(m, table, a, b, "cavalry").all_points  # "a meno che non usino strade"
    a, b = _first_step(montebello, lambda a, b: off_road(a, b) and m.terrain(b) == "grano")
    assert step_cost(m, table, a, b, "infantry").half_points == 4  # arrivano §10.3: 2 MP
    a, b = _first_step(montebello, lambda a, b: off_road(a, b) and m.terrain(b) == "bosco")
    assert step_cost(m, table, a, b, "artillery").stop  # arrivano §10.4: enters woods but cannot cross
    a, b = _first_step(montebello, lambda a, b: m.roads_between(a, b) == ("strada",) and m.terrain(b) == "pianura")
    assert step_cost(m, table, a, b, "infantry", march_column=True).half_points == 1  # arrivano §9.3.1
    a, b = _first_step(montebello, lambda a, b: m.roads_between(a, b) == ("pista",) and m.terrain(b) == "collina")
    assert step_cost(m, table, a, b, "infantry", march_column=True).half_points == 2  # one MP less, min 1
    c = campotenese.map
    a, b = _first_step(campotenese, lambda a, b: "strada" in c.roads_between(a, b) and c.terrain(b) == "collina")
    costs = [step_cost(c, campotenese.movement[box], a, b, "infantry") for box in (1, 2, 3)]
    assert [k.half_points for k in costs[:2]] == [1, 2] and costs[2].all_points  # arrivano §17.2.8
    a, b = _first_step(campotenese, lambda a, b: not c.roads_between(a, b) and c.terrain(b) == "pianura")
    assert step_cost(c, campotenese.movement[3], a, b, "leader").all_points  # storm: one hex only, §17.2.7


def test_light_infantry(montebello: ScenarioData, campotenese: ScenarioData) -> None:
    # arrivano §17.2.11: at Campotenese every infantry unit with movement 3 is light; the flag must agree
    for u in campotenese.oob.units:
        if u.arm == "infantry":
            assert campotenese.scenario.is_light(u) == (u.movement == 3) == u.light, u.name
    # arrivano §17.1.7: at Montebello the (provisional) flag marks the yellow circle; light units exist on both sides
    sides = {u.side for u in montebello.oob.units if montebello.scenario.is_light(u)}
    assert sides == {"france", "austria"}
    assert not any(montebello.scenario.is_light(u) for u in montebello.oob.units if u.arm != "infantry")
