"""The context of a Para Bellum procedure, one class for both games: what every procedure of Caldiero and Arrivano,
and every kernel procedure that rolls or emits (rout, elimination, leaders, bombardment, advance), takes while a
command or an answer is carried out. It holds the engine's Decision, the scenario's data, the game's Variant and its
table of steps, and reads the position through one World, kept until the next event.

Where the books word a die differently or record what a seat examines, it asks the Variant (`dice_record`,
`sightings`, `leader_roll`, `fire_roll`; a stack's efficiency die is worded once, `stack_roll`); where a rule ends in
a decision of the game's own (a rout test's retreat, a lone commander's refuge, what follows his loss) or the sequence
of play differs (`settle`, the initiative's loop), it asks the game (`Game`, its ruleset, which sits above the
procedures those open; ParaBellumRuleset gives the neutral refuge, loss and settled decision)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Generic, Protocol, TypeVar

from arbitro.adjudicator.errors import Unsettled
from arbitro.adjudicator.parabellum import assault, efficiency
from arbitro.adjudicator.parabellum.assault_frame import AssaultFrames
from arbitro.adjudicator.parabellum.loader import ScenarioData
from arbitro.adjudicator.parabellum.sequence import Steps, refuse
from arbitro.adjudicator.parabellum.variant import Variant
from arbitro.adjudicator.parabellum.world import World
from arbitro.adjudicator.ruleset import Decision, Rule, interpretation_in_force
from arbitro.adjudicator.tables import CombatTable
from arbitro.events import core
from arbitro.events.parabellum import DieModifier, WeatherChanged
from arbitro.projections.game import GameState, awaited
from arbitro.projections.parabellum import SystemState

S = TypeVar("S", bound=SystemState)


class Game(Protocol):
    """A game of the system as its procedures' context asks it: its ruleset, the top of its package."""

    @property
    def variant(self) -> Variant: ...

    @property
    def play_steps(self) -> Steps[Any, World]:
        """The game's steps of play (parabellum/sequence.Steps): where each step begins."""
        ...

    def scenario_on(self, state: Any) -> ScenarioData: ...

    def world_at(self, game: Any) -> World:
        """The position of a game state read with the readings in force, as a pending decision's lister reads it."""
        ...

    def rout_retreat(self, a: Act[Any], units: list[str]) -> None:
        """`units` retreat rout.RETREAT_HEXES hexes, enemy ZoC ignored (§15.2), a decision of their owner."""
        ...

    def exit_play(self, a: Act[Any], unit: str, edge: str) -> bool:
        """`unit`, retreating off the map from `edge`, leaves play where the game lets it (arrivano §17.2.1's retreat
        flags), its exit recorded (UnitExited); whether it did, else it is eliminated for good (§12.8.1 in both)."""
        ...

    def to_nearest_friends(self, a: Act[Any], leader: str, h: str) -> None:
        """`leader` survived his test in `h`, now empty of his side's units: he goes to the nearest friendly unit
        (caldiero §4.4.4: at once; arrivano §4.5.4: his owner choosing among several)."""
        ...

    def after_leader_lost(self, a: Act[Any], leader: str) -> None:
        """What follows a commander's loss besides its event (caldiero: nothing; arrivano §17.2.12: a flag)."""
        ...

    # what differs in the sequence of play (`settle` below, parabellum/initiative.next_activation)
    def settle_decision(self, a: Act[Any], frame: core.Frame[Any]) -> bool:
        """Carry out the game's decision on top if it needs no choice; False: its seat decides."""
        ...

    def settle_step(self, a: Act[Any]) -> bool:
        """Carry out the step if it needs no choice (an automatic step; or one whose seat has nothing to do but end
        it); False: its seat acts, or the game is over."""
        ...

    def eligible(self, w: World) -> list[str]:
        """The formations (and what else the game activates: columns) not yet activated this turn."""
        ...

    # asked only where the variant does not roll for the last formation (caldiero §6.2): a game that rolls has none
    def activate_only(self, a: Act[Any], formation: str) -> None: ...

    def end_turn(self, a: Act[Any]) -> None: ...


CARRIED = "carried_world"  # the key of the World kept on a state object (SystemState's instance dict)


def carried_world(ruleset: Any, game: GameState[Any], data: ScenarioData, variant: Variant) -> World:
    """The World of `game`'s rules state at its seq, with the readings in force: the one kept on this very state object
    (`World.read_for`), else a new one kept there. A procedure's (`Act.world`) and a pending decision's lister's
    (ParaBellumRuleset.world_at): an answer finds what the engine's check of it listed, a verify (one state object)
    what the command before worked out. On the state's side (never encoded, copied nor compared) it dies with it and
    meets no other game, seat or thread; it closes over the state and `game`, never a procedure's Decision (the seed,
    a state copy per event). An edit in place moves no seq: its maker (only tests: tests/hex/harness Table.state)
    drops the World."""
    state, kept = game.rules, vars(game.rules).get(CARRIED)

    def reading(name: str) -> str:
        return interpretation_in_force(ruleset, state.interpretations, name)

    def position() -> int:
        return game.core.seq

    def decisions() -> Sequence[core.Frame[Any]]:
        return game.core.decisions

    if kept is not None and kept.read_for(state, data, variant, reading, position, decisions):
        return kept
    made = vars(state)[CARRIED] = World(state, data, reading, position, variant=variant, decisions=decisions)
    return made


