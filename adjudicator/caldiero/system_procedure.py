"""The system's procedure machinery (caldiero §12.6, §12.8, §13, §15, §4.4; arrivano likewise): the Act
wrapper over a Decision, rejections, and the shared steps every procedure uses: disorder and rout,
elimination and return, leader tests, retreats as pending decisions, rout checks.
"""

from __future__ import annotations

from dataclasses import dataclass
from collections.abc import Sequence
from typing import Any, NoReturn

from arbitro.adjudicator.caldiero import commands as C
from arbitro.adjudicator.caldiero import fog as FOG
from arbitro.adjudicator.caldiero import rules as R
from arbitro.adjudicator.caldiero.system_movement import (
    leader_reachable,
)
from arbitro.adjudicator.parabellum.loader import ScenarioData
from arbitro.adjudicator.parabellum.world import World
from arbitro.adjudicator.caldiero.variant import CALDIERO, CALDIERO_VARIANT
from arbitro.adjudicator.decisions import close_frame, open_frame, update_frame
from arbitro.adjudicator.parabellum import elimination, retreat_ground, rout
from arbitro.adjudicator.parabellum.assault_frame import assault_below
from arbitro.adjudicator.parabellum.sequence import Steps
from arbitro.adjudicator.ruleset import Decision, Rule
from arbitro.adjudicator.parabellum import efficiency as shared_efficiency
from arbitro.adjudicator.parabellum.retreat_ground import lines
from arbitro.events import caldiero as ev
from arbitro.events import core
from arbitro.events.parabellum import DieModifier, EscapeAwaited, RetreatAwaited
from arbitro.projections.caldiero import CaldieroState, enemy_of


# The kinds of the frames this module opens on the engine's decision stack, and what they ask.
RETREAT = "retreat"
RETREAT_PROMPT = "choose the retreat path of each retreating unit (caldiero §12.6)"
LEADER_ESCAPE = "leader_escape"
ESCAPE_PROMPT = "your leader, alone, is reached by an enemy unit: move him away (caldiero §8.2.3)"


class Reject(Exception):
    def __init__(self, rule: Rule | str, message: str) -> None:
        super().__init__(message)
        self.rule, self.message = str(rule), message

    @staticmethod
    def refusal(refusal: tuple[Rule, str]) -> NoReturn:
        """Refuse with a kernel's refusal (the rule and the words), where a kernel procedure asks how to refuse."""
        raise Reject(*refusal)


@dataclass
class Env:
    data: ScenarioData  # its one scenario folder's (loader.BATTLE)
    # The game's steps of play (legal.CALDIERO_STEPS), whose question "does this step offer the seat anything?"
    # `flow.CaldieroSequence.settle_step` asks after every command; handed in by the ruleset, since the table is built
    # on the flow and the flow must not import it
    steps: Steps[Act, World]


