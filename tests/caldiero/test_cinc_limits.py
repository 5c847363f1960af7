"""caldiero §4.2.2, the commanders in chief's limits ("Bonaparte non può mai muovere a più di due esagoni da 1014",
"Alvinczy non può muovere oltre la linea di esagoni 24xx"), read by `cinc_limit_scope`: for every hex of his move
(`whole_move`, the default) or for the hex he ends in (`end_hex`); under both, a chief carried beyond his limit (a
retreat, §12.6 with parabellum/retreat.move_along; §4.4.4's move to the nearest friends; an umpire's ruling) walks
back toward it and ends within it or as near it as he can get, and is not frozen there or captured (§8.2.3). The
first three tests are the reviewer rev-move's (findings 1 and 2 on k-move's ad5d5fe)."""

from __future__ import annotations

import json

import pytest

from arbitro.adjudicator.caldiero import map_rules
from arbitro.adjudicator.caldiero import rules as R
from arbitro.adjudicator.caldiero.variant import CALDIERO_VARIANT
from arbitro.adjudicator.errors import IllegalCommand
from arbitro.adjudicator.memo import Memo
from arbitro.adjudicator.parabellum import movement
from arbitro.adjudicator.parabellum.commander_move import (
    any_commander_end, commander_move, commander_moves, commander_path_problem, leader_ends,
)
from arbitro.adjudicator.parabellum.world import World
from tests.caldiero.harness import RULESET, Table, activate, position
from tests.caldiero.test_movement import moving, reject


def _bonaparte_moves(units: dict[str, str], at: str) -> set[str]:
    t = moving(units, leaders={"bonaparte": at})
    t.send("france", {"type": "end_step"})  # on to the commanders' moves (§4.2.1)
    assert t.state.step == "leaders"
    return {c["to"] for c in t.legal("france") if c["type"] == "move_leader" and c["leader"] == "bonaparte"}


def test_bonaparte_carried_beyond_his_limit_may_still_walk_back_within_it() -> None:
    """Finding 1. Bonaparte four hexes from 1014 (carried there by a retreat of his stack or by §4.4.4, which do not
    read §4.2.2): Caldiero 0.30.0 let him walk back within two hexes of 1014 (1214, 1215...); 0.33.0 closed every hex
    beyond his limit to his search, so every neighbour of his hex was closed and he could never move again."""
    assert "1214" in _bonaparte_moves({"fr-18-ligne": "1417"}, "1414")


def test_bonaparte_alone_beyond_his_limit_may_flee_rather_than_be_captured() -> None:
    """Finding 1. §8.2.3: a commander alone reached by an enemy unit flees up to his full movement; with no hex to
    flee to he is captured (system_procedure.lone_leaders emits leader_lost). Four hexes from 1014, 0.30.0 let
    Bonaparte flee back within his limit; 0.33.0 gave him nowhere, so he was lost."""
    t = moving({"fr-18-ligne": "1417"}, leaders={"bonaparte": "1414"})
    assert leader_ends(CALDIERO_VARIANT, RULESET.world(t.state), "bonaparte", fleeing=True)


def test_a_hex_within_the_limit_reached_only_by_leaving_it_is_neither_listed_nor_accepted() -> None:
    """Finding 2. With an enemy unit at 1113, Bonaparte at 1112 reaches 1115 only through 1312-1314 (three hexes
    from 1014). legal() lists no paths, so a test of its ends alone also passes when the search keeps the limit only
    for the END hex (mutant: `closed` without the limit, an end-hex filter); this one does not."""
    units = {"fr-18-ligne": "1417", "au-colloredo": "1113"}
    t = moving(units, leaders={"bonaparte": "1112"})
    w = RULESET.world(t.state)
    for to, path in leader_ends(CALDIERO_VARIANT, w, "bonaparte").items():
        assert all(w.grid.distance(h, "1014") <= 2 for h in path), (to, path)
    assert "1115" not in _bonaparte_moves(units, "1112")
    t.send("france", {"type": "end_step"})
    with pytest.raises(IllegalCommand) as e:
        t.send("france", {"type": "move_leader", "leader": "bonaparte", "to": "1115"})
    assert "§4.2.2" in str(e.value)


