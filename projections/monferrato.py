"""La Seconda Guerra del Monferrato: the state (= the position format), its fold, per-seat views, redaction, secrets.

Hidden information (monferrato §2.2, §4, §5): each player's hand of chits and the chit cup's contents. A seat is
served its own hand, the number of chits in the other hand and in the cup, the discards and the chits removed
from the game; never which chits the other hand or the cup hold (the chits the scenario deals openly, chit 5 to
Pro-France, are public until played). The discards are public by default (the book lays face down only what it
says is "coperti" or in the "contenitore opaco"; "la pila degli scarti" is neither); an umpire's ruling
(`discard_pile: face_down`) lays them face down: each seat is then served the pile's size, and neither the chit
the other seat discards at five nor the blue chits the cup sheds at March 1629 (§16.4). Units, command markers,
forts, walls and mines are public.
Terrain and counter values stay in the data files (adjudicator/monferrato/data/); the state holds what changes.
"""

from __future__ import annotations

from typing import Any

import msgspec

from arbitro.events import monferrato as ev
from arbitro.projections.base import UMPIRE, Outcome, RulesetProjection

SEATS = ("pro_france", "pro_spain")
CUP = "cup"  # who laid the blue chits the cup sheds at March 1629 face down (monferrato §16.4): no seat
# the umpire's ruling that lays the discards face down (adjudicator/monferrato/readings.py, `discard_pile`)
DISCARD_PILE, FACE_DOWN = "discard_pile", "face_down"
POOL = "pool"  # a unit not yet on the map (a reinforcement group's)
ELIMINATED = "eliminated"


def other(seat: str) -> str:
    return "pro_spain" if seat == "pro_france" else "pro_france"


class Unit(msgspec.Struct, kw_only=True):
    zone: str = POOL  # a zone id, "pool" or "eliminated"
    disorganised: bool = False  # monferrato §7.4.1
    activated: bool = False  # called in support this turn (monferrato §7.1)
    acted: bool = False  # took its one action in the activation under way (monferrato §5.3)
    unsupplied: bool = False  # the "Fuori Rifornimento" marker (monferrato §13.1)
    moved: bool = False  # a camp turned to its "Mosso" side (monferrato §14.5)
    replaced: bool = False  # a commander turned to his replacement (monferrato §7.4.1)
    raiding: bool = False  # raided in this activation without a six: may go on moving and raiding (monferrato §11)
    spent: int = 0  # the movement points a raiding unit has spent in this activation


class Activation(msgspec.Struct, kw_only=True):
    """The command marker drawn and what its player has done with it (monferrato §5)."""

    command: str
    seat: str
    zones: list[str] = []  # the zones activated (monferrato §5 1 and 3)
    commander: str = ""  # whose leadership activated several zones (§5 3)
    chits: int = 0  # chits played in this activation (§5.1)
    drew: bool = False  # the player drew a chit instead (§5 2): nothing else this activation
    acted: bool = False  # a unit has acted or a chit was played: drawing is no longer possible
    forts: list[str] = []  # zones where this command built or destroyed a fort (monferrato §10: one a zone)


class MonferratoState(msgspec.Struct, kw_only=True):
    """The whole position (monferrato §4-§17). See docs/rulesets/monferrato.md, "Position format"."""

    turn: int = 0  # index into the scenario's timeline
    last_turn: int = 0  # the "Fine Giuoco" marker (chits may move it, monferrato §4)
    phase: str = "setup"  # setup, play, over
    cup: list[str] = []  # command markers still in the cup this turn (public)
    activated_commands: list[str] = []  # the "Comandi Attivati" box
    activation: Activation | None = None
    units: dict[str, Unit] = {}
    hands: dict[str, list[str]] = {}  # hidden: each seat sees its own
    chit_cup: list[str] = []  # hidden from both seats
    discards: list[str] = []
    # the discards laid face down under the ruling `discard_pile: face_down`, by who laid them ("cup": the blue chits
    # the cup sheds at March 1629, §16.4): each is hidden from all but who laid it; a played chit is never here
    laid_face_down: dict[str, list[str]] = {}
    removed: list[str] = []  # RSU chits played (monferrato §16.4)
    red_aside: list[str] = []  # the red chits set aside until March 1629 (monferrato §4, §16.4)
    public_in_hand: list[str] = []  # chits known to all to be in a hand (the scenario's opening chits)
    morale: dict[str, int] = {}  # per army (nation), 1..9 (monferrato §15)
    vp: dict[str, int] = {}
    walls: dict[str, int] = {}  # "fortress/toward" -> current level (monferrato §8.1)
    mines: dict[str, int] = {}  # "fortress/toward" -> mines on that side (monferrato §9.1)
    mine_owner: dict[str, str] = {}  # "fortress/toward" -> the seat whose sappers laid them
    fresh_mines: dict[str, int] = {}  # laid in the activation under way: not to be fired in it (§9.1)
    forts: dict[str, list[str]] = {}  # zone -> the owners of its forts (monferrato §10)
    fort_counters: dict[str, int] = {}  # forts each seat may still place (scenario, special rule 6)
    raided: list[str] = []  # zones raided this year (monferrato §11)
    towns_destroyed: list[str] = []  # monferrato §9.4
    scheduled: dict[str, int] = {}  # reinforcement group -> its placement turn (monferrato §16.3)
    arrived: list[str] = []  # groups on the map
    prudence: list[str] = []  # the prudence rules already scored (scenario, special rules 2-3)
    winner: str = ""
    result: str = ""
    interpretations: dict[str, str] = {}
    chosen_fire: dict[str, int] = {}  # "a scelta: 3 o 4" counters' values chosen at the set-up (reading scelta_3_o_4)
    data_files: dict[str, str] = {}  # a user's data folder the game is played with (name -> text); {}: the shipped


