"""Caldiero's rule values are its data files' (issue 18), so a user's folder (`arbitro new caldiero --data DIR`) is
played as it says and the shipped one as the book prints: §4.4.3's commander loss test (tables/rules.json `leader_loss`,
a chief's initiative counting as 1), §9.3.1's march column saving on a minor road under the reading minor_road_cost:
other_terrain (`minor_road_column`: one MP less, never below 1), §14.0's -1 for cavalry defending a fortress
(terrain.json `cavalry_defence_drm`), the cavalry's doubled strength (§14.0, §20.2: crt.json `cavalry_multiplier`),
§20.5's five of six flanked hexes (`options.flank_attacks.flanked_neighbours`), each weather box's Austrian
initiative (§6.1, `austrian_initiative`) and the hexes it takes off the fog's line of sight (§20.4.1,
`fog_reach_less`), the Elan's dice of columns (§16.1, `elan_columns`). A folder without them is refused at their
JSON path. A fortress giving cavalry 0 has no §14.0 rule: no "+0", its columns kept."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from arbitro.adjudicator.caldiero import ground
from arbitro.adjudicator.caldiero.loader import CALDIERO_DATA
from arbitro.adjudicator.caldiero.variant import CALDIERO_VARIANT, flanked
from arbitro.adjudicator.datafiles import DataError
from arbitro.adjudicator.parabellum.loader import ScenarioData
from arbitro.adjudicator.parabellum.world import World
from tests.caldiero.harness import RULESET, position
from tests.parabellum.folders import Edit, edited_folder

CAV, FORT_CAV, INF, FOE = "fr-9-dragons", "au-erz-jozsef-hussars", "fr-18-ligne", "au-banal-grenz"


def _folder(tmp_path: Path, file: str, edit: Edit) -> Path:
    return edited_folder(CALDIERO_DATA.folder, tmp_path, file, edit)


def _battle(tmp_path: Path, file: str, edit: Edit) -> ScenarioData:
    return CALDIERO_DATA.load(_folder(tmp_path, file, edit)).scenarios["caldiero"]


def _world(battle: ScenarioData, units: dict[str, str], readings: dict[str, str] | None = None,
           options: tuple[str, ...] = (), weather: int = 0) -> World:
    state = position(units, options=options, weather=weather)
    defaults = RULESET.interpretations()
    return World(state, battle, lambda name: (readings or {}).get(name) or defaults[name].default,
                 variant=CALDIERO_VARIANT)


def _refused_at(tmp_path: Path, file: str, edit: Edit) -> list[tuple[str, str]]:
    with pytest.raises(DataError) as caught:
        CALDIERO_DATA.load(_folder(tmp_path, file, edit))
    return [(p.file, p.path) for p in caught.value.problems]


def _fortress(battle: ScenarioData) -> str:
    w = _world(battle, {})
    return next(h for h in sorted(battle.map.hexes()) if ground.fortress(w, h))


def test_a_chief_s_loss_test_reads_the_book_s_leader_loss(tmp_path: Path) -> None:
    """caldiero §4.4.3 "i Comandanti in Capo sono considerati avere una iniziativa di uno": the die's record gives the
    value it must beat, 1 shipped; a folder counting a chief's as 2 is played (and recorded) so."""
    def chief_value(battle: ScenarioData) -> int | str:
        return CALDIERO_VARIANT.leader_roll(_world(battle, {}), "alvinczy", "a test")[1]["initiative"]

    assert chief_value(RULESET.battle) == 1
    assert chief_value(_battle(tmp_path, "tables/rules.json",
                               lambda raw: raw["leader_loss"].update(chief_initiative=2))) == 2


def test_the_march_column_s_minor_road_saving_is_the_scenario_s(tmp_path: Path) -> None:
    """caldiero §9.3.1 "un punto movimento in meno (ma mai meno di 1)" under the reading minor_road_cost:
    other_terrain: the minor road's column cost is the other terrain's less 2 half-MP, never below 2, as shipped; a
    folder's saving of 4 and floor of 1 are the costs then."""
    def column(battle: ScenarioData) -> tuple[int | None, int]:
        w = _world(battle, {}, {"minor_road_cost": "other_terrain"})
        cost = CALDIERO_VARIANT.road_costs(w, battle.movement[0]).roads["strada_minore"].in_column
        assert cost is not None
        return cost.reduce_by, cost.minimum

    assert column(RULESET.battle) == (2, 2)
    folder = _battle(tmp_path, "caldiero/scenario.json",
                     lambda raw: raw["minor_road_column"].update(reduce_by=4, minimum=1))
    assert column(folder) == (4, 1)


