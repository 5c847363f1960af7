"""What only Arrivano's procedures ask of a position, as functions of the kernel's World (parabellum/world.py, which
answers everything else and asks ArrivanoVariant where the books differ): which units act now (the order each obeys is
the kernel's parabellum/orders.order_of), command (§4.4), the march columns' road costs (§17.2.8), the pieces a
side sights (§11.3.2). Every answer is a pure function of the World; sorted explicitly."""

from __future__ import annotations

from typing import cast

from arbitro.adjudicator.maps.costs import MovementTable, RoadRule
from arbitro.adjudicator.memo import Memo
from arbitro.adjudicator.parabellum import command
from arbitro.adjudicator.parabellum.variant import Variant
from arbitro.adjudicator.parabellum.world import World
from arbitro.projections.arrivano import ArrivanoState

_COLUMN_ONLY = Memo(64)


def column_only_roads(table: MovementTable) -> MovementTable:
    """Interpretation road_cost_scope: march_column_only - the Campotenese road costs (arrivano §17.2.8, written
    for any movement along contiguous road hexes) apply to march columns only: each road's `always` cost becomes
    its `in_column` cost."""
    return _COLUMN_ONLY.get((table,), "column only roads", lambda: table.model_copy(update={"roads": {
        k: RoadRule(in_column=r.always or r.in_column) for k, r in table.roads.items()}}))


def state_of(w: World) -> ArrivanoState:
    return cast(ArrivanoState, w.state)


# --- orders and command --------------------------------------------------------------------------------------
def in_command(w: World, formation: str) -> frozenset[str]:
    """Units of the formation in command: the kernel's rule (parabellum/command.py; arrivano §4.4, §4.2, §4.4.2,
    §5.3.1, §4.6, §3.2, §15.4.1) with the World's answers, worked out once per position."""
    return w.cached(("in command", formation), lambda: command.in_command(cast(Variant, w.variant), w, formation))


def column_of(w: World, uid: str) -> str | None:
    """The independent column the unit belongs to (arrivano §17.2.9), while its officer is on the map."""
    state = state_of(w)
    for officer in sorted(state.columns):
        if uid in state.columns[officer].units and state.leaders[officer].where == "map":
            return officer
    return None


def acts_now(w: World, uid: str) -> bool:
    """Whether the unit belongs to the group now activated: its formation outside any column, or its column."""
    act = w.state.activation
    if act is None or w.state.units[uid].formation != act.formation:
        return False
    return column_of(w, uid) == act.column


def cavalry_like(w: World, uid: str) -> bool:
    """Cavalry or horse artillery: what a cavalry officer commands (arrivano §4.6, §16.2.3)."""
    u = w.counters.unit(uid)
    return u.arm == "cavalry" or (u.arm == "artillery" and u.horse)


