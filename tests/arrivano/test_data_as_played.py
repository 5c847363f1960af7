"""Arrivano's data as the build plays it. Montebello's march orders (arrivano §17.1.5) are played as scenario.json's
`march_order_rules` says: the share of the march's units (artillery aside) in or next to the objective that fulfils
it (`release_fraction`, "finché almeno metà": 1/2) is read, not written again in the code; the readings the build
does not play (`moves_out_of_command` false) and a share that is no fraction are refused at load, as is a scenario
with march orders and no rules. Fields the code plays one way only (§17.2.6's redoubt rules, §17.2.12's commander
steps, §16.3.3's fire on artillery) accept that value alone."""

from __future__ import annotations

import dataclasses
import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from arbitro.adjudicator.arrivano.data_model import ARRIVANO_DATA
from arbitro.adjudicator.arrivano.ruleset import march_checks
from arbitro.adjudicator.arrivano.variant import ARRIVANO_VARIANT
from arbitro.adjudicator.datafiles import DataError
from arbitro.adjudicator.parabellum.loader import ScenarioData
from arbitro.adjudicator.parabellum.world import World
from arbitro.events import arrivano as ev
from tests.arrivano.harness import RULESET, position

# Vogelsang's march (objective 2815): three battalions, two of them next to it, the third far off
UNITS = {"ir28-i": "2815", "ir28-ii": "2814", "ir28-iii": "2210"}


def _montebello(fraction: tuple[int, int]) -> ScenarioData:
    shipped = RULESET.data.scenarios["montebello"]
    rules = shipped.scenario.march_order_rules
    assert rules is not None and rules.release_fraction == (1, 2)
    scenario = shipped.scenario.model_copy(update={"march_order_rules": rules.model_copy(
        update={"release_fraction": fraction})})
    return dataclasses.replace(shipped, scenario=scenario, digest=f"{shipped.digest}+{fraction}")


def _ended(data: ScenarioData) -> list[Any]:
    state = position(UNITS)
    state.march_orders = {"vogelsang": True}
    world = World(state, data, lambda name: "", variant=ARRIVANO_VARIANT)
    events: list[Any] = []
    act = type("Act", (), {"state": state, "data": data, "world": lambda self: world, "emit": lambda self, e: events.append(e)})()
    march_checks(act)
    return [(e.march, e.reason) for e in events if isinstance(e, ev.MarchOrderEnded)]


@pytest.mark.parametrize(("fraction", "ended"), [((1, 2), True), ((2, 3), True), ((3, 4), False), ((1, 1), False)])
def test_a_march_order_is_fulfilled_by_the_scenario_s_share_of_its_units(fraction: tuple[int, int], ended: bool) -> None:
    """Two of three battalions next to the objective: half (the book's) and two thirds fulfil it, three quarters not."""
    assert _ended(_montebello(fraction)) == ([("vogelsang", "reached")] if ended else [])


@pytest.mark.parametrize(("edit", "path"), [
    ({"release_fraction": [3, 2]}, "$.march_order_rules.release_fraction"),
    ({"release_fraction": [0, 2]}, "$.march_order_rules.release_fraction"),
    ({"moves_out_of_command": False}, "$.march_order_rules.moves_out_of_command"),
    (None, "$.march_order_rules")])
def test_march_order_rules_the_build_does_not_play_are_refused(tmp_path: Path, edit: dict[str, Any] | None,
                                                                path: str) -> None:
    shutil.copytree(ARRIVANO_DATA.folder, tmp_path, dirs_exist_ok=True)
    file = tmp_path / "montebello" / "scenario.json"
    raw = json.loads(file.read_text(encoding="utf-8"))
    raw["march_order_rules"] = None if edit is None else raw["march_order_rules"] | edit
    file.write_text(json.dumps(raw), encoding="utf-8")
    with pytest.raises(DataError) as caught:
        ARRIVANO_DATA.load(tmp_path)
    assert [(p.file, p.path) for p in caught.value.problems] == [("montebello/scenario.json", path)], caught.value.problems


@pytest.mark.parametrize(("file", "key", "value", "path"), [
    ("campotenese/scenario.json", ("redoubt_rules", "battery_moves"), True, "$.redoubt_rules.battery_moves"),
    ("campotenese/scenario.json", ("redoubt_rules", "battery_flips_when_firing"), True,
     "$.redoubt_rules.battery_flips_when_firing"),
    ("campotenese/scenario.json", ("redoubt_rules", "benefits_need_order"), "manoeuvre",
     "$.redoubt_rules.benefits_need_order"),
    ("campotenese/scenario.json", ("victory", "step_differential", "commander_steps"), 2,
     "$.victory.step_differential.commander_steps"),
    ("tables/infantry_fire.json", ("never_affects_artillery",), False, "$.never_affects_artillery")])
def test_data_the_code_plays_one_way_says_that_way(tmp_path: Path, file: str, key: tuple[str, ...], value: Any,
                                                   path: str) -> None:
    """Fields loaded and never read (arrivano §17.2.6's redoubt rules, §17.2.12's commander steps, §16.3.3's fire on
    artillery), each played one way by the code: a folder saying another is refused at its JSON path, not played as
    if it said the shipped value."""
    shutil.copytree(ARRIVANO_DATA.folder, tmp_path, dirs_exist_ok=True)
    target = tmp_path / file
    raw = json.loads(target.read_text(encoding="utf-8"))
    node = raw
    for k in key[:-1]:
        node = node[k]
    node[key[-1]] = value
    target.write_text(json.dumps(raw), encoding="utf-8")
    with pytest.raises(DataError) as caught:
        ARRIVANO_DATA.load(tmp_path)
    assert [(p.file, p.path) for p in caught.value.problems] == [(file, path)], caught.value.problems