class Act(Generic[S]):
    """One command's or answer's procedure of either game."""

    def __init__(self, ctx: Decision[S], game: Game) -> None:
        self.ctx, self.game, self.variant, self.steps = ctx, game, game.variant, game.play_steps
        self.data = game.scenario_on(ctx.state)
        self._world: World | None = None

    @property
    def state(self) -> S:
        return self.ctx.state

    def world(self) -> World:
        """The position's read model, one for the whole procedure: what it works out is kept until the next event (its
        position is the game state's seq, which every event folded into it moves); a new one only where the state
        object itself was replaced (an umpire's ruling patches it whole). The last procedure's World is taken over
        where it read this very state object (`World.read_for`): a verify decides every command on one state, and
        what the end of a command worked out ("anything left?", the sightings) is what the next one asks first."""
        if self._world is None or self._world.state is not self.ctx.state:
            self._world = self._next_world()
        return self._world

    def _next_world(self) -> World:
        return carried_world(self.ctx.ruleset, self.ctx.game, self.data, self.variant)

    def assault_frames(self) -> AssaultFrames:
        """The decision stack as the game's assault uses it (its kinds: `Variant.assault_kinds`, `decision_kinds`)."""
        return AssaultFrames(self.ctx, self.variant.assault_kinds, self.variant.decision_kinds)

    @property
    def crt(self) -> CombatTable:
        """The game's CRT in the table kit's shape (made once per table: parabellum/assault.crt)."""
        return assault.crt(self.variant, self.data.crt)

    def reading(self, name: str) -> str:
        """The reading of interpretation `name` in force: the umpire's ruling (as the state keeps it, so `decide`
        reads what `legal` does: ParaBellumRuleset.world), else the data's default."""
        return interpretation_in_force(self.ctx.ruleset, self.ctx.state.interpretations, name)

    reject = staticmethod(refuse)

    def emit(self, event: Any) -> None:
        """Record `event`, then what each seat now examines because of it (`Variant.sightings`)."""
        self.ctx.emit(event)
        for sighted in self.variant.sightings(self.world(), event):
            self.ctx.emit(sighted)

    def roll(self, purpose: str, detail: dict[str, str | int], about: tuple[str | None, ...] = (), *,
             visible_to: tuple[str, ...] | None = None, count: int = 1) -> tuple[int, ...]:
        """`count` dice, recorded with what they decide. `about`: the hexes of the stacks the roll concerns; a seat
        that may not examine one of them is served it as the variant says (`Variant.dice_record`); a piece off the map
        (no hex) concerns no place."""
        purpose, detail = self.variant.dice_record(self.state, purpose, detail)
        return self.ctx.roll(count, 6, purpose=purpose, detail=detail, visible_to=visible_to,
                             about=tuple(h for h in about if h))

    def weather(self, purpose: str, table: str, rule: Rule) -> int:
        """caldiero §17, arrivano §17.2.7: the weather die on the scenario's track (worded by the game), the box it
        moves to recorded where it changed; the new box. A scenario without a track (Montebello) rolls none."""
        if self.data.weather is None:
            return self.state.weather
        (die,) = self.roll(purpose, {"table": table, "box": self.state.weather})
        box = self.data.weather.next_box(self.state.weather, die)
        if box != self.state.weather:
            self.emit(WeatherChanged(box=box, rule=str(rule)))
        return box

    # --- the kernel's protocols ---------------------------------------------------------------------------------
    def decision_waiting(self) -> bool:
        """A decision of the game is pending: one of its frames anywhere on the engine's decision stack (the
        procedure waits for its answer). One reading for both games: a procedure never runs under an engine's frame
        (the engine refuses a game's command under one, and closes a random entry's before the command resumes), so
        "a frame of the game on the stack" and "the game's frame on top" agree wherever it is asked."""
        return any(type(f.ctx) not in core.ENGINE_CONTEXTS for f in self.ctx.game.core.decisions)

    def settle_decision(self) -> bool:
        """The game's decision on top carried out if it needs no choice (`Game.settle_decision`)."""
        top = awaited(self.ctx.game.core)
        return top is not None and type(top.ctx) not in core.ENGINE_CONTEXTS and self.game.settle_decision(self, top)

    def leader_die(self, leader: str, cause: str) -> int:
        """caldiero §4.4.3, arrivano §4.5.3: the die of a commander's test, worded as the variant records it."""
        purpose, detail = self.variant.leader_roll(self.world(), leader, cause)
        return self.roll(purpose, detail, about=(self.state.leaders[leader].hex,))[0]

    def fire_die(self, guns: Sequence[str], target: str, column: int, modifiers: Sequence[DieModifier],
                 defensive: bool) -> int:
        """caldiero §11.4.4, arrivano §11.4.3: the die of a bombardment (the kernel's `bombardment.fire`)."""
        purpose, detail, about = self.variant.fire_roll(self.world(), guns, target, column, modifiers, defensive)
        return self.roll(purpose, detail, about=about)[0]

    def rout_test(self, h: str, units: list[str]) -> Mapping[str, bool]:
        """§15.2 in both: the routed stack at `h` an enemy reached tests on one die (§13.1.2): who passed."""
        return stack_test(self, units, f"{self.variant.rules.ROUT} routed units in {h} with an enemy adjacent")

    def rout_retreat(self, units: list[str]) -> None:
        self.game.rout_retreat(self, units)

    def exit_play(self, unit: str, edge: str) -> bool:
        return self.game.exit_play(self, unit, edge)

    def to_nearest_friends(self, leader: str, h: str) -> None:
        self.game.to_nearest_friends(self, leader, h)

    def after_leader_lost(self, leader: str) -> None:
        self.game.after_leader_lost(self, leader)


