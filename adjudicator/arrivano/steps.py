"""Arrivano i Francesi!: the pending frames (arrivano §3's procedures that wait on a seat): what each one accepts,
how an accepted answer is carried out, and the frames settled without a choice (none left, or a single one).

This is the top of the game's rule modules: it dispatches to the assault, movement and open-order procedures,
which build on flow.py (and turn.py, activation.py) and never on it, so the imports run one way.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from arbitro.adjudicator.arrivano import assault as A
from arbitro.adjudicator.arrivano import movement as M
from arbitro.adjudicator.arrivano import open_order as O
from arbitro.adjudicator.arrivano import retreats as RT
from arbitro.adjudicator.arrivano import rules as R
from arbitro.adjudicator.arrivano.activation import finish_activation, recover, recovery_candidates
from arbitro.adjudicator.arrivano.flow import (
    advance_into,
    after_leader_lost,
    as_frame,
    clear,
    do_retreat,
    push,
    push_retreat,
    rout_move,
    stack_test,
    top,
)
from arbitro.adjudicator.parabellum.act import Act
from arbitro.adjudicator.arrivano.turn import rout_moves
from arbitro.adjudicator.parabellum.world import World
from arbitro.adjudicator.decisions import Step
from arbitro.adjudicator.arrivano.variant import ARRIVANO, ARRIVANO_VARIANT
from arbitro.adjudicator.parabellum import advance, bombardment, elimination, reinforcements
from arbitro.adjudicator.parabellum.orders import ORDERS
from arbitro.adjudicator.parabellum.assault_frame import ASSAULT, assault_below
from arbitro.adjudicator.parabellum.sequence import Steps
from arbitro.adjudicator.parabellum.steps import procedures
from arbitro.adjudicator.parabellum.retreat_ground import BEFORE_COMBAT_LENGTH, lines
from arbitro.adjudicator.ruleset import Decision
from arbitro.events import arrivano as ev
from arbitro.events import core
from arbitro.events.parabellum import AssaultUnderway, RetreatAwaited
from arbitro.projections.arrivano import ArrivanoState, Frame
from arbitro.projections.game import GameState


def refuge_hexes(w: World, lid: str) -> list[str]:
    """arrivano §4.5.4: the hexes of the nearest friendly units he can reach with his movement; with none within
    it, any hex he can reach that holds no enemy (reading: "sull'unità amica più vicina" counts hexes, and "entro la
    sua capacità di movimento" the commander's own movement, leader_destinations)."""
    leader = w.state.leaders[lid]
    reach = list(M.leader_destinations(w, lid))
    friends = [h for h in reach if w.side_at(h) == leader.side]
    if not friends:
        return sorted(reach)
    near = min(w.grid.distance(leader.hex, h) for h in friends)
    return sorted(h for h in friends if w.grid.distance(leader.hex, h) == near)


def frame_options(w: World, frame: Frame, assault: AssaultUnderway | None = None) -> list[dict[str, Any]] | None:
    """The answers to `frame` (`assault`: the assault in progress below it, whose decisions read it)."""
    match frame.kind:
        case "retreat":
            return RT.retreat_answers(w, frame)
        case "rout_move":
            return RT.rout_answers(w, frame)
        case "artillery_retreat":
            return RT.artillery_answers(frame)
        case "advance":  # arrivano §11.1.1: after artillery alone the advance is obligatory
            return advance_answers(w, frame) + ([] if frame.data.get("must") else [{"type": "decline"}])
        case "choose_order":
            return [{"type": "choose_order", "order": o} for o in ORDERS]
        case "dr_choice":
            return [{"type": "dr_choice", "choice": c} for c in frame.data["choices"]]
        case "ne_choice":
            return [{"type": "ne_choice", "test": t} for t in (True, False)]
        case "defensive_fire":  # arrivano §11.4.4, interpretation defensive_fire_targets
            assert assault is not None, "a defensive fire waits above its assault"
            hexes = [w.state.units[u].hex for u in assault.attackers]
            return bombardment.defensive_fire_answers(ARRIVANO_VARIANT, w, bombardment.ready(w, frame.data["battery"]), hexes,
                                                      w.reading("defensive_fire_targets") == "one_target") + \
                [{"type": "defensive_fire", "target": None}]
        case "escape":
            lid = frame.data["leader"]
            if w.state.leaders[lid].where != "map":
                return []
            out = [{"type": "escape", "to": h} for h in M.leader_destinations(w, lid)]  # his move (§4.5.6, §8.2.3)
            return out if frame.data["forced"] else out + [{"type": "escape", "to": None}]
        case "countercharge":
            return [{"type": "countercharge", "unit": u} for u in frame.data["counter"]] + \
                [{"type": "countercharge", "unit": None}]
        case "free_order":
            return [{"type": "free_order", "order": o} for o in ORDERS]
        case "efficiency_value":
            return [{"type": "efficiency_value", "value": v} for v in frame.data["values"]]
        case "recovery":
            hexes = recovery_candidates(w, list(frame.data["tried"]))
            return [{"type": "recover", "hex": h} for h in hexes] + [{"type": "recover", "hex": None}]
        case "exchange_loss":
            return [{"type": "exchange_loss", "units": list(s)} for s in frame.data["sets"]
                    if all(w.state.units[u].where == "map" for u in s)]
        case "replacement_hex":
            unit = frame.data["unit"]  # arrivano §12.8.2: only a unit still on the track
            return [{"type": "replacement_hex", "hex": h} for h in reinforcements.return_hexes(ARRIVANO_VARIANT, w, unit)
                    if w.state.units[unit].where == "track"]
        case "commander_refuge":
            lid = frame.data["leader"]
            if w.state.leaders[lid].where != "map":
                return []
            return [{"type": "commander_refuge", "to": h} for h in refuge_hexes(w, lid)]
        case "cavalry_retreat":
            return RT.cavalry_answers(w, frame)
        case "light_retreat":
            return RT.light_answers(w, frame)
        case "fall_back" | "fire_target":
            lister = {"fall_back": O.fall_back_options, "fire_target": O.target_options}[frame.kind]
            return lister(w, frame)
    return None


def advance_answers(w: World, frame: Frame) -> list[dict[str, Any]]:
    """arrivano §12.7: the kernel's advances (parabellum/advance.answers) into the hexes this assault attacked."""
    return advance.answers(w, sorted(frame.data["attackers"]), frame.data["targets"], w.enemy(frame.seat))


class Automatic:
    """Arrivano's answers to the kernel's `sequence.settle`: the decisions on top that need no choice (none left, or
    a single answer) are carried out, then a step of `table` whose seat has nothing left to do in it is ended for him
    (the kernel's `sequence.NOTHING_LEFT`), once `checks` (what holds at any time: ruleset.any_time) have run on the
    position it ends in; the sequence's automatic steps run where they begin (turn.py)."""

    def __init__(self, g: Act, table: Steps[Act, World], checks: Callable[[Act], None]) -> None:
        self.g, self.top, self.table, self.checks = g, top(g), table, checks

    def decision_waiting(self) -> bool:
        self.top = top(self.g)
        return self.top is not None

    def settle_decision(self) -> bool:
        assert self.top is not None
        return settle_top(self.g, self.top)

    def settle_step(self) -> bool:
        if not self._ends():
            return False
        self.checks(self.g)  # a march order ended or the game won is so before the next step begins
        if not self._ends():
            return False
        self.table.end(self.g.state.step, self.g, self.g.state.seat)
        return True

    def _ends(self) -> bool:
        state = self.g.state
        return state.result is None and self.table.ends_by_itself(state.step, self.g.world(), state.seat)

    def clock(self) -> ArrivanoState:
        return self.g.state


def settle_top(g: Act, frame: Frame) -> bool:
    """Resolve `frame`, the one on top, if it needs no choice (no answer or a single forced one); False: its seat
    decides."""
    opts = frame_options(g.world(), frame, assault_below(g.ctx.game.core.decisions))
    if frame.kind in ("retreat", "rout_move"):
        if not opts:  # arrivano §12.6.3: nowhere to go
            clear(g, frame)
            units = list(frame.data["moves"]) if frame.kind == "retreat" else [frame.data["unit"]]
            for u in units:  # (a rout move: only a unit still routed on the map)
                unit = g.state.units[u]
                if unit.where == "map" and (frame.kind == "retreat" or unit.status == "routed"):
                    elimination.eliminate(g, ARRIVANO_VARIANT, u, R.SURROUNDED, permanent=True, because=frame.rule)
            return True
        if len(opts) == 1:
            clear(g, frame)
            resolve_answer(g, frame, opts[0])
            return True
        return False
    if frame.kind == "end_phase":
        clear(g, frame)
        rout_moves(g, list(frame.data["done"]))
        return True
    if frame.kind == "escape":
        opts = frame_options(g.world(), frame) or []
        lid = frame.data["leader"]
        if g.state.leaders[lid].where != "map" or (not frame.data["forced"] and len(opts) == 1):
            clear(g, frame)
            return True
        if frame.data["forced"] and not opts:  # arrivano §8.2.3: nowhere to go
            clear(g, frame)
            g.emit(ev.LeaderLost(leader=lid, rule=str(R.COMMANDER_ZOC_ESCAPE)))
            after_leader_lost(g, lid)
            return True
        return False
    if frame.kind == "recovery" and len(opts or []) <= 1:  # nothing left to try
        clear(g, frame)
        finish_activation(g)
        return True
    if frame.kind in ("exchange_loss", "replacement_hex", "commander_refuge", "fire_target") and len(opts or []) <= 1:
        settle_single(g, frame, (opts or [None])[0])
        return True
    if frame.kind == ASSAULT:  # nobody answers it: its stages run (the retreats its defensive fire caused made)
        A.run(g)
        return True
    if frame.kind == "dr_test":
        clear(g, frame)
        A.dr_tests(g, frame)
        return True
    if frame.kind == "advance" and not advance_answers(g.world(), frame):
        clear(g, frame)
        return True
    if frame.kind == "fall_back" and len(opts or []) == 1:  # nowhere to fall back to (arrivano §16.3)
        clear(g, frame)
        return True
    return False


def settle_single(g: Act, frame: Frame, only: dict[str, Any] | None) -> None:
    """A choice left with one answer is made for the owner; with none: nobody is placed (the unit waits on the
    track, the commander stays), and an exchange goes on without a loss on that side."""
    clear(g, frame)
    if only is not None:
        apply_answer(g, frame, only)
    elif frame.kind == "exchange_loss":
        data = {k: v for k, v in frame.data.items() if k not in ("role", "sets")}
        A.continue_exchange(g, data | {"lost": dict(frame.data["lost"]) | {frame.data["role"]: None}})


def resolve_answer(g: Act, frame: Frame, dumped: dict[str, Any]) -> None:
    """Carry out an accepted answer to a retreat, rout move or §11.1 artillery choice (its frame already cleared)."""
    w = g.world()
    match frame.kind:
        case "retreat":
            units = [u for u in dumped["units"] if w.state.units[u].where == "map"]
            line = next(ln for ln in lines(ARRIVANO_VARIANT, w, units, frame.data["moves"][units[0]])
                        if ln.to == dumped["to"] and ln.off_map == dumped["off_map"])
            do_retreat(g, units, line, frame.rule)
            rest = {u: frame.data["moves"][u] for u in RT.live(g.world(), frame) if u not in units}
            if rest:  # arrivano §12.6: the rest of the stack may retreat elsewhere
                push(g, "retreat", frame.seat, frame.rule, RetreatAwaited(moves=rest))
        case "rout_move":
            rout_move(g, frame.data["unit"], dumped["to"], dumped["off_map"])
        case "artillery_retreat":
            guns = sorted(dumped["units"])
            if guns:  # arrivano §11.1: the guns that go are turned to their Moved side
                g.emit(ev.ArtilleryTurned(units=guns, moved=True, rule=str(ARRIVANO.ARTILLERY_STACKED)))
            push_retreat(g, sorted(frame.data["units"] + guns), 1, R.BOMBARD_TABLE)


def _ends(opts: list[dict[str, Any]]) -> str:
    return ", ".join(sorted({o["to"] + (" off the map" if o.get("off_map") else "") for o in opts})) or "none"


def refusal(w: World, frame: Frame, dumped: dict[str, Any], opts: list[dict[str, Any]]) -> tuple[Any, str]:
    """Why an answer to the pending frame is refused: the citation and what is permitted instead."""
    kind = frame.kind.replace("_", " ")
    if frame.kind == "advance":
        return advance.refusal(ARRIVANO_VARIANT, opts, bool(frame.data.get("must")))
    if dumped.get("type") != frame.kind:
        return frame.rule, f"not an answer to the pending {kind}"
    match frame.kind:
        case "retreat":
            units = RT.live(w, frame)
            if not dumped["units"] or any(u not in units for u in dumped["units"]):
                return ARRIVANO.RETREAT, f"the units still to retreat are {', '.join(units)}"
            if any(o["units"] == dumped["units"] for o in opts):
                where = dumped["to"] + (" off the map" if dumped["off_map"] else "")
                mine = ", ".join(o["to"] + (" off the map" if o["off_map"] else "") for o in opts
                                 if o["units"] == dumped["units"])
                return ARRIVANO.RETREAT, (f"{where} is not a permitted end of this retreat: away from the enemy if possible, "
                                   f"not into EZoC if avoidable ({ARRIVANO.RETREAT_EZOC}), where stacking allows "
                                   f"({ARRIVANO.RETREAT_STACKING}), off the map only when forced ({ARRIVANO.OFF_MAP}); "
                                   f"permitted: {mine}")
            if any(w.state.units[u].arm == "artillery" for u in units):
                return ARRIVANO.ARTILLERY_STACKED, ("these units cannot retreat apart from the rest: artillery retreats only "
                                             "with a combat unit")
            return ARRIVANO.RETREAT, f"every permitted line ends in {_ends(opts)}: the stack retreats there together"
        case "rout_move":
            return R.ROUT_MOVE, (f"{dumped['to']} is neither the end of a permitted two-hex rout away from the enemy "
                                 f"nor a village, redoubt or friendly general's hex where the rout may stop; "
                                 f"permitted: {_ends(opts)}")
        case "artillery_retreat":
            guns = ", ".join(frame.data["artillery"])
            return ARRIVANO.ARTILLERY_STACKED, f"only the guns stacked with the bombarded units may go with them: {guns}"
        case "cavalry_retreat" | "light_retreat":
            return frame.rule, before_combat_refusal(w, frame, dumped, opts)
    return frame.rule, f"not an answer to the pending {kind}"


def before_combat_refusal(w: World, frame: Frame, dumped: dict[str, Any], opts: list[dict[str, Any]]) -> str:
    """What is wrong with an answer to a retreat before combat (arrivano §14.1, §16.3.5) and what is permitted."""
    key = "unit" if frame.kind == "light_retreat" else "units"
    if dumped.get(key) not in [o[key] for o in opts]:
        may = sorted({str(o[key]) for o in opts if o[key] is not None})
        return f"{dumped.get(key)} may not retreat before this combat; may: {', '.join(may) or 'none'}"
    where = f"{dumped['to']}" + (" off the map" if dumped.get("off_map") else "")
    mine = [o for o in opts if o[key] == dumped[key] and o["to"] is not None]
    leave = (f"off the map only under the ruling retreat_before_combat_off_map: as_forced ({ARRIVANO.OFF_MAP})"
             if ARRIVANO_VARIANT.before_combat_leaves_map(w.reading) else
             f"never off the map: no unit is obliged to this retreat ({ARRIVANO.OFF_MAP} reading stays_on_map)")
    fit = (f"where stacking allows, going on past full hexes ({ARRIVANO.RETREAT_STACKING}; reading "
           f"{BEFORE_COMBAT_LENGTH} goes_on)" if w.reading(BEFORE_COMBAT_LENGTH) == "goes_on" else
           f"into a hex where stacking allows, never going on past a full one ({ARRIVANO.STACKING}; "
           f"{ARRIVANO.RETREAT_STACKING} is a forced retreat's: reading {BEFORE_COMBAT_LENGTH} one_hex)")
    return (f"{where} is not a permitted end of this retreat before combat: one hex away from the enemy if "
            f"possible ({ARRIVANO.RETREAT}), not into EZoC if avoidable ({ARRIVANO.RETREAT_EZOC}), {fit}, {leave}; "
            f"permitted: {_ends(mine)}")


def answer(g: Act, command: Any) -> None:
    """A command answering the pending frame on top."""
    frame = top(g)
    assert frame is not None
    opts = frame_options(g.world(), frame, assault_below(g.ctx.game.core.decisions)) or []
    dumped = command.model_dump(mode="json")
    if frame.kind == "retreat" and dumped.get("type") == "retreat":
        dumped = RT.normalise(g.world(), frame, dumped)
    if frame.kind == "cavalry_retreat" and dumped.get("type") == "cavalry_retreat":
        dumped = RT.normalise_cavalry(g.world(), frame, dumped)
    # the options in the stored form of the command (defaults spelt out), so an option may leave a default out
    stored = [type(command).model_validate(o).model_dump(mode="json") if o.get("type") == dumped["type"] else o for o in opts]
    if dumped not in stored:
        g.reject(*refusal(g.world(), frame, dumped, opts))
    clear(g, frame)
    apply_answer(g, frame, dumped)


def apply_answer(g: Act, frame: Frame, dumped: dict[str, Any]) -> None:
    """Carry out an accepted answer to `frame` (already cleared from the stack)."""
    match frame.kind:
        case "retreat" | "rout_move" | "artillery_retreat":
            resolve_answer(g, frame, dumped)
        case "advance":
            if dumped["type"] == "advance":
                advance_into(g, dumped["units"], dumped["to"])
        case "choose_order":
            fid = frame.data["formation"]
            if g.state.formations[fid].order != dumped["order"]:
                g.emit(ev.OrderChanged(formation=fid, order=dumped["order"], by="reinforcement", rule=str(R.MB_FIRST_TURN)))
        case "dr_choice":
            A.dr_choice(g, frame, dumped["choice"])
        case "ne_choice":
            A.ne_choice(g, frame, dumped["test"])
        case "defensive_fire":
            A.defensive_fire(g, frame, dumped["artillery"], dumped["target"])
        case "escape":
            if dumped["to"] is not None:
                lid = frame.data["leader"]
                g.emit(ev.LeaderMoved(leader=lid, path=M.leader_destinations(g.world(), lid)[dumped["to"]], rule=frame.rule))
        case "cavalry_retreat":
            A.cavalry_retreat(g, frame, dumped)
        case "countercharge":
            M.countercharge_answer(g, frame.data, dumped["unit"])
        case "fall_back":
            O.fall_back(g, frame, dumped["to"])
        case "fire_target":
            O.apply_fire_result(g, dumped["unit"], frame.data["result"])
        case "light_retreat":
            light_retreat(g, frame, dumped["unit"], dumped["to"], dumped["off_map"])
        case "recovery":
            recover(g, frame, dumped["hex"])
        case "efficiency_value":
            A.efficiency_value_answer(g, dumped["value"], frame.data["role"])
        case "free_order":
            units = [u for u in frame.data["units"] if g.state.units[u].where == "map"]
            for uid in units:
                g.emit(ev.UnitOrderSet(unit=uid, order=dumped["order"], rule=frame.rule))
        case "exchange_loss":
            A.exchange_loss(g, frame, dumped["units"][0])
        case "replacement_hex":
            g.emit(ev.UnitPlaced(unit=frame.data["unit"], hex=dumped["hex"], rule=str(R.RETURN), reduced=True))
        case "commander_refuge":
            lid = frame.data["leader"]
            g.emit(ev.LeaderMoved(leader=lid, path=(dumped["to"],), rule=str(ARRIVANO.LEADER_ALONE)))


def light_retreat(g: Act, frame: Frame, uid: str | None, to: str | None, off_map: bool = False) -> None:
    """The owner names a V unit and its hex: it tests, and on a pass retreats before the odds (§16.3.5); then the
    others may try; `None` ends the step and the assault goes on."""
    if uid is not None and to is not None:
        h = frame.data["hex"]
        passed = stack_test(g, [uid], f"{R.LIGHT_RETREAT} retreat before the assault from {h}")[uid]
        g.emit(ev.OpenOrderTested(unit=uid, test="retreat", passed=passed, rule=str(R.LIGHT_RETREAT)))
        if passed:
            line = RT.before_combat_line(g.world(), [uid], to, off_map)
            A.retreat_before_combat(g, [uid], line, R.LIGHT_RETREAT)
        rest = [u for u in frame.data["units"] if u != uid and u in O.light_retreat_candidates(g.world(), h)]
        if rest:
            push(g, "light_retreat", frame.seat, frame.rule, {"units": rest, "hex": h})
            return
    A.run(g)


def steps(world: Callable[[ArrivanoState], World],
          after: Callable[[Decision[ArrivanoState], Any], None]) -> dict[str, Step[Any]]:
    """Each kind of Arrivano's decisions (the kinds of ev.ARRIVANO_CONTEXTS) on the kernel's steps: its options are
    `frame_options`, the answers listed to its seat (legal()); an answer is carried out by `answer` above, then the
    procedure goes on as after any command (`after`: the ruleset's settle, march orders, sightings)."""
    def options(state: GameState[Any], frame: core.Frame[Any], seat: str) -> list[dict[str, Any]]:
        return frame_options(world(state.rules), as_frame(frame), assault_below(state.core.decisions)) or []

    return procedures({kind: (options, lambda ctx, frame, command: after(ctx, command)) for kind in ev.ARRIVANO_CONTEXTS})
