"""fog15a's audit (fifteenth session): a lone commander's refuge (arrivano §4.5.4, `commander_refuge`) with one hex
left was made for its owner wherever he stood. Where he stands out of the enemy's sight, the hexes he may reach hang
on that unseen hex, so which seat the game awaits would tell the enemy something of where he is: the decision waits
for its owner there (arrivano/steps.asks_owner, `_READS`); in the enemy's sight it is still made for him."""

from __future__ import annotations

from arbitro.adjudicator.arrivano import steps
from arbitro.adjudicator.arrivano.variant import ARRIVANO
from arbitro.events import arrivano as ev
from arbitro.events import core

from tests.arrivano.harness import RULESET, Table
from tests.arrivano.test_retreats import X, nb, position

FAR = nb(X, 2, 2, 2, 2, 2, 2, 2, 2)  # France's only unit, too far to examine X
NEAR = nb(X, 1)  # next to X: France examines it


def waits(france_at: str) -> bool:
    """Whether Vogelsang, alone at X with one refuge left, waits for Austria's answer, France's battalion at `france_at`."""
    state = position({"6e-legere-i": france_at}, leaders={"vogelsang": X})
    frame = core.Frame(kind="commander_refuge", seats=("austria",), rule=str(ARRIVANO.LEADER_ALONE), prompt="",
                       ctx=ev.RefugeAwaited(leader="vogelsang"))
    return steps.asks_owner(RULESET.world_at(Table(state).game), frame)


def test_a_lone_commander_out_of_the_enemy_s_sight_waits_for_his_refuge() -> None:
    assert RULESET.unexaminable(position({"6e-legere-i": FAR}), "france", [X]) == {X}, "the premise: X unseen"
    assert not RULESET.unexaminable(position({"6e-legere-i": NEAR}), "france", [X]), "the premise: X seen"
    assert waits(FAR) and not waits(NEAR)
