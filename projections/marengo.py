"""Bonaparte a Marengo: the state (= the position format), its fold, per-seat views, redaction, secrets.

Hidden information (marengo §4): a seat sees its own blocks' faces; of the enemy only positions (zone,
reserve or approach), the opaque token, what is face up now, and what the rules make public (activation,
morale, time). Internal block ids ("FRA_...", "AUT_...") are never served to the opponent: they would tie a
token to the order of battle, which is public data. Terrain stays in the data files; the state holds only
what changes (plus the At Start zones, needed by the fold).
"""

from __future__ import annotations

from typing import Any

import msgspec

from arbitro.events import marengo as ev
from arbitro.projections.base import UMPIRE, Outcome, RulesetProjection

SIDES = ("austria", "france")
ELIMINATED = "eliminated"
POOL = "pool:"  # zone prefix of reinforcements not yet on the map


def other(side: str) -> str:
    return "france" if side == "austria" else "austria"


def side_of(block_id: str) -> str:
    return "france" if block_id.startswith("FRA_") else "austria"


class Block(msgspec.Struct, kw_only=True):
    side: str
    arm: str  # infantry, cavalry, artillery
    strength: int  # 1-3; 0 = eliminated
    token: str = ""  # the opaque public id (renewed by a shuffle)
    zone: str = ""  # zone id, "pool:<table>", "at_start" (before the draw), "eliminated"
    place: str = "reserve"  # "reserve" or an approach id "<zone>/<toward>"
    face_up: bool = False
    reveal: str = ""  # why it is face up (it is hidden again when that procedure ends)
    moved: bool = False  # moved this turn (marengo §8: once per turn)
    assaulted: bool = False  # assaulted this turn (marengo §11)
    activated: bool = True  # French At Start blocks start unactivated (marengo §6)
    hour: int = 0  # reinforcements: the hour from which they may enter


class Bombard(msgspec.Struct, kw_only=True):
    block: str
    approach: str
    declared_turn: int


class RoadUse(msgspec.Struct, kw_only=True):
    direction: str
    last: int


class Group(msgspec.Struct, kw_only=True):
    """The last group moved: its cavalry may continue (marengo §8) or, after a conquest, block (§11)."""

    side: str
    blocks: list[str]
    zone: str
    road: str = ""
    free: bool = False  # continuation of the whole group is free (main road)
    continued: bool = False
    no_continuation: list[str] = []  # blocks that returned from an approach of this zone (marengo §8)


class MarengoState(msgspec.Struct, kw_only=True):
    """The whole position (marengo §6-§14). See docs/rulesets/marengo.md, "Position format"."""

    round: int = 1  # 1-16
    hour: int = 6  # 6:00 on round 1
    rounds: int = 16
    first_hour: int = 6
    activation_hour: int = 11  # from this hour France may activate two blocks a turn (marengo §6)
    turn: int = 0  # 2 * (round - 1) + (0 Austria, 1 France)
    phasing: str = "austria"
    step: str = "setup"  # setup, start, bombardment, assaults, movement, declare, ended
    game_over: bool = False
    winner: str = ""
    result: str = ""
    blocks: dict[str, Block] = {}
    morale: dict[str, int] = {}
    demoralised: dict[str, bool] = {}
    bonus_given: dict[str, bool] = {}
    commands_used: int = 0  # command limit (marengo §8): groups and assaults this turn
    road_use: dict[str, RoadUse] = {}  # per road crossing (or entry edge): direction and last move index
    pontoon_used: bool = False
    group: Group | None = None
    bombard: dict[str, Bombard] = {}  # declared bombardment per side, awaiting resolution (marengo §10)
    fired_turn: dict[str, int] = {}
    declared_turn: dict[str, int] = {}
    closed_approaches: list[str] = []  # "zone/toward" of the attackers, failed assault this turn (§11)
    closed_zones: dict[str, list[str]] = {}  # conquered this turn -> the blocks that may still enter (§11)
    assaulted_approaches: list[str] = []  # one assault per approach per turn (§11)
    activation_left: int = 0
    at_start_zones: list[str] = []
    enemy_entered_at_start: list[str] = []
    next_token: int = 1
    interpretations: dict[str, str] = {}  # the umpire's readings in force (kept by note_interpretations)
    # A user's own data folder (name -> text, `arbitro new marengo marengo --data DIR`); {} = the shipped data.
    # The state carries it so that any process folding the game, or starting from a snapshot, adjudicates with it.
    data_files: dict[str, str] = {}


