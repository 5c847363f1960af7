"""fix-j (rev-j R-j-10): a retreat or rout move with one lawful answer is made for its owner only where that count
does not hang on what the enemy may not examine (arrivano §11.3.2): which seat the game awaits is served to every
seat. The forced retreat's case is tests/arrivano/test_rev_j_retreat_wait.py (France's whole service); here the
rout (§15.2.2): whether it may stop hangs on a friendly general the enemy may not see, so the rout waits for its
owner whether the general is there or not."""

from __future__ import annotations

from arbitro.adjudicator.arrivano import retreats

from tests.arrivano.harness import RULESET
from tests.arrivano.test_retreats import X, nb, pending_rout, position

FAR = nb(X, 2, 2, 2, 2, 2, 2, 2, 2)  # France's only unit, too far to examine X


def rout_beside(leaders: dict[str, str]) -> tuple[list[dict], bool]:
    state = position({"ir18-i": X, "6e-legere-i": FAR}, leaders=leaders)
    assert RULESET.unexaminable(state, "france", [X]) == {X}, "the routed unit's hex is out of France's sight"
    t = pending_rout(state, "ir18-i")
    frame = t.game.core.decisions[-1]
    return t.legal("austria"), retreats.asks_owner(RULESET.world_at(t.game), frame)


def test_a_rout_that_may_stop_beside_an_unseen_general_waits_for_its_owner_either_way() -> None:
    (beside, waits_beside), (alone, waits_alone) = rout_beside({"vogelsang": X}), rout_beside({})
    stop = {"type": "rout_move", "to": X, "off_map": False}
    assert stop in beside and stop not in alone, "the unseen general decides whether the rout may stop"
    assert waits_beside and waits_alone, "the rout waits for Austria whether or not the unseen general is there"