class Act:
    """A thin wrapper over the Decision. One World reads the position for the whole procedure: what it works out is
    kept until the next event (its position is the count of events emitted so far), as Arrivano's Game does."""

    def __init__(self, ctx: Decision[CaldieroState], env: Env) -> None:
        self.ctx, self.env = ctx, env
        self._world: World | None = None

    @property
    def state(self) -> CaldieroState:
        return self.ctx.state

    @property
    def w(self) -> World:
        # A new World only when the state object itself was replaced (an umpire's ruling patches it whole).
        if self._world is None or self._world.state is not self.ctx.state:
            self._world = World(self.ctx.state, self.env.data, self.ctx.interpretation, lambda: len(self.ctx.events),
                                variant=CALDIERO_VARIANT)
        return self._world

    def frames_open(self) -> bool:
        """A decision of this game is pending: one of its frames on the engine's decision stack (the procedure
        waits for the answer before it goes on)."""
        return any(type(f.ctx) not in core.ENGINE_CONTEXTS for f in self.ctx.game.core.decisions)

    def emit(self, event: Any) -> None:
        self.ctx.emit(event)
        if "fog_of_war" in self.ctx.state.options and isinstance(event, FOG.SIGHT_EVENTS):
            for sighted in FOG.sightings(self.w):  # caldiero §20.4: what each seat now examines
                self.ctx.emit(sighted)

    def roll(self, purpose: str, detail: dict[str, str | int], count: int = 1, about: tuple[str | None, ...] = ()) -> tuple[int, ...]:
        """`about`: the hexes of the stacks the roll concerns; with fog of war a seat that may not examine one of
        them is served the roll without purpose and detail (caldiero §20.4)."""
        if "fog_of_war" in self.state.options:
            detail = {k: _anonymous(v, self.state) for k, v in detail.items()}  # caldiero §20.4: no unit names
            purpose = str(_anonymous(purpose, self.state))
        return self.ctx.roll(count, 6, purpose=purpose, detail=detail, about=tuple(h for h in about if h))

    def reading(self, name: str) -> str:
        return self.ctx.interpretation(name)

    # --- the kernel's rout checks (parabellum/rout.checks, caldiero §15.2) ---------------------------------
    def world(self) -> World:
        return self.w

    def rout_test(self, h: str, units: list[str]) -> dict[str, bool]:
        """One die for the routed stack at `h`, recorded with each unit's value."""
        values = shared_efficiency.test_values(CALDIERO_VARIANT, self.w, units)
        (roll,) = self.roll(f"{CALDIERO.ROUT} routed units at {h} reached by the enemy", {"test": "efficiency",
                            "values": ", ".join(f"{u}={v}" for u, v in values.items())}, about=(h,))
        return {u: shared_efficiency.passes(CALDIERO_VARIANT, roll, values[u]) for u in units}

    def rout_retreat(self, units: list[str]) -> None:
        open_retreats(self, {u: rout.RETREAT_HEXES for u in units}, CALDIERO.ROUT, from_combat=False)

    def leader_die(self, leader: str, cause: str) -> int:
        """caldiero §4.4.3: the die of a leader's test, against his initiative (a commander in chief's: 1)."""
        value = 1 if self.w.counters.leader(leader).role == "commander_in_chief" else self.w.counters.leader(leader).initiative
        (roll,) = self.roll(f"{CALDIERO.LEADER_TEST} {leader} test", {"test": "roll > initiative", "initiative": value,
                            "cause": cause}, about=(self.state.leaders[leader].hex,))
        return roll

    def fire_die(self, guns: Sequence[str], target: str, column: int, modifiers: Sequence[DieModifier],
                 defensive: bool) -> int:
        """caldiero §11.4.4: the die of a bombardment (the kernel's `bombardment.fire`)."""
        wording = "; ".join(f"{m.reason}: {m.value:+d}" for m in modifiers) or "none"
        rule = CALDIERO.DEFENSIVE_FIRE if defensive else CALDIERO.BOMBARD_TABLE
        (roll,) = self.roll(f"{rule} bombardment of {target}", {"table": "bombardment (provisional)", "column": column,
                            "modifiers": wording, "drm": sum(m.value for m in modifiers)},
                            about=(target, *(self.state.units[u].hex for u in guns)))
        return roll

    def after_leader_lost(self, leader: str) -> None:
        """Nothing more in Caldiero (his formation is out of command for good, §4.4.5, by his absence)."""

    def to_nearest_friends(self, leader: str, h: str) -> None:
        """caldiero §4.4.4: the surviving leader goes at once to the nearest hex of his side's units (the nearest by
        distance, then by hex)."""
        side = self.state.leaders[leader].side
        friends = sorted({self.state.units[u].hex or "" for u in self.w.on_map_units() if self.state.units[u].side == side})
        if friends:
            dest = min(friends, key=lambda x: (self.w.grid.distance(h, x), x))
            if dest != h:
                self.emit(ev.LeaderMoved(leader=leader, path=(dest,), rule=str(CALDIERO.LEADER_ALONE)))


def _anonymous(value: str | int, state: CaldieroState) -> str | int:
    """Dice details name units; with fog of war they say only the arm, so the public roll log hides the stack."""
    if not isinstance(value, str):
        return value
    for u in sorted(state.units, key=len, reverse=True):
        if u in value:
            value = value.replace(u, state.units[u].arm)
    return value


def seat_of_formation(state: CaldieroState, formation: str) -> str:
    return state.formations[formation].side


def arrival_turn(w: World, base: int) -> int:
    shift = w.scenario.scenarios[w.state.scenario].reinforcement_shift  # caldiero §19.2.2
    return max(1, base + shift)


def unit_due(w: World, u: str) -> bool:
    unit = w.state.units[u]
    arrival = w.counters.unit(u).arrival
    return unit.where == "offmap" and arrival is not None and arrival_turn(w, arrival.turn) <= w.state.turn


def leader_due(w: World, leader: str) -> bool:
    s = w.state.leaders[leader]
    arrival = w.counters.leader(leader).arrival
    return s.where == "offmap" and arrival is not None and arrival_turn(w, arrival.turn) <= w.state.turn


def add_disorder(a: Act, u: str, rule: Rule, retreats: dict[str, int]) -> None:
    """One disorder level (the kernel's rout.disorder); routed by it, the unit retreats two hexes at once (§15.2.1),
    queued in `retreats`."""
    if rout.disorder(a, CALDIERO_VARIANT, u, rule):
        retreats[u] = max(retreats.get(u, 0), rout.RETREAT_HEXES)


