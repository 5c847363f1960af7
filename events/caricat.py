"""Caricat!: the stored events (data only; the fold is projections/caricat.py). Every event a rule causes carries
`rule`, its citation ("caricat §7.2.1"). Nothing in Caricat! is hidden (caricat has no fog of war), so every event
is public.
"""

from __future__ import annotations

from typing import Union

from arbitro.events.core import Event, FrameContext


# --- sequence, levels, activation (caricat §2-§4) ----------------------------------------------------------
class PhaseBegan(Event, tag="phase_began"):
    turn: int
    phase: str  # commitment | activation | recovery
    seat: str
    rule: str


class LevelChanged(Event, tag="level_changed"):
    leader: str
    level: str
    reason: str  # roll | automatic | attacked | objective | arrival
    rule: str


class LevelAttempted(Event, tag="level_attempted"):
    leader: str
    wanted: str
    total: int
    needed: int
    success: bool
    rule: str


class LevelsDone(Event, tag="levels_done"):
    side: str
    rule: str


class LeaderActivated(Event, tag="leader_activated"):
    leader: str
    side: str
    level: str
    rule: str


class CavalryActivated(Event, tag="cavalry_activated"):
    unit: str
    side: str
    level: str  # the level the activation counts at for the alternation (caricat §4.2)
    success: bool
    automatic: bool
    rule: str


class ActivationEnded(Event, tag="activation_ended"):
    side: str
    next_seat: str
    level: str
    rule: str


class Passed(Event, tag="passed"):
    side: str
    next_seat: str
    rule: str


class TurnEnded(Event, tag="turn_ended"):
    turn: int
    rule: str


# --- movement (caricat §5, §6, §9.1) -------------------------------------------------------------------------
class UnitMoved(Event, tag="unit_moved"):
    unit: str
    path: tuple[str, ...]
    road_bonus: bool
    rule: str


class LeaderMoved(Event, tag="leader_moved"):
    leader: str
    unit: str
    rule: str


# --- combat (caricat §7-§9, §12) -------------------------------------------------------------------------------
class CombatDeclared(Event, tag="combat_declared"):
    kind: str  # fire | melee
    attackers: tuple[str, ...]
    target: str
    charge: bool
    rule: str


class FireResolved(Event, tag="fire_resolved"):
    firers: tuple[str, ...]
    target: str
    dice: int
    modifier: int
    needed: int
    hits: int
    defensive: bool
    rule: str


class MoraleLost(Event, tag="morale_lost"):
    unit: str
    levels: int
    hits: int  # the unit's hits after the loss (5: eliminated)
    reason: str
    rule: str


class MoraleRecovered(Event, tag="morale_recovered"):
    unit: str
    hits: int
    rule: str


class MeleeResolved(Event, tag="melee_resolved"):
    attackers: tuple[str, ...]
    target: str
    attack_total: int
    defence_total: int
    difference: int
    winner: str  # attacker | defender | none
    rule: str


class MoraleChecked(Event, tag="morale_checked"):
    unit: str
    passed: bool
    rule: str


class UnitRetreated(Event, tag="unit_retreated"):
    unit: str
    path: tuple[str, ...]
    rule: str


class UnitAdvanced(Event, tag="unit_advanced"):
    unit: str
    path: tuple[str, ...]
    rule: str


class UnitEliminated(Event, tag="unit_eliminated"):
    unit: str
    vp_to: str
    vp: int
    rule: str


class LeaderEliminated(Event, tag="leader_eliminated"):
    leader: str
    vp_to: str
    vp: int
    staff: bool  # a replacement takes over (caricat §7.3.1)
    rule: str


class LeaderTransferred(Event, tag="leader_transferred"):
    leader: str
    unit: str | None  # None: all his units are gone, the leader leaves the game (caricat §7.3)
    rule: str


class ObjectiveTaken(Event, tag="objective_taken"):
    hex: str
    side: str
    rule: str


# --- scenarios (caricat §13, §14) ------------------------------------------------------------------------------
class BridgeDestroyed(Event, tag="bridge_destroyed"):
    hex: str
    rule: str


class OptionUsed(Event, tag="option_used"):
    option: str
    side: str
    vp: int
    rule: str


class BrigadeArrives(Event, tag="brigade_arrives"):
    leader: str
    roll: int
    success: bool
    rule: str


class GameEnded(Event, tag="game_ended"):
    vp: dict[str, int]
    winner: str | None
    result: str
    rule: str


CaricatEvent = Union[
    PhaseBegan, LevelChanged, LevelAttempted, LevelsDone, LeaderActivated, CavalryActivated, ActivationEnded, Passed,
    TurnEnded, UnitMoved, LeaderMoved, CombatDeclared, FireResolved, MoraleLost, MoraleRecovered, MeleeResolved,
    MoraleChecked, UnitRetreated, UnitAdvanced, UnitEliminated, LeaderEliminated, LeaderTransferred, ObjectiveTaken,
    BridgeDestroyed, OptionUsed, BrigadeArrives, GameEnded,
]


# --- decision frames on the engine's stack ---------------------------------------------------------------------
class CombatUnderway(FrameContext, tag="caricat_combat"):
    """A fire or melee combat between its declaration and its end (caricat §7): nobody answers it; its stages run
    when it is on top (cavalry retreat before combat, defensive fire's aim, the round, retreats, the advance)."""

    kind: str
    attackers: tuple[str, ...]
    target: str
    charge: bool = False
    stage: str = "declared"
    aim: str = ""  # the attacker the defender fires at (caricat §7.1, §7.2)
    winner: str = ""
    advance: int = 0
    vacated: str = ""
    # leaders in a hex struck during the combat, whose loss is rolled at its end (reading leader_loss=end_of_combat)
    struck: tuple[str, ...] = ()


class AimAwaited(FrameContext, tag="caricat_aim"):
    """The defender chooses the one attacker its defensive fire aims at (caricat §7.1, §7.2)."""

    target: str
    attackers: tuple[str, ...]


class CavalryRetreatOffered(FrameContext, tag="caricat_cavalry_retreat"):
    """The defending cavalry may try to retreat before the combat (caricat §9.2)."""

    unit: str


class RetreatAwaited(FrameContext, tag="caricat_retreat"):
    """A unit retreats hex by hex toward its lines; its owner chooses each hex among the best (caricat §7.4)."""

    unit: str
    hexes_left: int
    path: tuple[str, ...] = ()
    rule: str = ""


class AdvanceAwaited(FrameContext, tag="caricat_advance"):
    """The winner of a melee may advance into the hex the loser left (caricat §7.2.1, §9.1 compulsory)."""

    units: tuple[str, ...]
    vacated: str
    hexes: int
    compulsory: bool = False
    path: tuple[str, ...] = ()


class TransferAwaited(FrameContext, tag="caricat_transfer"):
    """The leader whose unit was eliminated joins any other unit he commands, his owner's choice (caricat §7.3)."""

    leader: str
    units: tuple[str, ...]


class ReactionAwaited(FrameContext, tag="caricat_reaction"):
    """Enemy infantry may fire at a unit that moved from one of its zone's hexes into another (caricat §6.2)."""

    mover: str
    firers: tuple[str, ...]


CARICAT_CONTEXTS: dict[str, type[FrameContext]] = {
    "combat": CombatUnderway, "aim": AimAwaited, "cavalry_retreat": CavalryRetreatOffered,
    "retreat": RetreatAwaited, "advance": AdvanceAwaited, "reaction": ReactionAwaited,
    "leader_transfer": TransferAwaited,
}
