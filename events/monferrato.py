"""La Seconda Guerra del Monferrato: the stored events (data only; the fold is projections/monferrato.py).

Every event a rule causes carries `rule` (the citation, "monferrato §7.3"). Chits are named by their public id
("chit05"); the events that put a chit into a hand (`chit_drawn`) are served to the other seat without it
(projections/monferrato.py redacts them), and the cup's contents are never in any event.
"""

from __future__ import annotations

from typing import Union

import msgspec

from arbitro.events.core import Event, FrameContext


class ChitsDealt(Event, tag="chits_dealt"):
    """The opening hands (monferrato §4): `public` are the chits the scenario names (chit 5 to Pro-France)."""

    seat: str
    chits: tuple[str, ...]
    rule: str
    public: tuple[str, ...] = ()


class SetUp(Event, tag="set_up"):
    """Units set up where their side chose (monferrato scenario, "Setup iniziale"): public, as every unit's place."""

    seat: str
    units: tuple[str, ...]
    zone: str
    rule: str


class ValueChosen(Event, tag="value_chosen"):
    """The value a side chose for an "a scelta: 3 o 4" counter (monferrato scenario, "Setup iniziale"; reading
    `scelta_3_o_4: value_each`): public, as the counter's face is."""

    seat: str
    unit: str
    fire: int
    rule: str


class SetUpAwaited(FrameContext, tag="monferrato_set_up"):
    """A set-up choice awaited from `seat`: the `item`th of the scenario's (adjudicator/monferrato/setup.items)."""

    seat: str
    item: int


class CommandDrawn(Event, tag="command_drawn"):
    command: str
    seat: str
    rule: str


class SupplyChecked(Event, tag="supply_checked"):
    command: str
    out: tuple[str, ...]  # units now out of supply
    back: tuple[str, ...]  # units back in supply (marker removed)
    rule: str


class ZonesActivated(Event, tag="zones_activated"):
    command: str
    zones: tuple[str, ...]
    commander: str  # "" when one zone is activated without a commander's leadership (monferrato §5 1)
    rule: str


class ChitDrawn(Event, tag="chit_drawn"):
    seat: str
    chit: str  # served to the other seat as ""
    rule: str


class ChitDiscarded(Event, tag="chit_discarded"):
    seat: str
    chit: str
    rule: str


class ChitPlayed(Event, tag="chit_played"):
    seat: str
    chit: str
    removed: bool  # RSU: out of the game, not to the discards (monferrato §16.4)
    rule: str


class ChitsRecycled(Event, tag="chits_recycled"):
    """The discards back into the cup (monferrato §5.1), or the blue chits out and the red in (§16.4)."""

    to_cup: tuple[str, ...]
    rule: str
    to_discards: tuple[str, ...] = ()


class MoraleChanged(Event, tag="morale_changed"):
    nation: str
    value: int
    rule: str
    reason: str


class VictoryPoints(Event, tag="victory_points"):
    seat: str
    delta: int
    rule: str
    reason: str
    prudence: str = ""  # the scenario's prudence rule scored ("2", "3"): once only


class UnitsMoved(Event, tag="units_moved"):
    units: tuple[str, ...]
    path: tuple[str, ...]  # the zones entered, in order
    rule: str
    left: tuple[str, ...] = ()  # "unit@zone": left behind on the way (monferrato §6)


class UnitsActed(Event, tag="units_acted"):
    """Units that took their one action (monferrato §5.3) without moving: `action` names it."""

    units: tuple[str, ...]
    action: str
    rule: str


class Recovered(Event, tag="recovered"):
    units: tuple[str, ...]
    rule: str


class Disorganised(Event, tag="disorganised"):
    units: tuple[str, ...]
    rule: str
    reason: str


class Eliminated(Event, tag="eliminated"):
    units: tuple[str, ...]
    rule: str
    reason: str


class CommanderPlaced(Event, tag="commander_placed"):
    """The replacement commander appears in another zone holding friendly units, his owner's choice (§7.4.1)."""

    unit: str
    zone: str
    rule: str


class CommanderReplaced(Event, tag="commander_replaced"):
    unit: str
    zone: str
    rule: str


class ActivationEnded(Event, tag="activation_ended"):
    command: str
    rule: str


class StackingChecked(Event, tag="stacking_checked"):
    zone: str
    units: tuple[str, ...]
    rule: str


class TurnBegan(Event, tag="turn_began"):
    turn: int
    name: str
    cup: tuple[str, ...]  # the command markers in the cup (public: the activated box is on the map)
    raids_cleared: bool
    rule: str


class GroupScheduled(Event, tag="group_scheduled"):
    group: str
    turn: int
    rule: str


class GroupArrived(Event, tag="group_arrived"):
    group: str
    zone: str
    units: tuple[str, ...]
    new_command: bool
    rule: str


class CampFlipped(Event, tag="camp_flipped"):
    units: tuple[str, ...]
    rule: str


class EndMoved(Event, tag="end_moved"):
    last_turn: int
    rule: str


class GameEnded(Event, tag="game_ended"):
    winner: str  # a seat, or "" for a draw (monferrato §17)
    vp: dict[str, int]
    rule: str


class BattleBegan(Event, tag="battle_began"):
    zone: str
    attacker: str
    attackers: tuple[str, ...]
    defenders: tuple[str, ...]
    major: bool  # six or more combat units each, sappers excluded (monferrato §7.2)
    rule: str