def token_number(token: str) -> int:
    return int(token[1:]) if token[1:].isdigit() else 0


# --- the fold ----------------------------------------------------------------------------------
def apply_event(s: MarengoState, e: Any) -> MarengoState:  # noqa: C901 - one case per event
    match e:
        case ev.AtStartPlaced():
            for p in e.placements:
                b = s.blocks[p.block]
                b.zone, b.place, b.token, b.activated = p.zone, p.place, p.token, False
                s.next_token = max(s.next_token, token_number(p.token) + 1)
            s.step = "start"
        case ev.TurnBegan():
            s.round, s.hour, s.phasing, s.turn = e.round, e.hour, e.side, e.turn
            s.step = "start"
            s.commands_used = 0
            s.road_use = {}
            s.pontoon_used = False
            s.group = None
            s.closed_approaches, s.closed_zones, s.assaulted_approaches = [], {}, []
            s.activation_left = 0
            for b in s.blocks.values():
                b.moved = b.assaulted = False
        case ev.MoraleBonus():
            s.morale[e.side] += e.amount
            s.bonus_given[e.side] = True
        case ev.ActivationAllowance():
            s.activation_left = e.count
        case ev.BlocksActivated():
            for r in e.blocks:
                s.blocks[r.block].activated = True
            s.activation_left = e.allowance_left
        case ev.BlocksShuffled():
            for a in e.assignments:
                s.blocks[a.block].token = a.token
            s.next_token = e.next_token
        case ev.BlocksMoved():
            _apply_moved(s, e)
        case ev.BlocksRevealed():
            for f in e.blocks:
                s.blocks[f.block].face_up = True
                s.blocks[f.block].reveal = e.reason
        case ev.BlocksHidden():
            for r in e.blocks:
                s.blocks[r.block].face_up = False
                s.blocks[r.block].reveal = ""
        case ev.StrengthLost():
            b = s.blocks[e.block]
            b.strength = e.strength
            if e.strength <= 0:
                b.zone, b.place, b.face_up, b.reveal = ELIMINATED, "reserve", True, "eliminated"
            s.morale[e.side] = max(0, s.morale[e.side] - e.points)
        case ev.Demoralised():
            s.demoralised[e.side] = True
        case ev.StepBegan():
            s.step = e.step
            if e.step != "start":
                s.activation_left = 0  # marengo §6: activation choices are made at the start of the turn
        case ev.ManoeuvreStarted():
            s.commands_used += e.cost
            s.group = None
        case ev.ManoeuvreBlocked():
            for r in e.blocks:
                s.blocks[r.block].place = e.approach
        case ev.AssaultDeclared():  # the assault under way is its frames' context (adjudicator/marengo/assault.py)
            for r in e.blocks:
                s.blocks[r.block].assaulted = True
            s.commands_used += 1
            s.assaulted_approaches.append(e.approach)
            s.group = None
        case ev.AssaultEnded():  # marengo §11 step 11: the closures the rules decided
            if e.closed_approach:
                s.closed_approaches.append(e.closed_approach)
            if e.conquered:
                s.closed_zones[e.conquered] = sorted(r.block for r in e.may_enter)
        case ev.BombardmentDeclared():
            s.bombard[e.side] = Bombard(block=e.block, approach=e.approach, declared_turn=s.turn)
            s.declared_turn[e.side] = s.turn
            s.step = "declare"
        case ev.BombardmentResolved():
            s.bombard.pop(e.side, None)
            s.fired_turn[e.side] = s.turn
        case ev.BombardmentCancelled():
            s.bombard.pop(e.side, None)
        case ev.TurnEnded():
            s.step = "ended"
        case ev.GameOver():
            s.game_over, s.winner, s.result = True, e.winner, e.reason
    return s


