"""rev-m (sixteenth session): arrivano §3.1 C turns every gun on its Moved side back in the end phase, in one
`artillery_turned` listing them (turn.end_phase_rest). Under the fog (arrivano §11.3.2) an event naming a unit out of
the seat's sight is served as a stub (parabellum/ruleset.hides), so the enemy is served a stub where an unseen gun is
listed and nothing where none moved: two games differing only in whether a French battery out of Austria's sight moved
this turn (its Moved side, §11 "Quando una unità di artiglieria muove o Bombarda si gira sul lato \"Moved\"") serve
Austria different bytes. Whether an unseen gun moved is what rev-k K6 found told of cavalry (fixed by 7a8abff8)."""

from __future__ import annotations

from typing import Any

from arbitro.projections.base import UMPIRE
from bench.served import served
from tests.arrivano.harness import FOLD, RULESET, at_step, end_phase_made, position

GUNS, AUSTRIA = "1004", "3914"  # far apart: neither side sees the other


def end_phase_served(moved: bool) -> bytes:
    state = position({"art-watrin": GUNS, "6e-legere-i": GUNS, "ir18-i": AUSTRIA}, leaders={"watrin": GUNS},
                     turn=3)
    state.units["art-watrin"].art_moved = moved
    assert RULESET.unexaminable(state, "austria", [GUNS]) == {GUNS}
    before, made, _ = end_phase_made(state)
    return served(RULESET, FOLD, before, made, "austria")


def test_whether_an_unseen_gun_moved_is_not_told_by_the_end_phase() -> None:
    assert end_phase_served(True) == end_phase_served(False), "Austria learns an unseen French gun moved this turn"


def one_moves(mover: str) -> tuple[bytes, bytes]:
    """Austria's bytes and the umpire's when `mover`, of a gun and a battalion stacked at GUNS, steps one hex, all
    out of Austria's sight: a gun that moves turns to its Moved side at once (§11), a second event."""
    to = "1005"
    state = position({"art-watrin": GUNS, "6e-legere-i": GUNS, "ir18-i": AUSTRIA}, leaders={"watrin": GUNS},
                     orders={"W": "manoeuvre"})
    assert RULESET.unexaminable(state, "austria", [GUNS, to]) == {GUNS, to}
    t = at_step(state, "W", "movement")
    before = FOLD.copy(t.game)
    order = {"order": "manoeuvre"} if mover.startswith("art-") else {}  # a gun moves under an order named (§11)
    made: list[tuple[str, list[Any]]] = [("france", t.send("france", {"type": "move", "unit": mover, "to": to, **order}))]
    return served(RULESET, FOLD, before, made, "austria"), served(RULESET, FOLD, before, made, UMPIRE)


def test_whether_an_unseen_mover_is_a_gun_is_not_told_by_its_turning() -> None:
    """The gun's `artillery_turned` was served as a stub (the kernel's, for naming a hidden unit) beside the move's:
    Austria learnt that the unseen stack that moved was a battery (§11); it is served nothing of it now."""
    gun, foot = one_moves("art-watrin"), one_moves("6e-legere-i")
    assert b"artillery_turned" in gun[1] and gun[1] != foot[1], "the umpire's log holds the gun turned"
    assert gun[0] == foot[0], "Austria learns the unseen unit that moved is a gun"
