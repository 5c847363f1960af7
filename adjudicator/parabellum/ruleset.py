"""The Ruleset protocol's methods both Para Bellum games answer the same way, written once (issue 18: one ruleset
class for the system). A game's ruleset (adjudicator/caldiero/__init__.py, adjudicator/arrivano/ruleset.py) names
its `variant` and reads its position (`world`); what it answers its own way (its scenarios and data, its set-up,
its commands, what fog hides) stays in the game's package."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Collection, Iterable, Mapping
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any, ClassVar, TypeVar, cast

import msgspec

from arbitro.adjudicator.datafiles import OwnData
from arbitro.adjudicator.parabellum import command, escape, overrides, retreat_frame, rout, sight
from arbitro.adjudicator.parabellum.act import Act, carried_world, settle
from arbitro.adjudicator.parabellum.data import OrderOfBattle, UnitData
from arbitro.adjudicator.parabellum.loader import DataFolder, ScenarioData, provisional_report
from arbitro.adjudicator.parabellum.orders import ORDERS
from arbitro.adjudicator.parabellum.sequence import Steps
from arbitro.adjudicator.parabellum.stacking import stack_problem
from arbitro.adjudicator.parabellum.variant import Variant
from arbitro.adjudicator.parabellum.world import World
from arbitro.adjudicator.ruleset import Decision, Interpretation, Ruleset, interpretation_in_force
from arbitro.events.parabellum import (
    PIECE_FIELDS, ArtilleryFired, AssaultDeclared, AssaultResolved, ChargeEnded, FormationActivated, GameEnded, LeaderLost,
    LeaderMoved, LeaderPlaced, PiecesSighted, StatusChanged, TurnBegan, UnitEliminated, UnitOrderSet, UnitPlaced,
    UnitRetreated, UnitsAdvanced, UnitsMoved,
)
from arbitro.events import core
from arbitro.projections import parabellum as PB
from arbitro.projections.base import Outcome
from arbitro.projections.game import GameState

S = TypeVar("S", bound=PB.SystemState)


def pieces_at_start(oob: OrderOfBattle, formation_of: Callable[[UnitData], str] = lambda u: u.formation,
                    ) -> tuple[dict[str, PB.UnitState], dict[str, PB.LeaderState]]:
    """Every unit and commander of the order of battle as a game starts: on the map in its set-up hex when it has one
    (caldiero §21, arrivano §17's set-ups), else off the map until it enters (both §15.4). `formation_of`: the
    formation a unit starts in (caldiero §20.1: Bonaparte's takes the reserve); its printed one by default."""
    units = {u.id: PB.UnitState(side=u.side, formation=formation_of(u), arm=u.arm) for u in oob.units}
    leaders = {le.id: PB.LeaderState(side=le.side, role=le.role, formation=le.formation) for le in oob.leaders}
    for piece, state in [*((u, units[u.id]) for u in oob.units), *((le, leaders[le.id]) for le in oob.leaders)]:
        if piece.setup is not None:
            state.hex, state.where = piece.setup.start_hex, "map"
    return units, leaders


def last_turn_problems(turn: int, last_turn: int, turns: int) -> list[str]:
    """A position's clock (a position file, an umpire's ruling): no position runs on past the scenario's last turn
    (its scenario.json's `turns`); a longer game would also let one command run turn after turn with nobody deciding
    anything."""
    if not 1 <= last_turn <= turns:
        return [f"last_turn {last_turn} is outside 1..{turns}: the scenario lasts {turns} turns (its scenario.json)"]
    if not 1 <= turn <= last_turn:
        return [f"turn {turn} is outside 1..{last_turn}"]
    return []


def pieces_known(state: PB.SystemState, oob: OrderOfBattle) -> bool:
    """The position's units are exactly the order of battle's (what every other check of a position reads)."""
    return set(state.units) == {u.id for u in oob.units}


def position_problems(w: World, oob: OrderOfBattle, turns: int, steps: Collection[str]) -> list[str]:
    """What both books ask of any position (a position file, a fork, an umpire's ruling), every problem at once: the
    units and commanders are the order of battle's (both §2; the units' alone, when they are not: nothing else can be
    read), the clock within the scenario's turns and at one of the game's `steps` (a step no code knows is a game that
    cannot go on: nothing listed, accepted or run), the seat one of the sides, the weather a box of the scenario's track
    (caldiero §17, arrivano §17.2.7; 0 without one), each formation's order one of §5.1's, each unit's status one of
    §15's and the order it chose for the turn one of §5.1's or none, each unit on the map on a map hex, no hex holding both sides' units (§9.1.2 in both), the stacks within
    §7.1's limits (`resting_stack_problems`). A game adds its own (`validate_position`)."""
    state = w.state
    known = {u.id for u in oob.units}
    if not pieces_known(state, oob):
        missing, extra = sorted(known - set(state.units)), sorted(set(state.units) - known)
        return [f"units must be exactly the order of battle (missing {missing}, unknown {extra})"]
    problems = last_turn_problems(state.turn, state.last_turn, turns)
    if state.step not in steps:
        problems.append(f"step must be one of {', '.join(sorted(steps))}, not {state.step!r}")
    if set(state.leaders) != {leader.id for leader in oob.leaders}:
        problems.append("leaders must be exactly the order of battle's")
    if state.seat not in ("", *w.sides):
        problems.append(f"seat must be {', '.join(w.sides)} or empty, not {state.seat!r}")
    boxes = sorted(b.box for b in w.weather.boxes) if w.weather is not None else [0]
    if state.weather not in boxes:
        problems.append(f"weather must be {boxes[0]}..{boxes[-1]}, a box of the scenario's weather track, not {state.weather}"
                        if w.weather is not None else f"weather must be 0 in a scenario without weather, not {state.weather}")
    for f, fs in sorted(state.formations.items()):
        if fs.order is not None and fs.order not in ORDERS:
            problems.append(f"formation {f}: order {fs.order!r} is not one of {', '.join(ORDERS)} (§5.1 in both books)")
    for u, s in sorted(state.units.items()):
        if s.where == "map" and not w.grid.contains(s.hex):
            problems.append(f"unit {u} is on the map at {s.hex!r}, which is not a map hex")
        if s.status not in PB.STATUSES:
            problems.append(f"unit {u}: status {s.status!r} is not one of {', '.join(PB.STATUSES)}")
        if s.turn_order not in ("", *ORDERS):
            problems.append(f"unit {u}: turn_order {s.turn_order!r} is not one of {', '.join(ORDERS)} or \"\" (caldiero §5.3.1)")
    problems += [f"{h} holds units of both sides" for h, units in sorted(w.by_hex().items())
                 if w.grid.contains(h) and len({state.units[u].side for u in units}) > 1]
    return problems + resting_stack_problems(cast(Variant, w.variant), w)


def resting_stack_problems(variant: Variant, w: World) -> list[str]:
    """Every one-side stack of a position over §7.1's limits in number or make-up (a position file, a fork, an
    umpire's ruling), once a side's set-up is over (caldiero §21: stacks are arranged piece by piece, the limits
    hold when the set-up ends, flow.setup_problems). Not §7.1.1: both books forbid a routed unit to stack
    "volontariamente" with friends in good order or disordered, and "Se questo accade devono muovere": a unit routed
    in place (a failed test, a result) stands with them until its rout moves it on, as the shipped games do
    (arrivano-montebello's ir57-i beside art-gottesheim in 3415, caldiero-tempo-regge's 1917). Each stack is judged
    by the formations the variant says it stacks as at rest (D39)."""
    if w.state.phase == "setup":
        return []
    found = [(h, stack_problem(variant, w, units, variant.formations_at_rest(w, units), at_rest=True))
             for h, units in sorted(w.by_hex().items()) if w.grid.contains(h) and len({w.side_of(u) for u in units}) == 1]
    return [f"{h}: {problem}" for h, problem in found if problem]


class ParaBellumRuleset(Ruleset[S]):
    """What the system's two books settle alike: the fold, the readings kept in the state, the data folder, the out-of-command
    notice, the irreversible sighting, the outcome as recorded."""

    variant: ClassVar[Variant]
    folder: ClassVar[DataFolder]  # the game's shipped data folder
    play_steps: Steps[Act[Any], World]  # the game's steps of play (parabellum/sequence.Steps), as act.Game asks them
    automatic_steps: ClassVar[tuple[str, ...]] = ()  # the steps it runs where they begin, outside `play_steps`

    def __init__(self) -> None:
        super().__init__()
        # What the game's rules read (`rules_on`): the shipped data's, or (`own.load`) a user's data folder's, built
        # once per process and content hash.
        self._shipped: Any = None
        self.own: OwnData[Any] = OwnData(f"{self.name}_rules", lambda files: self.rules_on(self.folder.own.load(files)),
                                         self._shipped_rules)

    def rules_on(self, data: Any) -> Any:
        """What the rules read, made from a folder's data: the data themselves, unless a game builds more from them
        once."""
        return data

    def _shipped_rules(self) -> Any:
        if self._shipped is None:
            self._shipped = self.rules_on(self.folder.shipped())
        return self._shipped

    @property
    def in_force(self) -> Any:
        """What the rules read now: the shipped data's, or those of the folder a game is being made on (`using_data`)."""
        return self.own.current()

    def data_files(self) -> list[Path]:
        return self.folder.files()

    # --- a user's own data folder (`arbitro new caldiero|arrivano SCENARIO --data DIR`; docs/rulesets/parabellum.md)
    def read_data(self, folder: Path) -> dict[str, str]:
        return self.folder.read_folder(folder)

    def using_data(self, files: Mapping[str, str] | None) -> AbstractContextManager[object]:
        return self.own.bound(files)

    def shipped_data(self) -> dict[str, str]:
        return self.folder.shipped_files()

    # --- a position's overrides (issue 19 item 13; parabellum/overrides.py, docs/rulesets/parabellum.md "Overrides")
    def layout(self, state: S) -> overrides.Layout:
        """Where the game's data folder keeps what overrides change (parabellum/loader.py's layout)."""
        name = self.scenario_on(state).name
        return overrides.Layout(oob=f"{name}/oob.json", map=f"{name}/map.json", crt="tables/crt.json",
                                book=self.variant.book)

    def override_kinds(self) -> dict[str, str]:
        return dict(overrides.KINDS)

    def apply_override(self, state: S, override: Mapping[str, Any]) -> tuple[S, str]:
        return overrides.apply(self.folder, self.layout(state), state, override)

    def interpretations(self) -> Mapping[str, Interpretation]:
        """The named readings of the data in force (its interpretations.json, parabellum/readings.py), read only."""
        return self.in_force.interpretations.offered

    def data_of(self, state: S) -> Any:
        """What the rules read for a game in `state`: its own data folder's, else the data in force (the shipped
        data, or the folder a game is being made on: `using_data`)."""
        return self.own.load(state.data_files) if state.data_files else self.own.current()

    def scenario_on(self, state: S) -> ScenarioData:
        """What the game in `state` is played on: its scenario folder's data, of its own data folder, else of the data
        in force (Caldiero's versions all play on its one folder: its own)."""
        on: ScenarioData = self.data_of(state).scenarios[state.scenario]
        return on

    def scenario_names(self, state: S) -> list[str]:
        """The scenarios a game in `state` may be of, in its own data folder, else in the data in force: its scenario
        folders (Arrivano's Montebello and Campotenese, arrivano §17.1-§17.2; Caldiero names its versions instead)."""
        return sorted(self.data_of(state).scenarios)

    def scenario_data(self, scenario: str) -> ScenarioData:
        """What a new game of `scenario` is played on: its data in force (the shipped data, or `using_data`'s)."""
        made: ScenarioData = self.in_force.scenarios[scenario]
        return made

    def provisional(self, scenario: str) -> list[str]:
        """The reconstructed data a game of `scenario` rests on, as its files mark them (parabellum/loader.py
        `provisional_markers`: a file's meta, a record's `provisional`, a `*_provisional` flag), one line a file."""
        return provisional_report(self.scenario_data(scenario).provisional)

    def seats(self, state: S) -> tuple[str, ...]:
        """The scenario's two sides, as its scenario file names them (both books: one seat a side)."""
        return tuple(self.scenario_on(state).scenario.seats)

    def world(self, state: S) -> World:
        """The position read with the umpire's readings in force, as `decide` reads them (issue 19 defect 5)."""
        return World(state, self.scenario_on(state), lambda name: interpretation_in_force(self, state.interpretations, name),
                     variant=self.variant)

    def world_at(self, game: GameState[S]) -> World:
        """`world` as a pending decision's lister reads it (the engine's check of an answer, legal()): the World carried
        on this very state object (`act.carried_world`), which the answer's procedure then takes over."""
        return carried_world(self, game, self.scenario_on(game.rules), self.variant)

    # --- what a procedure's context asks the game (parabellum/act.Game), where a variant needs nothing else ---------
    def to_nearest_friends(self, a: Act[Any], leader: str, h: str) -> None:
        """caldiero §4.4.4 (arrivano §4.5.4 lets his owner choose among several): the surviving leader goes at once to
        the nearest hex of his side's units (the nearest by distance, then by hex)."""
        side, w = a.state.leaders[leader].side, a.world()
        friends = sorted({w.hex_of(u) or "" for u in w.on_map_units() if a.state.units[u].side == side})
        if friends:
            dest = min(friends, key=lambda x: (w.grid.distance(h, x), x))
            if dest != h:
                a.emit(LeaderMoved(leader=leader, path=(dest,), rule=str(self.variant.rules.LEADER_ALONE), own=False))

    def rout_retreat(self, a: Act[Any], units: list[str]) -> None:
        retreat_frame.opened(a, dict.fromkeys(units, rout.RETREAT_HEXES), self.variant.rules.ROUT)

    def exit_play(self, a: Act[Any], unit: str, edge: str) -> bool:
        return False  # §12.8.1 in both: a unit forced off the map is eliminated for good

    def after_leader_lost(self, a: Act[Any], leader: str) -> None:
        """Nothing follows a commander's loss but its event (caldiero §4.4.5: his formation is out of command for good,
        by his absence; arrivano §17.2.12 adds a flag)."""

    def settle_decision(self, a: Act[Any], frame: core.Frame[Any]) -> bool:
        """Every decision waits for its seat's answer, even with one answer (caldiero's; arrivano settles some); a
        retreat with none left eliminates the stack it asks (§12.6.3, retreat_frame.settled), a flight with no choice
        is settled (§8.2.3, escape.settled)."""
        if frame.kind == retreat_frame.RETREAT:
            return retreat_frame.settled(a, frame)
        return frame.kind == escape.ESCAPE and escape.settled(a, frame)

    # --- the commands of a position: its step's row of the game's steps of play (`play_steps`, both §3)
    def step_key(self, state: S) -> str:
        """The row of `play_steps` a position is at: its step (a game whose step names rows of two phases says which)."""
        return state.step

    def legal(self, state: S, seat: str) -> list[dict[str, Any]]:
        """The commands of the step's row for the seat it waits for (both §3.1); none once the game is over."""
        if state.phase == "over" or seat != state.seat:
            return []
        return self.play_steps.legal(self.step_key(state), self.world(state), seat)

    def legal_of(self, state: S, seat: str, piece: str) -> list[dict[str, Any]]:
        """`legal`'s commands naming `piece`, as the step's row works them out for that piece alone (issue 15)."""
        if state.phase == "over" or seat != state.seat:
            return []
        return self.play_steps.legal_of(self.step_key(state), self.world(state), seat, piece)

    def decide(self, ctx: Decision[S], command: Any) -> None:
        """The command of the seat the step waits for (both §3.1), by its row's handler, then what follows it by itself
        (`go_on`); none once the game is over."""
        state, a = ctx.state, Act(ctx, self)
        if state.phase == "over" or ctx.seat != state.seat:
            a.reject(self.variant.rules.SEQUENCE, "the game is over" if state.phase == "over" else "it is not your turn to act")
        self.play_steps.decide(self.step_key(state), a, a.world(), ctx.seat, command)
        self.go_on(a)

    def go_on(self, a: Act[Any]) -> None:
        """After a command or an answer: the frames and steps that need no choice (`act.settle`), and what the game
        checks at any time."""
        settle(a)

    def active_seats(self, state: S) -> tuple[str, ...]:
        """The seat the current step waits for (both §3); none once the game is over."""
        return (state.seat,) if state.seat and state.phase != "over" else ()

    def apply(self, state: S, event: Any) -> S:
        return PB.apply(state, event)

    def note_interpretations(self, state: S, chosen: dict[str, str]) -> S:
        """Keep the umpire's readings in the state: legal() and a decision's options see only the state."""
        state.interpretations = dict(sorted(chosen.items()))
        return state

    def notices(self, state: S, seat: str) -> list[str]:
        """The units under a Defence order only for being out of command (caldiero §5.3, arrivano §5.3; issue 19
        item 16)."""
        return command.out_of_command_notices(self.variant, self.world(state), seat)

    # --- the fog of war (caldiero §20.4, arrivano §11.3.2: "si può esaminare uno stack nemico solo se si ha una LoS")
    def fogged(self, state: S, seat: str) -> bool:
        """Whether `seat` is under the fog of war: a side's seat (the umpire sees everything) while the variant's fog
        is in force (`Variant.fog_option`)."""
        return seat in self.seats(state) and sight.fog_in_force(self.variant.fog_option, state.options.__contains__)

    def view(self, state: S, seat: str) -> dict[str, Any]:
        """The position as `seat` may know it (projections/parabellum.view): under fog, an enemy stack only where one
        of its pieces may examine it, within the variant's reach (`Variant.fog_reach`)."""
        if not self.fogged(state, seat):
            return PB.view(state, seat, None)
        enemy = {p.hex for p in (*state.units.values(), *state.leaders.values()) if p.side != seat and p.where == "map"}
        hidden = self.unexaminable(state, seat, enemy)
        return PB.view(state, seat, lambda h: h not in hidden)

    def unexaminable(self, state: S, seat: str, places: Iterable[str]) -> frozenset[str]:
        """Under fog: the map hexes among `places` whose stacks `seat` may not examine now."""
        if not self.fogged(state, seat):
            return frozenset()
        w = self.world(state)
        return sight.unexaminable(w, seat, places, self.variant.fog_reach(w))

    def secret_units(self, state: S, seat: str) -> set[str]:
        """Under fog: the enemy units `seat` never examined and may not examine now (`sight.secret_units`)."""
        if not self.fogged(state, seat):
            return set()
        w = self.world(state)
        return sight.secret_units(w, seat, self.variant.fog_reach(w))

    def hidden_pieces(self, state: S, seat: str) -> set[str]:
        """Under fog: the enemy pieces, commanders and units examined before included, whose place `seat` may not
        know now: in a hex it may not examine, or off the map where the state says (`unseen_off_map`, not yet seen
        arriving). The fog hides by place (caldiero §20.4, arrivano §11.3.2: "si può esaminare uno stack nemico solo
        se si ha una LoS"), not by what the seat examined once."""
        if not self.fogged(state, seat):
            return set()
        enemy = {p: piece for p, piece in (*state.units.items(), *state.leaders.items()) if piece.side != seat}
        hidden = self.unexaminable(state, seat, {piece.hex for piece in enemy.values() if piece.where == "map"})
        return {p for p, piece in enemy.items()
                if piece.where in state.unseen_off_map or (piece.where == "map" and piece.hex in hidden)}

    def hidden_units(self, state: S, seat: str) -> set[str]:
        """The units among `hidden_pieces`: those whose names no served event may carry (a commander's name is his
        formation's, public in every order and activation; only his place is hidden)."""
        return {p for p in self.hidden_pieces(state, seat) if p in state.units}

    def secrets(self, state: S, seat: str) -> set[str]:
        """What a leak test searches everything served to `seat` for: the ids of the units hidden now
        (`hidden_units`: out of sight, whether examined before or not), bare, as a picture or a report could print one
        outside JSON, but as its JSON token, quotes included, where another piece's id holds it ("6e-legere-i" in
        "6e-legere-ii"): ids are served only as JSON strings, and the bare id would be found in its neighbour's. A
        hidden commander's place is proved unserved by the non-interference tests instead (his id is public)."""
        ids = [*state.units, *state.leaders]
        return {f'"{u}"' if any(u in other for other in ids if other != u) else u for u in self.hidden_units(state, seat)}

    # --- what the fog serves of an event (caldiero §20.4, arrivano §11.3.2), one redaction for both games
    fog_marker: ClassVar[object] = True  # what a hidden event carries in its `hidden` field
    piece_fields: ClassVar[Mapping[type, tuple[str, ...]]] = PIECE_FIELDS  # the event fields that name pieces
    # The rule a hidden event's stub cites (a concept of the variant's Rulebook), fixed by the event's TYPE alone: the
    # event's own rule can tell what is hidden (a move in march column, §9.3, or not; a rout's retreat, §15.2.2, or an
    # assault's, §12.6; a commander's flight, §4.5.6, or his move; one unit advancing, §12.7.2, or several with their
    # commander, §12.7.3). A type not listed cites the fog rule itself (FOG). A variant adds its own events' types
    # (`stub_rules` of its ruleset). An event served to its `owner` alone is never stubbed.
    stub_rules: ClassVar[Mapping[type, str]] = {
        LeaderMoved: "LEADER_MOVE", LeaderLost: "LEADER_LOSS", UnitRetreated: "RETREAT", UnitsMoved: "MOVEMENT",
        UnitEliminated: "ELIMINATED", ArtilleryFired: "BOMBARDMENT", AssaultDeclared: "COMBAT",
        AssaultResolved: "COMBAT", UnitsAdvanced: "ADVANCE_AFTER", FormationActivated: "INITIATIVE",  # §6: activation
    }

    # Events listing pieces each for itself (Arrivano's guns turned, §3.1 C), served under fog with the pieces hidden
    # from the seat left out, and not at all where none is left: a stub would tell that an unseen one was listed
    # (rev-m M4). The event type -> its field listing them.
    listed_fields: ClassVar[Mapping[type, str]] = {}

    # Events made only under a fact of the piece they name that a seat may not examine (its status, a marker under
    # its stack, a hidden test's result: a recovery's pass, §15.3.1 in both; a rout; a spent V, arrivano §16.3.4), or
    # whose type tells one (a piece placed, unit or commander, where the markers look alike: nifuzz F2): where they
    # name a piece hidden from the seat they are served not at all, not as a stub, whose presence or type would tell
    # it (rev-m's note; engine-rules §V.4). Every other type naming pieces is made whatever the hidden facts (a
    # command's, a public roll's or an assault's) and stubbed; tests/parabellum/test_fog_events_held.py classifies
    # each. A variant adds its own events' types (`withheld` of its ruleset).
    # (ChargeEnded: a Charge marker taken off at the charge's end, caldiero §20.2.3, arrivano §14.2.2, with the disorder it
    # brings a charger in good order: served nothing where the charger is out of sight, as its status change is)
    withheld: ClassVar[frozenset[type]] = frozenset({StatusChanged, ChargeEnded, UnitPlaced, LeaderPlaced})

    def withholds(self, event: Any) -> bool:
        """Whether `event`, naming a piece hidden from the seat, is served nothing: a `withheld` type, or a commander's
        move he did not make himself (`own` false: with his retreating stack, §12.6; to friends left alone; away from
        enemy units), made only where he stood in the hex: its stub told an unseen stack held a commander (nifuzz)."""
        return type(event) in self.withheld or (isinstance(event, LeaderMoved) and not event.own)

    def stub(self, event: Any) -> dict[str, Any]:
        """What a seat under fog is served of `event` when it may see none of it: its type, the rule its type cites
        (`stub_rules`, never the event's) and the game's fog marker (`fog_marker`)."""
        rule = getattr(self.variant.rules, self.stub_rules.get(type(event), "FOG"))
        tag = type(event).__struct_config__.tag
        return {"type": tag, "rule": str(rule), "hidden": self.fog_marker}

    def redact(self, event: Any, seat: str, state: S) -> dict[str, Any] | None:
        """An event as `seat` under fog is served it: not at all, the other seat's sighting (`others_sighting`) or
        an event of the other side's alone (`owner`); its own sighting whole (arrivano/movement.passed_beside records
        pieces examined in passing); a list of pieces without those hidden from the seat, not at all where none is
        left (`listed_fields`); nothing, when it names a piece hidden from the seat (`hides`) and is made only under a
        fact of it the seat may not examine (`withheld`), else its `stub` only, as where its route lies wholly out of the
        seat's sight, the enemy's activation judged without who is out of command (`served_command`, nifuzz F1); an
        enemy's loss as the turn track shows it (`served_loss`); a move by the hexes of its route the seat may
        examine (`served_move`); anything else as it is."""
        data: dict[str, Any] = msgspec.to_builtins(event)
        if not self.fogged(state, seat):
            return data
        if PB.others_sighting(event, seat) or self.owner(event, state) not in (None, seat):
            return None
        if isinstance(event, PiecesSighted):  # its own: what it examined, even if out of its sight now (a charge's)
            return data
        if (field := self.listed_fields.get(type(event))) is not None:
            hidden = self.hidden_pieces(state, seat)
            data[field] = [p for p in data[field] if p not in hidden]
            if not data[field]:
                return None
        # Who is out of command goes before `hides` judges the rest: a stub for an unseen unit among them told it
        data = PB.served_command(state, event, data, seat)
        if self.hides(event, data, seat, state):
            return None if self.withholds(event) else self.stub(event)
        stub = self.stub(event)
        data = PB.served_loss(state, event, data, seat, stub)
        return PB.served_move(state, event, data, seat, lambda route: self.unexaminable(state, seat, route),
                              stub, str(self.variant.rules.MOVEMENT))

    def redact_random(self, data: dict[str, Any], seat: str, state: S) -> dict[str, Any]:
        """The default (a roll about a place `seat` may not examine served with its rule alone), and an efficiency
        test (§13.1.2 in both: one die a stack) of a stack `seat` may not examine served without its faces too: read
        against the counters' values the die is the test's result, which lies under the stack's markers as its
        status does (caldiero §20.4, arrivano §11.3.2 "si può esaminare uno stack nemico solo se si ha una LoS";
        engine-rules §V.4). That it was rolled, under which rule, stays public."""
        served = super().redact_random(data, seat, state)
        detail = data.get("detail") or {}
        if detail.get("table") == "efficiency" and self.unexaminable(state, seat, [str(detail.get("hex", ""))]):
            served = {k: v for k, v in served.items() if k != "values"}
        return served

    # --- what a pending decision serves (one rule for both games: caldiero §20.4, arrivano §11.3.2, §12.3.1)
    def redact_frame(self, frame: core.Frame[Any], seat: str, state: S) -> dict[str, Any]:
        """A decision of the game as `seat` is served it, one rule for both books: its context is the seats' it awaits.
        The umpire is served it whole. Another side's seat is served who is awaited and for what (kind, seats, rule,
        prompt), the context as its type alone: what the question holds is the asked side's to state (the values
        its units tie on, §12.3.1 "il giocatore può scegliere quale valore usare", both books; the units a retreat
        may move), and a side asked second in what both settle at once ("All'inizio di un combattimento entrambe le
        parti coinvolte devono stabilire la propria efficienza", §12.3 in both) is not served the first's answer
        through the assault's context (`chosen`). An awaited seat is served the context as its game serves its own
        (`own_context`), but under the fog without it, the type and the fog marker alone, where it names a unit the
        seat may not examine now (`hidden_units`), as an event naming one is stubbed (caldiero §20.4, arrivano
        §11.3.2 "si può esaminare uno stack nemico solo se si ha una LoS")."""
        data: dict[str, Any] = msgspec.to_builtins(frame)
        if seat not in self.seats(state):
            return data
        tag = data["ctx"]["ctx"]
        if seat not in frame.seats:
            data["ctx"] = {"ctx": tag}
            return data
        data["ctx"] = self.own_context(frame.ctx, data["ctx"])
        if not self.fogged(state, seat):
            return data
        enemy = [u for u, unit in state.units.items() if unit.side != seat]
        # The sight is worked out only for a context naming an enemy unit at all (most name the seat's own alone)
        if mentions(data["ctx"], enemy) and mentions(data["ctx"], self.hidden_units(state, seat)):
            data["ctx"] = {"ctx": tag, "hidden": self.fog_marker}
        return data

    def own_context(self, ctx: core.FrameContext, data: dict[str, Any]) -> dict[str, Any]:
        """A decision's context (`data`, its builtins) as its awaited seat is served it: whole, unless its game serves
        the seat less (`redact_frame`)."""
        return data

    def owner(self, event: Any, state: S) -> str | None:
        """The side `event` is served to alone under fog, the enemy served nothing of it (not a stub: the event is
        made only as the hidden fact it tells is so, so its stub's presence would tell it too), or None: served by
        the rules below. An event naming no piece is served whole by `hides`, so each such event whose making tells a
        fact of one side the enemy may not examine names its side here (a variant's; docs/engine-rules.md §V.4, the
        events naming no piece): e.g. Caldiero's reorganised hex (§15.3), the §19.1 release, the distances of an
        activation (§5.1.1), Arrivano's march order ended (§17.1.5). Both games': a unit's own order (unit_order_set:
        caldiero §4.3.1 in the chief's range or a passed §5.3.1 test; arrivano §4.4 "vedi anche 4.3.2"), which units
        take one telling whether an unseen chief stands in range (rev-l L6)."""
        if isinstance(event, UnitOrderSet) and state.activation is not None:
            return state.formations[state.activation.formation].side
        return None

    def hides(self, event: Any, data: dict[str, Any], seat: str, state: S) -> bool:
        """Whether `event` (`data`, its builtins) names a piece hidden from `seat`: any hidden piece in one of its
        `piece_fields` (a commander's place), a hidden unit anywhere (`mentions`: fields outside the piece fields,
        formation_activated's `out_of_command` and `reserve_joined`, Caldiero's keys; a commander's name is public)."""
        hidden = self.hidden_pieces(state, seat)
        if not hidden:
            return False
        ids: list[str] = []
        for name in self.piece_fields.get(type(event), ()):
            value = data[name]
            ids += value if isinstance(value, (list, tuple)) else [value] if value is not None else []
        return not hidden.isdisjoint(ids) or mentions(data, {p for p in hidden if p in state.units})

    def is_checkpoint(self, event: Any) -> bool:
        return isinstance(event, (TurnBegan, GameEnded))  # a turn's beginning and the game's end (both §3.1)

    def is_irreversible(self, event: Any) -> bool:
        return isinstance(event, PiecesSighted)  # enemy stacks examined cannot be unseen (caldiero §20.4, arrivano §11.3.2)

    def may_reveal(self, event: Any, state: S) -> bool:
        """Under the fog, any command: sight is judged again after each (`sight.sightings`), and what a seat first
        examined is served to it alone (`PB.others_sighting`), so the enemy cannot tell which command showed it
        something; whether the fog is in force is public (engine-rules §U.1)."""
        return sight.fog_in_force(self.variant.fog_option, state.options.__contains__)

    def validate_position(self, state: S) -> list[str]:
        """Both books' checks (`position_problems`), at one of the game's steps (`play_steps`, and those it runs where
        they begin, `automatic_steps`); then, once its pieces are the order of battle's, the game's own. A scenario
        its data do not have comes first, alone: every other check reads that scenario's data."""
        known = self.scenario_names(state)
        if state.scenario not in known:
            data = "its own data folder" if state.data_files else "the data in force"
            return [f"scenario {state.scenario!r} is not one of {self.name}'s in {data} ({', '.join(known)}): the "
                    "position's counters, map and rules are that scenario's"]
        d, w = self.scenario_on(state), self.world(state)
        problems = position_problems(w, d.oob, d.scenario.turns, self.play_steps.names(*self.automatic_steps))
        return problems + self.own_position_problems(state, w, d) if pieces_known(state, d.oob) else problems

    def position_scenario(self, state: S) -> str | None:
        """Both books' states name their scenario (Arrivano's battle, Caldiero's version): a position's header names
        the same (issue 18)."""
        return state.scenario

    def own_position_problems(self, state: S, w: World, d: ScenarioData) -> list[str]:
        """What only the game's book asks of a position (`validate_position`): none by default."""
        return []

    def outcome(self, state: S) -> Outcome | None:
        """The end recorded by the game's victory rules (caldiero §18, arrivano §17.1.8, §17.2.12)."""
        if state.result is None:
            return None
        return Outcome(winner=state.result.winner, reason=state.result.reason, rule=state.result.rule)


@functools.lru_cache(maxsize=64)
def _words(ids: frozenset[str]) -> re.Pattern[str]:
    """One pattern per set of hidden ids: `hides` asks it for every event a seat is served, and the set changes
    only as pieces are seen or hidden."""
    return re.compile("(?<![\\w-])(?:" + "|".join(map(re.escape, sorted(ids))) + ")(?![\\w-])")


def mentions(data: Any, ids: Collection[str]) -> bool:
    """Whether builtins `data` name one of `ids` anywhere, a dict's keys included, as a word of a string: an id
    inside another id (ir18-i in ir18-ii) is not it."""
    if not ids:
        return False
    word = _words(frozenset(ids))

    def found(value: Any) -> bool:
        if isinstance(value, str):
            return word.search(value) is not None
        if isinstance(value, dict):
            return any(found(k) or found(v) for k, v in value.items())
        return isinstance(value, (list, tuple)) and any(found(v) for v in value)
    return found(data)
