"""Arrivano i Francesi!: the stored event schema. Every event names the rule that caused it (`rule`).

Names are past participles; tags are snake_case. The fold is projections/arrivano.py. Dice are core
events (events/random.py); the events here record what the dice decided.
"""

from __future__ import annotations

from typing import Any, Union

from arbitro.events.core import Event, FrameContext
from arbitro.events.parabellum import PIECE_FIELDS as SHARED_PIECE_FIELDS
from arbitro.events.parabellum import (
    ActivationEnded, AdvanceAwaited, ArtilleryFired, AssaultDeclared, AssaultUnderway, AssaultResolved,
    BeforeCombatAwaited, ChargeEnded, CombatEnded,
    DefensiveFireAwaited, EfficiencyChoiceAwaited, EscapeAwaited, ExchangeLossAwaited, NeChoiceAwaited, GameEnded, FormationActivated, InitiativeWon,
    LeaderLost, LeaderMoved, LeaderPlaced, OrderChanged, OrderChangeTried, PiecesSighted, RetreatAwaited, StatusChanged,
    StepBegan, TurnBegan, UnitEliminated, UnitOrderSet, UnitPlaced, UnitRetreated, UnitsAdvanced, UnitsMoved, WeatherChanged,
)


class ColumnFormed(Event, tag="column_formed"):
    """An independent column (Franceschi, arrivano §17.2.9): its officer, units and own order."""

    officer: str
    units: list[str]
    order: str
    rule: str


class ColumnDissolved(Event, tag="column_dissolved"):
    """An independent column rejoins its formation (arrivano §16.2.1)."""

    officer: str
    rule: str


class OfficerOrderTried(Event, tag="officer_order_tried"):
    """arrivano §3.1 B-4 (interpretation officer_order_change: efficiency_test): an officer stacked with
    out-of-command units of his formation has them test; success gives them `order` for this activation."""

    officer: str
    units: list[str]
    order: str
    succeeded: bool
    rule: str


class HeadquartersActivated(Event, tag="headquarters_activated"):
    """Option §16.1: instead of a formation the side's HQ is activated; its chief then changes orders (§5.2)."""

    side: str
    counter: str
    rule: str


class GroupEntered(Event, tag="group_entered"):
    """A reinforcement group becomes available at its entry hex during its formation's activation (§15.4):
    its units wait there until they move onto the map."""

    group: str
    hex: str
    units: list[str]
    rule: str


class UnitExited(Event, tag="unit_exited"):
    """Left the map through one of its side's retreat flags (arrivano §17.2.1, interpretation
    neapolitan_retreat_flags: exit_not_eliminated): out of play, not eliminated (no step lost)."""

    unit: str
    hex: str
    flag: str
    rule: str


class RoutStopped(Event, tag="rout_stopped"):
    """A routed unit ended its end-phase rout move early in a village, redoubt or a friendly general's hex
    (arrivano §15.2.2)."""

    unit: str
    hex: str
    reason: str
    rule: str


class ArtilleryTurned(Event, tag="artillery_turned"):
    """Artillery flipped to its Moved side (arrivano §11) or back (§3.1 C)."""

    units: list[str]
    moved: bool
    rule: str


class InfantryFired(Event, tag="infantry_fired"):
    """Open-order fire (arrivano §16.3, §16.3.2): one light unit, from `hex`, at the adjacent `target` hex, with the
    complete fire-table record (provisional table) and its result (•, D, D1, DR, §16.3.3)."""

    unit: str
    hex: str
    target: str
    result: str
    record: dict[str, Any]
    rule: str


class OpenOrderMarked(Event, tag="open_order_marked"):
    """Physical exhaustion markers (arrivano §16.3.4): `marker` V (fired in open order), F (fatigue: open order in
    two consecutive turns) or "" (removed)."""

    unit: str
    marker: str
    rule: str


class OpenOrderTested(Event, tag="open_order_tested"):
    """An efficiency test of the open-order rules: `test` D / D1 / DR (the target unit of a fire, §16.3.3), fatigue
    (an F unit before acting, §16.3.4: failing means Defence for the turn) or retreat (a V unit before an assault,
    §16.3.5)."""

    unit: str
    test: str
    passed: bool
    rule: str


class CounterChargeDeclared(Event, tag="counter_charge_declared"):
    """arrivano §14.2.4: `unit` counter-charges the charger `against`, stopped in `hex`."""

    unit: str
    against: str
    hex: str
    rule: str


class FlagCaptured(Event, tag="flag_captured"):
    """A Neapolitan flag taken with a lost Maggiore (arrivano §17.2.12)."""

    leader: str
    rule: str


class MarchOrderEnded(Event, tag="march_order_ended"):
    """A Montebello march order ends (arrivano §17.1.5): `reason` enemy_in_los or reached."""

    march: str
    reason: str
    rule: str


# --- the contexts of Arrivano's frames on the engine's decision stack (arbitro §S.3) ----------------------
# One per kind of decision; `kind` names the step that answers it (adjudicator/arrivano/steps.py).


class RoutMoveAwaited(FrameContext, tag="arrivano_rout_move"):
    """arrivano §15.2.2: the routed unit whose rout move its owner chooses."""

    unit: str


class ArtilleryRetreatAwaited(FrameContext, tag="arrivano_artillery_retreat"):
    """arrivano §11.1: the bombarded units that retreat, and the guns stacked with them that may go too."""

    units: tuple[str, ...]
    artillery: tuple[str, ...]
    hex: str