def _at_leaders(at: str, interpretations: dict[str, str] | None = None, files: dict[str, str] | None = None,
                **kw: object) -> Table:
    state = position({"fr-18-ligne": "1417"}, leaders={"massena": "1317", "augereau": "1412", "hohenzollern": "2318",
                                                       "bonaparte": at}, orders={"massena": "manoeuvre"}, **kw)  # type: ignore[arg-type]
    t = activate(RULESET.adopt_data(state, files), "massena", step="movement", interpretations=interpretations)
    t.send("france", {"type": "end_step"})
    return t


def _detour(t: Table) -> list[str]:
    grid = RULESET.world(t.state).grid
    out = next(h for h in sorted(grid.neighbours("1214")) if grid.distance(h, "1014") == 3)
    back = next(h for h in sorted(grid.neighbours(out)) if grid.distance(h, "1014") == 2 and h != "1214")
    return ["1214", out, back]


def test_bonaparte_never_moves_beyond_two_hexes_from_1014_even_on_the_way() -> None:
    """`whole_move` (the default): a path given through a hex three hexes from 1014 is refused citing §4.2.2 though
    it ends within two, in words naming Bonaparte's limit and the reading only; no path of his search walks beyond;
    with §20.1.1 (Bonaparte intervening) the same path breaks no rule."""
    t = _at_leaders("1114")
    path = _detour(t)
    words = reject(t, "caldiero §4.2.2", {"type": "move_leader", "leader": "bonaparte", "to": path[-1], "path": path})
    assert path[1] in words and "more than 2 hexes from 1014 (reading whole_move)" in words and "Alvinczy" not in words
    w = RULESET.world(t.state)
    for to, walked in leader_ends(CALDIERO_VARIANT, w, "bonaparte").items():
        assert all(w.grid.distance(h, "1014") <= 2 for h in walked), (to, walked)
    def walk_problem(w: World) -> object:
        move = commander_move(CALDIERO_VARIANT, w, "bonaparte")
        assert move is not None
        return commander_path_problem(CALDIERO_VARIANT, w, move, (move.origin, *path))

    assert walk_problem(w)[0] == R.CINC_LIMITS  # type: ignore[index]
    free = _at_leaders("1114", options=("bonaparte_intervention",)).state  # §20.1.1: no longer subject to §4.2.2
    assert walk_problem(RULESET.world(free)) is None


def test_the_limit_is_the_scenario_data() -> None:
    """The limits are scenario.json's `commander_limits`, not names in code: on a data folder keeping Bonaparte
    within three hexes of 1014, the detour refused above is walked, and a hex four away is refused in those words."""
    files = RULESET.read_data(RULESET.folder.folder)
    scenario = json.loads(files["caldiero/scenario.json"])
    next(lim for lim in scenario["commander_limits"] if lim["leader"] == "bonaparte")["max_distance"] = 3
    files["caldiero/scenario.json"] = json.dumps(scenario, ensure_ascii=False)
    t = _at_leaders("1114", files=files)
    path = _detour(t)
    grid = RULESET.world(t.state).grid
    far = next(h for h in sorted(grid.neighbours(path[1])) if grid.distance(h, "1014") == 4)
    words = reject(t, "caldiero §4.2.2", {"type": "move_leader", "leader": "bonaparte", "to": far, "path": [path[0], path[1], far]})
    assert far in words and "more than 3 hexes from 1014" in words
    t.send("france", {"type": "move_leader", "leader": "bonaparte", "to": path[-1], "path": path})
    assert t.state.leaders["bonaparte"].hex == path[-1]


