"""Caricat!: the state (the position format IS this state, docs/rulesets/caricat.md), its fold and its views.

Nothing in Caricat! is hidden (its rulebook has no fog of war), so every seat sees the whole position.
"""

from __future__ import annotations

from typing import Any

import msgspec

from arbitro.events import caricat as ev

SIDES = ("italian", "austrian")


def other(side: str) -> str:
    return "austrian" if side == "italian" else "italian"


class UnitState(msgspec.Struct, kw_only=True):
    side: str
    kind: str  # infantry | cavalry
    leader: str | None = None
    hex: str | None = None
    where: str = "map"  # map | off (not yet arrived) | gone (eliminated)
    hits: int = 0  # morale levels lost, 0..5 (caricat §7.5)
    moved: bool = False  # in the activation under way
    fought: bool = False  # fired offensively or attacked in the activation under way
    activated: bool = False  # cavalry: its individual activation this turn was tried (caricat §4.2)
    hold: bool = False  # cavalry: the Hold marker of a failed activation (caricat §4.2.1)
    defended: int = 0  # the activation (serial) in which it last fired defensively (caricat §7.1)


class LeaderState(msgspec.Struct, kw_only=True):
    side: str
    unit: str | None  # the unit he stands with (caricat §7.3); None: out of play
    level: str
    present: bool = True  # False: his brigade has not been called into play (caricat §13.3.2-13.3.3)
    activated: bool = False
    tried: bool = False  # tried to change his level this turn (caricat §2.1)
    staff: bool = False  # a replacement (caricat §7.3.1)
    out_of_command: bool = False  # his units count as beyond double range in his next activation (caricat §7.3.1)
    attacked: bool = False  # some of his units were attacked (caricat §13.1.3, §14.1.3-14.1.6)
    marched: bool = False  # reached the place he marches on (caricat §13.2.1)
    gone: bool = False
    moved: bool = False  # moved in the activation under way (his 9 MP, caricat §6)


class CaricatState(msgspec.Struct, kw_only=True):
    scenario: str
    options: list[str] = []
    turn: int = 1
    last_turn: int = 10
    phase: str = "commitment"  # commitment | activation | recovery | over
    seat: str = "austrian"
    done: list[str] = []  # sides that ended the commitment phase this turn
    activation: str = ""  # the leader or cavalry unit activated now
    activation_kind: str = ""  # leader | cavalry
    activation_level: str = ""
    serial: int = 0
    passes: int = 0
    units: dict[str, UnitState] = {}
    leaders: dict[str, LeaderState] = {}
    control: dict[str, str] = {}  # objective hex -> the side controlling it
    vp: dict[str, int] = {}  # VP earned by eliminations
    costs: dict[str, int] = {}  # VP paid for optional rules (caricat §13.3)
    used: list[str] = []  # optional rules called into play
    bridge_destroyed: bool = False
    result: dict[str, Any] | None = None
    interpretations: dict[str, str] = {}
    data_files: dict[str, str] = {}  # a user's own data folder the game is played on (name -> text); {}: shipped


def leader_hex(state: CaricatState, leader: str) -> str | None:
    unit = state.leaders[leader].unit
    return state.units[unit].hex if unit is not None else None


