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
    clear,
    do_retreat,
    push,
    push_retreat,
    rout_move,
    top,
)
from arbitro.adjudicator.parabellum.act import Act, stack_test
from arbitro.adjudicator.arrivano.turn import rout_moves
from arbitro.adjudicator.parabellum.world import World
from arbitro.adjudicator.decisions import Step
from arbitro.adjudicator.arrivano.variant import ARRIVANO, ARRIVANO_VARIANT
from arbitro.adjudicator.parabellum import advance, bombardment, elimination, reinforcements
from arbitro.adjudicator.parabellum.orders import ORDERS
from arbitro.adjudicator.parabellum.assault_frame import ASSAULT, assault_below
from arbitro.adjudicator.parabellum.steps import procedures
from arbitro.adjudicator.parabellum.retreat_ground import BEFORE_COMBAT_LENGTH, lines
from arbitro.adjudicator.ruleset import Decision
from arbitro.events import arrivano as ev
from arbitro.events import core
from arbitro.events.parabellum import (AdvanceAwaited, AssaultUnderway, BeforeCombatAwaited, DefensiveFireAwaited,
                                       EscapeAwaited, RetreatAwaited)
from arbitro.projections.arrivano import ArrivanoState
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


Listed = list[dict[str, Any]]
# a kind's lister: its answers (the assault in progress below it, whose decisions read it) and its handler, which
# carries out an accepted one (the frame already closed); both read the frame's typed context (ev.ARRIVANO_CONTEXTS)
Lister = Callable[[World, core.Frame[Any], AssaultUnderway | None], Listed]
Answer = Callable[[Act, core.Frame[Any], dict[str, Any]], None]


def _defensive_fire(w: World, frame: core.Frame[DefensiveFireAwaited], assault: AssaultUnderway | None) -> Listed:
    """arrivano §11.4.4, interpretation defensive_fire_targets."""
    assert assault is not None, "a defensive fire waits above its assault"
    hexes = [w.state.units[u].hex for u in assault.attackers]
    return bombardment.defensive_fire_answers(ARRIVANO_VARIANT, w, bombardment.ready(w, frame.ctx.battery), hexes,
                                              w.reading("defensive_fire_targets") == "one_target") + \
        [{"type": "defensive_fire", "target": None}]


def _escape(w: World, frame: core.Frame[EscapeAwaited], assault: AssaultUnderway | None) -> Listed:
    """His move (arrivano §4.5.6, §8.2.3); staying only where he need not flee."""
    if w.state.leaders[frame.ctx.leader].where != "map":
        return []
    out: Listed = [{"type": "escape", "to": h} for h in M.leader_destinations(w, frame.ctx.leader)]
    return out if frame.ctx.forced else out + [{"type": "escape", "to": None}]


def _replacement_hex(w: World, frame: core.Frame[ev.ReplacementHexAwaited], assault: AssaultUnderway | None) -> Listed:
    unit = frame.ctx.unit  # arrivano §12.8.2: only a unit still on the track
    return [{"type": "replacement_hex", "hex": h} for h in reinforcements.return_hexes(ARRIVANO_VARIANT, w, unit)
            if w.state.units[unit].where == "track"]


def _refuge(w: World, frame: core.Frame[ev.RefugeAwaited], assault: AssaultUnderway | None) -> Listed:
    if w.state.leaders[frame.ctx.leader].where != "map":
        return []
    return [{"type": "commander_refuge", "to": h} for h in refuge_hexes(w, frame.ctx.leader)]


def _of(lister: Callable[[World, Any], Listed]) -> Lister:
    return lambda w, frame, assault: lister(w, frame)


