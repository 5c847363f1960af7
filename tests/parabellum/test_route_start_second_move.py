"""The fog's route start for a unit's second move in one activation (arrivano §16.3: an open-order unit moves, fires,
then falls back). The fall back left the hex it fired from, not the hex the activation began in: the fold keeps
the hex each unit's latest move left (`Activation.left`, Caldiero 0.29.0, Arrivano 1.30.0), and the fog judges the
move's route from it."""
from arbitro.events import parabellum as pb
from arbitro.projections import parabellum as P

BACK, X, TO = "3310", "3710", "3611"  # logs/arrivano-montebello-options cmd 25: otocac falls back from 3710


def fired_and_fell_back() -> tuple[P.SystemState, pb.UnitsMoved]:
    state = P.SystemState(units={"otocac": P.UnitState(side="austria", formation="f", arm="infantry", hex=BACK,
                                                       where="map")}, activation=P.Activation(formation="f"))
    P._fold_shared(state, pb.UnitsMoved(units=("otocac",), path=("3410", "3509", "3610", X), rule="arrivano §16.3"))
    fall_back = pb.UnitsMoved(units=("otocac",), path=(TO,), rule="arrivano §16.3", column=True, charge="3612")
    P._fold_shared(state, fall_back)
    return state, fall_back


def test_route_start_is_the_hex_the_move_left_on_a_second_move() -> None:
    state, fall_back = fired_and_fell_back()
    assert P.route_start(state, fall_back) == X
    assert state.activation is not None and state.activation.starts == {"otocac": BACK}, "the first start is kept"


def test_a_second_move_is_never_served_whole_from_the_first_start() -> None:
    """The leak the review names: the hex fallen back from (X) is out of the seat's sight, the activation's first
    start in it: judged from the first start, the rule, column and charge of the fall back would be served. Judged
    from X, they are not; with X in sight too, the whole move is."""
    state, fall_back = fired_and_fell_back()
    data = {"type": "units_moved", "units": ["otocac"], "path": [TO], "rule": "arrivano §16.3", "column": True,
            "cost_half": 0, "charge": "3612"}
    unseen = lambda route: frozenset(route) & {X}  # noqa: E731 - the seat examines every hex but X
    stub = {"type": "units_moved", "rule": "arrivano §9", "hidden": True}  # ParaBellumRuleset.stub: the type's rule
    served = P.served_move(state, fall_back, dict(data), "france", unseen, stub, "arrivano §9")
    assert served == {"type": "units_moved", "units": ["otocac"], "path": [TO], "rule": "arrivano §9"}
    assert P.served_move(state, fall_back, dict(data), "france", lambda r: frozenset(), stub, "arrivano §9") == data
    hidden = P.served_move(state, fall_back, dict(data), "france", lambda r: frozenset(r) | {TO}, stub, "arrivano §9")
    assert hidden == stub, "wholly out of sight: the stub, not the fall back's §16.3"
