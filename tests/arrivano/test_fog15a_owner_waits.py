"""fog15a: a decision with one lawful answer (or none) is made for its owner only where that count does not hang on
what the enemy may not examine (arrivano §11.3.2): which seat the game awaits is served to every seat, so a decision
settled by itself where the count reads stacks out of the enemy's sight tells the enemy what they hold. The enemy sees
a marker on each such stack (projections/parabellum.view, `hidden_stacks`), never what it holds nor a commander there.
Each test plays two games differing only in a fact hidden from France and asks for France's whole service (its log
items per command, view, status: bench/served.served). The retreat's and rout's cases are
tests/arrivano/test_rev_j_retreat_wait.py and test_fix_j_owner_waits.py."""

from __future__ import annotations

from typing import Any


from bench.served import served
from tests.arrivano.harness import FOLD, RULESET, Table, at_step, ev, open_ground, position

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


# --- arrivano §16.3: the fall back after an open-order fire -------------------------------------------------------

FIRER, TARGET = "0912", "0911"  # a village (it hides the hill behind it from the target) and open ground
BEHIND = ("0813", "0913", "1013")  # the hexes one step farther from the target; 0913 is out of Austria's sight
FAR_OFF = "3914"  # far from every piece: out of Austria's sight


def falling_back(fits: bool) -> tuple[list[tuple[str, list[Any]]], bytes, list[dict[str, Any]]]:
    """The 6e Légère I (W) fires from FIRER at IR 18-I in TARGET (the die misses) and may fall back one hex away
    (§16.3). Two of the hexes behind hold a C battalion, which a W battalion may not join (§7.1), in Austria's sight;
    the third, out of it, holds 6e Légère II of W (`fits`: the firer may fall back there) or a C battalion (it may
    not, and has nowhere to go); the other of the two stands FAR_OFF. France stays put whenever asked."""
    unseen = BEHIND[1]
    w_or_c = ("6e-legere-ii", "96e-iii") if fits else ("96e-iii", "6e-legere-ii")
    units = {"6e-legere-i": FIRER, "ir18-i": TARGET, "96e-i": BEHIND[0], "96e-ii": BEHIND[2], w_or_c[0]: unseen,
             w_or_c[1]: FAR_OFF}
    state = position(units, leaders={"watrin": FIRER}, orders={"W": "manoeuvre"})
    state.options = ["open_order"]
    assert RULESET.unexaminable(state, "austria", [FIRER, *BEHIND, FAR_OFF]) == {unseen, FAR_OFF}, "Austria's sight"
    t = at_step(state, "W", "movement")
    before = FOLD.copy(t.game)
    made: list[tuple[str, list[Any]]] = [("france", t.send("france", {"type": "fire", "unit": "6e-legere-i",
                                                                       "to": FIRER, "target": TARGET}, [1]))]
    assert t.of(ev.InfantryFired)[-1].result == "•", "the fire misses: nothing else follows"
    options: list[dict[str, Any]] = []
    if (awaited := t.pending()) is not None and awaited.kind == "fall_back":
        options = awaited.options
        made.append(("france", t.send("france", {"type": "fall_back", "to": None})))
    return made, served(RULESET, FOLD, before, made, "austria"), [o["to"] for o in options if o["to"] is not None]


def test_whether_a_fire_had_a_hex_to_fall_back_to_is_not_told_by_the_wait() -> None:
    free, full = falling_back(True), falling_back(False)
    assert free[2] == [BEHIND[1]] and not full[2], "the unseen stack decides whether the firer may fall back"
    assert free[1] == full[1], "Austria learns what an unseen French stack behind the firer holds (the wait)"
    assert [s for s, _ in free[0]] == [s for s, _ in full[0]] == ["france", "france"], "France is asked in both"


# --- arrivano §3.1 B-6, §15.3: recovery at the end of an activation ----------------------------------------------


def ending(disordered: bool) -> tuple[list[tuple[str, list[Any]]], bytes]:
    """W's activation (Defence) ends its combat step with 6e Légère I at X and 6e Légère II at BEYOND, both out of
    Austria's sight; the second is disordered (it may try to recover, §15.3) or in good order. France tries nothing:
    its `end_step` ends the combat step, whose legal() lists the tries (B-6 is begun by the first, never asked by
    itself: lead, fifteenth session; rev-k K2)."""
    state = position({"6e-legere-i": X, "6e-legere-ii": BEYOND, "ir18-i": "3914"}, leaders={"watrin": X},
                     orders={"W": "defence"})
    if disordered:
        state.units["6e-legere-ii"].status = "disordered"
    assert RULESET.unexaminable(state, "austria", [X, BEYOND]) == {X, BEYOND}, "out of Austria's sight"
    t = at_step(state, "W", "combat")
    before = FOLD.copy(t.game)
    made: list[tuple[str, list[Any]]] = [("france", t.send("france", {"type": "end_step"}))]
    while (awaited := t.pending()) is not None and awaited.kind == "recovery":
        made.append(("france", t.send("france", {"type": "recover", "hex": None})))
    assert t.state.activation is None, "the activation is over"
    return made, served(RULESET, FOLD, before, made, "austria")


def test_whether_an_unseen_unit_may_recover_is_not_told_by_the_wait() -> None:
    may, none = ending(True), ending(False)
    assert may[1] == none[1], "Austria learns whether an unseen French unit is disordered (B-6 waited or not)"
    assert [s for s, _ in may[0]] == [s for s, _ in none[0]] == ["france"], "asked in neither: B-6 is begun by a try"


def trying(second: bool) -> tuple[list[tuple[str, list[Any]]], bytes]:
    """As `ending`, 6e Légère II disordered at BEYOND tries first (and fails: a 6); 6e Légère I at X is disordered too
    (`second`: a second stack may try) or in good order. France then tries nothing more."""
    state = position({"6e-legere-i": X, "6e-legere-ii": BEYOND, "ir18-i": "3914"}, leaders={"watrin": X},
                     orders={"W": "defence"})
    state.units["6e-legere-ii"].status = "disordered"
    if second:
        state.units["6e-legere-i"].status = "disordered"
    t = at_step(state, "W", "combat")
    before = FOLD.copy(t.game)
    made: list[tuple[str, list[Any]]] = [("france", t.send("france", {"type": "recover", "hex": BEYOND}, [6]))]
    assert t.pending() is not None and t.pending().kind == "recovery", "asked again whatever is left to try"
    made.append(("france", t.send("france", {"type": "recover", "hex": None})))
    assert t.state.activation is None
    return made, served(RULESET, FOLD, before, made, "austria")


def test_whether_another_unseen_stack_may_recover_is_not_told_after_a_try() -> None:
    assert trying(True)[1] == trying(False)[1], "Austria learns whether a second unseen French stack is disordered"