def _apply_moved(s: MarengoState, e: ev.BlocksMoved) -> None:
    for r in e.blocks:
        b = s.blocks[r.block]
        b.zone, b.place, b.token = e.to_zone, e.place, r.token
        if e.marks_moved:
            b.moved = True
        if b.side == "austria" and e.to_zone in s.at_start_zones and e.to_zone not in s.enemy_entered_at_start:
            s.enemy_entered_at_start.append(e.to_zone)
    s.commands_used += e.cost
    for c in e.crossings:
        s.road_use[c.key] = RoadUse(direction=c.direction, last=c.index)
    if e.kind == "pontoon":
        s.pontoon_used = True
    if e.new_tokens:
        s.next_token = e.new_tokens
    if e.kind == "continuation" and s.group is not None:
        s.group.continued = True
        s.group.blocks = [x for x in s.group.blocks if x not in {r.block for r in e.blocks}]
    if e.group:
        s.group = Group(side=e.side, blocks=sorted(r.block for r in e.blocks), zone=e.to_zone,
                        road=e.group_road, free=e.group_free,
                        no_continuation=[r.block for r in e.blocks if e.kind == "move" and e.from_zone == e.to_zone])
    elif e.kind != "continuation":
        s.group = None  # marengo §8: a continuation comes at the end of its own move, before any other move


# --- views ---------------------------------------------------------------------------------------
def block_view(state: MarengoState, bid: str, seat: str) -> dict[str, Any]:
    """One block as `seat` may know it (allow-list)."""
    b = state.blocks[bid]
    own = seat == UMPIRE or seat == b.side
    out: dict[str, Any] = {"token": b.token, "side": b.side, "zone": b.zone, "place": b.place,
                           "face_up": b.face_up, "moved": b.moved, "assaulted": b.assaulted,
                           "activated": b.activated}
    if own:
        out.update(block=bid, arm=b.arm, strength=b.strength, reveal=b.reveal, hour=b.hour)
    elif b.face_up:
        out.update(arm=b.arm, strength=b.strength, reveal=b.reveal)
    return out


def _on_map(b: Block) -> bool:
    return not b.zone.startswith(POOL) and b.zone not in (ELIMINATED, "at_start", "")


def view_state(state: MarengoState, seat: str) -> dict[str, Any]:
    own = [bid for bid in sorted(state.blocks) if seat == UMPIRE or state.blocks[bid].side == seat]
    enemy_on_map = sorted(
        (b.token, bid) for bid, b in state.blocks.items()
        if seat != UMPIRE and b.side != seat and _on_map(b)
    )
    pools: dict[str, int] = {}
    eliminated: dict[str, int] = {}
    for b in state.blocks.values():
        if b.side != seat and seat != UMPIRE:
            if b.zone.startswith(POOL):
                pools[b.zone] = pools.get(b.zone, 0) + 1
            elif b.zone == ELIMINATED:
                eliminated[b.side] = eliminated.get(b.side, 0) + 1
    return {
        "round": state.round, "hour": state.hour, "rounds": state.rounds, "turn": state.turn,
        "phasing": state.phasing, "step": state.step, "game_over": state.game_over, "winner": state.winner,
        "result": state.result,
        "morale": dict(sorted(state.morale.items())), "demoralised": dict(sorted(state.demoralised.items())),
        "commands_used": state.commands_used,
        "road_use": {k: {"direction": v.direction, "last": v.last} for k, v in sorted(state.road_use.items())},
        "pontoon_used": state.pontoon_used,
        "bombardments": {
            side: {"token": state.blocks[bm.block].token, "approach": bm.approach, "declared_turn": bm.declared_turn}
            for side, bm in sorted(state.bombard.items())
        },
        "closed_approaches": list(state.closed_approaches),
        "closed_zones": {z: _tok(state, xs) for z, xs in sorted(state.closed_zones.items())},
        "assaulted_approaches": list(state.assaulted_approaches),
        "activation_left": state.activation_left,
        "enemy_entered_at_start": list(state.enemy_entered_at_start),
        "blocks": [block_view(state, bid, seat) for bid in own],
        "enemy_blocks": [block_view(state, bid, seat) for _, bid in enemy_on_map],
        "enemy_reinforcements_waiting": dict(sorted(pools.items())),
        "enemy_eliminated": sum(eliminated.values()),
    }


def _tok(state: MarengoState, ids: list[str]) -> list[str]:
    """Tokens sorted by token (marengo §4): an order by internal id would rank the enemy's tokens by identity."""
    return sorted(state.blocks[x].token for x in ids)


# --- redaction and secrets -------------------------------------------------------------------------
def enemy_ids(state: MarengoState, seat: str) -> set[str]:
    if seat == UMPIRE:
        return set()
    return {bid for bid, b in state.blocks.items() if b.side != seat}


