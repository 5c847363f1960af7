"""Arrivano i Francesi!: the ruleset state (the position format, docs/rulesets/arrivano.md §5), the fold,
and what its views add to the system's (projections/parabellum.view, with fog of war: arrivano §11.3.2).

The fold needs no map: what a seat can see is computed by the ruleset (which holds the map) and passed to the
system's `view` as the hexes whose enemy stacks the seat may examine; sightings are events.
"""

from __future__ import annotations

from typing import Any, ClassVar

import msgspec
from arbitro.events import arrivano as ev
from arbitro.projections import parabellum


class Column(msgspec.Struct, kw_only=True):
    """An independent column (arrivano §17.2.9 Franceschi): activated on its own, with its own order."""

    units: list[str]
    order: str
    activated: bool = False


class ArrivanoState(parabellum.SystemState, kw_only=True):
    """The system's position (projections/parabellum.SystemState), Arrivano's activation and what Arrivano adds."""

    unit_served: ClassVar[tuple[str, ...]] = (*parabellum.SystemState.unit_served, "damaged", "open_order")
    leader_served: ClassVar[tuple[str, ...]] = ("side", "role", "formation", "hex", "where")
    unseen_off_map: ClassVar[tuple[str, ...]] = ("waiting",)  # units waiting at their entry (arrivano §11.3.2)

    scenario: str
    phase: str = "action"  # command | action | end | over
    step: str = "choose_activation"
    entered_groups: list[str] = []
    chief_changes: dict[str, int] = {}  # order changes used in this A-1 (arrivano §4.3)
    hq_used: dict[str, bool] = {}
    columns: dict[str, Column] = {}  # officer -> independent column  # option §16.1: the HQ counter on its A side this turn
    countercharges: dict[str, str] = {}  # counter-charging cavalry -> the charger it attacks (arrivano §14.2.4)
    attacked_hexes: list[str] = []  # defending hexes attacked in this combat segment (arrivano §12.2.3)
    # the hexes the active side declared assaults from this activation, charges aside (arrivano §12.2.1, §14.2.1)
    assault_hexes: list[str] = []
    fired_hexes: list[str] = []  # enemy hexes fired at in open order this activation (arrivano §12.2.1, §16.3)
    march_orders: dict[str, bool] = {}  # Montebello march orders in force (arrivano §17.1.5)
    steps_lost: dict[str, int] = {}  # steps lost per side, commanders counting one (§17.1.8, §17.2.12)
    flags_captured: int = 0

    def chief_changes_made(self, side: str) -> int:  # in this A-1, against his initiative (arrivano §4.3)
        return self.chief_changes.get(side, 0)

    def hexes_attacked(self) -> list[str]:  # arrivano §12.2.3, kept in the state, not the activation
        return self.attacked_hexes

    def charging(self, unit: str) -> bool:
        """A Charge marker: a charge's (arrivano §14.2) or a counter-charge's (§14.2.4 "può a sua volta caricare il
        nemico. Piazzate una pedina Charge sull'unità"), whose end disorders it too (§14.2.2, the kernel's
        advance.charge_ended)."""
        return super().charging(unit) or unit in self.countercharges

    def served_own(self, seat: str, fogged: bool) -> dict[str, Any]:
        """What Arrivano adds to a view. Under the fog a seat is told only its own independent columns (arrivano
        §11.3.2, §17.2.9)."""
        return {
            "hq_used": dict(sorted(self.hq_used.items())),
            "columns": {c: msgspec.to_builtins(col) for c, col in sorted(self.columns.items())
                        if not fogged or self.leaders[c].side == seat},
            "march_orders": dict(sorted(self.march_orders.items())),
            "steps_lost": dict(sorted(self.steps_lost.items())), "flags_captured": self.flags_captured,
        }

    def fold_own(self, event: Any) -> None:
        """What Arrivano keeps of an event beside what the system folds (projections/parabellum.apply folds that
        first): total, unchecked."""
        state = self
        match event:
            case ev.StepBegan(step=step, seat=seat):
                if step == "orders" and seat:
                    state.chief_changes.setdefault(seat, 0)
            case ev.TurnBegan():
                state.chief_changes = {}
                state.hq_used = {}
                for c in state.columns.values():
                    c.activated = False
            case ev.ColumnFormed(officer=officer, units=units, order=order):
                state.columns[officer] = Column(units=list(units), order=order)
            case ev.ColumnDissolved(officer=officer):
                state.columns.pop(officer, None)
            case ev.OrderChanged(order=order, column=column) if column is not None:
                state.columns[column].order = order
            case ev.OrderChanged(formation=f, counts_against_chief=True):  # the system folds the order itself
                side = state.formations[f].side
                state.chief_changes[side] = state.chief_changes.get(side, 0) + 1
            case ev.OfficerOrderTried(officer=officer, units=units, order=order, succeeded=ok):
                if state.activation is not None:
                    state.activation.officer_tries.append(officer)
                    if ok:
                        for uid in units:
                            state.activation.unit_orders[uid] = order
            case ev.FormationActivated(column=column):  # the system's fold made the activation
                if column is not None:
                    state.columns[column].activated = True
                state.attacked_hexes, state.assault_hexes, state.fired_hexes = [], [], []
            case ev.HeadquartersActivated(side=side):
                state.hq_used[side] = True
                state.chief_changes[side] = 0
            case ev.ActivationEnded():
                state.countercharges = {}  # the system's fold takes the Charge markers off
                state.attacked_hexes, state.assault_hexes = [], []
            case ev.GroupEntered(group=g, hex=h, units=units):
                state.entered_groups.append(g)
                for uid in units:
                    state.units[uid].where, state.units[uid].hex = "waiting", h
            case ev.UnitsMoved(units=units, charge=charge):
                for uid in units:
                    state.units[uid].acted_turn = state.turn  # no recovery this turn (arrivano §15.3)
            case ev.StatusChanged(unit=uid, status=status):
                if status == "damaged":  # a redoubt battery flipped to its Damaged side (arrivano §17.2.6)
                    state.units[uid].damaged = True
            case ev.UnitEliminated(unit=uid):
                unit = state.units[uid]
                unit.art_moved = False
                unit.open_order, unit.marker_turn = "", 0
                _lose_step(state, unit.side)
            case ev.UnitExited(unit=uid):
                state.units[uid].where, state.units[uid].hex = "exited", ""
            case ev.ArtilleryFired(artillery=units):
                for uid in units:
                    state.units[uid].acted_turn = state.turn
            case ev.InfantryFired(unit=uid, target=target):
                state.units[uid].fired_turn = state.units[uid].acted_turn = state.turn
                if target not in state.fired_hexes:
                    state.fired_hexes.append(target)
            case ev.OpenOrderMarked(unit=uid, marker=marker):
                state.units[uid].open_order = marker
                state.units[uid].marker_turn = state.turn if marker else 0
            case ev.OpenOrderTested(unit=uid, test="fatigue", passed=passed):
                if passed:
                    state.units[uid].open_order, state.units[uid].marker_turn = "", 0
                else:
                    state.units[uid].fatigue_defence_turn = state.turn
            case ev.ArtilleryTurned(units=units, moved=moved):
                for uid in units:
                    state.units[uid].art_moved = moved
            case ev.CounterChargeDeclared(unit=uid, against=against):
                state.countercharges[uid] = against
            case ev.AssaultDeclared(attackers=attackers):
                for uid in attackers:
                    state.units[uid].acted_turn = state.turn  # no recovery that turn (arrivano §15.3)
                    h = state.units[uid].hex
                    owes = state.units[uid].side == state.seat and not state.units[uid].charging
                    if owes and h not in state.assault_hexes:
                        state.assault_hexes.append(h)
            case ev.AssaultResolved(targets=targets):
                state.attacked_hexes.extend(t for t in targets if t not in state.attacked_hexes)
            case ev.LeaderLost(leader=lid):
                _lose_step(state, state.leaders[lid].side)
            case ev.FlagCaptured():
                state.flags_captured += 1
            case ev.MarchOrderEnded(march=m):
                state.march_orders[m] = False


def _lose_step(state: ArrivanoState, side: str) -> None:
    state.steps_lost[side] = state.steps_lost.get(side, 0) + 1


