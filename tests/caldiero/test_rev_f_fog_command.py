"""rev-f's F0 (thirteenth session review): under fog (caldiero §20.4) an assault's declaration refusal does not tell
France where an unseen Austrian general stands (§5.3, §12.4.2 read `after_terrain`)."""

from __future__ import annotations

from typing import Any

from arbitro.adjudicator.caldiero import commands as C
from arbitro.adjudicator.caldiero import system_declare
from arbitro.adjudicator.caldiero.variant import CALDIERO_VARIANT
from arbitro.adjudicator.errors import Rejected
from arbitro.adjudicator.parabellum.world import World
from arbitro.events.codec import canonical
from tests.caldiero.harness import RULESET, activate, position


def _declared(hohenzollern: str) -> tuple[bytes, str]:
    """Massena's reduced carabiniers (1512, his formation's direction released, §19.1) declare on Caldiero (1612, a
    village) held by Hohenzollern's Banal Grenz and Gyulai under an Attack order, fog of war in force (§20.4), the
    umpire's reading below_1_5_declared_on=after_terrain, and a terrain table whose village benefit needs a Defence
    order (as rules12's test_ooc_orders sets it: a user's table may). Hohenzollern stands out of France's sight."""
    state = position({"fr-carabiniers": "1512", "au-banal-grenz": "1612", "au-gyulai": "1612"},
                     leaders={"massena": "1511", "hohenzollern": hohenzollern},
                     orders={"massena": "attack", "hohenzollern": "attack"}, options=("fog_of_war",))
    state.direction_released = ["massena", "augereau"]
    state.units["fr-carabiniers"].reduced = True
    assert RULESET.unexaminable(state, "france", [hohenzollern]) == {hohenzollern}
    return served_declaration(state)[:2]


def served_declaration(state: Any) -> tuple[bytes, str, World]:
    """France's view and the answer it is served (its declaration's refusal, or "declared") when Massena's reduced
    carabiniers in 1512 declare on the village 1612 (as `_declared` sets it), and the World the refusal was judged on."""
    t = activate(state, "massena", step="combat")
    view = canonical(RULESET.view(t.state, "france"))
    readings = {n: i.default for n, i in RULESET.interpretations().items()} | {"below_1_5_declared_on": "after_terrain"}
    w = World(t.state, RULESET.battle, lambda n: readings[n], variant=CALDIERO_VARIANT)
    table = w.terrain_table
    village = table.terrain["villaggio"].model_copy(update={"requires_defence_order": True})
    w.terrain_table = table.model_copy(update={"terrain": {**table.terrain, "villaggio": village}})
    try:
        system_declare.attack_problem(w, "france", C.Attack(type="attack", attackers=["fr-carabiniers"],
                                                            defenders=["1612"]))
        return view, "declared", w
    except Rejected as e:  # the refusal France is served
        return view, str(e), w


def test_f0_a_declaration_s_refusal_does_not_tell_where_an_unseen_austrian_general_stands() -> None:
    """95d0c06 reads a non-activated defender's command as the position stands, so under fog (caldiero §20.4) the
    refusal tells France whether Hohenzollern (unseen at 1713: in range; at 2520: not) has the village's defenders in
    command: '1 against 7 is worse than 1-5' vs '1 against 7 with the terrain's 1 column(s) left is worse than 1-5'."""
    near, far = _declared("1713"), _declared("2520")
    assert near[0] == far[0], "the views differ: the hidden fact is not hidden"
    assert near[1] == far[1], f"the refusal tells it: {near[1]!r} != {far[1]!r}"