OPTIONS: dict[str, Lister] = {
    "retreat": _of(RT.retreat_answers), "rout_move": _of(RT.rout_answers),
    "artillery_retreat": lambda w, frame, assault: RT.artillery_answers(frame),
    # arrivano §11.1.1: after artillery alone the advance is obligatory
    "advance": lambda w, frame, assault: advance_answers(w, frame) + ([] if frame.ctx.must else [{"type": "decline"}]),
    "choose_order": lambda w, frame, assault: [{"type": "choose_order", "order": o} for o in ORDERS],
    "dr_choice": lambda w, frame, assault: [{"type": "dr_choice", "choice": c} for c in frame.ctx.choices],
    "ne_choice": lambda w, frame, assault: [{"type": "ne_choice", "test": t} for t in (True, False)],
    "defensive_fire": _defensive_fire,
    "escape": _escape,
    "countercharge": lambda w, frame, assault: [{"type": "countercharge", "unit": u} for u in frame.ctx.counter]
    + [{"type": "countercharge", "unit": None}],
    "free_order": lambda w, frame, assault: [{"type": "free_order", "order": o} for o in ORDERS],
    "efficiency_value": lambda w, frame, assault: [{"type": "efficiency_value", "value": v} for v in frame.ctx.values],
    "recovery": lambda w, frame, assault: [{"type": "recover", "hex": h} for h in recovery_candidates(
        w, list(frame.ctx.tried))] + [{"type": "recover", "hex": None}],
    "exchange_loss": lambda w, frame, assault: [{"type": "exchange_loss", "units": list(s)} for s in frame.ctx.sets
                                                if all(w.on_map(u) for u in s)],
    "replacement_hex": _replacement_hex,
    "commander_refuge": _refuge,
    "cavalry_retreat": _of(RT.cavalry_answers), "light_retreat": _of(RT.light_answers),
    "fall_back": _of(O.fall_back_options), "fire_target": _of(O.target_options),
}


def frame_options(w: World, frame: core.Frame[Any], assault: AssaultUnderway | None = None) -> Listed:
    """The answers to `frame` (none for the frames nobody answers: the assault, the end phase, the DR test)."""
    lister = OPTIONS.get(frame.kind)
    return lister(w, frame, assault) if lister is not None else []


def advance_answers(w: World, frame: core.Frame[AdvanceAwaited]) -> Listed:
    """arrivano §12.7: the kernel's advances (parabellum/advance.answers) into the hexes this assault attacked."""
    return advance.answers(w, sorted(frame.ctx.attackers), list(frame.ctx.targets), w.enemy(frame.seats[0]))


def settle_top(g: Act, frame: core.Frame[Any]) -> bool:
    """Resolve `frame`, the one on top, if it needs no choice (no answer or a single forced one); False: its seat
    decides."""
    opts = frame_options(g.world(), frame, assault_below(g.ctx.game.core.decisions))
    if frame.kind in ("retreat", "rout_move"):
        if not opts:  # arrivano §12.6.3: nowhere to go
            clear(g, frame)
            units = list(frame.ctx.moves) if frame.kind == "retreat" else [frame.ctx.unit]
            for u in units:  # (a rout move: only a unit still routed on the map)
                unit = g.state.units[u]
                if unit.where == "map" and (frame.kind == "retreat" or unit.status == "routed"):
                    elimination.eliminate(g, ARRIVANO_VARIANT, u, R.SURROUNDED, permanent=True, because=frame.rule)
            return True
        if len(opts) == 1:
            clear(g, frame)
            ANSWERS[frame.kind](g, frame, opts[0])
            return True
        return False
    if frame.kind == "end_phase":
        clear(g, frame)
        rout_moves(g, list(frame.ctx.done))
        return True
    if frame.kind == "escape":
        lid, forced = frame.ctx.leader, frame.ctx.forced
        if g.state.leaders[lid].where != "map" or (not forced and len(opts) == 1):
            clear(g, frame)
            return True
        if forced and not opts:  # arrivano §8.2.3: nowhere to go
            clear(g, frame)
            g.emit(ev.LeaderLost(leader=lid, rule=str(R.COMMANDER_ZOC_ESCAPE)))
            after_leader_lost(g, lid)
            return True
        return False
    if frame.kind == "recovery" and len(opts) <= 1:  # nothing left to try
        clear(g, frame)
        finish_activation(g)
        return True
    if frame.kind in ("exchange_loss", "replacement_hex", "commander_refuge", "fire_target") and len(opts) <= 1:
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
    if frame.kind == "fall_back" and len(opts) == 1:  # nowhere to fall back to (arrivano §16.3)
        clear(g, frame)
        return True
    return False


