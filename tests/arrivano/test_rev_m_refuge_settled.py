"""rev-m (sixteenth session), on lead 55ff6d86: tests/arrivano/test_refuge_wait.py asks `steps.asks_owner` alone, so a
`settle_top` that made a one-hex refuge (arrivano §4.5.4) for its owner without asking it passes every test (mutation:
`commander_refuge` settled whenever one hex is left). This asks the game itself: a lone commander out of the enemy's
sight with one refuge hex left waits for his owner; in the enemy's sight he is moved there at once."""

from __future__ import annotations

from arbitro.adjudicator.arrivano.variant import ARRIVANO
from arbitro.adjudicator.parabellum.act import settle

from tests.arrivano.harness import RULESET, Table
from tests.arrivano.test_refuge_wait import FAR, NEAR
from tests.arrivano.test_retreats import X, nb, position

FRIEND = nb(X, 3, 3)  # IR 18-I, two hexes off: the one nearest friendly hex


def awaited_after_settling(france_at: str) -> tuple[str | None, str]:
    """Vogelsang alone at X with a refuge to take: (the kind awaited once the game settles what it may, his hex)."""
    state = position({"6e-legere-i": france_at, "ir18-i": FRIEND}, leaders={"vogelsang": X})
    t = Table(state).with_frame("commander_refuge", "austria", str(ARRIVANO.LEADER_ALONE), {"leader": "vogelsang"})
    assert [o["to"] for o in t.legal("austria")] == [FRIEND], "the premise: one refuge hex"
    ctx = t.decision()
    settle(RULESET.game(ctx))
    top = ctx.game.core.decisions[-1] if ctx.game.core.decisions else None
    return (top.kind if top is not None else None), ctx.game.rules.leaders["vogelsang"].hex


def test_a_lone_commander_out_of_sight_is_asked_for_his_one_refuge() -> None:
    assert awaited_after_settling(FAR) == ("commander_refuge", X), "settled for Austria: France learns where he is"


def test_a_lone_commander_in_sight_is_moved_to_his_one_refuge() -> None:
    assert awaited_after_settling(NEAR) == (None, FRIEND)