def test_an_umpire_may_read_the_limit_for_the_end_hex_only() -> None:
    """`cinc_limit_scope` = `end_hex` (an umpire's ruling against "mai"): the same detour is accepted, and a hex
    beyond the limit is still refused as an end, citing §4.2.2 and the reading."""
    t = _at_leaders("1114", {"cinc_limit_scope": "end_hex"})
    path = _detour(t)
    far = next(h for h in sorted(RULESET.world(t.state).grid.neighbours(path[1])) if
               RULESET.world(t.state).grid.distance(h, "1014") == 3)
    words = reject(t, "caldiero §4.2.2", {"type": "move_leader", "leader": "bonaparte", "to": far})
    assert far in words and "(reading end_hex)" in words
    t.send("france", {"type": "move_leader", "leader": "bonaparte", "to": path[-1], "path": path})
    assert t.state.leaders["bonaparte"].hex == path[-1]


@pytest.mark.parametrize("scope", ["whole_move", "end_hex"])
def test_a_chief_far_beyond_his_limit_ends_as_near_it_as_he_can_get(scope: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Bonaparte eight hexes from 1014 cannot get back within two with his 6 MP: he ends where he comes nearest (his
    search's least distance), never farther than he starts; nearer ends are refused citing §4.2.2."""
    t = _at_leaders("2014", {"cinc_limit_scope": scope})
    w = RULESET.world(t.state)
    limit = map_rules.leader_limit(w, "bonaparte")
    assert limit is not None
    move = commander_move(CALDIERO_VARIANT, w, "bonaparte")
    assert move is not None
    searched = commander_moves(CALDIERO_VARIANT, w, move)
    nearest = min(limit.beyond(h) for h in searched)
    ends = leader_ends(CALDIERO_VARIANT, w, "bonaparte")
    assert 0 < nearest < limit.beyond("2014") and ends and {limit.beyond(h) for h in ends} == {nearest}
    if scope == "whole_move":
        assert all(limit.beyond(h) <= limit.beyond("2014") for path in ends.values() for h in path)
    monkeypatch.setattr(movement, "SEARCHES", Memo(16))  # "anything left?" searched by itself (issue 15)
    fresh = RULESET.world(t.state)
    assert any_commander_end(CALDIERO_VARIANT, fresh, commander_move(CALDIERO_VARIANT, fresh, "bonaparte")) in ends
    farther = next(h for h in sorted(searched) if limit.beyond(h) > nearest)
    words = reject(t, "caldiero §4.2.2", {"type": "move_leader", "leader": "bonaparte", "to": farther})
    assert "as near it as he can" in words
    to = sorted(ends)[0]
    t.send("france", {"type": "move_leader", "leader": "bonaparte", "to": to})
    assert t.state.leaders["bonaparte"].hex == to


@pytest.mark.parametrize("reading, line", [("column_24_and_east", "24xx"), ("east_of_24", "25xx")])
def test_alvinczy_west_of_his_line_walks_back_east(reading: str, line: str) -> None:
    """Alvinczy left at column 22 walks back east toward his line, never west; the refusal of a westward move names
    his line under the reading in force and not Bonaparte's."""
    state = position({"au-colloredo": "2517", "fr-18-ligne": "1417"}, leaders={"alvinczy": "2214", "hohenzollern": "2518"})
    state.seat = "austria"
    t = activate(state, "hohenzollern", step="leaders", interpretations={"alvinczy_limit": reading})
    dests = {c["to"] for c in t.legal("austria") if c["type"] == "move_leader" and c["leader"] == "alvinczy"}
    assert dests and all(int(d[:2]) >= 22 for d in dests)
    words = reject(t, "caldiero §4.2.2", {"type": "move_leader", "leader": "alvinczy", "to": "2114"}, seat="austria")
    assert f"west of the {line} line" in words and reading in words and "Bonaparte" not in words
