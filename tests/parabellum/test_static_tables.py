"""Tables the rules ask per call that their data fix once (issue 15, speed13): the readings offered (one read-only
mapping per loaded interpretations.json, not a copy per `interpretation_in_force`) and each formation's officers
(printed in the order of battle: World.officers_of/relay_officers filter them by the position, asking no leader his
role or formation again). Both Para Bellum games, every scenario."""

from __future__ import annotations

from typing import Any

import pytest

from arbitro.adjudicator import registry
from arbitro.adjudicator.parabellum.world import World

GAMES = ["arrivano", "caldiero"]


def positions(name: str) -> list[tuple[Any, World]]:
    ruleset: Any = registry.get(name)
    return [(ruleset, ruleset.world(ruleset.new_state(scenario, ()))) for scenario in sorted(ruleset.scenarios())]


@pytest.mark.parametrize("name", GAMES)
def test_the_readings_offered_are_one_read_only_mapping(name: str) -> None:
    ruleset = registry.get(name)
    offered = ruleset.interpretations()
    assert offered is ruleset.interpretations() and offered  # kept, not copied per call
    first = next(iter(offered))
    with pytest.raises(TypeError):
        offered[first] = offered[first]  # type: ignore[index]  # shared by every caller: nobody may change it


@pytest.mark.parametrize("name", GAMES)
def test_officers_are_the_printed_ones_without_asking_each_leader(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    checked = 0
    for ruleset, w in positions(name):
        leaders = sorted(w.state.leaders)
        expected = {f.id: [l for l in leaders if w.leader_role(l) == "officer" and w.leader_formation(l) == f.id]
                    for f in w.counters.oob.formations}
        on_map = {f: [l for l in ls if w.state.leaders[l].where == "map"] for f, ls in expected.items()}
        units = sorted(w.state.units)
        with monkeypatch.context() as m:
            m.setattr(World, "leader_role", lambda *_: pytest.fail("asked a leader's role"))
            m.setattr(World, "leader_formation", lambda *_: pytest.fail("asked a leader's formation"))
            for formation, officers in expected.items():
                assert w.relay_officers(formation) == on_map[formation]
            for u in units:
                assert w.officers_of(u) == expected.get(w.formation_of(u), [])
        checked += sum(map(len, expected.values()))
    assert checked or name == "caldiero"  # Arrivano's scenarios print officers (caldiero's none, D3): some were read