def settle_single(g: Act, frame: core.Frame[Any], only: dict[str, Any] | None) -> None:
    """A choice left with one answer is made for the owner; with none: nobody is placed (the unit waits on the
    track, the commander stays), and an exchange goes on without a loss on that side."""
    clear(g, frame)
    if only is not None:
        ANSWERS[frame.kind](g, frame, only)
    elif frame.kind == "exchange_loss":
        A.exchange_loss(g, frame, None)


def _retreat(g: Act, frame: core.Frame[RetreatAwaited], dumped: dict[str, Any]) -> None:
    w = g.world()
    units = [u for u in dumped["units"] if w.on_map(u)]
    line = next(ln for ln in lines(ARRIVANO_VARIANT, w, units, frame.ctx.moves[units[0]])
                if ln.to == dumped["to"] and ln.off_map == dumped["off_map"])
    do_retreat(g, units, line, frame.rule)
    rest = {u: frame.ctx.moves[u] for u in RT.live(g.world(), frame) if u not in units}
    if rest:  # arrivano §12.6: the rest of the stack may retreat elsewhere
        push(g, "retreat", frame.seats[0], frame.rule, RetreatAwaited(moves=rest))


def _artillery_retreat(g: Act, frame: core.Frame[ev.ArtilleryRetreatAwaited], dumped: dict[str, Any]) -> None:
    guns = sorted(dumped["units"])
    if guns:  # arrivano §11.1: the guns that go are turned to their Moved side
        g.emit(ev.ArtilleryTurned(units=guns, moved=True, rule=str(ARRIVANO.ARTILLERY_STACKED)))
    push_retreat(g, sorted([*frame.ctx.units, *guns]), 1, R.BOMBARD_TABLE)


def _ends(opts: list[dict[str, Any]]) -> str:
    return ", ".join(sorted({o["to"] + (" off the map" if o.get("off_map") else "") for o in opts})) or "none"


def refusal(w: World, frame: core.Frame[Any], dumped: dict[str, Any], opts: list[dict[str, Any]]) -> tuple[Any, str]:
    """Why an answer to the pending frame is refused: the citation and what is permitted instead."""
    kind = frame.kind.replace("_", " ")
    if frame.kind == "advance":
        return advance.refusal(ARRIVANO_VARIANT, opts, frame.ctx.must)
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
            guns = ", ".join(frame.ctx.artillery)
            return ARRIVANO.ARTILLERY_STACKED, f"only the guns stacked with the bombarded units may go with them: {guns}"
        case "cavalry_retreat" | "light_retreat":
            return frame.rule, before_combat_refusal(w, frame, dumped, opts)
    return frame.rule, f"not an answer to the pending {kind}"


def before_combat_refusal(w: World, frame: core.Frame[Any], dumped: dict[str, Any], opts: list[dict[str, Any]]) -> str:
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
    opts = frame_options(g.world(), frame, assault_below(g.ctx.game.core.decisions))
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
    ANSWERS[frame.kind](g, frame, dumped)


def _escaped(g: Act, frame: core.Frame[EscapeAwaited], dumped: dict[str, Any]) -> None:
    if dumped["to"] is not None:
        lid = frame.ctx.leader
        g.emit(ev.LeaderMoved(leader=lid, path=M.leader_destinations(g.world(), lid)[dumped["to"]], rule=frame.rule))


def _order_chosen(g: Act, frame: core.Frame[ev.OrderAwaited], dumped: dict[str, Any]) -> None:
    fid = frame.ctx.formation
    if g.state.formations[fid].order != dumped["order"]:
        g.emit(ev.OrderChanged(formation=fid, order=dumped["order"], by="reinforcement", rule=str(R.MB_FIRST_TURN)))


def _free_order(g: Act, frame: core.Frame[ev.FreeOrderAwaited], dumped: dict[str, Any]) -> None:
    for uid in [u for u in frame.ctx.units if g.world().on_map(u)]:
        g.emit(ev.UnitOrderSet(unit=uid, order=dumped["order"], rule=frame.rule))


