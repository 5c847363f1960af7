"""Tables the rules ask per call that their data fix once (issue 15, speed13): the readings offered (one read-only
mapping per loaded interpretations.json, not a copy per `interpretation_in_force`) and each formation's officers
(printed in the order of battle: World.officers_of/relay_officers filter them by the position, asking no leader his
role or formation again). Both Para Bellum games, every scenario."""

from __future__ import annotations

import pytest

from arbitro.adjudicator import registry

GAMES = ["arrivano", "caldiero"]


@pytest.mark.parametrize("name", GAMES)
def test_the_readings_offered_are_one_read_only_mapping(name: str) -> None:
    ruleset = registry.get(name)
    offered = ruleset.interpretations()
    assert offered is ruleset.interpretations() and offered  # kept, not copied per call
    first = next(iter(offered))
    with pytest.raises(TypeError):
        offered[first] = offered[first]  # type: ignore[index]  # shared by every caller: nobody may change it

