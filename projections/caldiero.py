"""Caldiero 1796: the state (the position format) and what it adds to the system's fold and views
(projections/parabellum.py).

Static counter values (strength, efficiency, movement...) stay in adjudicator/caldiero/data/caldiero/oob.json; the
state holds only what changes. Without the optional fog of war (caldiero §20.4) nothing is hidden: both
players see the whole map. With it, the view of a seat shows an enemy stack's contents only where the
ruleset says the seat has line of sight (the ruleset passes the hexes it may examine).
"""

from __future__ import annotations

from typing import Any, ClassVar

from arbitro.events import caldiero as ev
from arbitro.projections import parabellum

SIDES = ("france", "austria")
OLD_CHOOSE_ACTIVATION = "choose_formation"  # the step's name up to 0.25.0 (now parabellum.sequence.CHOOSE_ACTIVATION)


def enemy_of(side: str) -> str:
    return "austria" if side == "france" else "france"


class CaldieroState(parabellum.SystemState, kw_only=True):
    """The system's position (projections/parabellum.SystemState), Caldiero's activation and what Caldiero adds."""

    unit_served: ClassVar[tuple[str, ...]] = (*parabellum.SystemState.unit_served, "return_turn", "attached",
                                              "charging")
    # under the fog (§20.4) not which formation an enemy reserve unit joined (§15.4.3): it tells where the generals
    # stand, each in his range of it or not (reading reserve_attachment; rev-l L8)
    unit_kept: ClassVar[tuple[str, ...]] = ("attached",)
    leader_served: ClassVar[tuple[str, ...]] = (*parabellum.SystemState.leader_served, "activated")
    unseen_off_map: ClassVar[tuple[str, ...]] = ("offmap",)  # fog of war (caldiero §20.4): reinforcements to come

    scenario: str = "historical"
    last_turn: int = 10
    phase: str = "setup"  # setup | command | action | over
    step: str = "setup"
    seat: str = "austria"
    elan_left: int = 4  # caldiero §16
    step_done: list[str] = []  # hexes/pieces already handled in this step (reorganisation: one try per hex)
    direction_released: list[str] = []  # formations free of caldiero §19.1 (objective entered)

    def __post_init__(self) -> None:
        """A position saved by Caldiero up to 0.25.0 at the initiative winner's choice names its step
        `choose_formation`: it is read as the step's name since, `choose_activation` (docs/exchange-format.md)."""
        if self.step == OLD_CHOOSE_ACTIVATION:
            self.step = "choose_activation"

    def served_own(self, seat: str, fogged: bool) -> dict[str, Any]:
        """Caldiero's Elan (caldiero §16)."""
        return {"elan_left": self.elan_left}

    def fold_own(self, event: Any) -> None:
        """What Caldiero keeps of an event beside what the system folds (projections/parabellum.apply folds that
        first): total, unchecked."""
        state = self
        match event:
            case ev.StepBegan():
                state.step_done = []
            case ev.StepRecorded(item=item):
                state.step_done.append(item)
            case ev.FormationActivated():
                _activate(state, event)
            case ev.UnitsMoved(units=units):
                for u in units:
                    if state.units[u].arm == "artillery":
                        state.units[u].art_moved = True  # caldiero §11.0: a gun that moves is flipped
            case ev.DirectionReleased(formation=f):
                if f not in state.direction_released:
                    state.direction_released.append(f)
            case ev.AssaultDeclared(attackers=attackers, targets=targets) if state.activation is not None:
                state.activation.attacked_hexes.extend(targets)  # caldiero §12.2.3
                state.activation.attackers.extend(attackers)
            case ev.UnitEliminated(unit=u):
                state.units[u].hex = ""
            case ev.LeaderLost(leader=leader):
                state.leaders[leader].hex = ""
            case ev.ElanSpent():
                state.elan_left = max(0, state.elan_left - 1)
            case ev.DistancesTaken(distances=distances) if state.activation is not None:
                state.activation.start_dist.update(distances)
            case ev.OrderTestTaken(units=units) if state.activation is not None:
                state.activation.ooc_tested.extend(units)
            case ev.UnitOrderSet(unit=u, order=order, rule=rule) if state.activation is not None and u in state.activation.ooc_tested:
                # caldiero §5.3.1 "per questo turno"; §4.3.1 the same, untested, unless the reading chief_range_order
                # keeps its order for the activation only (the umpire's readings are the state's, folded from rulings)
                if rule != ev.CINC_RANGE_CITATION or state.interpretations.get("chief_range_order") != "activation":
                    state.units[u].turn_order = order
            case ev.ActivationEnded(formation=f):
                _end_activation(state, f)


def _activate(state: CaldieroState, event: ev.FormationActivated) -> None:
    """What Caldiero records of an activation beside the system's (projections/parabellum): the units acting in it,
    the reserve's joined (§15.4.3) among them, and where each on the map stood."""
    f, act = event.formation, state.activation
    assert act is not None  # the system's fold made it
    for u in event.reserve_joined:
        state.units[u].attached = f
    act.units = sorted({u for u, unit in state.units.items() if unit.formation == f} | set(event.reserve_joined))
    for u in act.units:
        unit = state.units[u]
        unit.activated_turn = state.turn
        if unit.where == "map" and unit.hex:
            act.start_hex[u] = unit.hex


def _end_activation(state: CaldieroState, formation: str) -> None:
    general = state.formations[formation].general
    if general is not None and general in state.leaders:
        state.leaders[general].activated = True  # caldiero §3.1 B.6
    for unit in state.units.values():
        if unit.arm == "artillery" and unit.side == state.formations[formation].side:
            unit.art_moved = False  # caldiero §11.0: flipped back at the end of the phase
