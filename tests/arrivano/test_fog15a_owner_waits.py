"""fog15a: a decision with one lawful answer (or none) is made for its owner only where that count does not hang on
what the enemy may not examine (arrivano §11.3.2): which seat the game awaits is served to every seat, so a decision
settled by itself where the count reads stacks out of the enemy's sight tells the enemy what they hold. The enemy sees
a marker on each such stack (projections/parabellum.view, `hidden_stacks`), never what it holds nor a commander there.
Each test plays two games differing only in a fact hidden from France and asks for France's whole service (its log
items per command, view, status: tests/parabellum/served_status.served). The retreat's and rout's cases are
tests/arrivano/test_rev_j_retreat_wait.py and test_fix_j_owner_waits.py."""

from __future__ import annotations

from typing import Any

from tests.arrivano.harness import FOLD, RULESET, Table, open_ground, position
from tests.parabellum.served_status import served

X = open_ground()
GRID = RULESET.data.scenarios["montebello"].map.grid
BEYOND = GRID.neighbour(GRID.neighbour(X, 4), 4)  # two hexes off X: no hex a replacement may take
FRENCH = {"6e-legere-i": "1001"}  # three hexes off X: it sees X and some hexes around it, not the others


# --- arrivano §12.8.2: where a replacement returns ---------------------------------------------------------------


def returning(joins: str) -> tuple[list[tuple[str, list[Any]]], bytes, list[dict[str, Any]]]:
    """Turn 3 begins with IR 18-I on the track and its general Gottesheim at X, in France's sight (so only the
    stacks around him can hide anything). X and the six hexes around it each hold one Austrian battalion, all of
    other formations (a G battalion may not join them, §7.1) but `join`, in France's sight, holding IR 18-II of G, and
    `hidden`, out of it: IR 18-III of G (`joins` "two": two hexes may take the replacement) or Banat of R (`joins`
    "one": `join` alone). The other of the two stands BEYOND, out of sight too. France sees a marker on `hidden`
    either way. Austria places the replacement in `join` whenever asked. Returns the commands sent (each its sender
    and events), France's service of them, and the hexes Austria was offered besides `join`."""
    around = sorted(GRID.neighbours(X))
    unseen = sorted(RULESET.unexaminable(position(FRENCH), "france", around))
    seen = [h for h in around if h not in unseen]
    hidden, join, others = unseen[0], seen[0], [*seen[1:], *unseen[1:]]
    g_or_r = ("ir18-iii", "banat") if joins == "two" else ("banat", "ir18-iii")
    units = {"bach": X, **dict(zip(["am-ende", "otocac", "ir28-i", "ir28-ii"], others, strict=True)),
             "ir18-ii": join, g_or_r[0]: hidden, g_or_r[1]: BEYOND, **FRENCH}
    state = position(units, leaders={"gottesheim": X})
    state.units["ir18-i"].where, state.units["ir18-i"].reduced, state.units["ir18-i"].return_turn = "track", True, 3
    assert RULESET.unexaminable(state, "france", [X, join, hidden, BEYOND]) == {hidden, BEYOND}, "France's sight"
    t = Table(state)
    before = FOLD.copy(t.game)
    made: list[tuple[str, list[Any]]] = [("umpire", t.new_turn(3))]
    options: list[dict[str, Any]] = []
    while (awaited := t.pending()) is not None and awaited.seat == "austria" and awaited.kind == "replacement_hex":
        options = awaited.options
        made.append(("austria", t.send("austria", {"type": "replacement_hex", "hex": join})))
    assert t.state.units["ir18-i"].hex == join, "the replacement returns to JOIN in both games"
    return made, served(RULESET, FOLD, before, made, "france"), [o["hex"] for o in options if o["hex"] != join]


def test_whether_a_replacement_had_one_hex_to_take_is_not_told_by_the_wait() -> None:
    two, one = returning("two"), returning("one")
    assert len(two[2]) == 1 and not one[2], "two hexes may take IR 18-I in one game, one in the other"
    assert two[1] == one[1], "France learns what an unseen stack beside Gottesheim holds (the game waited or not)"
    assert [s for s, _ in two[0]] == [s for s, _ in one[0]] == ["umpire", "austria"], "Austria is asked in both"
