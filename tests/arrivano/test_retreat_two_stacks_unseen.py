"""A retreat frame holding two stacks, one out of the enemy's sight (arrivano §11.3.2 with §12.6, §15.2.1; k-ret's note
on 68190935: Arrivano's retreat frames are one a side, several stacks in one RetreatAwaited asked a stack at a time,
and `retreats.asks_owner` judges only the stack asked). The 6e Légère I and II assault IR Colloredo 57-I (2011) and
57-II (2012) together, every die a 6: DR, each stack retreats one hex (57-I into 2110, out of France's sight), fails its
test and routs, and both routed stacks wait in ONE frame for two hexes more (§15.2.1), the unseen one (2110) asked
first. Three games differ only in the Austrian battalions out of France's sight around its way (who stands in 2210 and
2109, one or two, the rest far off in 3914): Austria answers alike, France declines to advance, and France is served
the same bytes (its log items per command, its view, its status: bench/served.served)."""

from __future__ import annotations

from typing import Any

import pytest

from arbitro.projections.base import UMPIRE
from bench.served import served
from tests.arrivano.harness import FOLD, RULESET, at_step, position

ASSAULT = {"type": "assault", "attackers": ["6e-legere-i", "6e-legere-ii"], "targets": ["2011", "2012"]}
UNSEEN = "2110"  # next to 2011, out of France's sight from 1911
GAMES = [{"ir18-i": "2210", "ir18-ii": "2109", "ir18-iii": "3914", "ir57-iii": "3914"},
         {"ir18-i": "2210", "ir18-ii": "2210", "ir18-iii": "2109", "ir57-iii": "3914"},
         {"ir18-iii": "2210", "ir18-i": "2109", "ir18-ii": "2109", "ir57-iii": "3914"}]


def played(hidden: dict[str, str]) -> tuple[list[tuple[str, dict[str, Any]]], list[Any], bytes, bytes]:
    """The assault to its end: Austria retreats 57-I into UNSEEN, else to the first end in hex order that no hidden
    battalion holds; the commands, the retreat frames holding both stacks as asked, France's and the umpire's service."""
    units = {"ir57-i": "2011", "ir57-ii": "2012", "6e-legere-i": "1911", "6e-legere-ii": "1911", "22e-i": "1910", **hidden}
    state = position(units, leaders={"watrin": "1911"}, orders={"W": "attack"})
    assert RULESET.unexaminable(state, "france", [UNSEEN, *hidden.values()]) == {UNSEEN, *hidden.values()}
    t = at_step(state, "W", "combat")
    before = FOLD.copy(t.game)
    made, sent, both = [("france", t.send("france", ASSAULT, pad=6))], [], []
    while (awaited := t.pending()) is not None and len(made) < 12:
        if awaited.kind == "retreat":
            moves = dict(t.top().ctx.moves)
            if len(moves) == 2:
                both.append((moves, RULESET.unexaminable(t.state, "france", [t.state.units[u].hex for u in moves])))
            command = next((o for o in awaited.options if o["to"] == UNSEEN), None) or min(
                (o for o in awaited.options if o["to"] not in hidden.values()), key=lambda o: o["to"])
        else:  # Austria's DR choice in 2011: retreat; France declines to advance
            command = {"type": "dr_choice", "choice": "retreat"} if awaited.kind == "dr_choice" else awaited.options[-1]
        sent.append((awaited.seat, command))
        made.append((awaited.seat, t.send(awaited.seat, command, pad=6)))
    assert t.pending() is None
    return sent, both, *(served(RULESET, FOLD, before, made, seat) for seat in ("france", UMPIRE))


@pytest.mark.parametrize("other", GAMES[1:])
def test_france_is_served_the_same_whatever_stands_unseen_around_the_unseen_stack(other: dict[str, str]) -> None:
    first, second = played(GAMES[0]), played(other)
    assert first[0] == second[0], "Austria's answers are the same in both games"
    assert first[1] == second[1] == [({"ir57-i": 2, "ir57-ii": 2}, frozenset({UNSEEN}))], \
        "one frame holds both routed stacks, the one in 2110 out of France's sight"
    assert first[2] == second[2], "France's service tells what stands out of its sight"
    assert first[3] != second[3], "the control: the umpire sees the games differ"