def open_retreats(a: Act, moves: dict[str, int], rule: Rule, from_combat: bool) -> None:
    """Queue retreats: units with no path are eliminated now; the owner chooses the others' paths."""
    by_side: dict[str, dict[str, int]] = {}
    for u, n in sorted(moves.items()):
        s = a.state.units[u]
        if s.where != "map":
            continue
        if from_combat:
            for art in rout.guns_with(a.w, [u]):
                if art not in moves:
                    elimination.eliminate(a, CALDIERO_VARIANT, art, CALDIERO.ARTILLERY_STACKED)  # caldiero §11.1
        if not lines(CALDIERO_VARIANT, a.w, [u], n):
            edge = a.w.grid.is_edge(s.hex or "")
            elimination.eliminate(a, CALDIERO_VARIANT, u, CALDIERO.OFF_MAP if edge else R.RETREAT_BLOCKED, permanent=True)
            continue
        by_side.setdefault(s.side, {})[u] = n
    assaulting = assault_below(a.ctx.game.core.decisions)
    for side in sorted(by_side, key=lambda x: x == (assaulting.attacker_side if assaulting else "")):
        open_frame(a.ctx, RETREAT, (side,), str(rule), RETREAT_PROMPT, RetreatAwaited(moves=by_side[side]))


def retreat_options(w: World, frame: core.Frame[RetreatAwaited]) -> list[dict[str, Any]]:
    """Every unit still to retreat with each of its legal paths (caldiero §12.6)."""
    moves = frame.ctx.moves
    return [{"type": "retreat", "unit": u, "path": list(p.path)} for u in sorted(moves) for p in lines(CALDIERO_VARIANT, w, [u], moves[u])]


def answer_retreat(a: Act, frame: core.Frame[RetreatAwaited], cmd: C.RetreatAlong) -> None:
    """The owner's answer to the pending retreat (caldiero §12.6): one unit and its path, taken (the kernel's
    `retreat_ground.take`: §12.6.1's extra disorder, a unit it routs going on two hexes, §15.2.1, in this frame), the
    others' way checked again (§12.6.3), then the routed enemies next to its end tested (§15.2, `arrived`)."""
    moves: dict[str, int] = dict(frame.ctx.moves)
    u = cmd.unit
    if u not in moves:
        raise Reject(CALDIERO.RETREAT, f"{u} has no retreat to make; waiting for: {', '.join(sorted(moves))}")
    options = lines(CALDIERO_VARIANT, a.w, [u], moves[u])
    chosen = next((p for p in options if list(p.path) == list(cmd.path)), None)
    if chosen is None:
        raise Reject(CALDIERO.RETREAT, f"{cmd.path} is not a legal retreat for {u}: each hex farther from the enemy and out of "
                     f"enemy ZoC if possible; choose one of {[list(p.path) for p in options][:6]} (caldiero §12.6)")
    del moves[u]
    routed = retreat_ground.take(a, CALDIERO_VARIANT, [u], chosen, frame.rule)
    moves |= {x: rout.RETREAT_HEXES for x in routed}
    for x in sorted(moves):  # a retreat just made may have closed the others' way (caldiero §12.6.3, §15.2.1)
        if a.state.units[x].where != "map":
            del moves[x]
        elif not lines(CALDIERO_VARIANT, a.w, [x], moves[x]):
            del moves[x]
            elimination.eliminate(a, CALDIERO_VARIANT, x, R.ROUT_RETREAT if x in routed else R.RETREAT_BLOCKED, permanent=True)
    if moves:
        update_frame(a.ctx, frame, RetreatAwaited(moves=moves))
    else:
        close_frame(a.ctx, frame)
    retreat_ground.arrived(a, CALDIERO_VARIANT, chosen)


def lone_leaders(a: Act, h: str, seat: str) -> None:
    """caldiero §8.2.3: an enemy leader alone where our combat unit arrived escapes up to his full movement
    (his owner chooses where: a pending decision), or is captured if he cannot leave the hex."""
    enemy = enemy_of(seat)
    for leader in a.w.leaders_at(h, enemy):
        if a.w.side_units_at(h, enemy):
            continue
        if leader_reachable(a.w, leader, escape=True):
            open_frame(a.ctx, LEADER_ESCAPE, (enemy,), str(R.LEADER_ESCAPE), ESCAPE_PROMPT, EscapeAwaited(leader=leader))
        else:
            a.emit(ev.LeaderLost(leader=leader, rule=str(R.LEADER_ESCAPE)))


def leader_escape_options(w: World, frame: core.Frame[EscapeAwaited]) -> list[dict[str, Any]]:
    leader = frame.ctx.leader
    return [{"type": "move_leader", "leader": leader, "to": d, "path": None} for d in sorted(leader_reachable(w, leader, escape=True))]


def do_leader_escape(a: Act, frame: core.Frame[EscapeAwaited], cmd: Any) -> None:
    leader = frame.ctx.leader
    options = leader_reachable(a.w, leader, escape=True)
    if cmd.leader != leader or cmd.to not in options:
        raise Reject(R.LEADER_ESCAPE, f"{leader} escapes to a hex he can reach with his 6 MP: {', '.join(sorted(options))} (caldiero §8.2.3)")
    close_frame(a.ctx, frame)
    a.emit(ev.LeaderMoved(leader=leader, path=options[cmd.to], rule=str(R.LEADER_ESCAPE)))