class UnitsCalled(Event, tag="units_called"):
    """Units called in support by the attacking commander (monferrato §7.1): activated for the turn."""

    units: tuple[str, ...]
    path: tuple[str, ...]
    rule: str


class Volley(Event, tag="volley"):
    """One side's fire in a round (monferrato §7.2): each unit's dice against its fire value as modified."""

    zone: str
    seat: str
    units: tuple[str, ...]
    fire: tuple[int, ...]
    dice: tuple[tuple[int, ...], ...]
    hits: int  # dice at or under the fire value
    saved: int  # hits taken off by forts, a fortified town and response chits (monferrato §9.4, §10, §5.1)
    rule: str


class HitsTaken(Event, tag="hits_taken"):
    """One hit allocated to a unit (monferrato §7.3-§7.4): `result` "disorganised" or "eliminated"."""

    unit: str
    result: str
    rule: str


class BattleEnded(Event, tag="battle_ended"):
    zone: str
    winner: str
    hits: dict[str, int]  # the hits each seat suffered, after forts and towns (monferrato §7.5)
    rule: str


class Retreated(Event, tag="retreated"):
    units: tuple[str, ...]
    to: str
    rule: str


class FortsChanged(Event, tag="forts_changed"):
    zone: str
    owners: tuple[str, ...]  # the forts now in the zone
    rule: str
    by_sapper: bool = False  # a sapper destroyed an own fort: the command's one fort in the zone (monferrato §10)


class WallBattered(Event, tag="wall_battered"):
    """A fortress wall side's level after bombardment, a mine or rebuilding (monferrato §8.1, §9.1, §9.3); 0 is a
    breach."""

    side: str  # "fortress/toward"
    level: int
    rule: str


class MinesChanged(Event, tag="mines_changed"):
    side: str
    mines: int
    owner: str
    rule: str
    fresh: int = 0  # mines placed in this activation, which may not be fired in it (monferrato §9.1)


class FortBuilt(Event, tag="fort_built"):
    zone: str
    seat: str
    rule: str


class Raided(Event, tag="raided"):
    zone: str
    units: tuple[str, ...]
    die: int
    modifier: int  # enemy units and forts in the zone (monferrato §11)
    result: str  # "success", "failed" (a six), "no effect"
    rule: str
    spent: tuple[int, ...] = ()  # the movement points each raider has spent in this activation, the attempt's included
    goes_on: bool = False  # the raiders may go on moving and raiding with the points left (monferrato §11)


class Replaced(Event, tag="replaced"):
    """An eliminated unit back in good order (monferrato §16.6), or an eliminated camp back in play (§14.5)."""

    unit: str
    zone: str
    rule: str


class ReplacementsAwaited(FrameContext, tag="monferrato_replacements"):
    """Replacements being spent (monferrato §16.6): `left` units of `kinds` for `command`; `placed` the zones used."""

    seat: str
    command: str
    kinds: tuple[str, ...]
    left: int
    placed: tuple[str, ...]


class FortsTaken(Event, tag="forts_taken"):
    """The winner of a battle, or units entering enemy forts left alone, convert some of them and destroy the rest
    (monferrato §10); a battle's winner may destroy a fortified town (§9.4)."""

    zone: str
    seat: str
    converted: int
    destroyed: int
    town_destroyed: bool
    rule: str


class Battle(msgspec.Struct, frozen=True, kw_only=True):
    """A field battle under way (monferrato §7), carried from decision to decision in each frame's context; also a
    bombardment of units (§8.2, `bombardment`), which has only its losses and the commanders' risk."""

    zone: str
    attacker: str
    origin: str  # where the attackers came from: their one retreat (monferrato §7.5); "" after a raid in place
    commander: str = ""  # the attacking commander, who may call support (§7.1)
    calls: int = 0  # support calls left
    major: bool = False
    round: int = 1
    stage: str = "support"
    steady: int = 0  # response chits played: hits taken off the attackers' each round
    hits: dict[str, int] = {}  # effective hits each seat suffered so far
    round_hits: dict[str, int] = {}  # this round's
    owed: dict[str, int] = {}  # hits still to allocate, per seat
    bombardment: bool = False
    entering: bool = False  # reinforcements entering the enemy's zone: eliminated if they must retreat (§16.5)


class BattleAwaited(FrameContext, tag="monferrato_battle"):
    """A decision inside a field battle: `seat` answers; the battle goes on from `battle` once it has."""

    seat: str
    battle: Battle


class DiscardAwaited(FrameContext, tag="monferrato_discard"):
    """The hand holds five chits: its owner discards one (monferrato §5 2)."""

    seat: str
    then: str  # what follows the discard: "end_activation" or "" (nothing)


MonferratoEvent = Union[
    ChitsDealt, CommandDrawn, SupplyChecked, ZonesActivated, ChitDrawn, ChitDiscarded, ChitPlayed, ChitsRecycled,
    MoraleChanged, VictoryPoints, UnitsMoved, UnitsActed, Recovered, Disorganised, Eliminated, CommanderReplaced,
    ActivationEnded, StackingChecked, TurnBegan, GroupScheduled, GroupArrived, CampFlipped, EndMoved, GameEnded,
    BattleBegan, UnitsCalled, Volley, HitsTaken, BattleEnded, Retreated, FortsChanged, WallBattered, MinesChanged,
    FortBuilt, Raided, FortsTaken, Replaced, CommanderPlaced, SetUp, ValueChosen,
]

MONFERRATO_CONTEXTS: tuple[type, ...] = (DiscardAwaited, BattleAwaited, ReplacementsAwaited, SetUpAwaited)