def test_cavalry_defending_a_fortress_gives_the_terrain_s_die_modifier(tmp_path: Path) -> None:
    """caldiero §14.0 "danno un DRM all'attaccante di solo -1": the fortress's `cavalry_defence_drm`, -1 shipped, -2
    in a folder that says so (instead of its columns under the default reading)."""
    def modifiers(battle: ScenarioData) -> tuple[int, list[int]]:
        fort = _fortress(battle)
        w = _world(battle, {FORT_CAV: fort, INF: sorted(_world(battle, {}).grid.neighbours(fort))[0]})
        shift, mods = CALDIERO_VARIANT.assault_modifiers(w, [INF], [fort], [FORT_CAV], 2, [])
        return shift, [m.value for m in mods if "fortress" in m.reason]

    assert modifiers(RULESET.battle) == (0, [-1])
    folder = _battle(tmp_path, "tables/terrain.json",
                     lambda raw: raw["terrain"]["fortificazione"].update(cavalry_defence_drm=-2))
    assert modifiers(folder) == (0, [-2])


@pytest.mark.parametrize("reading", ["drm_instead_of_shift", "drm_and_shift"])
def test_a_fortress_whose_cavalry_modifier_is_0_keeps_its_columns(tmp_path: Path, reading: str) -> None:
    """caldiero §14.0 "danno un DRM all'attaccante di solo -1": a folder's fortress giving cavalry 0 has no such rule,
    so cavalry defending there adds no "+0" modifier and keeps the fortress's columns under either reading."""
    battle = _battle(tmp_path, "tables/terrain.json",
                     lambda raw: raw["terrain"]["fortificazione"].update(cavalry_defence_drm=0))
    fort = _fortress(battle)
    w = _world(battle, {FORT_CAV: fort, INF: sorted(_world(battle, {}).grid.neighbours(fort))[0]},
               {"cavalry_in_fortress": reading})
    shift, mods = CALDIERO_VARIANT.assault_modifiers(w, [INF], [fort], [FORT_CAV], 2, [])
    assert (shift, [m.reason for m in mods if "fortress" in m.reason]) == (2, [])


def _open_plain(w: World) -> tuple[str, list[str]]:
    """A plain hex off the edge whose six neighbours are plain too, and its neighbours in the grid's order."""
    for h in sorted(w.hexmap.hexes()):
        around = list(w.grid.neighbours(h))
        if not w.grid.is_edge(h) and len(around) == 6 and all(ground.plain(w, n) and not w.may_stay(n)
                                                             for n in [h, *around]):
            return h, around
    raise AssertionError("no open plain on the map")


def test_cavalry_s_doubled_strength_is_the_table_s_multiplier(tmp_path: Path) -> None:
    """caldiero §14.0 "raddoppiata se attaccano delle fanterie nemiche Demoralizzate in Pianura": crt.json's
    `cavalry_multiplier`, 2 shipped; a folder's 3 triples it."""
    def attacking(battle: ScenarioData) -> tuple[int, int]:
        h, around = _open_plain(_world(battle, {}))
        w = _world(battle, {FOE: h, CAV: around[0]})
        w.state.units[FOE].status = "routed"
        return CALDIERO_VARIANT.combat_sp(w, CAV, True, [FOE], [h]), w.strength(CAV)

    sp, printed = attacking(RULESET.battle)
    assert sp == 2 * printed
    sp, printed = attacking(_battle(tmp_path, "tables/crt.json", lambda raw: raw.update(cavalry_multiplier=3)))
    assert sp == 3 * printed


def test_a_flank_attack_needs_the_option_s_count_of_neighbours(tmp_path: Path) -> None:
    """caldiero §20.5 "cinque dei sei esagoni adiacenti": two attackers two hexes apart around the defender hold two of
    its neighbours and control three more, five: flanked as shipped, not in a folder asking all six."""
    def flanks(battle: ScenarioData) -> bool:
        h, around = _open_plain(_world(battle, {}))
        attackers = {INF: around[0], "fr-18-legere": around[2]}
        w = _world(battle, {FOE: h, **attackers}, options=("flank_attacks",))
        return flanked(w, h, list(attackers), "austria")

    assert flanks(RULESET.battle)
    folder = _battle(tmp_path, "caldiero/scenario.json",
                     lambda raw: raw["options"]["flank_attacks"].update(flanked_neighbours=6))
    assert not flanks(folder)


