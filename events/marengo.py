"""Bonaparte a Marengo: the stored events (data only; the fold is projections/marengo.py).

Every event a rule causes carries `rule` (the citation, "marengo §11"). Blocks are named twice: `block`,
the internal id (never served to the opponent), and `token`, the opaque public id the opponent sees
(renewed when the owner shuffles a zone, marengo §4). Redaction (projections/marengo.py) strips internal
ids and hidden faces for the opponent.
"""

from __future__ import annotations

from typing import Union

import msgspec

from arbitro.events.core import Event, FrameContext


class Ref(msgspec.Struct, frozen=True, kw_only=True):
    """A block: its internal id and its public token."""

    block: str
    token: str


class Face(msgspec.Struct, frozen=True, kw_only=True):
    """A block shown face up: what the opponent may now see."""

    block: str
    token: str
    arm: str
    strength: int


class Placement(msgspec.Struct, frozen=True, kw_only=True):
    block: str
    token: str
    zone: str
    place: str = "reserve"


class Crossing(msgspec.Struct, frozen=True, kw_only=True):
    """A road crossing of an approach pair (or an entry edge) at a move index (marengo §8 road capacity)."""

    key: str  # "<road>|<zone-a>|<zone-b>" (zones sorted) or "entry|<entry point>"
    direction: str  # the zone the block came from ("" for an entry edge)
    index: int  # 1..3


class LossTask(msgspec.Struct, frozen=True, kw_only=True):
    """Strength points one side must lose among some blocks: leaders first (the enemy chooses among them),
    then the others (their owner chooses); points beyond their strength are ignored (marengo §11). Held in
    the `assign_loss` frame's context (LossesAwaited) on the engine's decision stack."""

    side: str
    points: int
    leaders: tuple[str, ...] = ()
    others: tuple[str, ...] = ()
    reason: str = ""
    rule: str = ""
    one_block: bool = False  # all the points on the first block chosen (marengo §10, interpretation bombardment_losses)
    chosen: str = ""  # that block, once chosen


class AtStartPlaced(Event, tag="at_start_placed", kw_only=True):
    """marengo §6 (4): the French At Start blocks drawn at random and placed face down."""

    placements: tuple[Placement, ...]
    rule: str


class TurnBegan(Event, tag="turn_began", kw_only=True):
    round: int
    hour: int
    side: str
    turn: int  # 0-based turn index: 2 * (round - 1) + (0 Austria, 1 France)
    rule: str


class MoraleBonus(Event, tag="morale_bonus", kw_only=True):
    """marengo §13: the army not demoralised gains five morale."""

    side: str
    amount: int
    rule: str


class BlocksActivated(Event, tag="blocks_activated", kw_only=True):
    """marengo §6 (6): French blocks activated (automatically or by choice); activation is public."""

    blocks: tuple[Ref, ...]
    automatic: bool
    allowance_left: int  # choices still open this turn
    rule: str


class ActivationAllowance(Event, tag="activation_allowance", kw_only=True):
    """marengo §6 (6): how many French blocks may be chosen for activation this turn."""

    count: int
    rule: str


class TokenAssignment(msgspec.Struct, frozen=True, kw_only=True):
    block: str
    old_token: str
    token: str
    place: str


class BlocksShuffled(Event, tag="blocks_shuffled", kw_only=True):
    """marengo §4: the owner mixed its blocks in a zone; each gets a fresh token (a hidden draw)."""

    side: str
    zone: str
    assignments: tuple[TokenAssignment, ...]
    next_token: int
    rule: str


class BlocksMoved(Event, tag="blocks_moved", kw_only=True):
    """Blocks moved from one zone/place to another. `kind`: move, road, enter, pontoon, continuation,
    block_manoeuvre, advance_to_block, manoeuvre_enter, fall_back, advance, retreat, forced."""

    side: str
    blocks: tuple[Ref, ...]
    from_zone: str
    to_zone: str
    place: str
    kind: str
    cost: int  # command-limit cost (marengo §8)
    crossings: tuple[Crossing, ...] = ()
    marks_moved: bool = True
    group: bool = False  # opens a continuation window for these blocks (marengo §8)
    group_road: str = ""  # the road the group moved on ("" if none); continuation must follow it
    group_free: bool = False  # the continuation of the whole group costs nothing
    new_tokens: int = 0  # the token counter after issuing tokens to entering blocks
    rule: str


