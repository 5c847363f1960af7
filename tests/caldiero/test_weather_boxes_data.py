"""Caldiero's weather effects are its weather boxes' data (caldiero §17.1.2-§17.1.3; parabellum/weather_track.WeatherBox):
its rules ask the box in force what it does (`artillery_fires`, `formations_defence`), never its number, so a data
folder's track (`arbitro new caldiero --data DIR`) is played as the folder says, and the shipped one as the book prints
it: guns silent in boxes 2 and 3, every formation in Defence in box 3."""

from __future__ import annotations

import dataclasses
from typing import Any

from arbitro.adjudicator.caldiero import commands as C
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
