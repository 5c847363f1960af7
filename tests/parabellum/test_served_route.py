"""A move or retreat served under fog of war, one function for both games (projections/parabellum.served_route,
caldiero §20.4, arrivano §11.3.2): the hexes of the path the seat may examine, in order; nothing of a path wholly
out of sight. The games' non-interference tests (tests/caldiero/test_fog_served.py, tests/arrivano/test_fog_served.py)
prove it over real moves."""

from __future__ import annotations

from arbitro.projections.parabellum import served_route

MOVED = {"type": "unit_moved", "unit": "6e-legere-i", "path": ["1001", "1002", "1003", "1004"], "rule": "arrivano §9"}


def test_a_piece_seen_arriving_is_served_from_where_it_came_into_sight() -> None:
    served = served_route(MOVED, frozenset({"1001", "1002"}), True)
    assert served == {**MOVED, "path": ["1003", "1004"]}
    assert MOVED["path"] == ["1001", "1002", "1003", "1004"], "the event as stored is left as it was"


def test_only_the_hexes_out_of_sight_leave_the_path_in_its_order() -> None:
    """A route that leaves sight and comes back (a hill between) keeps the seen hexes in the order walked."""
    assert served_route(MOVED, frozenset({"1002"}), True)["path"] == ["1001", "1003", "1004"]
    assert served_route(MOVED, frozenset(), True) == MOVED


def test_a_path_wholly_out_of_sight_is_served_as_a_hidden_event() -> None:
    """Neither the piece nor an empty path: the seat learns that something moved under the rule, as its stack
    markers show, not which piece (the games served `{"unit": ..., "path": []}` before, Arrivano for a path off the
    map)."""
    served = served_route(MOVED, frozenset(MOVED["path"]), "fog of war (caldiero §20.4)")
    assert served == {"type": "unit_moved", "rule": "arrivano §9", "hidden": "fog of war (caldiero §20.4)"}


def test_two_routes_out_of_sight_are_served_alike() -> None:
    """Non-interference at the kernel: routes that differ only in hexes the seat may not examine serve the same."""
    unseen = frozenset({"1001", "1002", "2002", "1003", "2003"})
    one = served_route({**MOVED, "path": ["1002", "1003", "1004"]}, unseen, True)
    two = served_route({**MOVED, "path": ["2002", "2003", "1004"]}, unseen, True)
    assert one == two == {**MOVED, "path": ["1004"]}
    hidden_one = served_route({**MOVED, "path": ["1002", "1003"]}, unseen, True)
    hidden_two = served_route({**MOVED, "unit": "22e-i", "path": ["2002", "2003"]}, unseen, True)
    assert hidden_one == hidden_two
