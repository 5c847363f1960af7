"""arrivano §15.4.1 "I rinforzi entrano sulla mappa in comando e con un Ordine di Avanzata" (D22): a reinforcement
waiting at its entry hex (§15.4, `where` "waiting") is in command in its formation's activation whatever its general's
range, so its entering move is made under its group's order, not under the Defence of a unit out of command (§5.3:
one hex, §5.1.3, and no march column). Until the nineteenth session only a unit already on the map was counted
(`starts` "", after its move): Montebello's French marched on turn 1 one hex at a time. Written once in the kernel
(parabellum/reinforcements.entering, read by parabellum/command.in_command where the variant's
`reinforcements_in_command` says so)."""

from __future__ import annotations

from typing import Any

from arbitro.adjudicator.arrivano.world import in_command
from arbitro.adjudicator.parabellum.orders import order_of
from arbitro.projections.arrivano import Column
from arbitro.projections.parabellum import Activation
from bench.served import served
from tests.arrivano.harness import FOLD, RULESET, Table, at_step, fresh, position, world

ENTRY, FAR = "1110", "2010"  # Lannes at FAR: 9 hexes from the entry, far beyond his command range (§4.4)


def unit_moves(t: Table, unit: str) -> list[dict[str, Any]]:
    return [c for c in t.legal("france") if c["type"] == "move" and c["unit"] == unit]


def beyond_one_hex(t: Table, moves: list[dict[str, Any]], start: str) -> list[dict[str, Any]]:
    grid = world(t.state).grid
    return [c for c in moves if grid.distance(start, c["to"]) > 1]


def waiting_28e(order: str) -> Table:
    state = position({}, leaders={"lannes": FAR}, orders={"L": order}, turn=3)
    state.units["28e-ii"].where, state.units["28e-ii"].hex = "waiting", ENTRY
    return at_step(state, "L", "movement")


def test_a_waiting_reinforcement_out_of_its_generals_range_is_in_command_under_its_formations_order() -> None:
    t = waiting_28e("advance")
    w = world(t.state)
    assert "28e-ii" in in_command(w, "L") and order_of(w, "28e-ii") == "advance"
    moves = unit_moves(t, "28e-ii")
    assert any(c["column"] for c in moves), "a march column (§9.3), which Defence forbids (§5.1.3)"
    far = beyond_one_hex(t, moves, ENTRY)
    assert far, "Defence's one hex (§5.1.3)"
    t.send("france", far[0])
    assert t.state.units["28e-ii"].hex == far[0]["to"]
    assert "28e-ii" in in_command(world(t.state), "L"), "still in command once on the map, in this activation"


def test_another_formations_waiting_unit_is_not_counted() -> None:
    t = waiting_28e("advance")
    t.state.units["28e-i"].where, t.state.units["28e-i"].hex = "waiting", ENTRY
    t.state.units["28e-i"].formation = "W"
    assert "28e-i" not in in_command(world(t.state), "W"), "W is not the activated formation"


def test_montebello_turn_one_french_reinforcements_march_under_the_order_chosen() -> None:
    """arrivano §17.1.2 "Le formazioni francesi possono entrare in mappa con l'ordine che desiderano": Lannes's
    formation enters with Advance; its 28e, waiting at their entry with him, move as Advance permits."""
    t = Table(fresh("montebello"))
    t.start([6, 1])
    t.send("france", {"type": "activate", "formation": "L"})
    t.send("france", {"type": "choose_order", "order": "advance"})
    t.send("france", {"type": "end_step"})
    assert t.state.step == "movement"
    start = t.state.units["28e-i"].hex
    moves = unit_moves(t, "28e-i")
    assert any(c["column"] for c in moves) and beyond_one_hex(t, moves, start)


def test_franceschis_waiting_column_obeys_its_columns_order() -> None:
    """arrivano §17.2.9 with §16.2.2 and §15.4.1: Franceschi's column, waiting at its entry, obeys its column's
    order (D30 `column_order`), as it will once entered in this activation."""
    state = position({}, scenario="campotenese", leaders={"franceschi": "1401"}, orders={"C": "defence"}, turn=4)
    units = ["6e-chasseurs-1", "6e-chasseurs-2"]
    for u in units:
        state.units[u].where, state.units[u].hex = "waiting", "1401"
    state.columns["franceschi"] = Column(units=units, order="advance", activated=True)
    t = at_step(state, "C", "movement")
    t.state.activation = Activation(formation="C", column="franceschi")
    assert order_of(world(t.state), units[0]) == "advance"


def entering_move_served(lannes: str) -> bytes:
    """What Austria is served of the 28e II's entering move two hexes on (an Advance move: in command, §15.4.1),
    Lannes standing at `lannes`, out of Austria's sight (§11.3.2) as the entry and the move are."""
    state = position({"ir18-i": "3114"}, leaders={"lannes": lannes, "gottesheim": "3114"}, orders={"L": "advance"},
                     turn=3)
    state.units["28e-ii"].where, state.units["28e-ii"].hex = "waiting", ENTRY
    t = at_step(state, "L", "movement")
    assert RULESET.unexaminable(t.state, "austria", [ENTRY, lannes, "1310"]) == {ENTRY, lannes, "1310"}
    before = FOLD.copy(t.game)
    made = [("france", t.send("france", {"type": "move", "unit": "28e-ii", "to": "1310", "column": False}))]
    return served(RULESET, FOLD, before, made, "austria")


def test_where_an_unseen_general_stands_is_not_told_by_his_reinforcements_move() -> None:
    """Non-interference (§11.3.2): a reinforcement is in command whatever its general's range (§15.4.1), so the
    same entering move is made, and served alike, whether Lannes stands by the entry or far from it."""
    assert entering_move_served("1111") == entering_move_served(FAR)
