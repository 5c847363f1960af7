"""fogw (nifuzz, eighteenth session: montebello-options #987): a commander left alone by his retreating stack goes
with it (caldiero §12.6, arrivano §12.6 with §4.5.4; parabellum/retreat_ground.take), and his `leader_moved` was
served to the enemy as a stub where the stack is out of its sight. The stack's marker moves at the table whatever it
holds (arrivano §11.3.2 "si può esaminare uno stack nemico solo se si ha una LoS"), so the stub's presence told the
enemy that a commander stood in the unseen routed stack. Two games differing only in where the unseen Watrin stands,
in the routed 6e-legere-i's hex or in another unseen stack, serve Austria the same bytes: a commander's move he did
not make himself is served nothing where he is hidden (ParaBellumRuleset.withholds)."""

from __future__ import annotations

from bench.served import served
from tests.arrivano.harness import FOLD, RULESET, line, open_ground, position
from tests.arrivano.test_retreats import pending_rout

X = open_ground()
AUSTRIAN = {"ir18-i": "3914"}  # far off: nothing near X is in its sight (tests/arrivano/test_fog_served.py)


def rout_served(watrin_at: int) -> tuple[bytes, bytes]:
    """Austria's and the umpire's service of France's rout move of 6e-legere-i from X, Watrin in X or beside
    6e-legere-ii four hexes away, both out of Austria's sight."""
    a = line(X, n=5)
    state = position({"6e-legere-i": X, "6e-legere-ii": a[4], **AUSTRIAN}, leaders={"watrin": a[watrin_at]})
    assert RULESET.unexaminable(state, "austria", [X, a[4]]) == {X, a[4]}
    t = pending_rout(state, "6e-legere-i")
    move = sorted(t.legal("france"), key=lambda c: (c["off_map"], c["to"]))[0]
    before = FOLD.copy(t.game)
    events = t.send("france", move)
    return served(RULESET, FOLD, before, [("france", events)], "austria"), \
        served(RULESET, FOLD, before, [("france", events)], "umpire")


def test_a_commander_carried_by_an_unseen_rout_move_is_not_served() -> None:
    (austria_with, umpire_with), (austria_apart, umpire_apart) = rout_served(0), rout_served(4)
    assert b"leader_moved" in umpire_with and b"leader_moved" not in umpire_apart, "the premise: Watrin went along"
    assert austria_with == austria_apart, "Austria is told a commander stood in the unseen routed stack"