class BlocksRevealed(Event, tag="blocks_revealed", kw_only=True):
    side: str
    blocks: tuple[Face, ...]
    reason: str  # assault_leader, defensive_artillery, pursuit, bombardment, bombardment_loss, manoeuvre_infantry,
    # road_cavalry, continuation, retreat, loss
    rule: str


class BlocksHidden(Event, tag="blocks_hidden", kw_only=True):
    side: str
    blocks: tuple[Ref, ...]
    reason: str
    rule: str


class LossesAwaited(FrameContext, tag="marengo_losses"):
    """The context of the assign_loss decision (marengo §10, §11, §12): the loss tasks queued, in the order
    they were inflicted; the first is being allocated (its points left, and the block chosen if all must go
    to one). A task queued while the frame is open, and each point taken, revise it (decision_revised)."""

    tasks: tuple[LossTask, ...]


class StrengthLost(Event, tag="strength_lost", kw_only=True):
    """A block lost `points` (replaced by a weaker block of its type, or eliminated at 0; marengo §4).
    The block is face up when it loses strength, so its type and strength are public."""

    side: str
    block: str
    token: str
    arm: str
    strength: int  # after the loss
    points: int
    reason: str
    rule: str


class LossTaskEnded(Event, tag="loss_task_ended", kw_only=True):
    """A loss task allocated (a record: the frame's context drops it); `ignored` says how many points found
    no block (marengo §11)."""

    side: str
    ignored: int  # points beyond the blocks' strength, ignored (marengo §11)
    rule: str


class Demoralised(Event, tag="demoralised", kw_only=True):
    side: str
    rule: str


class ManoeuvreStarted(Event, tag="manoeuvre_started", kw_only=True):
    """marengo §9: a move into an enemy-occupied zone."""

    side: str
    blocks: tuple[Ref, ...]
    from_zone: str
    to_zone: str
    blockable: bool
    road: str = ""
    remaining: tuple[str, ...] = ()  # further zones of a road move (cavalry continues after success)
    crossings: tuple[Crossing, ...] = ()  # the remaining crossings of the road move
    cost: int = 0  # command-limit cost of the move that attacks (marengo §8)
    rule: str


class ManoeuvreUnderway(FrameContext, tag="marengo_manoeuvre"):
    """The context of an attack manoeuvre's frames (marengo §9): `block_manoeuvre` (the defender blocks or not),
    `after_block` (the attacker, once blocked by `blockers`), `manoeuvre_enter` (below the defender's retreat:
    the attackers enter when it ends). `remaining`/`crossings`: the rest of a road cavalry move (the mover's plan)."""

    side: str
    blocks: tuple[str, ...]
    from_zone: str
    to_zone: str
    blockable: bool
    road: str = ""
    remaining: tuple[str, ...] = ()
    crossings: tuple[Crossing, ...] = ()
    blockers: tuple[str, ...] = ()


class ManoeuvreBlocked(Event, tag="manoeuvre_blocked", kw_only=True):
    side: str  # the defender
    blocks: tuple[Ref, ...]
    approach: str
    rule: str


class ManoeuvreEnded(Event, tag="manoeuvre_ended", kw_only=True):
    """A record: the manoeuvre's frame is resolved next."""

    result: str  # blocked, success
    rule: str


class AssaultDeclared(Event, tag="assault_declared", kw_only=True):
    side: str
    approach: str  # the attackers' approach
    target: str  # the defenders' approach (opposite)
    blocks: tuple[Ref, ...]
    leaders: tuple[Ref, ...]
    defenders: tuple[Ref, ...]
    arm: str
    attacker_demoralised: bool
    rule: str


class StepBegan(Event, tag="step_began", kw_only=True):
    """The turn moved on to its step `step` (start, bombardment, assaults, movement, declare; marengo §7)."""

    step: str
    rule: str


