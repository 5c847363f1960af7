"""rev-l (fifteenth session), L8's sibling: under fog (caldiero §20.4) `formation_activated.reserve_joined` is served
whole to the enemy wherever it sees the reserve units, and whether a seen reserve unit joins the activated formation
(caldiero §15.4.3, reading reserve_attachment: in its general's range, or in no other general's) tells where the
other general, out of the enemy's sight, stands.

The reserve's 4e de ligne (2518) is seen by Austria's Colloredo (2418; weather 2, the reach cut to 2, §20.4.1).
Massena (range 4) stands far off at 1317; Augereau (range 3), out of Austria's sight, at 2520 (within three hexes of
the 4e) or at 1112 (far). France activates Massena: the 4e joins him only where Augereau's range misses it (and,
out of Massena's range, is then listed out of command too: both fields say it)."""

from __future__ import annotations

from arbitro.projections.base import UMPIRE
from bench.served import served
from tests.caldiero.harness import FOLD, RULESET, Table, position

UNIT, AT = "fr-4-ligne", "2518"


def activated(augereau: str) -> tuple[list[str], bytes, bytes]:
    state = position({UNIT: AT, "au-colloredo": "2418"}, leaders={"massena": "1317", "augereau": augereau},
                     orders={"massena": "attack", "augereau": "attack"}, options=("fog_of_war",), weather=2)
    assert RULESET.unexaminable(state, "austria", [augereau, AT]) == {augereau}, "Augereau unseen, the 4e seen"
    state.seat = "france"
    t = Table(state)
    before = FOLD.copy(t.game)
    made = [("france", t.send("france", {"type": "activate", "formation": "massena"}, pad=0))]
    joined = [e for e in made[0][1] if type(e).__name__ == "FormationActivated"][0].reserve_joined
    return list(joined), *(served(RULESET, FOLD, before, made, s) for s in ("austria", UMPIRE))


def test_whether_a_seen_reserve_unit_joins_does_not_tell_where_the_unseen_other_general_stands() -> None:
    near, far = activated("2520"), activated("1112")
    assert (near[0], far[0]) == ([], [UNIT]), "the premise: it joins Massena only out of Augereau's range"
    assert near[2] != far[2], "the umpire sees the hidden fact"
    assert near[1] == far[1], "Austria learns whether Augereau stands within three hexes of the 4e"