ANSWERS: dict[str, Answer] = {
    "retreat": _retreat,
    "rout_move": lambda g, frame, dumped: rout_move(g, frame.ctx.unit, dumped["to"], dumped["off_map"]),
    "artillery_retreat": _artillery_retreat,
    "advance": lambda g, frame, dumped: advance_into(g, dumped["units"], dumped["to"])
    if dumped["type"] == "advance" else None,
    "choose_order": _order_chosen,
    "dr_choice": lambda g, frame, dumped: A.dr_choice(g, frame, dumped["choice"]),
    "ne_choice": lambda g, frame, dumped: A.ne_choice(g, frame, dumped["test"]),
    "defensive_fire": lambda g, frame, dumped: A.defensive_fire(g, frame, dumped["artillery"], dumped["target"]),
    "escape": _escaped,
    "cavalry_retreat": A.cavalry_retreat,
    "countercharge": lambda g, frame, dumped: M.countercharge_answer(g, frame.ctx, dumped["unit"]),
    "fall_back": lambda g, frame, dumped: O.fall_back(g, frame, dumped["to"]),
    "fire_target": lambda g, frame, dumped: O.apply_fire_result(g, dumped["unit"], frame.ctx.result),
    "light_retreat": lambda g, frame, dumped: light_retreat(g, frame, dumped["unit"], dumped["to"], dumped["off_map"]),
    "recovery": lambda g, frame, dumped: recover(g, frame, dumped["hex"]),
    "efficiency_value": lambda g, frame, dumped: A.efficiency_value_answer(g, dumped["value"], frame.ctx.role),
    "free_order": _free_order,
    "exchange_loss": lambda g, frame, dumped: A.exchange_loss(g, frame, dumped["units"][0]),
    "replacement_hex": lambda g, frame, dumped: g.emit(ev.UnitPlaced(
        unit=frame.ctx.unit, hex=dumped["hex"], rule=str(R.RETURN), reduced=True)),
    "commander_refuge": lambda g, frame, dumped: g.emit(ev.LeaderMoved(
        leader=frame.ctx.leader, path=(dumped["to"],), rule=str(ARRIVANO.LEADER_ALONE))),
}


def light_retreat(g: Act, frame: core.Frame[BeforeCombatAwaited], uid: str | None, to: str | None, off_map: bool = False) -> None:
    """The owner names a V unit and its hex: it tests, and on a pass retreats before the odds (§16.3.5); then the
    others may try; `None` ends the step and the assault goes on."""
    if uid is not None and to is not None:
        h = frame.ctx.hex
        passed = stack_test(g, [uid], f"{R.LIGHT_RETREAT} retreat before the assault from {h}")[uid]
        g.emit(ev.OpenOrderTested(unit=uid, test="retreat", passed=passed, rule=str(R.LIGHT_RETREAT)))
        if passed:
            line = RT.before_combat_line(g.world(), [uid], to, off_map)
            A.retreat_before_combat(g, [uid], line, R.LIGHT_RETREAT)
        rest = [u for u in frame.ctx.units if u != uid and u in O.light_retreat_candidates(g.world(), h)]
        if rest:
            push(g, "light_retreat", frame.seats[0], frame.rule, BeforeCombatAwaited(units=tuple(rest), hex=h))
            return
    A.run(g)


def steps(world: Callable[[GameState[Any]], World],
          after: Callable[[Decision[ArrivanoState], Any], None]) -> dict[str, Step[Any]]:
    """Each kind of Arrivano's decisions (the kinds of ev.ARRIVANO_CONTEXTS) on the kernel's steps: its options are
    `frame_options`, the answers listed to its seat (legal()); an answer is carried out by `answer` above, then the
    procedure goes on as after any command (`after`: the ruleset's settle, march orders, sightings)."""
    def options(state: GameState[Any], frame: core.Frame[Any], seat: str) -> list[dict[str, Any]]:
        return frame_options(world(state), frame, assault_below(state.core.decisions))

    return procedures({kind: (options, lambda ctx, frame, command: after(ctx, command)) for kind in ev.ARRIVANO_CONTEXTS})