class OrderAwaited(FrameContext, tag="arrivano_choose_order"):
    """arrivano §17.1.2: the order of a formation entering on the first turn, which its owner chooses."""

    formation: str


class CounterchargeAwaited(FrameContext, tag="arrivano_countercharge"):
    """arrivano §14.2.4: a charge stopped at `stop` on its path, and the enemy cavalry that may counter-charge."""

    unit: str
    path: tuple[str, ...]
    stop: int
    target: str
    counter: tuple[str, ...]


class FreeOrderAwaited(FrameContext, tag="arrivano_free_order"):
    """arrivano §4.4 ('vedi anche 4.3.2'): out-of-command units in the chief's range, whose order their owner
    chooses."""

    units: tuple[str, ...]


class RecoveryAwaited(FrameContext, tag="arrivano_recovery"):
    """arrivano §15.3: the activated formation's recovery, with the hexes already tried."""

    formation: str
    tried: tuple[str, ...]


class ReplacementHexAwaited(FrameContext, tag="arrivano_replacement_hex"):
    """arrivano §12.8.2: the replacement returning, whose hex (within one of its general) its owner chooses."""

    unit: str


class RefugeAwaited(FrameContext, tag="arrivano_commander_refuge"):
    """arrivano §4.5.4: the commander left alone who goes to the nearest friends."""

    leader: str


class EndPhaseUnderway(FrameContext, tag="arrivano_end_phase"):
    """arrivano §3.1 C: the end phase, waiting below the rout move of the next routed unit; `done`: the units whose
    rout move is settled. Nobody answers it: the end phase goes on once the frames above it are closed."""

    done: tuple[str, ...]


class FallBackAwaited(FrameContext, tag="arrivano_fall_back"):
    """arrivano §16.3: a unit in open order that fired may fall back with the movement it has left."""

    unit: str
    target: str
    left: int
    budget: int
    moved: bool


class FireTargetAwaited(FrameContext, tag="arrivano_fire_target"):
    """arrivano §16.3.3: the unit of the fired-at hex that takes the result, chosen by its owner."""

    hex: str
    units: tuple[str, ...]
    result: str


# --- the assault's decisions (arrivano §12, §11.4.4, §14.1, §16.3.5) --------------------------------------


class DrChoiceAwaited(FrameContext, tag="arrivano_dr_choice"):
    """arrivano §10.1.1, §12.5.4 DR: Defence-order units in a village, farm or redoubt choose how to meet the DR."""

    units: tuple[str, ...]
    hex: str
    choices: tuple[str, ...]


ARRIVANO_CONTEXTS: dict[str, type[FrameContext]] = {
    "retreat": RetreatAwaited, "rout_move": RoutMoveAwaited, "artillery_retreat": ArtilleryRetreatAwaited,
    "choose_order": OrderAwaited, "escape": EscapeAwaited, "countercharge": CounterchargeAwaited,
    "free_order": FreeOrderAwaited, "recovery": RecoveryAwaited, "replacement_hex": ReplacementHexAwaited,
    "commander_refuge": RefugeAwaited, "end_phase": EndPhaseUnderway, "fall_back": FallBackAwaited,
    "fire_target": FireTargetAwaited,
    "cavalry_retreat": BeforeCombatAwaited, "light_retreat": BeforeCombatAwaited,
    "defensive_fire": DefensiveFireAwaited, "assault": AssaultUnderway,
    "efficiency_value": EfficiencyChoiceAwaited, "ne_choice": NeChoiceAwaited, "exchange_loss": ExchangeLossAwaited,
    "dr_choice": DrChoiceAwaited, "advance": AdvanceAwaited,
}
# The assault's decisions wait below every other kind (as when they had a stack of their own): flow.Game.push.
ASSAULT_KINDS: frozenset[str] = frozenset({
    "assault", "cavalry_retreat", "light_retreat", "defensive_fire", "efficiency_value", "ne_choice",
    "exchange_loss", "dr_choice", "advance",
})


ArrivanoEvent = Union[
    StepBegan, TurnBegan, ColumnFormed, ColumnDissolved, OrderChanged, OfficerOrderTried, UnitOrderSet, OrderChangeTried, InitiativeWon, FormationActivated, HeadquartersActivated,
    ActivationEnded,
    LeaderPlaced, GroupEntered, UnitsMoved, LeaderMoved, StatusChanged, UnitEliminated, UnitPlaced,
    UnitRetreated, UnitExited, RoutStopped, UnitsAdvanced, ArtilleryFired, ArtilleryTurned, InfantryFired, OpenOrderMarked, OpenOrderTested,
    CounterChargeDeclared, AssaultDeclared, AssaultResolved, CombatEnded, ChargeEnded, LeaderLost,
    FlagCaptured, MarchOrderEnded, WeatherChanged, PiecesSighted, GameEnded,
]

# Events that name pieces (for fog-of-war redaction): field names holding one id or a list of ids.
PIECE_FIELDS: dict[type, tuple[str, ...]] = {
    **SHARED_PIECE_FIELDS,
    GroupEntered: ("units",), ColumnFormed: ("units",), OfficerOrderTried: ("units",),
    UnitExited: ("unit",), RoutStopped: ("unit",),
    CounterChargeDeclared: ("unit", "against"), ArtilleryTurned: ("units",), FlagCaptured: ("leader",),
    InfantryFired: ("unit",), OpenOrderMarked: ("unit",), OpenOrderTested: ("unit",),
}