# The most rounds (a decision settled, an automatic step run) one command may set going. A whole game of the longest
# scenario a data folder may give (data.MAX_TURNS turns) with nobody able to decide anything settles in far fewer: a
# turn is at most about 50 (the command phase's steps, some 7 for each activation of at most 7 formations), 40 turns
# some 2,000. Past it the game has stopped reaching a seat's choice (a defect, a hand-written position, a ruling), and
# the command is refused rather than hanging the server.
SETTLE_ROUNDS = 10_000


def settle(a: Act[Any]) -> None:
    """After every command or answer (caldiero §3, arrivano §3.1): whatever needs no choice is done, the waiting
    decisions first, until a seat must decide. Past SETTLE_ROUNDS rounds the command is refused (`Unsettled`): the
    engine records nothing of it."""
    ruleset = a.game  # the step as the game's ruleset settles it (act.Game), never which game it is
    for _ in range(SETTLE_ROUNDS):
        if not (a.settle_decision() if a.decision_waiting() else ruleset.settle_step(a)):
            return
    at = a.state
    raise Unsettled(f"this command set going {SETTLE_ROUNDS} automatic steps without reaching any seat's choice "
                    f"(now at turn {at.turn}, {at.phase} phase, step {at.step}): refused, nothing recorded; the game "
                    "keeps running steps that need no choice (a defect of the ruleset, or a position or ruling that "
                    "gives nobody anything to decide)", rule=str(a.variant.rules.SEQUENCE))


def stack_roll(a: Act[Any], why: Callable[[str], str], visible_to: tuple[str, ...] | None = None,
               extra: int = 0) -> efficiency.StackRoll:
    """A stack's die for an efficiency test (§13.1.2 in both: one die a stack), one wording for both games: the
    table, the hex, the units' values in order, the die's modifier and what gave them (§13.2 where a commander gave
    any: arrivano's -1 on the die, caldiero's initiative added to a value, D9); `why(h)` words the test at hex h;
    `extra`: a modifier the calling rule adds to the die (arrivano §16.3.3)."""
    rules = a.variant.rules

    def roll(h: str, units: list[str], values: dict[str, int], modifier: int) -> int:
        w = a.world()
        commanded = modifier != extra or any(values[u] != w.test_efficiency(u) for u in units)  # D9's, either way
        return a.roll(f"{rules.EFFICIENCY} efficiency test: {why(h)}", {
            "table": "efficiency", "hex": h, "values": ",".join(str(values[u]) for u in units), "modifier": modifier,
            "rule": str(rules.EFFICIENCY_COMMANDER if commanded else rules.EFFICIENCY)},
            about=a.variant.bonus_reach(w, h) if h else (),
            visible_to=visible_to)[0]
    return roll


def stack_test(a: Act[Any], units: list[str], why: str, visible_to: tuple[str, ...] | None = None,
               extra: int = 0) -> dict[str, bool]:
    """One die for `units` (the kernel's efficiency.stack_test, §13.1.2 in both), at the first one's hex: who passed.
    `extra`: a modifier the calling rule adds to the die (the +1 of a D1 fire result, arrivano §16.3.3)."""
    if not units:
        return {}
    w = a.world()
    return efficiency.stack_test(a.variant, w, w.state.units[units[0]].hex, units,
                                 stack_roll(a, lambda _: why, visible_to, extra), extra)
