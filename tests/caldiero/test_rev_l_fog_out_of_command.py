"""rev-l (fifteenth session): under fog (caldiero §20.4) the activation's `formation_activated` names the formation's
units out of command (§4.3, §5.3) whole to the enemy wherever it sees them, and whether a seen unit is out of command
tells where its general, out of the enemy's sight, stands: within his command range of the unit or not (the place
rev-f's F0, tests/caldiero/test_rev_f_fog_command.py, keeps out of a declaration's refusal; the view hides him).

Massena's 40e (2518) is seen by Austria's Colloredo (2418; weather 2, the reach cut to 2, §20.4.1). Massena (command
range 4) stands out of Austria's sight: at 2120, four hexes from the 40e, or at 1317, far. France activates Massena."""

from __future__ import annotations

from arbitro.projections.base import UMPIRE
from bench.served import served
from tests.caldiero.harness import FOLD, RULESET, Table, position


FORTY = "2518"


def activated(massena: str, colloredo: str = "2418", forty_seen: bool = True) -> tuple[list[str], bytes, bytes]:
    """France activates Massena (at `massena`, out of Austria's sight) with Colloredo at `colloredo`, who sees the 40e
    or not as `forty_seen` says. Returns the units out of command, Austria's service and the umpire's (the nifuzz
    stub case, tests/caldiero/test_nifuzz_fog_activation_stub.py, plays it with the 40e unseen)."""
    state = position({"fr-40-ligne": FORTY, "au-colloredo": colloredo}, leaders={"massena": massena},
                     orders={"massena": "attack"}, options=("fog_of_war",), weather=2)
    unseen = {massena} if forty_seen else {massena, FORTY}
    assert RULESET.unexaminable(state, "austria", [massena, FORTY]) == unseen, "Massena unseen, the 40e as told"
    state.seat = "france"
    t = Table(state)
    before = FOLD.copy(t.game)
    made = [("france", t.send("france", {"type": "activate", "formation": "massena"}, pad=0))]
    assert RULESET.unexaminable(t.state, "austria", [massena, FORTY]) == unseen
    return list(t.state.activation.out_of_command), *(served(RULESET, FOLD, before, made, s) for s in ("austria", UMPIRE))


def test_whether_a_seen_unit_is_out_of_command_does_not_tell_where_its_unseen_general_stands() -> None:
    near, far = activated("2120"), activated("1317")
    assert (near[0], far[0]) == ([], ["fr-40-ligne"]), "the premise: in his range or not"
    assert near[2] != far[2], "the umpire sees the hidden fact"
    assert near[1] == far[1], "Austria learns whether Massena stands within four hexes of the 40e"