class AssaultUnderway(FrameContext, tag="marengo_assault"):
    """The context of an assault's frames (marengo §11), one kind per step: `defensive_artillery` and
    `defending_leaders` (the defender), `pursuit` (the winner), `advance` (the attacker) are asked;
    `result_losses` and `pursuit_losses` wait below the losses those steps queue, `conquest` below the
    defenders' retreat. Block lists are internal ids in token order (a seat is served the enemy's as tokens)."""

    side: str  # the attacker
    approach: str  # the attackers' approach "<from_zone>/<to_zone>"
    target: str  # the defenders' approach (opposite)
    blocks: tuple[str, ...]
    leaders: tuple[str, ...]
    defenders: tuple[str, ...]
    arm: str
    attacker_demoralised: bool = False  # at declaration
    def_leaders: tuple[str, ...] = ()
    winner: str = ""

    @property
    def from_zone(self) -> str:
        return self.approach.split("/")[0]

    @property
    def to_zone(self) -> str:
        return self.approach.split("/")[1]


class DefensiveFire(Event, tag="defensive_fire", kw_only=True):
    fire: bool
    strength: int
    rule: str


class DefendingLeaders(Event, tag="defending_leaders", kw_only=True):
    blocks: tuple[Ref, ...]
    rule: str


class AssaultResolved(Event, tag="assault_resolved", kw_only=True):
    """marengo §11 steps 5-7."""

    attack: int
    defence: int
    result: int
    winner: str
    detail: str
    rule: str


class PursuitDeclared(Event, tag="pursuit_declared", kw_only=True):
    side: str
    blocks: tuple[Ref, ...]
    strength: int
    rule: str


class AssaultEnded(Event, tag="assault_ended", kw_only=True):
    """marengo §11 step 11, with the closures it leaves for the rest of the turn, decided by the rules: a lost
    assault closes the attackers' approach, a won one conquers the zone (only its attackers in it may enter)."""

    winner: str
    advanced: bool
    closed_approach: str = ""  # the attackers' approach, when they lost
    conquered: str = ""  # the zone won
    may_enter: tuple[Ref, ...] = ()  # the attackers in the conquered zone, who may still enter it
    rule: str


class RetreatUnderway(FrameContext, tag="marengo_retreat"):
    """The context of the retreat decision (marengo §12): `side`'s blocks in `zone` retreat (not toward
    `enemy_from`); `blocks` are all of them (those still in the zone, alive, are still to go), `exempt` the assault
    participants, who lose nothing more. The frame stays open below its losses, and closes when none is left."""

    side: str
    zone: str
    enemy_from: str
    blocks: tuple[str, ...]  # internal ids, by token
    exempt: tuple[str, ...] = ()


class BombardmentDeclared(Event, tag="bombardment_declared", kw_only=True):
    side: str
    block: str
    token: str
    approach: str
    rule: str


class BombardTargetAwaited(FrameContext, tag="marengo_bombard_target"):
    """The context of the bombard_target decision (marengo §10): no blocker faces the bombarding artillery
    and none is in reserve, so the bombarding side chooses which approach's blockers it fires at."""

    side: str
    choices: tuple[str, ...]  # the approaches of the target zone held by the enemy, sorted


class BombardmentResolved(Event, tag="bombardment_resolved", kw_only=True):
    side: str
    block: str
    token: str
    target: str  # "reserve" or an approach id of the target zone
    strength: int
    rule: str


class BombardmentCancelled(Event, tag="bombardment_cancelled", kw_only=True):
    side: str
    block: str
    token: str
    reason: str
    rule: str


class TurnEnded(Event, tag="turn_ended", kw_only=True):
    side: str
    round: int
    rule: str


class GameOver(Event, tag="game_over", kw_only=True):
    winner: str
    reason: str
    rule: str


MarengoEvent = Union[
    AtStartPlaced,
    TurnBegan,
    MoraleBonus,
    BlocksActivated,
    ActivationAllowance,
    BlocksShuffled,
    BlocksMoved,
    BlocksRevealed,
    BlocksHidden,
    StrengthLost,
    LossTaskEnded,
    Demoralised,
    ManoeuvreStarted,
    ManoeuvreBlocked,
    ManoeuvreEnded,
    AssaultDeclared,
    StepBegan,
    DefensiveFire,
    DefendingLeaders,
    AssaultResolved,
    PursuitDeclared,
    AssaultEnded,
    BombardmentDeclared,
    BombardmentResolved,
    BombardmentCancelled,
    TurnEnded,
    GameOver,
]

# The contexts of the decision frames Marengo opens on the engine's stack (arbitro §S.3).
MARENGO_CONTEXTS = (BombardTargetAwaited, LossesAwaited, RetreatUnderway, ManoeuvreUnderway, AssaultUnderway)