# --- the fold ----------------------------------------------------------------------------------
def _remove(items: list[str], value: str) -> None:
    if value in items:
        items.remove(value)


def apply_event(s: MonferratoState, e: Any) -> MonferratoState:  # noqa: C901 - one case per event
    match e:
        case ev.SetUp():
            for u in e.units:
                s.units[u].zone = e.zone
        case ev.ValueChosen():
            s.chosen_fire[e.unit] = e.fire
        case ev.ChitsDealt():
            s.hands.setdefault(e.seat, []).extend(e.chits)
            for c in e.chits:
                _remove(s.chit_cup, c)
            s.public_in_hand.extend(e.public)
        case ev.CommandDrawn():
            _remove(s.cup, e.command)
            s.activation = Activation(command=e.command, seat=e.seat)
            s.phase = "play"
        case ev.SupplyChecked():
            for u in e.out:
                s.units[u].unsupplied = True
            for u in e.back:
                s.units[u].unsupplied = False
        case ev.ZonesActivated():
            if s.activation is not None:
                s.activation.zones, s.activation.commander = list(e.zones), e.commander
        case ev.ChitDrawn():
            _remove(s.chit_cup, e.chit)
            s.hands.setdefault(e.seat, []).append(e.chit)
            if s.activation is not None:
                s.activation.drew = True
        case ev.ChitDiscarded():
            _remove(s.hands[e.seat], e.chit)
            _remove(s.public_in_hand, e.chit)
            s.discards.append(e.chit)
            if face_down(s):
                s.laid_face_down.setdefault(e.seat, []).append(e.chit)
        case ev.ChitPlayed():
            _remove(s.hands[e.seat], e.chit)
            _remove(s.public_in_hand, e.chit)
            (s.removed if e.removed else s.discards).append(e.chit)
            if s.activation is not None and s.activation.seat == e.seat:
                s.activation.chits += 1
                s.activation.acted = True
        case ev.ChitsRecycled():
            for c in e.to_discards:
                _remove(s.chit_cup, c)
                s.discards.append(c)
            if e.to_discards and face_down(s):
                s.laid_face_down.setdefault(CUP, []).extend(e.to_discards)
            for c in e.to_cup:
                _remove(s.discards, c)
                _remove(s.red_aside, c)
                s.chit_cup.append(c)
            _picked_up(s, e.to_cup)
            s.chit_cup.sort()
        case ev.MoraleChanged():
            s.morale[e.nation] = e.value
        case ev.VictoryPoints():
            s.vp[e.seat] = s.vp.get(e.seat, 0) + e.delta
            if e.prudence:
                s.prudence.append(e.prudence)
        case ev.UnitsMoved():
            for u in e.units:
                s.units[u].zone, s.units[u].acted, s.units[u].moved = e.path[-1], True, True
                s.units[u].raiding = False
            for item in e.left:
                unit, _, zone = item.partition("@")
                s.units[unit].zone = zone
            _acted(s)
        case ev.UnitsActed():
            for u in e.units:
                s.units[u].acted = True
            _acted(s)
        case ev.Recovered():
            for u in e.units:
                s.units[u].disorganised, s.units[u].acted = False, True
            _acted(s)
        case ev.Disorganised():
            for u in e.units:
                s.units[u].disorganised = True
        case ev.Eliminated():
            for u in e.units:
                s.units[u].zone, s.units[u].raiding = ELIMINATED, False  # an eliminated raider goes on no more
        case ev.CommanderPlaced():
            s.units[e.unit].zone = e.zone
        case ev.CommanderReplaced():
            s.units[e.unit].replaced, s.units[e.unit].zone = True, e.zone
        case ev.ActivationEnded():
            s.activated_commands.append(e.command)
            for u in s.units.values():
                u.acted = u.raiding = False
                u.spent = 0
            s.activation, s.fresh_mines = None, {}
        case ev.StackingChecked():
            for u in e.units:
                s.units[u].disorganised = True
        case ev.TurnBegan():
            s.turn, s.cup, s.activated_commands = e.turn, list(e.cup), []
            for u in s.units.values():
                u.activated = u.moved = False
            if e.raids_cleared:
                s.raided = []
        case ev.CampFlipped():
            for u in e.units:
                s.units[u].moved = False
        case ev.GroupScheduled():
            s.scheduled[e.group] = e.turn
        case ev.GroupArrived():
            s.scheduled.pop(e.group, None)
            s.arrived.append(e.group)
            for u in e.units:
                s.units[u].zone = e.zone
        case ev.UnitsCalled():
            for u in e.units:
                s.units[u].zone, s.units[u].activated = e.path[-1] if e.path else s.units[u].zone, True
        case ev.HitsTaken():
            if e.result == "eliminated":
                s.units[e.unit].zone = ELIMINATED
            else:
                s.units[e.unit].disorganised = True
        case ev.Retreated():
            for u in e.units:
                s.units[u].zone = e.to
        case ev.FortsChanged():
            if s.activation is not None and e.by_sapper:
                s.activation.forts.append(e.zone)
            if e.owners:
                s.forts[e.zone] = list(e.owners)
            else:
                s.forts.pop(e.zone, None)
        case ev.Replaced():
            s.units[e.unit].zone, s.units[e.unit].disorganised = e.zone, False
            s.units[e.unit].unsupplied = s.units[e.unit].moved = False
        case ev.FortsTaken():
            kept = [o for o in s.forts.get(e.zone, []) if o == e.seat] + [e.seat] * e.converted
            if kept:
                s.forts[e.zone] = kept
            else:
                s.forts.pop(e.zone, None)
            s.fort_counters[e.seat] = s.fort_counters.get(e.seat, 0) - e.converted
            if e.town_destroyed:
                s.towns_destroyed.append(e.zone)
        case ev.Raided():
            if e.result == "success":
                s.raided.append(e.zone)
            for u, spent in zip(e.units, e.spent):
                s.units[u].raiding, s.units[u].spent, s.units[u].acted = e.goes_on, spent, True
            _acted(s)
        case ev.BattleBegan():
            for u in e.attackers:  # a battle ends the raid (monferrato §11)
                s.units[u].raiding = False
        case ev.WallBattered():
            s.walls[e.side] = e.level
        case ev.MinesChanged():
            if e.mines:
                s.mines[e.side], s.mine_owner[e.side] = e.mines, e.owner
            else:
                s.mines.pop(e.side, None)
                s.mine_owner.pop(e.side, None)
            if e.fresh:
                s.fresh_mines[e.side] = s.fresh_mines.get(e.side, 0) + e.fresh
        case ev.FortBuilt():
            s.forts.setdefault(e.zone, []).append(e.seat)
            s.fort_counters[e.seat] = s.fort_counters.get(e.seat, 0) - 1
            if s.activation is not None:
                s.activation.forts.append(e.zone)
        case ev.EndMoved():
            s.last_turn = e.last_turn
        case ev.GameEnded():
            s.phase, s.winner, s.activation = "over", e.winner, None
            s.result = f"victory points {e.vp}"
    return s


