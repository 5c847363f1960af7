"""A move or retreat served under fog of war, one function for both games (projections/parabellum.served_route,
caldiero §20.4, arrivano §11.3.2): the hexes of the path the seat may examine, in order; nothing of a path wholly
out of sight. The games' non-interference tests (tests/caldiero/test_fog_served.py, tests/arrivano/test_fog_served.py)
prove it over real moves."""

from __future__ import annotations

import msgspec

from arbitro.adjudicator.arrivano import rules as AR
from arbitro.adjudicator.arrivano.variant import ARRIVANO_VARIANT
from arbitro.adjudicator.caldiero import rules as CR
from arbitro.events import parabellum as pb
from arbitro.events.codec import canonical
from arbitro.projections.parabellum import route_fields, served_route

MOVED = {"type": "units_moved", "units": ["6e-legere-i"], "path": ["1001", "1002", "1003", "1004"], "rule": "arrivano §9"}
STUB = {"type": "units_moved", "rule": "arrivano §9", "hidden": True}  # what ParaBellumRuleset.stub makes of a move


def test_a_piece_seen_arriving_is_served_from_where_it_came_into_sight() -> None:
    served = served_route(MOVED, frozenset({"1001", "1002"}), STUB)
    assert served == {**MOVED, "path": ["1003", "1004"]}
    assert MOVED["path"] == ["1001", "1002", "1003", "1004"], "the event as stored is left as it was"


def test_only_the_hexes_out_of_sight_leave_the_path_in_its_order() -> None:
    """A route that leaves sight and comes back (a hill between) keeps the seen hexes in the order walked."""
    assert served_route(MOVED, frozenset({"1002"}), STUB)["path"] == ["1001", "1003", "1004"]
    assert served_route(MOVED, frozenset(), STUB) == MOVED


def test_a_path_wholly_out_of_sight_is_served_as_a_hidden_event() -> None:
    """Neither the piece nor an empty path: the seat learns that something moved under the rule, as its stack
    markers show, not which piece (the games served `{"unit": ..., "path": []}` before, Arrivano for a path off the
    map)."""
    stub = {"type": "units_moved", "rule": "caldiero §9.1", "hidden": "fog of war (caldiero §20.4)"}
    assert served_route(MOVED, frozenset(MOVED["path"]), stub) == stub


def test_two_routes_out_of_sight_are_served_alike() -> None:
    """Non-interference at the kernel: routes that differ only in hexes the seat may not examine serve the same."""
    unseen = frozenset({"1001", "1002", "2002", "1003", "2003"})
    one = served_route({**MOVED, "path": ["1002", "1003", "1004"]}, unseen, STUB)
    two = served_route({**MOVED, "path": ["2002", "2003", "1004"]}, unseen, STUB)
    assert one == two == {**MOVED, "path": ["1004"]}
    hidden_one = served_route({**MOVED, "path": ["1002", "1003"]}, unseen, STUB)
    hidden_two = served_route({**MOVED, "units": ["22e-i"], "path": ["2002", "2003"]}, unseen, STUB)
    assert hidden_one == hidden_two


def test_what_only_the_whole_route_tells_goes_with_any_unseen_hex() -> None:
    """Non-interference for the fields that tell of the whole route (projections/parabellum.ROUTE_FIELDS): Caldiero's
    group move walked from an unseen hex, at another cost, in march column (on roads only, caldiero §9.3) or not,
    serves the same as one walked otherwise (caldiero §20.4); Arrivano's unit move, in march column, charging (through
    charge terrain, arrivano §14.2) or neither, likewise (arrivano §11.3.2). A route the seat sees whole, its start
    included, keeps them."""
    unseen = frozenset({"2518", "2418", "2417"})
    column = msgspec.to_builtins(pb.UnitsMoved(units=("fr-40-ligne",), path=("2418", "2318"), rule=str(CR.COLUMN),
                                                column=True, cost_half=2))
    plain = msgspec.to_builtins(pb.UnitsMoved(units=("fr-40-ligne",), path=("2318",), rule="caldiero §9.1",
                                               cost_half=3))
    fields = route_fields(pb.UnitsMoved, "caldiero §9.1")
    one, two = served_route(column, unseen, STUB, fields, "2518"), served_route(plain, unseen, STUB, fields, "2417")
    assert canonical(one) == canonical(two) and "cost_half" not in one and "column" not in one
    assert canonical(served_route(column, frozenset(), STUB, fields, "2518")) == canonical(column), "seen whole: as stored"
    assert "cost_half" not in served_route(plain, unseen, STUB, fields, "2418"), "a start out of sight tells too"
    fields = route_fields(pb.UnitsMoved, str(ARRIVANO_VARIANT.rules.MOVEMENT))
    moves = [(pb.UnitsMoved(units=("ir57-i",), path=("2418", "2318"), column=True, rule=str(AR.MARCH_COLUMN)), "2518"),
             (pb.UnitsMoved(units=("ir57-i",), path=("2318",), rule=str(ARRIVANO_VARIANT.rules.CHARGE), charge="2218"), "2417"),
             (pb.UnitsMoved(units=("ir57-i",), path=("2318",), rule=str(ARRIVANO_VARIANT.rules.MOVEMENT)), "2518")]
    served = {canonical(served_route(msgspec.to_builtins(m), unseen, STUB, fields, start)) for m, start in moves}
    assert len(served) == 1, "Arrivano: how the unseen part was walked is served"
    charge = msgspec.to_builtins(moves[1][0])
    assert canonical(served_route(charge, frozenset(), STUB, fields, "2417")) == canonical(charge), "seen whole: as stored"


def test_a_move_spent_where_the_unit_stood_is_served_as_its_hex_is() -> None:
    """A move that entered no hex (arrivano §5.1.3: the test failed, the move is spent): a seat that may examine
    the unit's hex is served it whole, one that may not is served the hidden event only, whatever the hex was, its
    rule the movement's: §5.1.3 would tell that the unseen unit failed its test rather than moved."""
    spent = msgspec.to_builtins(pb.UnitsMoved(units=("ir57-i",), path=(), rule="arrivano §5.1.3"))
    fields = route_fields(pb.UnitsMoved, "arrivano §9")
    assert canonical(served_route(spent, frozenset(), STUB, fields, "2518")) == canonical(spent)
    assert served_route(spent, frozenset({"2518"}), STUB, fields, "2518") == \
        served_route(spent, frozenset({"2417"}), STUB, fields, "2417") == \
        STUB
