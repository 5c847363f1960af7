"""The Para Bellum system's state, fold and view (issue 18): what both games' positions hold alike, one set of
pieces, the one fold (`apply`) and the one view (`view`). A variant's projections/<game>.py keeps its own state's
fields and what its game adds to the fold and the views (`fold_own`, `served_own`)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any, ClassVar, Final, TypeVar

import msgspec

from arbitro.events import parabellum as pb

# A unit's condition (caldiero §15, arrivano §15): good order, disordered, routed.
STATUSES: Final = ("good", "disordered", "routed")
# One level worse: a second disorder routs (caldiero §15.1, arrivano §15.1.1); routed stays routed.
STATUS_WORSE: Final = {"good": "disordered", "disordered": "routed", "routed": "routed"}
# One level better on a passed recovery test (caldiero §15.3.1, arrivano §15.3.1).
STATUS_BETTER: Final = {"routed": "disordered", "disordered": "good", "good": "good"}


class UnitState(msgspec.Struct, kw_only=True):
    """What changes about a unit, one struct for both games (its counter's values stay in the data). The fields
    after `moved_turn` are what only one book tracks; in the other game they keep their defaults. What a seat's
    view shows of a unit is its game's state's `unit_served`."""

    side: str
    formation: str  # caldiero: "reserve" for the French R units (caldiero §15.4.3)
    arm: str  # infantry | cavalry | artillery (copied from the order of battle for the fold's convenience)
    hex: str = ""  # its hex; "" off the map (an id that names no hex)
    # map | offmap (not yet entered) | track (eliminated, waiting on the turn track to return: caldiero §12.8 "nel
    # riquadro del turno", arrivano §12.8 "nella traccia dei turni") | eliminated ("permanentemente eliminate", both
    # §12.8) | waiting (arrivano: at its entry, §15.4) | exited (arrivano: left through a Campotenese retreat flag,
    # §17.2.1, interpretation neapolitan_retreat_flags)
    where: str = "offmap"
    status: str = "good"  # caldiero §15, arrivano §15: one of STATUSES
    reduced: bool = False  # flipped to its reduced side (caldiero §12.8, arrivano §12.8)
    art_moved: bool = False  # artillery on its Moved side (caldiero §11.0, arrivano §11)
    return_turn: int = 0  # eliminated, to return: the turn it comes back (caldiero §12.8, arrivano §12.8)
    attacked_turn: int = 0  # the last turn it attacked: once a turn (caldiero §12.2.3, arrivano §12.2.3)
    moved_turn: int = 0  # the last turn it moved (once an activation, caldiero §9.1; once a turn, arrivano §9)
    # The Charge marker it bears (caldiero §20.2, arrivano §14.2), as `units_moved.charge` placed it: None, none; the
    # hex it charges where the book's marker names one (arrivano §14.2); "" where it names none (caldiero §20.2). One
    # field for both games: Arrivano's state also kept the target in `charges` until the twenty-second session.
    charge: str | None = None
    # caldiero's own
    activated_turn: int = 0  # last turn it was activated (reserve units: once per turn, caldiero §15.4.3)
    attached: str | None = None  # reserve unit: the formation it joined this turn (caldiero §15.4.3)
    # out of command, the order it chose by its test (or in its chief's range) "per questo turno" (caldiero §5.3.1,
    # §4.3.1); "" none. Cleared when the turn ends
    turn_order: str = ""
    # arrivano's own
    damaged: bool = False  # redoubt battery on its Damaged side (arrivano §17.2.6)
    acted_turn: int = 0  # moved, attacked or fired: no recovery that turn (arrivano §15.3)
    fired_turn: int = 0  # fired in open order: no assault in the following combat sub-phase (arrivano §16.3.1)
    open_order: str = ""  # physical exhaustion marker: "" | V | F (arrivano §16.3.4)
    marker_turn: int = 0  # the turn its V (or F) was placed (arrivano §16.3.4: V removed after the next turn's combat)
    fatigue_defence_turn: int = 0  # failed its fatigue test: Defence for that turn (arrivano §16.3.4)

    @property
    def charging(self) -> bool:
        """It bears a Charge marker (`charge`): what Caldiero's view serves of it (`unit_served`)."""
        return self.charge is not None


class LeaderState(msgspec.Struct, kw_only=True):
    """What changes about a commander, one struct for both games, with his role and formation from the order of
    battle (both §4) for the fold's convenience. What a seat's view shows of him is its game's `leader_served`."""

    side: str
    role: str  # commander_in_chief | general | officer (arrivano §4.2; caldiero has no officers, D3)
    formation: str | None  # None: a commander in chief
    hex: str = ""  # its hex; "" off the map (an id that names no hex)
    where: str = "offmap"  # map | offmap | lost (captured or killed: caldiero §4.4, arrivano §4.5 "Perdita dei Comandanti")
    moved_turn: int = 0  # the turn he last moved himself (D42: caldiero §4.1.4, §4.2.1; arrivano §4.1.4, §4.3.1)
    activated: bool = False  # caldiero: flipped to his "A" side (caldiero §2.2.2)


class FormationState(msgspec.Struct, kw_only=True):
    """A formation's order and activation (caldiero §5, §3.1 B; arrivano §5, §3.1 B). Arrivano's formations always
    have a general and an order; Caldiero's order of battle has a formation without a general (`general` None),
    and a formation may have no order marker yet (`order` None)."""

    side: str
    general: str | None
    order: str | None = None  # advance | attack | defence | manoeuvre (caldiero §5.1, arrivano §5.1)
    activated: bool = False  # its general's counter on the A side (caldiero §3.1 B.6, arrivano §3.1 B-6)


class Activation(msgspec.Struct, kw_only=True):
    """The group activated now (caldiero §3.1 B, arrivano §3.1 B): a formation, or one of its independent columns
    (arrivano §16.2). One struct for both games (as the pieces are): what only one book keeps stays at its default
    in the other."""

    formation: str
    order_tried: bool = False  # its general tried to change its order: once an activation (caldiero §5.2.2, arrivano §5.2.1)
    # the units acting under an order of their own, not their formation's, for this activation: out of command and
    # given one (caldiero §5.3.1, §4.3.1; arrivano §3.1 B-4, and the reading dangling_4_3_2), arriving (§15.4.2)
    unit_orders: dict[str, str] = {}
    moved: list[str] = []  # the units that moved in this activation (caldiero §9.1, arrivano §9)
    # each unit that moved, the hex it began its first move from ("": it came onto the map, caldiero §15.4, arrivano
    # §15.4.1)
    starts: dict[str, str] = {}
    # each unit that moved, the hex its latest move left ("": it came onto the map): a unit's second move in one
    # activation (arrivano §16.3: an open-order unit moves, fires, falls back) does not begin where its first did
    left: dict[str, str] = {}
    # what caldiero keeps
    units: list[str] = []  # every unit acting in this activation (incl. joined reserve, reinforcements)
    out_of_command: list[str] = []  # caldiero §5.3: judged once, at the activation
    ooc_tested: list[str] = []  # out-of-command units that already tried (caldiero §5.3.1)
    start_hex: dict[str, str] = {}  # every unit on the map at the activation, its hex then
    start_dist: dict[str, int] = {}  # its distance to the nearest enemy then (caldiero §5.1.1)
    fired: list[str] = []  # artillery that bombarded in this activation (caldiero §11.4, arrivano §11.4)
    attacked_hexes: list[str] = []  # enemy hexes attacked this combat segment (caldiero §12.2.3)
    attackers: list[str] = []  # units that attacked this segment
    stayed: list[str] = []  # units in a village/fortress that chose to stay (caldiero §10.1, §10.5.2)
    # what arrivano keeps
    column: str | None = None  # the independent column activated (arrivano §16.2), None: the formation
    officer_tries: list[str] = []  # officers who tried the B-4 order change (arrivano §3.1 B-4)
    ezoc_tests: list[str] = []


class SystemState(msgspec.Struct, kw_only=True, dict=True):
    """A position of either game: what both books track alike, with one set of pieces (UnitState, LeaderState,
    FormationState, Activation). Each game's state extends it with its own fields.

    What a game's view adds is its state's to say (`view` below asks): the fields of a unit and of a commander it
    serves (`unit_served`, `leader_served`; `unit_kept` from the enemy under fog), `unseen_off_map`, where an enemy
    unit off the map stays unknown to a seat under fog of war, and `served_own`, the game's own keys of a seat's view.
    Its instance dict (never encoded, copied nor compared) holds the read model kept on this very object
    (parabellum/act.carried_world)."""

    unit_served: ClassVar[tuple[str, ...]] = ("side", "formation", "arm", "hex", "where", "status", "reduced", "art_moved")
    unit_kept: ClassVar[tuple[str, ...]] = ()  # of those, what the fog keeps from the enemy (a game's own)
    leader_served: ClassVar[tuple[str, ...]] = ("side", "hex", "where")
    unseen_off_map: ClassVar[tuple[str, ...]] = ()

    scenario: str = ""
    options: list[str] = []  # the optional rules in play
    turn: int = 1
    last_turn: int = 1
    phase: str = "action"
    step: str = ""
    seat: str = ""  # the seat the current step waits for
    weather: int = 0  # the weather box (caldiero §17: 0..3; arrivano §17.2.7: 0 none, 1..3 Campotenese's)
    initiative: str = ""  # the seat that won the last initiative roll (both §6)
    first_turn: bool = True  # both §3.2
    formations: dict[str, FormationState] = {}
    units: dict[str, UnitState] = {}
    leaders: dict[str, LeaderState] = {}
    activation: Activation | None = None
    seen: dict[str, list[str]] = {}  # fog of war: the enemy pieces each seat has examined (caldiero §20.4, arrivano §11.3.2)
    interpretations: dict[str, str] = {}  # the umpire's readings in force (kept by the ruleset's note_interpretations)
    result: pb.GameEnded | None = None  # the game's end as recorded
    # a user's own data folder the game is played on (path in the folder -> text; `arbitro new ... --data DIR`), {}
    # for the shipped data: every rule reads it (ParaBellumRuleset.data_of); never served in a view
    data_files: dict[str, str] = {}

    def fold_own(self, event: Any) -> None:
        """Fold what this game keeps of an event beside what the system folds (`apply` folds that first)."""

    def served_own(self, seat: str, fogged: bool) -> dict[str, Any]:
        """What this game's state adds to `seat`'s view (`fogged`: the seat is under fog of war); a key the system's
        view already has is served as given here instead."""
        return {}

    # What each game's state records its own way, asked by the kernel's World (adjudicator/parabellum/world.py).
    def chief_changes_made(self, side: str) -> int:  # the changes counted against `side`'s chief (D5: none, caldiero)
        return 0

    def hexes_attacked(self) -> list[str]:
        """The hexes attacked in this combat segment (both §12.2.3), as the activation records them (caldiero)."""
        return self.activation.attacked_hexes if self.activation is not None else []

    def charging(self, unit: str) -> bool:  # it bears a Charge marker (caldiero §20.2, arrivano §14.2)
        return self.units[unit].charging

    def charge_target(self, unit: str) -> str | None:  # the hex it charges, where its marker names one (arrivano §14.2)
        return self.units[unit].charge or None


S = TypeVar("S", bound=SystemState)


def apply(state: S, event: Any) -> S:
    """Fold one event of either game (total, unchecked): the part of a shared event both games fold alike, then
    what the game's state keeps of it (`SystemState.fold_own`)."""
    _fold_shared(state, event)
    state.fold_own(event)
    return state


def _fold_shared(state: SystemState, event: object) -> None:
    match event:
        case pb.WeatherChanged(box=box):
            state.weather = box
        case pb.InitiativeWon(seat=seat):
            state.initiative = seat
        case pb.LeaderPlaced(leader=leader, hex=h):
            state.leaders[leader].hex, state.leaders[leader].where = h, "map"
        case pb.LeaderMoved(leader=leader, path=path, own=own):  # on the map, if he entered with it (both §15.4)
            state.leaders[leader].hex, state.leaders[leader].where = path[-1], "map"
            if own:  # carried, fleeing or taking refuge is no move of his (D42)
                state.leaders[leader].moved_turn = state.turn
        case pb.UnitRetreated(unit=unit, path=path):
            state.units[unit].hex = path[-1]
        case pb.UnitsAdvanced(units=units, leaders=leaders, to=to):
            for unit in units:
                state.units[unit].hex = to
            for leader in leaders:  # a commander going with his units (§12.7.3 in both): carried, not his move (D42)
                state.leaders[leader].hex = to
        case pb.AssaultDeclared(attackers=attackers):
            for unit in attackers:
                state.units[unit].attacked_turn = state.turn  # once a turn (caldiero §12.2.3, arrivano §12.2.3)
        case pb.UnitsMoved(units=units, path=path, charge=charge):
            _moved(state, units, path)
            for unit in units if charge is not None else ():
                state.units[unit].charge = charge  # a Charge marker (caldiero §20.2, arrivano §14.2)
        case pb.ArtilleryFired(artillery=artillery, defensive=False) if state.activation is not None:
            state.activation.fired.extend(artillery)  # once an activation (caldiero §11.4, arrivano §11.4)
        case pb.UnitPlaced(unit=unit, hex=h, reduced=reduced):
            placed = state.units[unit]
            placed.hex, placed.where, placed.reduced = h, "map", placed.reduced or reduced
        case pb.UnitOrderSet(unit=unit, order=order) if state.activation is not None:
            state.activation.unit_orders[unit] = order
        case pb.TurnBegan(turn=turn):
            state.turn, state.first_turn = turn, False
            _new_turn(state)
        case pb.StepBegan(phase=phase, step=step, seat=seat):
            state.phase, state.step, state.seat = phase, step, seat
        case pb.StatusChanged(unit=unit, status=status) if status in STATUSES:
            state.units[unit].status = status  # (Arrivano's "damaged" battery is its own fold's)
        case pb.ChargeEnded(unit=unit):
            state.units[unit].charge = None  # the charge's end (caldiero §20.2.3, arrivano §14.2.2)
        case pb.UnitEliminated(unit=unit, permanent=permanent, return_turn=return_turn):
            _eliminated(state.units[unit], permanent, return_turn)
        case pb.LeaderLost(leader=leader):
            state.leaders[leader].where = "lost"
        case pb.FormationActivated(formation=formation, column=column, out_of_command=out_of_command):
            state.activation = Activation(formation=formation, column=column, out_of_command=sorted(out_of_command))
            if column is None:  # its general's counter turned to its A side (caldiero §3.1 B, arrivano §3.1 B)
                state.formations[formation].activated = True
        case pb.ActivationEnded():
            state.activation = None
            for unit in state.units.values():
                unit.charge = None  # the Charge markers go with the activation (caldiero §20.2, arrivano §14.2)
        case pb.OrderChanged(formation=formation, order=order, column=None):
            state.formations[formation].order = order
        case pb.OrderChangeTried() if state.activation is not None:
            state.activation.order_tried = True  # once an activation (caldiero §5.2.2, arrivano §5.2.1)
        case pb.PiecesSighted(seat=seat, pieces=pieces):
            state.seen[seat] = sorted(set(state.seen.get(seat, [])) | set(pieces))
        case pb.GameEnded():
            state.phase, state.step, state.seat = "over", "over", ""
            state.result = event  # the result as recorded (caldiero §18, arrivano §17.1.8, §17.2.12)


def view(state: SystemState, seat: str, examinable: Callable[[str], bool] | None) -> dict[str, Any]:
    """A position as `seat` may know it, written once for both games' fog of war (caldiero §20.4 with its optional
    rule, arrivano §11.3.2): every own piece; an enemy unit in a hex the seat may not examine (`examinable` false)
    only as a stack marker with its side (`hidden_stacks`), an enemy commander there not at all; enemy pieces off
    the map where the state's `unseen_off_map` says (not yet seen arriving) not at all, commanders as units (a
    Caldiero commander to come served "offmap" told the enemy the turn he entered out of its sight). `examinable` None: the
    seat is under no fog of war, nothing hidden. Each piece shows the fields its game's state serves, and the game's
    state adds its own keys (`SystemState.served_own`)."""
    fogged = examinable is not None
    units: dict[str, Any] = {}
    stacks: dict[str, str] = {}
    enemy_served = tuple(name for name in state.unit_served if name not in state.unit_kept)
    for uid in sorted(state.units):
        unit = state.units[uid]
        if unit.side != seat and examinable is not None:
            if unit.where == "map" and not examinable(unit.hex):
                stacks[unit.hex] = unit.side
                continue
            if unit.where in state.unseen_off_map:
                continue
        enemy = fogged and unit.side != seat
        units[uid] = _served_piece(unit, enemy_served if enemy else state.unit_served, enemy)
    leaders: dict[str, Any] = {}
    for lid in sorted(state.leaders):
        leader = state.leaders[lid]
        if leader.side != seat and examinable is not None and (
                leader.where == "map" and not examinable(leader.hex) or leader.where in state.unseen_off_map):
            continue  # as a unit: an enemy commander still to come is unseen, or his entry would show (nifuzz)
        leaders[lid] = _served_piece(leader, state.leader_served, fogged and leader.side != seat)
    act = state.activation  # the enemy's, under the fog, only as which formation (its units acting, out of command...)
    enemy_act = act if act is not None and fogged and state.formations[act.formation].side != seat else None
    return {
        "scenario": state.scenario, "options": list(state.options), "turn": state.turn, "last_turn": state.last_turn,
        "phase": state.phase, "step": state.step, "seat": state.seat, "weather": state.weather,
        "initiative": state.initiative, "first_turn": state.first_turn,
        "formations": {f: msgspec.to_builtins(s) for f, s in sorted(state.formations.items())},
        "units": units, "hidden_stacks": dict(sorted(stacks.items())), "leaders": leaders,
        "activation": {"formation": enemy_act.formation} if enemy_act else msgspec.to_builtins(act),
        "result": msgspec.to_builtins(state.result),
    } | state.served_own(seat, fogged)


# What the turn track shows of an enemy piece lost under the fog, in a seat's view (as `served_loss` serves the event,
# docs/rulesets/parabellum.md "Losses under the fog"): which piece, whose, whether it is gone for good or the turn it
# comes back in (both §12.8), never how it stood when it went (its reduced side, a step lost out of sight, telling why
# it went for good; its status, markers, the turn it last moved or attacked) nor where it fell (its hex served "").
TRACK_SHOWN: Final = frozenset({"side", "formation", "arm", "role", "hex", "where", "return_turn"})
LOST: Final = frozenset({"track", "eliminated", "lost", "exited"})  # `where` once gone (§12.8, §4; arrivano §17.2.1)


def _served_piece(piece: UnitState | LeaderState, served: tuple[str, ...], enemy_under_fog: bool) -> dict[str, Any]:
    """A piece's fields as a seat's view shows them (`served`, its game's): an enemy piece lost, under the fog, only
    what the turn track shows (`TRACK_SHOWN`), and no enemy piece off the map where it stood."""
    if enemy_under_fog and piece.where in LOST:
        served = tuple(name for name in served if name in TRACK_SHOWN)
    fields = {name: getattr(piece, name) for name in served}
    if enemy_under_fog and piece.where != "map" and "hex" in fields:
        fields["hex"] = ""  # lost, it stands on the turn track: not where it fell (`served_loss`)
    return fields


def others_sighting(event: object, seat: str) -> bool:
    """A sighting another seat made (fog of war, caldiero §20.4, arrivano §11.3.2): what a seat has examined is its
    own knowledge, never served to the enemy, whose units it names (it would tell where the seat looks from)."""
    return isinstance(event, pb.PiecesSighted) and event.seat != seat


# Fog of war: the events that carry a route (a path of hexes entered, `route_start` the hex left), and of each the
# fields that tell of the whole route, each with the value served in its place to a seat that may not examine all of
# it (None: left out): what it cost (caldiero §9.1), whether it was walked in march column, on roads only (§9.3 in
# both), a charge's target, through charge terrain (arrivano §14.2), and the rule cited (a move's served as the
# movement's; a retreat's as its type's, §12.6: its own tells what forced it and that it went on past a full hex out
# of sight, §12.6.2).
MOVEMENT_RULE: Final = object()  # the place of the game's movement rule (caldiero §9, arrivano §9) in ROUTE_FIELDS
TYPE_RULE: Final = object()  # the place of the rule the event's type cites (its stub's, ParaBellumRuleset.stub)
ROUTE_FIELDS: Final[dict[type, dict[str, object]]] = {
    pb.UnitsMoved: {"cost_half": None, "column": None, "charge": None, "rule": MOVEMENT_RULE},
    pb.LeaderMoved: {}, pb.UnitRetreated: {"rule": TYPE_RULE},
}


def served_move(state: SystemState, event: object, data: dict[str, Any], seat: str,
                unexaminable: Callable[[Iterable[str]], frozenset[str]], stub: dict[str, Any],
                movement_rule: str) -> dict[str, Any]:
    """An event as `seat` under fog of war is served it, once its pieces may be named (caldiero §20.4, arrivano
    §11.3.2): an enemy piece's move, retreat or commander's move as `served_route` serves it, from the hexes among
    its route the seat may not examine (`unexaminable`), the hex the move left (`route_start`) included; anything
    else, or the seat's own piece's, as it is. The same code path for both games: `stub` is what the game serves of
    a route wholly out of sight (ParaBellumRuleset.stub), `movement_rule` its movement's citation."""
    if type(event) not in ROUTE_FIELDS or _mover_side(state, event) == seat:
        return data
    whole = route_fields(type(event), movement_rule, stub["rule"])
    start = route_start(state, event)
    return served_route(data, unexaminable((start, *data["path"]) if start else data["path"]), stub, whole, start)


def route_fields(kind: type, movement_rule: str, type_rule: str = "") -> dict[str, object]:
    """Of an event carrying a route, the fields that tell of the whole route with the value served in their place
    (`ROUTE_FIELDS`), the movement rule cited being the game's `movement_rule`, the rule its type cites `type_rule`
    (its stub's)."""
    places = {MOVEMENT_RULE: movement_rule, TYPE_RULE: type_rule}
    return {name: places.get(instead, instead) for name, instead in ROUTE_FIELDS[kind].items()}


def _mover_side(state: SystemState, event: object) -> str:
    if isinstance(event, pb.LeaderMoved):
        return state.leaders[event.leader].side
    unit = event.units[0] if isinstance(event, pb.UnitsMoved) else event.unit  # type: ignore[attr-defined]
    return state.units[unit].side


def served_route(data: dict[str, Any], unseen: frozenset[str], stub: dict[str, Any],
                 whole_route: Mapping[str, object] | None = None, start: str = "") -> dict[str, Any]:
    """A move or retreat of an enemy piece as a seat under fog of war is served it, written once for both games
    (caldiero §20.4, arrivano §11.3.2): of its path only the hexes the seat may examine (`unseen`: those it may not),
    in order, so a piece seen arriving is not served where it came from. A path wholly out of sight is served as
    `stub` (the game's hidden event: its type, the rule its type cites, the fog marker; never the event's own rule,
    which can tell how it moved: a rout's §15.2.2, a march column's §9.3, a failed test's §5.1.3): naming the piece
    would tell that it moved, and which one, where "si può esaminare uno stack nemico solo se si ha una LoS" (both
    books) lets the seat see at most a stack marker move.

    `whole_route`: the event's fields that tell of the whole route (its cost, the march column or charge it was
    walked as), each with the value served in their place (None: left out), as the game names them; `start`: the
    hex the piece left when the path does not hold it ("": the path holds it, or the piece entered from off the
    map). Unless the seat may examine every hex of the route, its start included, those fields are served in
    their place, as they would tell of the part it may not examine."""
    path = served_path(data["path"], unseen)
    if not path and (data["path"] or not start or start in unseen):  # a move spent in place is seen where it stood
        return dict(stub)
    served = {**data, "path": path}
    if len(path) < len(data["path"]) or start in unseen:
        for name, instead in (whole_route or {}).items():
            served.pop(name, None)
            if instead is not None:
                served[name] = instead
    return served


# What the turn track shows of a loss (caldiero §12.8 "messa nel riquadro del turno di gioco successivo", arrivano
# §12.8 "messa nella traccia dei turni di gioco"; docs/rulesets/parabellum.md, "Losses under the fog"): the piece, and
# of a unit whether it is gone for good or the turn it comes back in; never why, nor where it fell.
TRACK_FIELDS: Final[dict[type, tuple[str, ...]]] = {pb.UnitEliminated: ("unit", "permanent", "return_turn"),
                                                    pb.LeaderLost: ("leader",)}


def served_loss(state: SystemState, event: object, data: dict[str, Any], seat: str, stub: dict[str, Any]) -> dict[str, Any]:
    """A loss of an enemy piece as `seat` under fog of war is served it: as the track shows it (`TRACK_FIELDS`, the
    rule its type cites, `stub`'s), wherever it fell, so its own rule and `cause` (a rout, §15.2.1; no retreat,
    §12.6.3; guns alone, §11.1.1) tell nothing the seat could not see. One shape whether the seat saw it fall or
    not: what it saw it was served by the events around it, and where it fell is not kept by every game's state
    (Caldiero's forgets the hex) to judge by. Anything else as it is."""
    shown = TRACK_FIELDS.get(type(event))
    if shown is None:
        return data
    piece = state.units[event.unit] if isinstance(event, pb.UnitEliminated) else state.leaders[event.leader]  # type: ignore[attr-defined]
    if piece.side == seat:
        return data
    return {"type": stub["type"], "rule": stub["rule"], **{name: data[name] for name in shown}}


# What the fog keeps of the enemy's activation (caldiero §20.4 with §4.3, §5.3, §15.4.3; arrivano §11.3.2): which of
# its units are out of command, and which reserve units join it, are told by where its commanders stand (each in his
# command range of a unit or not), which is that side's to know (parabellum/command.out_of_command_notices): the
# fields are left out of what the enemy is served, whatever it sees (rev-l L8).
COMMAND_FIELDS: Final[dict[type, tuple[str, ...]]] = {pb.FormationActivated: ("out_of_command", "reserve_joined")}


def served_command(state: SystemState, event: object, data: dict[str, Any], seat: str) -> dict[str, Any]:
    """An event as `seat` under fog of war is served it: the enemy's activation without what tells where its
    commanders stand (`COMMAND_FIELDS`); anything else, or the seat's own formation's activation, as it is."""
    kept = COMMAND_FIELDS.get(type(event))
    if kept is None or state.formations[data["formation"]].side == seat:
        return data
    return {name: value for name, value in data.items() if name not in kept}


def served_path(path: Iterable[str], unseen: frozenset[str]) -> list[str]:
    """Of a piece's path, the hexes a seat may examine (`unseen`: those it may not), in the order walked."""
    return [h for h in path if h not in unseen]


def _moved(state: SystemState, units: Iterable[str], path: tuple[str, ...]) -> None:
    """Units that moved (caldiero §9, arrivano §9): where each began its first move of the activation (`starts`, ""
    for one that came onto the map: caldiero §15.4, arrivano §15.4.1) and that it moved in it (a unit moves once an
    activation, caldiero §9.1; once a turn, arrivano §9), the turn it moved, and the hex it stands in (none entered:
    its move was spent where it stood), and the hex its latest move left (`left`)."""
    act = state.activation
    for uid in units:
        unit = state.units[uid]
        if act is not None:
            act.left[uid] = unit.hex if unit.where == "map" else ""
            act.starts.setdefault(uid, act.left[uid])
            if uid not in act.moved:
                act.moved.append(uid)
        unit.moved_turn = state.turn
        if path:
            unit.hex, unit.where = path[-1], "map"


def route_start(state: SystemState, event: object) -> str:
    """The hex a move left, which its path does not hold (fog of war, `served_route`; `state` is the one after the
    move): where its first unit began this move (`left`), not where its first move of the activation began, as an
    open-order unit moves, fires and falls back in one activation (arrivano §16.3); "" for a unit that came onto the
    map, and for the events whose served fields tell nothing more of the route than its path."""
    act = state.activation
    if not isinstance(event, pb.UnitsMoved) or act is None:
        return ""
    return act.left.get(event.units[0], "")


def _new_turn(state: SystemState) -> None:
    """What a turn's beginning clears (caldiero §3.1 C with §3.1 A, arrivano §3.1 A): every formation and general to
    be activated again, and what held for the turn only: a reserve unit's formation (caldiero §15.4.3), the order an
    out-of-command unit chose "per questo turno" (caldiero §5.3.1)."""
    for piece in (*state.formations.values(), *state.leaders.values()):
        piece.activated = False
    for unit in state.units.values():
        unit.attached, unit.turn_order = None, ""


def _eliminated(unit: UnitState, permanent: bool, return_turn: int) -> None:
    """Off the map in good order; one that returns comes back on its reduced side (caldiero §12.8, arrivano
    §12.8), on the turn track meanwhile."""
    unit.where = "eliminated" if permanent else "track"
    unit.status, unit.charge = "good", None
    unit.return_turn = 0 if permanent else return_turn
    if not permanent:
        unit.reduced = True
