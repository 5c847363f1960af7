"""Caldiero's weather effects are its weather boxes' data (caldiero §17.1.2-§17.1.3; parabellum/weather_track.WeatherBox):
its rules ask the box in force what it does (`artillery_fires`, `formations_defence`, `ooc_order_tests`,
`artillery_roads_only`, `assault_columns_left`, `confusion_die`, `end_phase_box`), never its number, so a data
folder's track (`arbitro new caldiero --data DIR`) is played as the folder says, and the shipped one as the book prints
it: guns silent in boxes 2 and 3, 1, 2, 3 columns left and the confusion die in boxes 1-3, and in box 3 every
formation in Defence, no out-of-command order test, guns on the roads alone and box 2 at the turn's end."""

from __future__ import annotations

import dataclasses
import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from arbitro.adjudicator.caldiero import commands as C
from arbitro.adjudicator.caldiero import ground
from arbitro.adjudicator.caldiero.loader import CALDIERO_DATA
from arbitro.adjudicator.caldiero.system_activation import check_unit_order
from arbitro.adjudicator.caldiero.system_movement import make_group, own_step_problem
from arbitro.adjudicator.datafiles import DataError
from arbitro.adjudicator.caldiero.system_artillery import check_bombard
from arbitro.adjudicator.caldiero.variant import CALDIERO_VARIANT
from arbitro.adjudicator.errors import IllegalCommand
from arbitro.adjudicator.parabellum.loader import ScenarioData
from arbitro.adjudicator.parabellum.world import World
from arbitro.projections.parabellum import Activation
from tests.caldiero.harness import RULESET, position

GUN, TARGET = "fr-massena-iv-8pdr", "au-banal-grenz"


def _battle(box: int, **effects: Any) -> ScenarioData:
    """The shipped battle with weather box `box` doing `effects` (a user's folder, as its weather.json would say)."""
    shipped = RULESET.battle
    assert shipped.weather is not None
    raw = shipped.weather.model_dump()
    raw["boxes"] = [b | effects if b["box"] == box else b for b in raw["boxes"]]
    track = type(shipped.weather).model_validate(raw)
    return dataclasses.replace(shipped, weather=track, digest=f"{shipped.digest}+box{box}")


def _world(battle: ScenarioData, weather: int) -> World:
    state = position({GUN: "1517", TARGET: "1617"}, leaders={"massena": "1517"}, orders={"massena": "attack"},
                     weather=weather)
    state.activation = Activation(formation="massena", units=[GUN])
    state.step, state.seat = "bombardment", "france"
    return World(state, battle, lambda name: "", variant=CALDIERO_VARIANT)


def _bombard_refusal(w: World) -> str | None:
    try:
        check_bombard(w, "france", C.Bombard(type="bombard", artillery=[GUN], target="1617"))
    except IllegalCommand as refused:
        return refused.rule
    return None


def test_the_guns_fire_as_the_box_in_force_says() -> None:
    """Shipped: box 2 (§17.1.2) and box 3 (§17.1.3) silence the guns, each refusal citing its box; a folder whose
    ice storm lets them fire is obeyed, and one whose cloudburst silences them cites the cloudburst (§17.1.1)."""
    assert [_bombard_refusal(_world(RULESET.battle, box)) for box in (0, 1, 2, 3)] == [
        None, None, "caldiero §17.1.2", "caldiero §17.1.3"]
    assert _bombard_refusal(_world(_battle(3, artillery_fires=True), 3)) is None
    assert _bombard_refusal(_world(_battle(1, artillery_fires=False), 1)) == "caldiero §17.1.1"


def test_the_ice_storm_s_defence_is_its_box_s_formations_defence() -> None:
    """caldiero §17.1.3 "Tutte le formazioni automaticamente assumono un ordine di Difesa": the general tries no order
    change and out-of-command units out of the chief's range try none, where the box in force holds every formation in
    Defence: box 3 shipped, not a folder's box 3 without it, a folder's box 2 with it."""
    def barred(battle: ScenarioData, weather: int) -> bool:
        return CALDIERO_VARIANT.order_try_barred(_world(battle, weather), "france") is not None

    assert [barred(RULESET.battle, box) for box in (0, 1, 2, 3)] == [False, False, False, True]
    assert not barred(_battle(3, formations_defence=False), 3)
    assert barred(_battle(2, formations_defence=True), 2)


@pytest.mark.parametrize(("box", "effects", "refused"), [
    (3, {}, True), (3, {"ooc_order_tests": True}, False), (2, {"ooc_order_tests": False}, True), (2, {}, False)])
def test_out_of_command_units_test_for_an_order_where_the_box_allows(box: int, effects: dict[str, Any],
                                                                      refused: bool) -> None:
    """caldiero §17.1.3 "le unità fuori comando non possono tentare di cambiare Ordine per 5.3.1": the box's
    `ooc_order_tests` (the ice storm's false), out of the chief's range."""
    w = _world(_battle(box, **effects), box)
    assert w.state.activation is not None
    w.state.activation.out_of_command = [GUN]
    w.state.step = "activation_orders"
    try:
        check_unit_order(w, "france", C.UnitOrder(type="unit_order", hex="1517", order="attack"))
    except IllegalCommand as e:
        assert (e.rule == f"caldiero §17.1.{box}") == refused, e  # the box in force's own section
    else:
        assert not refused


@pytest.mark.parametrize(("box", "effects", "kept"), [
    (3, {}, True), (3, {"artillery_roads_only": False}, False), (2, {"artillery_roads_only": True}, True), (2, {}, False)])
