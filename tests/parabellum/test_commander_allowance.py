"""A commander's allowance in his refusals (§9.1.4 in both; D31): where the scenario gives every commander's movement
(arrivano §9.1.4 "se non specificato altrimenti nelle regole dello scenario"; §17.1.2 Montebello's six, §17.2.2
Campotenese's three), a move beyond it is refused citing that rule too (`ScenarioFile.commander_movement_rule`);
where his counter prints it (caldiero §2.2.1), §9.1.4 alone. A scenario file giving the movement without its rule is
refused when loaded."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from arbitro.adjudicator.errors import IllegalCommand
from arbitro.adjudicator.parabellum.data import ScenarioFile
from tests.arrivano import harness as arrivano
from tests.caldiero import harness as caldiero

FAR = 8  # hexes away: beyond any commander's six MP on open ground


def far_from(grid: object, h: str) -> str:
    return next(x for x in sorted(grid.within(h, FAR)) if grid.distance(h, x) == FAR)  # type: ignore[attr-defined]


def refusal(table: object, seat: str, leader: str, to: str) -> IllegalCommand:
    with pytest.raises(IllegalCommand) as e:
        table.send(seat, {"type": "move_leader", "leader": leader, "to": to})  # type: ignore[attr-defined]
    return e.value


def test_arrivano_cites_the_scenario_s_rule_for_the_allowance() -> None:
    at = arrivano.open_ground()
    state = arrivano.position({"6e-legere-i": at}, leaders={"watrin": at}, orders={"W": "manoeuvre"})
    t = arrivano.at_step(state, "W", "movement")
    to = far_from(arrivano.world(state).grid, at)
    e = refusal(t, "france", "watrin", to)
    assert e.rule == "arrivano §9.1.4"
    assert e.message.startswith(f"{to} is beyond his 6 MP (arrivano §17.1.2), or in or reached only through enemy ZoC")


def test_caldiero_s_printed_allowance_cites_9_1_4_alone() -> None:
    state = caldiero.position({"fr-40-ligne": "1515"}, leaders={"massena": "1515"})
    t = caldiero.activate(state, "massena", step="leaders")
    to = far_from(caldiero.RULESET.world(state).grid, "1515")
    e = refusal(t, "france", "massena", to)
    assert e.rule == "caldiero §9.1.4"
    assert e.message.startswith(f"{to} is beyond his 6 MP, or in or reached only through enemy ZoC")


def test_a_scenario_giving_the_movement_names_its_rule() -> None:
    data = arrivano.RULESET.data.scenarios["montebello"].scenario.model_dump()
    fields = {k: v for k, v in data.items() if k in ScenarioFile.model_fields}
    assert ScenarioFile.model_validate(fields).commander_movement_rule == "arrivano §17.1.2"
    with pytest.raises(ValidationError, match="(?s)commander_movement_rule.*required with `commander_movement`"):
        ScenarioFile.model_validate({**fields, "commander_movement_rule": ""})
