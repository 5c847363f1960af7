"""rev-j: a forced retreat with a single lawful line is settled by itself (arrivano/steps.settle_top: `retreat` with
one option), and which seat the game awaits is served to every seat. The lines end only where the stack fits (§7.1,
§12.6.2: parabellum/retreat_ground.ground `fits`), which hangs on the retreating side's stacks out of the enemy's sight
(arrivano §11.3.2). The shape of tests/arrivano/test_assault_served_whole.py (IR Colloredo 57-I in 2011 assaulted by
the 6e Légère from 1911, the 22e-i on one flank, 2110 behind the defender out of France's sight), every die a 6 (DR):
in one game 2110 holds two Austrian battalions (full), in the other one. Austria retreats along the SAME path in both
(2111, then on to 2310), France declines to advance: France sees the same movement, but in the full game the first
hex was the only line and the game did not wait for Austria; in the other it waited for Austria's answer. France's
service (its log items per command, view, status) differs: it learns whether an unseen hex is full. FAILS on main."""

from __future__ import annotations

from typing import Any

from bench.served import served
from tests.arrivano import test_assault_served_whole as W
from tests.arrivano.harness import FOLD, RULESET, at_step, position

FULL = {"ir18-i": W.BEHIND, "ir18-ii": W.BEHIND, "ir18-iii": W.AWAY, "ir57-ii": W.AWAY}
ONE = {"ir18-i": W.BEHIND, "ir18-ii": W.AWAY, "ir18-iii": W.AWAY, "ir57-ii": W.AWAY}


def played(hidden: dict[str, str]) -> tuple[list[Any], list[tuple[str, ...]], bytes]:
    units = {"ir57-i": W.DEFENDER, **hidden, "6e-legere-i": W.ATTACKER, "22e-i": "1910"}
    state = position(units, leaders={"watrin": W.ATTACKER}, orders={"W": "attack"})
    for unit, at in hidden.items():
        assert RULESET.unexaminable(state, "france", [at]) == {at}, f"{unit} out of France's sight"
    t = at_step(state, "W", "combat")
    before = FOLD.copy(t.game)
    made = [("france", t.send("france", W.ASSAULT, pad=6))]
    while (awaited := t.pending()) is not None and len(made) < 12:
        options = awaited.options
        if awaited.kind == "dr_choice":
            command = {"type": "dr_choice", "choice": "retreat"}
        elif awaited.kind == "retreat":
            command = next(o for o in options if o["to"] != W.BEHIND)  # never into the unseen hex
        else:
            command = options[-1]  # France declines to advance
        assert command in options
        made.append((awaited.seat, t.send(awaited.seat, command, pad=6)))
    paths = [tuple(e.path) for _, events in made for e in events if type(e).__name__ == "UnitRetreated"]
    return made, paths, served(RULESET, FOLD, before, made, "france")


def test_whether_an_unseen_hex_behind_a_retreat_is_full_is_not_told_by_the_wait() -> None:
    full, one = played(FULL), played(ONE)
    assert full[1] == one[1] and full[1], f"the same retreat in both games: {full[1]} / {one[1]}"
    assert full[2] == one[2], "France learns whether 2110, out of its sight, is full (the game waited or not)"
