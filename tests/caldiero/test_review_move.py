"""Review rev-move of k-move's ad5d5fe (caldiero §4.2.2 read for every hex of a commander in chief's move, Caldiero
0.33.0). The first two tests FAIL on main (finding 1); the third passes on main and kills a mutant the landing's own
test lets live (finding 3). Positions are the harness's (as a retreat, §12.6 with parabellum/retreat.move_along, or
caldiero §4.4.4's move to the nearest friends, or an umpire's ruling can leave Bonaparte)."""

from __future__ import annotations

import pytest

from arbitro.adjudicator.caldiero.system_movement import leader_reachable
from arbitro.adjudicator.errors import IllegalCommand
from tests.caldiero.harness import RULESET
from tests.caldiero.test_movement import moving


def _bonaparte_moves(units: dict[str, str], at: str) -> set[str]:
    t = moving(units, leaders={"bonaparte": at})
    t.send("france", {"type": "end_step"})  # on to the commanders' moves (§4.2.1)
    assert t.state.step == "leaders"
    return {c["to"] for c in t.legal("france") if c["type"] == "move_leader" and c["leader"] == "bonaparte"}


def test_bonaparte_carried_beyond_his_limit_may_still_walk_back_within_it() -> None:
    """Finding 1. Bonaparte four hexes from 1014 (carried there by a retreat of his stack or by §4.4.4, which do not
    read §4.2.2): Caldiero 0.30.0 let him walk back within two hexes of 1014 (1214, 1215...); 0.33.0 closes every hex
    beyond his limit to his search, so every neighbour of his hex is closed and he may never move again."""
    assert "1214" in _bonaparte_moves({"fr-18-ligne": "1417"}, "1414")


def test_bonaparte_alone_beyond_his_limit_may_flee_rather_than_be_captured() -> None:
    """Finding 1. §8.2.3: a commander alone reached by an enemy unit flees up to his full movement; with no hex to
    flee to he is captured (system_procedure.lone_leaders emits leader_lost). Four hexes from 1014, 0.30.0 let
    Bonaparte flee back within his limit; 0.33.0 gives him nowhere, so he is lost."""
    t = moving({"fr-18-ligne": "1417"}, leaders={"bonaparte": "1414"})
    assert leader_reachable(RULESET.world(t.state), "bonaparte", escape=True)


def test_a_hex_within_the_limit_reached_only_by_leaving_it_is_neither_listed_nor_accepted() -> None:
    """Finding 3 (passes on main). With an enemy unit at 1113, Bonaparte at 1112 reaches 1115 only through 1312-1314
    (three hexes from 1014). The landing's test reads legal(), which lists no paths, so it also passes when the search
    keeps the limit only for the END hex (mutant: `closed` without `within`, `can_end=within`); this one does not."""
    units = {"fr-18-ligne": "1417", "au-colloredo": "1113"}
    t = moving(units, leaders={"bonaparte": "1112"})
    w = RULESET.world(t.state)
    for to, path in leader_reachable(w, "bonaparte").items():
        assert all(w.grid.distance(h, "1014") <= 2 for h in path), (to, path)
    assert "1115" not in _bonaparte_moves(units, "1112")
    t.send("france", {"type": "end_step"})
    with pytest.raises(IllegalCommand) as e:
        t.send("france", {"type": "move_leader", "leader": "bonaparte", "to": "1115"})
    assert "§4.2.2" in str(e.value)