def test_guns_keep_to_the_roads_where_the_box_says(box: int, effects: dict[str, Any], kept: bool) -> None:
    """caldiero §17.1.3 "Le artiglierie ... non possono muovere se non su strada o strada minore": the box's
    `artillery_roads_only` (the ice storm's true) vetoes a gun's step off the roads."""
    w = _world(_battle(box, **effects), box)
    off_road = next(b for b in sorted(w.grid.neighbours("1517")) if not ground.road(w, "1517", b))
    veto = own_step_problem(w, make_group(w, (GUN,), "manoeuvre", False))("1517", off_road)
    assert (veto is not None and str(veto[0]) == f"caldiero §17.1.{box}") == kept, veto  # the box's own section


class _Dice:
    """The game as `assault_column_shifts` asks it: the confusion die shows 6 (one column right)."""

    def __init__(self) -> None:
        self.rolled: list[str] = []

    def roll(self, purpose: str, detail: dict[str, str | int], about: tuple[str | None, ...] = (), *,
             visible_to: tuple[str, ...] | None = None, count: int = 1) -> tuple[int, ...]:
        self.rolled.append(purpose)
        return (6,)

    def emit(self, event: Any) -> None:
        raise AssertionError(f"no event expected: {event}")


@pytest.mark.parametrize(("battle", "box", "shifts", "rolled"), [
    (RULESET.battle, 0, (0, 0), 0), (RULESET.battle, 1, (0, 0), 1), (RULESET.battle, 3, (2, 0), 1),
    (_battle(1, assault_columns_left=0, confusion_die=False), 1, (0, 0), 0),
    (_battle(0, assault_columns_left=2), 0, (2, 0), 0), (_battle(0, confusion_die=True), 0, (-1, 0), 1)])
def test_the_assault_s_weather_columns_and_confusion_die_are_the_box_s(battle: ScenarioData, box: int,
                                                                       shifts: tuple[int, int], rolled: int) -> None:
    """caldiero §17.1.1-§17.1.3 (1, 2, 3 columns left, the box's `assault_columns_left`) and §17.2 (the confusion die in
    boxes 1-3, `confusion_die`; a 6 one column right): what the box in force says, not its number."""
    dice, notes = _Dice(), []
    w = _world(battle, box)
    assert CALDIERO_VARIANT.assault_column_shifts(dice, w, [GUN], ["1617"], "austria", notes) == shifts
    assert len(dice.rolled) == rolled, notes


def test_a_box_s_end_phase_box_is_a_box(tmp_path: Path) -> None:
    """caldiero §17.1.3 "Nella Fase C ... spostato nel riquadro 2": `end_phase_box` names a box of the track."""
    shutil.copytree(CALDIERO_DATA.folder, tmp_path, dirs_exist_ok=True)
    weather = tmp_path / "caldiero" / "weather.json"
    raw = json.loads(weather.read_text(encoding="utf-8"))
    raw["boxes"][3]["end_phase_box"] = 7
    weather.write_text(json.dumps(raw), encoding="utf-8")
    with pytest.raises(DataError) as caught:
        CALDIERO_DATA.load(tmp_path)
    assert [(p.file, p.path) for p in caught.value.problems] == [("caldiero/weather.json", "$.boxes[3].end_phase_box")]


def _refusals(box: int, battle: ScenarioData) -> list[tuple[str, str]]:
    """The three refusals a box's data cause, each as (rule, words): the general's order try (`formations_defence`),
    an out-of-command unit's order test (`ooc_order_tests`), a gun's step off the roads (`artillery_roads_only`)."""
    w = _world(battle, box)
    barred = CALDIERO_VARIANT.order_try_barred(w, "france")
    assert barred is not None
    found = [(str(barred[0]), barred[1])]
    assert w.state.activation is not None
    w.state.activation.out_of_command = [GUN]
    w.state.step = "activation_orders"
    with pytest.raises(IllegalCommand) as refused:
        check_unit_order(w, "france", C.UnitOrder(type="unit_order", hex="1517", order="attack"))
    found.append((refused.value.rule, refused.value.message))
    off_road = next(b for b in sorted(w.grid.neighbours("1517")) if not ground.road(w, "1517", b))
    veto = own_step_problem(w, make_group(w, (GUN,), "manoeuvre", False))("1517", off_road)
    assert veto is not None
    return found + [(str(veto[0]), veto[1])]


def test_the_weather_s_refusals_name_and_cite_the_box_in_force() -> None:
    """caldiero §17.1.3's three bars are the box in force's: the shipped ice storm's refusals cite §17.1.3 and name
    "Tempesta di Ghiaccio"; a user's folder whose box 2 bars the same cites box 2's section (§17.1.2) and names it,
    never "ice storm"."""
    assert _refusals(3, RULESET.battle) == [
        ("caldiero §17.1.3", "in this weather (Tempesta di Ghiaccio, caldiero §17.1.3) every formation holds a "
                             "Defence order"),
        ("caldiero §17.1.3", "in this weather (Tempesta di Ghiaccio, caldiero §17.1.3) out-of-command units may not "
                             "try to change order"),
        ("caldiero §17.1.3", "in this weather (Tempesta di Ghiaccio, caldiero §17.1.3) artillery moves only along "
                             "roads")]
    folder = _battle(2, formations_defence=True, ooc_order_tests=False, artillery_roads_only=True)
    found = _refusals(2, folder)
    assert [rule for rule, _ in found] == ["caldiero §17.1.2"] * 3
    assert all("(Neve e Ghiaccio, caldiero §17.1.2)" in words and "ice" not in words.lower().replace("ghiaccio", "")
               for _, words in found), found