def redact_event(e: Any, seat: str, state: MarengoState) -> dict[str, Any] | None:
    data = msgspec.to_builtins(e)
    if seat == UMPIRE:
        return data  # type: ignore[no-any-return]
    hidden = enemy_ids(state, seat)
    if isinstance(e, ev.BlocksShuffled) and e.side != seat:
        # the opponent learns the new tokens of each place, never which old token became which
        data["assignments"] = sorted(({"place": a.place, "token": a.token} for a in e.assignments),
                                     key=lambda d: (d["place"], d["token"]))
        return data  # type: ignore[no-any-return]
    if isinstance(e, ev.ManoeuvreStarted) and e.side != seat:
        # marengo §9 (2): where road cavalry goes after a successful attack is the mover's plan; the defender,
        # who decides whether to block, learns it only as the cavalry goes on
        data.pop("remaining", None)
        data.pop("crossings", None)
    return _scrub(data, hidden, state)  # type: ignore[no-any-return]


def _scrub(value: Any, hidden: set[str], state: MarengoState) -> Any:
    if isinstance(value, dict):
        out = {}
        for k, v in value.items():
            if k == "block" and isinstance(v, str) and v in hidden:
                if "token" not in value:
                    out["token"] = state.blocks[v].token
                continue
            out[k] = _scrub(v, hidden, state)
        return out
    if isinstance(value, (list, tuple)):
        return [_scrub(v, hidden, state) for v in value]
    if isinstance(value, str) and value in hidden:
        return state.blocks[value].token
    return value


class MarengoProjection(RulesetProjection[MarengoState]):
    name = "marengo"
    # 1.1.0: the bombardment target choice is a frame on the decision stack; 1.2.0: the loss queue too; 1.3.0:
    # the retreat; 1.4.0: the attack manoeuvre; 1.5.0: the assault; 1.6.0: the board and pieces against public
    # facts (issue 19), a game on a user's data folder (docs/exchange-format.md); 1.7.0: the data hash's framing;
    # 1.8.0: a game on a data folder names it non-standard and keeps it and its hash from the seats
    version = "1.8.0"
    State = MarengoState
    Event = ev.MarengoEvent
    Contexts = ev.MARENGO_CONTEXTS

    def apply(self, state: MarengoState, event: Any) -> MarengoState:
        return apply_event(state, event)

    def seats(self, state: MarengoState) -> tuple[str, ...]:
        return SIDES

    def note_interpretations(self, state: MarengoState, chosen: dict[str, str]) -> MarengoState:
        state.interpretations = dict(sorted(chosen.items()))
        return state

    def view(self, state: MarengoState, seat: str) -> dict[str, Any]:
        if seat == UMPIRE:
            return msgspec.to_builtins(state)  # type: ignore[no-any-return]
        return view_state(state, seat)

    def redact(self, event: Any, seat: str, state: MarengoState) -> dict[str, Any] | None:
        return redact_event(event, seat, state)

    def redact_frame(self, frame: Any, seat: str, state: MarengoState) -> dict[str, Any]:
        """A loss task or a retreat names its blocks: the enemy's by token, as its events are."""
        data = msgspec.to_builtins(frame)
        if seat == UMPIRE:
            return data  # type: ignore[no-any-return]
        if isinstance(frame.ctx, ev.ManoeuvreUnderway) and frame.ctx.side != seat:
            # marengo §9 (2): where road cavalry goes on is the mover's plan, as in its manoeuvre_started
            data["ctx"].pop("remaining", None)
            data["ctx"].pop("crossings", None)
        return _scrub(data, enemy_ids(state, seat), state)  # type: ignore[no-any-return]

    def secrets(self, state: MarengoState, seat: str) -> set[str]:
        """The internal ids of the enemy's blocks: a served internal id would tie a token to the public order
        of battle (marengo §4)."""
        return enemy_ids(state, seat)

    def is_irreversible(self, event: Any) -> bool:
        return isinstance(event, (ev.BlocksRevealed, ev.StrengthLost, ev.AtStartPlaced, ev.BlocksShuffled,
                                  ev.AssaultResolved))

    def is_checkpoint(self, event: Any) -> bool:
        return isinstance(event, ev.TurnEnded)

    def outcome(self, state: MarengoState) -> Outcome | None:
        if not state.game_over:
            return None
        return Outcome(winner=state.winner or None, reason=state.result, rule="marengo §14")