def _picked_up(s: MonferratoState, chits: tuple[str, ...]) -> None:
    """The chits back in the cup (§5.1) are the cup's secret now, no longer a face-down discard."""
    for who in list(s.laid_face_down):
        s.laid_face_down[who] = [c for c in s.laid_face_down[who] if c not in chits]
        if not s.laid_face_down[who]:
            del s.laid_face_down[who]


def _acted(s: MonferratoState) -> None:
    if s.activation is not None:
        s.activation.acted = True


# --- views ---------------------------------------------------------------------------------------
PUBLIC_FIELDS = ("turn", "last_turn", "phase", "cup", "activated_commands", "discards", "removed", "morale", "vp",
                 "walls", "mines", "mine_owner", "fresh_mines", "forts", "fort_counters", "raided", "towns_destroyed", "scheduled", "arrived",
                 "prudence", "winner", "result", "public_in_hand", "chosen_fire")


def face_down(s: MonferratoState) -> bool:
    """Whether the umpire has ruled the discards face down (reading `discard_pile`; public by default)."""
    return s.interpretations.get(DISCARD_PILE) == FACE_DOWN


def view(s: MonferratoState, seat: str) -> dict[str, Any]:
    """Built from an allow-list: the public fields, the units (all public), the seat's own hand, and only the sizes
    of the other hand and of the chit cup (and of the discards, where they lie face down)."""
    if seat == UMPIRE:
        return msgspec.to_builtins(s)  # type: ignore[no-any-return]
    out = {name: msgspec.to_builtins(getattr(s, name)) for name in PUBLIC_FIELDS}
    if face_down(s):  # a seat remembers what was played and what it discarded: the pile shows its thickness alone
        del out["discards"]
        out["discards_size"] = len(s.discards)
    out["units"] = msgspec.to_builtins(s.units)
    out["activation"] = msgspec.to_builtins(s.activation)
    out["hand"] = list(s.hands.get(seat, []))
    out["hand_sizes"] = {k: len(v) for k, v in sorted(s.hands.items())}
    out["chit_cup_size"] = len(s.chit_cup)
    out["red_aside_size"] = len(s.red_aside)
    return out


