"""rev-move2: a move's refusal tells a seat nothing fog of war hides (caldiero §20.4, arrivano §11.3.2, arbitro §V.4),
proved by non-interference: two games that differ only in which of two enemy stacks out of the seat's sight holds the
unit in good order (the other's is disordered: no ZoC, caldiero §15 / arrivano §8) serve the seat the same view, and
the same command, refused in both, must be refused with the same bytes. The destination lies beside one stack, far
beyond the mover's allowance: parabellum/move_problems.destination_problem and
commander_move.commander_destination_problem cite the enemy ZoC there (§5.1.4, §8.2.2) in one game and the allowance
(§9.1.1) in the other, so a seat probes the status of every hidden stack on the map from anywhere, moving nothing.
A path given in Caldiero (caldiero §9.1) through a hex beside the hidden stack and on beyond the allowance is refused
in both games too: at that hex in one (§5.1.4, §8.2.2), for the movement points farther on in the other
(move_problems.path_problem, commander_move.commander_path_problem)."""

from __future__ import annotations

from typing import Any

import pytest

from arbitro.adjudicator.errors import Rejected
from arbitro.events.codec import canonical
from tests.arrivano import harness as A
from tests.caldiero import harness as C

C_S1, C_S2, C_T = "2518", "2617", "2419"  # out of France's sight from 1417/1317; C_T beside C_S1 only


P_X, P_S1, P_S2 = "1715", "1612", "2114"  # out of France's sight from P_X; the paths pass 1613, beside P_S1 only
P_UNIT = ["1615", "1614", "1613", "1512", "1412", "1311", "1211", "1110", "1010", "1009", "1008"]
P_LEADER = ["1615", "1614", "1613", "1513", "1413", "1312", "1212", "1112"]  # 1112: listed in both games


def caldiero(good: str, bad: str, cmd: dict[str, Any], step: str, at: tuple[str, str] = ("1417", "1317"),
             released: bool = False) -> tuple[bytes, bytes]:
    state = C.position({"fr-18-ligne": at[0], "au-colloredo": good, "au-banal-grenz": bad},
                       leaders={"massena": at[1]}, orders={"massena": "manoeuvre"}, options=("fog_of_war",))
    state.units["au-banal-grenz"].status = "disordered"
    if released:  # Massena's formation free to go south of the road (caldiero §19.1.2), as the paths do
        state.direction_released.append("massena")
    assert C.RULESET.unexaminable(state, "france", [good, bad]) == {good, bad}
    t = C.activate(state, "massena", step=step)
    view = canonical(C.RULESET.view(t.state, "france"))
    with pytest.raises(Rejected) as refused:
        t.send("france", cmd)
    return view, canonical(refused.value.to_dict())


A_GRID = A.RULESET.data.scenarios["montebello"].map.grid
A_X, A_S1, A_S2, A_T = "1004", "1411", "1809", "1310"  # A_S1, A_S2 out of France's sight from A_X; A_T beside A_S1 only


def arrivano(good: str, bad: str, cmd: dict[str, Any]) -> tuple[bytes, bytes]:
    state = A.position({"6e-legere-i": A_X, "ir18-i": good, "ir18-ii": bad}, leaders={"watrin": A_X},
                       orders={"W": "manoeuvre"})
    state.units["ir18-ii"].status = "disordered"
    assert A.RULESET.unexaminable(state, "france", [A_S1, A_S2]) == {A_S1, A_S2}
    t = A.at_step(state, "W", "movement")
    view = canonical(A.RULESET.view(t.state, "france"))
    with pytest.raises(Rejected) as refused:
        t.send("france", cmd)
    return view, canonical(refused.value.to_dict())


CASES = {
    "caldiero unit": lambda g, b: caldiero(g, b, {"type": "move", "units": ["fr-18-ligne"], "to": C_T}, "movement"),
    "caldiero commander": lambda g, b: caldiero(g, b, {"type": "move_leader", "leader": "massena", "to": C_T}, "leaders"),
    "arrivano unit": lambda g, b: arrivano(g, b, {"type": "move", "unit": "6e-legere-i", "to": A_T, "column": False}),
    "arrivano commander": lambda g, b: arrivano(g, b, {"type": "move_leader", "leader": "watrin", "to": A_T}),
    "caldiero unit path": lambda g, b: caldiero(g, b, {"type": "move", "units": ["fr-18-ligne"], "to": P_UNIT[-1],
                                                       "path": P_UNIT}, "movement", (P_X, P_X), True),
    "caldiero commander path": lambda g, b: caldiero(g, b, {"type": "move_leader", "leader": "massena",
                                                            "to": P_LEADER[-1], "path": P_LEADER}, "leaders", (P_X, P_X), True),
}
PLACES = {"caldiero unit path": (P_S1, P_S2), "caldiero commander path": (P_S1, P_S2)}


@pytest.mark.parametrize("case", sorted(CASES))
def test_which_hidden_stack_is_in_good_order_changes_no_refusal(case: str) -> None:
    s1, s2 = PLACES.get(case) or {"caldiero": (C_S1, C_S2), "arrivano": (A_S1, A_S2)}[case.split()[0]]
    here, there = CASES[case](s1, s2), CASES[case](s2, s1)
    assert here[0] == there[0], "the seat's views differ: the hidden fact is not hidden"
    assert here[1] == there[1], f"the refusal tells which unseen stack exerts a ZoC: {here[1]!r} != {there[1]!r}"
