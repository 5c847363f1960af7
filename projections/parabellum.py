"""The Para Bellum system's shared state pieces and the shared part of the fold: what both games' positions hold
alike (issue 18). A variant's projections/<game>.py keeps its own state, fold and views and takes these from here;
its fold calls `apply` first, then folds what its game adds (to the shared events too)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final, Protocol

from arbitro.events import parabellum as pb

# A unit's condition (caldiero §15, arrivano §15): good order, disordered, routed.
STATUSES: Final = ("good", "disordered", "routed")
# One level worse: a second disorder routs (caldiero §15.1, arrivano §15.1.1); routed stays routed.
STATUS_WORSE: Final = {"good": "disordered", "disordered": "routed", "routed": "routed"}
# One level better on a passed recovery test (caldiero §15.3.1, arrivano §15.3.1).
STATUS_BETTER: Final = {"routed": "disordered", "disordered": "good", "good": "good"}


class Piece(Protocol):
    """A unit's or a commander's place (caldiero and arrivano differ only in how "nowhere" is written)."""

    hex: str | None
    where: str


class Unit(Piece, Protocol):
    status: str
    reduced: bool
    return_turn: int


class Commander(Piece, Protocol):
    moved_turn: int


class SystemState(Protocol):
    """What the shared fold writes in either game's state."""

    turn: int
    first_turn: bool
    phase: str
    step: str
    seat: str
    weather: int
    initiative: str
    activation: object | None

    @property
    def units(self) -> Mapping[str, Unit]: ...

    @property
    def leaders(self) -> Mapping[str, Commander]: ...


def apply(state: SystemState, event: object) -> None:
    """Fold the part of a shared event both games fold alike (total, unchecked)."""
    match event:
        case pb.WeatherChanged(box=box):
            state.weather = box
        case pb.InitiativeWon(seat=seat):
            state.initiative = seat
        case pb.LeaderPlaced(leader=leader, hex=h):
            state.leaders[leader].hex, state.leaders[leader].where = h, "map"
        case pb.LeaderMoved(leader=leader, path=path):
            state.leaders[leader].hex = path[-1]
            state.leaders[leader].moved_turn = state.turn  # the turn he last moved (caldiero §4.2.1)
        case pb.UnitRetreated(unit=unit, path=path):
            state.units[unit].hex = path[-1]
        case pb.TurnBegan(turn=turn):
            state.turn, state.first_turn = turn, False
        case pb.StepBegan(phase=phase, step=step, seat=seat):
            state.phase, state.step, state.seat = phase, step, seat
        case pb.StatusChanged(unit=unit, status=status) if status in STATUSES:
            state.units[unit].status = status  # (Arrivano's "damaged" battery is its own fold's)
        case pb.UnitEliminated(unit=unit, permanent=permanent, return_turn=return_turn):
            _eliminated(state.units[unit], permanent, return_turn)
        case pb.ActivationEnded():
            state.activation = None


def _eliminated(unit: Unit, permanent: bool, return_turn: int) -> None:
    """Off the map in good order; one that returns comes back on its reduced side (caldiero §12.8, arrivano
    §12.8). Where it is kept meanwhile is each game's word."""
    unit.status = "good"
    unit.return_turn = 0 if permanent else return_turn
    if not permanent:
        unit.reduced = True