def secrets(s: MonferratoState, seat: str) -> set[str]:
    """The chits in the other hand (but those dealt openly), in the cup, and, under `discard_pile: face_down`, those
    laid face down by the other seat or shed by the cup (§5 2, §16.4): no string served to `seat` names one."""
    if seat == UMPIRE:
        return set()
    hidden = {c for c in s.hands.get(other(seat), []) if c not in s.public_in_hand}
    unseen = {c for who, chits in s.laid_face_down.items() if who != seat for c in chits} if face_down(s) else set()
    return hidden | set(s.chit_cup) | unseen


def redact(e: Any, seat: str, pile_face_down: bool = False) -> dict[str, Any] | None:
    """`e` as `seat` is served it; `pile_face_down` (the umpire's ruling `discard_pile`): the chit the other seat
    discards at five, and the cup's chits shed to the discards (§16.4), as a played chit is not: it shows."""
    data: dict[str, Any] = msgspec.to_builtins(e)
    if seat == UMPIRE:
        return data
    if (isinstance(e, ev.ChitDrawn) or (isinstance(e, ev.ChitDiscarded) and pile_face_down)) and e.seat != seat:
        data["chit"] = ""
    if isinstance(e, ev.ChitsDealt) and e.seat != seat:
        data["chits"] = list(e.public)
    if isinstance(e, ev.ChitsRecycled):  # what goes into the cup is no one's to see once it is there
        data["to_cup"] = len(e.to_cup)
        if pile_face_down:  # nor what leaves it face down (monferrato §16.4, the blue chits left in it)
            data["to_discards"] = len(e.to_discards)
    return data


class MonferratoProjection(RulesetProjection[MonferratoState]):
    name = "monferrato"
    version = "0.16.0"
    State = MonferratoState
    Event = ev.MonferratoEvent
    Contexts = ev.MONFERRATO_CONTEXTS

    def apply(self, state: MonferratoState, event: Any) -> MonferratoState:
        return apply_event(state, event)

    def seats(self, state: MonferratoState) -> tuple[str, ...]:
        return SEATS

    def view(self, state: MonferratoState, seat: str) -> dict[str, Any]:
        return view(state, seat)

    def redact(self, event: Any, seat: str, state: MonferratoState) -> dict[str, Any] | None:
        return redact(event, seat, face_down(state))

    def secrets(self, state: MonferratoState, seat: str) -> set[str]:
        return secrets(state, seat)

    def note_interpretations(self, state: MonferratoState, chosen: dict[str, str]) -> MonferratoState:
        state.interpretations = dict(chosen)
        if not face_down(state):  # the pile turned face up: what lay face down in it is shown now
            state.laid_face_down = {}
        return state

    def is_irreversible(self, event: Any) -> bool:
        return isinstance(event, ev.ChitDrawn)

    def is_checkpoint(self, event: Any) -> bool:
        return isinstance(event, ev.TurnBegan)

    def outcome(self, state: MonferratoState) -> Outcome | None:
        if state.phase != "over":
            return None
        return Outcome(winner=state.winner or None, reason=state.result, rule="monferrato §17")