def _box_edited(tmp_path: Path, box: int, **values: Any) -> ScenarioData:
    def edit(raw: dict[str, Any]) -> None:
        next(b for b in raw["boxes"] if b["box"] == box).update(values)
    return _battle(tmp_path, "caldiero/weather.json", edit)


def test_the_austrian_initiative_is_the_weather_box_s_value(tmp_path: Path) -> None:
    """caldiero §6.1 "un valore di iniziativa pari al numero nel riquadro del Tempo atmosferico del turno in corso":
    each box's `austrian_initiative`, its number as shipped (0-3); a folder's box 1 giving 4 is played so, the French
    value staying the scenario's."""
    def values(battle: ScenarioData, box: int) -> dict[str, int]:
        return CALDIERO_VARIANT.initiative_values(_world(battle, {}, weather=box))

    assert [values(RULESET.battle, box)["austria"] for box in range(4)] == [0, 1, 2, 3]
    assert values(_box_edited(tmp_path, 1, austrian_initiative=4), 1) == {"france": 2, "austria": 4}


def test_the_fog_s_reach_is_the_line_of_sight_less_the_weather_box_s(tmp_path: Path) -> None:
    """caldiero §20.4.1 "Il numero di esagoni della LoS è ridotto del valore indicato nel riquadro": each box's
    `fog_reach_less`, its number as shipped; a folder's box 2 taking off none leaves the whole line of sight."""
    def reach(battle: ScenarioData, box: int) -> int:
        return CALDIERO_VARIANT.fog_reach(_world(battle, {}, options=("fog_of_war",), weather=box))

    sight = _world(RULESET.battle, {}).sight_range()
    assert [reach(RULESET.battle, box) for box in range(4)] == [max(0, sight - box) for box in range(4)]
    assert reach(_box_edited(tmp_path, 2, fog_reach_less=0), 2) == sight


class Dice:
    """A game whose dice show `faces` in turn, recording each roll's purpose, detail and count and each event."""

    def __init__(self, *faces: int) -> None:
        self.faces, self.rolled, self.events = list(faces), list[tuple[str, dict[str, str | int], int]](), list[Any]()

    def roll(self, purpose: str, detail: dict[str, str | int], about: tuple[str | None, ...] = (), *,
             visible_to: tuple[str, ...] | None = None, count: int = 1) -> tuple[int, ...]:
        self.rolled.append((purpose, detail, count))
        shown, self.faces = self.faces[:count], self.faces[count:]
        return tuple(shown)

    def emit(self, event: Any) -> None:
        self.events.append(event)


def test_a_passed_elan_shifts_as_many_columns_as_the_scenario_s_dice_show(tmp_path: Path) -> None:
    """caldiero §16.1 "l'attaccante riceve 1d6 colonne di vantaggio": the scenario's `elan_columns`, one die shipped
    (a 5: five columns right); a folder's two dice (5 and 3) give eight, the roll recorded as 2d6."""
    def elan(battle: ScenarioData) -> tuple[int | None, list[tuple[str, dict[str, str | int], int]]]:
        game = Dice(1, 5, 3)  # the test passes on a 1 (an efficiency of at least 1)
        columns = CALDIERO_VARIANT.elan_columns(game, _world(battle, {INF: "1517"}), INF, [])
        return columns, game.rolled[1:]

    assert elan(RULESET.battle) == (5, [("caldiero §16.1 Elan columns", {"table": "1d6 columns right"}, 1)])
    folder = _battle(tmp_path, "caldiero/scenario.json", lambda raw: raw["elan_columns"].update(dice=2))
    assert elan(folder) == (8, [("caldiero §16.1 Elan columns", {"table": "2d6 columns right"}, 2)])


def test_each_halving_rounds_as_its_data_says(tmp_path: Path) -> None:
    """caldiero §1.4 "gli arrotondamenti sono sempre fatti al numero intero più alto" where the halving rule says
    nothing: a marsh hex's 3 SP fight as 2 (§10.2) and Alvinczy's command range of 5 is 3 in the ice storm (§17.1.3),
    each halving's `rounding` up as shipped; a folder rounding them down gives 1 and 2."""
    def halved(battle: ScenarioData) -> tuple[int, int]:
        w = _world(battle, {}, weather=3)
        marsh = next(h for h in sorted(battle.map.hexes()) if ground.strength_halving(w, h) is not None)
        return CALDIERO_VARIANT.hex_sp(w, marsh, 3), w.command_range("alvinczy")

    assert halved(RULESET.battle) == (2, 3)
    down = {"rounding": "down", "rule": "a user's"}
    marsh = _battle(tmp_path / "marsh", "tables/terrain.json",
                    lambda raw: raw["terrain"]["palude"].update(halves_strength=down))
    storm = _box_edited(tmp_path / "storm", 3, command_range_halved=down)
    assert (halved(marsh)[0], halved(storm)[1]) == (1, 2)


