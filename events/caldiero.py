"""Caldiero 1796: the stored event schema. Every event names the rule that caused it (`rule`).

Names are past participles; tags are snake_case. The fold is projections/caldiero.py.
"""

from __future__ import annotations

from typing import Union

from arbitro.events.core import Event, FrameContext
from arbitro.events.parabellum import PIECE_FIELDS as SHARED_PIECE_FIELDS
from arbitro.events.parabellum import (
    ActivationEnded, AdvanceAwaited, ArtilleryFired, AssaultDeclared, AssaultResolved, AssaultUnderway,
    BeforeCombatAwaited, ChargeEnded, CombatEnded,
    DefensiveFireAwaited, EfficiencyChoiceAwaited, EscapeAwaited, ExchangeLossAwaited, NeChoiceAwaited, GameEnded, FormationActivated, InitiativeWon,
    LeaderLost, LeaderMoved, LeaderPlaced, OrderChanged, OrderChangeTried, PiecesSighted, RetreatAwaited, StatusChanged,
    StepBegan, TurnBegan, UnitEliminated, UnitOrderSet, UnitPlaced, UnitRetreated, UnitsAdvanced, UnitsMoved, WeatherChanged,
)

# What a `unit_order_set` taken in the commander in chief's range cites (adjudicator/caldiero/rules.CINC_RANGE): the
# fold tells it from a passed test's (§5.3.1) by it, for the reading chief_range_order (projections/caldiero.py).
CINC_RANGE_CITATION = "caldiero §4.3.1"


class SetupEnded(Event, tag="setup_ended"):
    side: str
    rule: str


class StepRecorded(Event, tag="step_recorded"):
    """Something done once per step (a hex reorganised, caldiero §15.3)."""

    item: str
    rule: str


class DirectionReleased(Event, tag="direction_released"):
    """A formation entered its objective: caldiero §19.1 no longer restricts it."""

    formation: str
    rule: str


class AttackersWithdrawn(Event, tag="attackers_withdrawn"):
    """Units that no longer take part in the assault (failed "Attack?" test §12.2.2, retreated...)."""

    units: tuple[str, ...]
    rule: str


class ElanSpent(Event, tag="elan_spent"):
    unit: str
    passed: bool
    columns: int
    rule: str


class DistancesTaken(Event, tag="distances_taken"):
    """caldiero §5.1.1: each unit of the activated formation on the map, with an enemy unit on the map, and its
    distance to the nearest one when the formation was activated: what its Advance order's moves are judged
    against (Caldiero's `activation_recorded {key: "start_dist"}` until 0.28.0)."""

    distances: dict[str, int]
    rule: str


class OrderTestTaken(Event, tag="order_test_taken"):
    """caldiero §5.3.1: the out-of-command units of a hex tried to take an order (each once an activation), whatever
    their dice (Caldiero's `activation_recorded {key: "ooc_tested"}` until 0.28.0)."""

    units: tuple[str, ...]
    rule: str


# --- the contexts of Caldiero's frames on the engine's decision stack (arbitro §S.3) ----------------------


CALDIERO_CONTEXTS: tuple[type[FrameContext], ...] = (
    RetreatAwaited, EscapeAwaited, BeforeCombatAwaited, DefensiveFireAwaited, EfficiencyChoiceAwaited,
    NeChoiceAwaited, ExchangeLossAwaited, AdvanceAwaited, AssaultUnderway,
)


CaldieroEvent = Union[
    UnitPlaced, LeaderPlaced, SetupEnded, OrderChanged, OrderChangeTried, StepBegan, StepRecorded, TurnBegan, WeatherChanged, InitiativeWon,
    FormationActivated, UnitOrderSet, UnitsMoved, LeaderMoved, DirectionReleased, ArtilleryFired, AssaultDeclared,
    AttackersWithdrawn, AssaultResolved, CombatEnded, StatusChanged,
    UnitRetreated, UnitEliminated, UnitsAdvanced, LeaderLost, ElanSpent, DistancesTaken, OrderTestTaken, ChargeEnded,
    ActivationEnded,
    PiecesSighted, GameEnded,
]

# Fog of war (caldiero §20.4): the fields of Caldiero's events that name pieces, the shared events' besides.
PIECE_FIELDS: dict[type, tuple[str, ...]] = {
    **SHARED_PIECE_FIELDS, AttackersWithdrawn: ("units",), ElanSpent: ("unit",),
    OrderTestTaken: ("units",),
}