def apply(state: CaricatState, event: Any) -> CaricatState:
    match event:
        case ev.PhaseBegan(turn=turn, phase=phase, seat=seat):
            state.turn, state.phase, state.seat = turn, phase, seat
            if phase == "commitment":
                state.done = []
                for le in state.leaders.values():
                    le.tried = False
            if phase == "activation":
                state.passes = 0
                for le in state.leaders.values():
                    le.activated = False
                for u in state.units.values():
                    u.activated = u.hold = False
        case ev.LevelChanged(leader=leader, level=level):
            state.leaders[leader].level = level
            if event.reason == "objective":
                state.leaders[leader].marched = True
        case ev.LevelAttempted(leader=leader):
            state.leaders[leader].tried = True
        case ev.LevelsDone(side=side):
            state.done = sorted({*state.done, side})
            state.seat = other(side)
        case ev.LeaderActivated(leader=leader, level=level):
            _begin(state, leader, "leader", level)
            state.leaders[leader].activated = True
        case ev.CavalryActivated(unit=unit, success=success, level=level):
            state.units[unit].activated = True
            if success:
                _begin(state, unit, "cavalry", level)
            else:
                state.units[unit].hold = True
        case ev.ActivationEnded(next_seat=seat):
            if state.activation_kind == "leader":
                state.leaders[state.activation].out_of_command = False
            state.activation, state.activation_kind, state.activation_level = "", "", ""
            state.seat, state.passes = seat, 0
        case ev.Passed(next_seat=seat):
            state.seat, state.passes = seat, state.passes + 1
        case ev.TurnEnded():
            state.turn += 1
        case ev.UnitMoved(unit=unit, path=path) | ev.UnitRetreated(unit=unit, path=path) | \
                ev.UnitAdvanced(unit=unit, path=path):
            u = state.units[unit]
            u.hex, u.where = path[-1], "map"
            if isinstance(event, ev.UnitMoved):
                u.moved = True
        case ev.LeaderMoved(leader=leader, unit=unit) | ev.LeaderTransferred(leader=leader, unit=unit):
            state.leaders[leader].unit = unit
            if isinstance(event, ev.LeaderMoved):
                state.leaders[leader].moved = True
            if unit is None:
                state.leaders[leader].gone = True
        case ev.CombatDeclared(attackers=attackers, target=target):
            for a in attackers:
                state.units[a].fought = True
            chief = state.units[target].leader
            if chief is not None:
                state.leaders[chief].attacked = True
        case ev.FireResolved(firers=firers, defensive=True):
            for f in firers:
                state.units[f].defended = state.serial
        case ev.MoraleLost(unit=unit, hits=hits):
            state.units[unit].hits = hits
        case ev.MoraleRecovered(unit=unit, hits=hits):
            state.units[unit].hits = hits
        case ev.UnitEliminated(unit=unit, vp_to=side, vp=vp):
            u = state.units[unit]
            u.hex, u.where, u.hits = None, "gone", 5
            state.vp[side] = state.vp.get(side, 0) + vp
        case ev.LeaderEliminated(leader=leader, vp_to=side, vp=vp, staff=staff):
            state.vp[side] = state.vp.get(side, 0) + vp
            le = state.leaders[leader]
            le.staff, le.out_of_command = staff, staff
        case ev.ObjectiveTaken(hex=hex_id, side=side):
            state.control[hex_id] = side
        case ev.BridgeDestroyed():
            state.bridge_destroyed = True
        case ev.OptionUsed(option=option, side=side, vp=vp):
            state.used = sorted({*state.used, option})
            state.costs[side] = state.costs.get(side, 0) + vp
        case ev.BrigadeArrives(leader=leader, success=success):
            if success:
                state.leaders[leader].present = True
        case ev.GameEnded(vp=vp, winner=winner, result=result, rule=rule):
            state.phase = "over"
            state.result = {"vp": dict(vp), "winner": winner, "result": result, "rule": rule}
        case ev.MeleeResolved() | ev.MoraleChecked() | ev.FireResolved():
            pass
    return state


def _begin(state: CaricatState, who: str, kind: str, level: str) -> None:
    state.activation, state.activation_kind, state.activation_level = who, kind, level
    state.serial += 1
    for u in state.units.values():
        u.moved = u.fought = False
    for le in state.leaders.values():
        le.moved = False


def view(state: CaricatState) -> dict[str, Any]:
    """Every seat's view: the whole position (nothing is hidden in Caricat!), less the texts of a user's data folder
    (public in the game's genesis, and too long to serve with every view)."""
    out: dict[str, Any] = msgspec.to_builtins(state)
    out.pop("data_files", None)
    return out