@pytest.mark.parametrize(("file", "edit", "where"), [
    ("tables/rules.json", lambda raw: raw.pop("leader_loss"), "$.leader_loss"),
    ("caldiero/scenario.json", lambda raw: raw.update(leader_loss={"rule": "caldiero §4.4.3", "lost_at_most": None,
                                                                   "chief_initiative": 1}), "$.leader_loss"),
    ("caldiero/weather.json", lambda raw: raw["boxes"][1].update(bombard_halved=True), "$.boxes[1].bombard_halved"),
    ("tables/terrain.json", lambda raw: raw["terrain"]["palude"].update(halves_strength=True),
     "$.terrain.palude.halves_strength"),
    ("caldiero/scenario.json", lambda raw: raw.pop("elan_columns"), "$.elan_columns"),
    ("caldiero/weather.json", lambda raw: raw["boxes"][1].pop("austrian_initiative"), "$.boxes[1].austrian_initiative"),
    ("caldiero/weather.json", lambda raw: raw["boxes"][3].pop("fog_reach_less"), "$.boxes[3].fog_reach_less"),
    ("caldiero/scenario.json", lambda raw: raw.pop("minor_road_column"), "$.minor_road_column"),
    # its `rule`, read by nothing, gone in the twenty-second session: a folder still giving one says what no game cites
    ("caldiero/scenario.json", lambda raw: raw["minor_road_column"].update(rule="caldiero §9.3.1"),
     "$.minor_road_column.rule"),
    ("caldiero/scenario.json", lambda raw: raw["options"]["flank_attacks"].pop("flanked_neighbours"),
     "$.options.flank_attacks.flanked_neighbours"),
    ("tables/crt.json", lambda raw: raw.pop("cavalry_multiplier"), "$.cavalry_multiplier")])
def test_a_folder_without_a_rule_value_is_refused_at_its_path(tmp_path: Path, file: str,
                                                            edit: Edit, where: str) -> None:
    """A folder from before these values were data is refused where the value goes, never played on a guess."""
    assert _refused_at(tmp_path, file, edit) == [(file, where)]


@pytest.mark.parametrize(("edit", "where"), [
    (lambda raw: raw["hexsides"]["fiume"].update(assault_prohibited=False), "$.hexsides.fiume.assault_prohibited"),
    (lambda raw: raw["hexsides"]["canale"].update(assault_prohibited=True), "$.hexsides.canale.assault_prohibited"),
    (lambda raw: raw["hex_features"]["alberi"].update(counts_other_terrain=False),
     "$.hex_features.alberi.counts_other_terrain")])
def test_terrain_fields_held_to_what_the_build_plays(tmp_path: Path, edit: Edit, where: str) -> None:
    """The terrain effects table's river "movimento non consentito ... assalto non consentito": the build bars moves
    and assaults across a hexside alike, so `assault_prohibited` must equal `prohibited`; its trees and summit "Conta
    l'altro terreno nell'esagono": a hex symbol has no combat effect of its own (`counts_other_terrain` true). A
    folder saying otherwise is refused at the field, not played as if it said what the build plays."""
    assert _refused_at(tmp_path, "tables/terrain.json", edit) == [("tables/terrain.json", where)]


def test_a_free_step_in_a_folder_s_movement_table_is_refused(tmp_path: Path) -> None:
    """A user's movement table whose plain costs 0 (or whose road step may cost 0) is refused at the cost's JSON path
    (maps/costs.FREE_STEP): a free step would make the search's "path" tie-break report a path other than the
    smallest hex by hex (caldiero §9.1 plays the recorded games' paths)."""
    assert _refused_at(tmp_path, "tables/movement.json",
                       lambda raw: raw["terrain"]["pianura"]["cost"].update(default=0)) == \
        [("tables/movement.json", "$.terrain.pianura.cost.default")]
    assert _refused_at(tmp_path, "tables/movement.json",
                       lambda raw: raw["roads"]["strada"]["always"].update(reduce_by=2)) == \
        [("tables/movement.json", "$.roads.strada.always.minimum")]
    # rev-s S1: the march column's minor road priced from scenario.json under minor_road_cost: other_terrain
    assert _refused_at(tmp_path, "caldiero/scenario.json",
                       lambda raw: raw["minor_road_column"].update(reduce_by=20, minimum=0)) == \
        [("caldiero/scenario.json", "$.minor_road_column.minimum")]
