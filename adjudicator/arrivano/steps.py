"""Arrivano i Francesi!: the pending frames (arrivano §3's procedures that wait on a seat): what each one accepts,
how an accepted answer is carried out, and the frames settled without a choice (none left, or a single one).

This is the top of the game's rule modules: it dispatches to the assault, movement and open-order procedures,
which build on flow.py (and turn.py, activation.py) and never on it, so the imports run one way.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from arbitro.adjudicator.arrivano import assault as A
from arbitro.adjudicator.arrivano import commands as C
from arbitro.adjudicator.arrivano import movement as M
from arbitro.adjudicator.arrivano import open_order as O
from arbitro.adjudicator.arrivano import retreats as RT
from arbitro.adjudicator.arrivano import rules as R
from arbitro.adjudicator.arrivano.activation import recover, recovery_answers
from arbitro.adjudicator.arrivano.flow import (
    advance_into,
    clear,
    push,
    rout_move,
)
from arbitro.adjudicator.parabellum.act import Act, Game, stack_test
from arbitro.adjudicator.arrivano.turn import rout_moves
from arbitro.adjudicator.parabellum.world import World
from arbitro.adjudicator.decisions import Step
from arbitro.adjudicator.arrivano.variant import ARRIVANO, ARRIVANO_VARIANT
from arbitro.adjudicator.parabellum import (advance, assault_stages, before_combat, bombardment, elimination, escape,
                                            reinforcements, results, retreat_frame)
from arbitro.adjudicator.parabellum.commander_move import leader_ends
from arbitro.adjudicator.parabellum.orders import ORDERS
from arbitro.adjudicator.parabellum.assault_frame import ASSAULT
from arbitro.adjudicator.parabellum.steps import UNANSWERED, Listed, Row, procedures
from arbitro.adjudicator.parabellum.sight import unexaminable
from arbitro.events import arrivano as ev
from arbitro.events import core
from arbitro.events.parabellum import BeforeCombatAwaited


def refuge_hexes(w: World, lid: str) -> list[str]:
    """arrivano §4.5.4: the hexes of the nearest friendly units he can reach with his movement; with none within
    it, any hex he can reach that holds no enemy (reading: "sull'unità amica più vicina" counts hexes, and "entro la
    sua capacità di movimento" the commander's own movement, leader_ends)."""
    leader = w.state.leaders[lid]
    reach = list(leader_ends(ARRIVANO_VARIANT, w, lid))
    friends = [h for h in reach if w.side_at(h) == leader.side]
    if not friends:
        return sorted(reach)
    near = min(w.grid.distance(leader.hex, h) for h in friends)
    return sorted(h for h in friends if w.grid.distance(leader.hex, h) == near)


def _replacement_hex(w: World, frame: core.Frame[ev.ReplacementHexAwaited]) -> Listed:
    unit = frame.ctx.unit  # arrivano §12.8.2: only a unit still on the track
    return [{"type": "replacement_hex", "hex": h} for h in reinforcements.return_hexes(ARRIVANO_VARIANT, w, unit)
            if w.state.units[unit].where == "track"]


def _refuge(w: World, frame: core.Frame[ev.RefugeAwaited]) -> Listed:
    if w.state.leaders[frame.ctx.leader].where != "map":
        return []
    return [{"type": "commander_refuge", "to": h} for h in refuge_hexes(w, frame.ctx.leader)]


# The hexes whose stacks the count of a kind's answers reads beyond what every seat sees (a marker on each stack, its
# side, the map, the enemy's own pieces: projections/parabellum.view), each where stacking decides (§7.1): around a
# replacement's commanders (§12.8.2, who may stand out of sight too), around a unit falling back after its fire
# (§16.3). Not listed, the count is the enemy's to know: an exchange's or a fire's units stand in contact with it
# (§12.5.4, §16.3.3).
_READS: dict[str, Callable[[World, core.Frame[Any]], list[str]]] = {
    "replacement_hex": lambda w, frame: [h for c in ARRIVANO_VARIANT.return_commanders(w, frame.ctx.unit)
                                         if (at := w.leader_on_map(c)) is not None for h in w.grid.within(at, 1)],
    "fall_back": lambda w, frame: list(w.grid.within(w.state.units[frame.ctx.unit].hex, 1)) if w.on_map(frame.ctx.unit)
    else [],
    # where a lone commander may go is read from where he stands (arrivano §4.5.4); the markers he may reach show
    # their side to the enemy, whether they are friends is public
    "commander_refuge": lambda w, frame: [at] if (at := w.leader_on_map(frame.ctx.leader)) is not None else [],
}


def asks_owner(w: World, frame: core.Frame[Any]) -> bool:
    """Whether a decision left with one answer still waits for its owner (arrivano §11.3.2): every seat is served
    which seat the game awaits, so it is made for the owner only where the count of its answers is a function of what
    the enemy may examine: a retreat's or rout's as retreats.asks_owner says, another kind's wherever one of the hexes
    it reads (`_READS`) is out of the enemy's sight."""
    if frame.kind in (retreat_frame.RETREAT, "rout_move"):
        return RT.asks_owner(w, frame)
    if frame.kind == "fall_back" and frame.ctx.moved:  # its points left are its unseen move's (rev-k K1): public, moved
        return True
    reads = _READS.get(frame.kind)
    side = frame.seats[0]
    return reads is not None and bool(unexaminable(w, w.enemy(side), reads(w, frame), ARRIVANO_VARIANT.fog_reach(w)))


def settle_top(g: Act, frame: core.Frame[Any]) -> bool:
    """Resolve `frame`, the one on top, if it needs no choice (no answer or a single forced one); False: its seat
    decides."""
    opts = KINDS[frame.kind].listing(g.world(), frame) if frame.kind in KINDS else []
    if frame.kind in (retreat_frame.RETREAT, "rout_move"):
        if not opts and frame.kind == retreat_frame.RETREAT:  # §12.6.3: the stack it asks has nowhere to go
            return retreat_frame.settled(g, frame)
        if not opts:  # arrivano §12.6.3: nowhere to go (only a unit still routed on the map)
            clear(g, frame)
            if g.state.units[frame.ctx.unit].where == "map" and g.state.units[frame.ctx.unit].status == "routed":
                elimination.eliminate(g, ARRIVANO_VARIANT, frame.ctx.unit, ARRIVANO.RETREAT_BLOCKED, permanent=True,
                                      because=frame.rule)
            return True
        if len(opts) == 1 and not asks_owner(g.world(), frame):
            settle_single(g, frame, opts[0])
            return True
        return False
    if frame.kind == "end_phase":
        clear(g, frame)
        rout_moves(g, list(frame.ctx.done))
        return True
    if frame.kind == escape.ESCAPE:
        return escape.settled(g, frame)
    # none is made for him even where asks_owner holds: a refuge has none only with the enemy next to him, in its
    # sight, and a replacement with none stays on the turn track, served to all (tests/arrivano/test_fog_zero_answers)
    if frame.kind in ("exchange_loss", "replacement_hex", "commander_refuge", "fire_target") and \
            (not opts or len(opts) == 1 and not asks_owner(g.world(), frame)):
        settle_single(g, frame, (opts or [None])[0])
        return True
    if frame.kind == ASSAULT:  # nobody answers it: its stages run (the retreats its defensive fire caused made)
        A.run(g)
        return True
    if frame.kind == "fall_back" and len(opts) == 1 and not asks_owner(g.world(), frame):  # nowhere (§16.3)
        clear(g, frame)
        return True
    return False


def settle_single(g: Act, frame: core.Frame[Any], only: dict[str, Any] | None) -> None:
    """A choice left with one answer is made for the owner; with none: nobody is placed (the unit waits on the
    track, the commander stays), and an exchange goes on without a loss on that side."""
    if only is None or KINDS[frame.kind].closes:  # (a retreat's handler revises its frame)
        clear(g, frame)
    if only is not None:
        KINDS[frame.kind].handler(g, frame, g.ctx.ruleset.parse_command(only))
    elif frame.kind == "exchange_loss":
        results.exchanged(g, ARRIVANO_VARIANT, frame.ctx.role, ())


def _artillery_retreat(g: Act, frame: core.Frame[ev.ArtilleryRetreatAwaited], cmd: C.ArtilleryRetreat) -> None:
    guns = sorted(cmd.units)
    if guns:  # arrivano §11.1: the guns that go are turned to their Moved side
        g.emit(ev.ArtilleryTurned(units=guns, moved=True, rule=str(ARRIVANO.ARTILLERY_STACKED)))
    retreat_frame.opened(g, dict.fromkeys(sorted([*frame.ctx.units, *guns]), 1), R.BOMBARD_TABLE)


def _order_chosen(g: Act, frame: core.Frame[ev.OrderAwaited], cmd: C.ChooseOrder) -> None:
    fid = frame.ctx.formation
    if g.state.formations[fid].order != cmd.order:
        g.emit(ev.OrderChanged(formation=fid, order=cmd.order, by="reinforcement", rule=str(R.MB_FIRST_TURN)))


def _free_order(g: Act, frame: core.Frame[ev.FreeOrderAwaited], cmd: C.FreeOrder) -> None:
    for uid in [u for u in frame.ctx.units if g.world().on_map(u)]:
        g.emit(ev.UnitOrderSet(unit=uid, order=cmd.order, rule=frame.rule))


def light_retreat(g: Act, frame: core.Frame[BeforeCombatAwaited], cmd: C.LightRetreat) -> None:
    """The owner names a V unit and its hex: it tests, and on a pass retreats before the odds (§16.3.5); then the
    others may try; `None` ends the step and the assault goes on."""
    if cmd.unit is not None and cmd.to is not None:
        h = frame.ctx.hex
        passed = stack_test(g, [cmd.unit], f"{R.LIGHT_RETREAT} retreat before the assault from {h}")[cmd.unit]
        g.emit(ev.OpenOrderTested(unit=cmd.unit, test="retreat", passed=passed, rule=str(R.LIGHT_RETREAT)))
        if passed:
            line = before_combat.line(g.world(), [cmd.unit], cmd.to, cmd.off_map)
            before_combat.retreated(g, [cmd.unit], line, R.LIGHT_RETREAT)
        rest = [u for u in frame.ctx.units if u != cmd.unit and u in O.light_retreat_candidates(g.world(), h)]
        if rest:
            push(g, "light_retreat", frame.seats[0], frame.rule, BeforeCombatAwaited(units=tuple(rest), hex=h))
            return
    A.run(g)


# Each kind of Arrivano's decisions, the kernel's row (parabellum/steps.Row): the answers read on the position (legal()
# while it is on top), its handler run with the frame closed on an answer it listed (the typed command) and its refusal
# of an unlisted answer (without one: the handler's own checks, run on a scratch copy, give the reason).
KINDS: dict[str, Row] = {
    retreat_frame.RETREAT: retreat_frame.ROW,
    "rout_move": Row(RT.rout_answers, lambda g, frame, cmd: rout_move(g, frame.ctx.unit, cmd.to, cmd.off_map), RT.rout_refusal),
    "artillery_retreat": Row(RT.artillery_answers, _artillery_retreat, RT.artillery_refusal),
    # arrivano §12.7 (§11.1.1: after artillery alone, no decline); a decline does nothing (the frame is closed)
    advance.ADVANCE: Row(advance.listed, lambda g, frame, cmd: advance_into(g, cmd.units, cmd.to)
                   if isinstance(cmd, C.Advance) else None, advance.refusal, advance.ANSWERS),
    "choose_order": Row(lambda w, frame: [{"type": "choose_order", "order": o} for o in ORDERS], _order_chosen),
    "dr_choice": Row(lambda w, frame: [{"type": "dr_choice", "choice": c} for c in frame.ctx.choices],
                     lambda g, frame, cmd: A.dr_choice(g, frame, cmd.choice)),
    results.NE_CHOICE: results.NE_ROW,
    escape.ESCAPE: escape.ROW,
    # arrivano §14.1: the kernel's retreat before combat (parabellum/before_combat.py), hex by hex
    before_combat.CAVALRY_RETREAT: Row(before_combat.answers, A.cavalry_retreat, before_combat.refusal),
    "light_retreat": Row(RT.light_answers, light_retreat, before_combat.refusal),
    "countercharge": Row(lambda w, frame: [{"type": "countercharge", "unit": u} for u in frame.ctx.counter
                                           if M.may_countercharge(w, u)] + [{"type": "countercharge", "unit": None}],
                         lambda g, frame, cmd: M.countercharge_answer(g, frame.ctx, cmd.unit), M.countercharge_refusal),
    "fall_back": Row(O.fall_back_options, lambda g, frame, cmd: O.fall_back(g, frame, cmd.to)),
    "fire_target": Row(O.target_options, lambda g, frame, cmd: O.apply_fire_result(g, cmd.unit, frame.ctx.result)),
    "recovery": Row(lambda w, frame: [*recovery_answers(w, list(frame.ctx.tried)), {"type": "recover", "hex": None}],
                    lambda g, frame, cmd: recover(g, frame, cmd.hex)),
    # arrivano §11.4.4: the assaulted hexes' guns bombard a hex of attackers (reading defensive_fire_targets) or hold
    "defensive_fire": Row(lambda w, frame: bombardment.defensive_fire_answers(
        ARRIVANO_VARIANT, w, frame.ctx.battery, w.reading("defensive_fire_targets") == "one_target") + [
        {"type": "defensive_fire", "target": None}], lambda g, frame, cmd: A.defensive_fire(g, frame, cmd.artillery, cmd.target)),
    # arrivano §12.3.1: a side's owner picks among its efficiency values tied for most SP (the kernel's question)
    assault_stages.EFFICIENCY_VALUE: assault_stages.EFFICIENCY_ROW._replace(handler=A.efficiency_value),
    "free_order": Row(lambda w, frame: [{"type": "free_order", "order": o} for o in ORDERS], _free_order),
    "exchange_loss": Row(lambda w, frame: [{"type": "exchange_loss", "units": list(s)} for s in frame.ctx.sets
                                           if all(w.on_map(u) for u in s)],
                         lambda g, frame, cmd: results.exchanged(g, ARRIVANO_VARIANT, frame.ctx.role, cmd.units)),
    "replacement_hex": Row(_replacement_hex, lambda g, frame, cmd: g.emit(ev.UnitPlaced(
        unit=frame.ctx.unit, hex=cmd.hex, rule=str(R.RETURN), reduced=True))),
    "commander_refuge": Row(_refuge, lambda g, frame, cmd: g.emit(ev.LeaderMoved(
        leader=frame.ctx.leader, path=(cmd.to,), rule=str(ARRIVANO.LEADER_ALONE), own=False))),
    # the assault (a DR's test one of its stages) and the end phase wait for the decisions above them: nobody answers
    ASSAULT: UNANSWERED, "end_phase": UNANSWERED,
}


def steps(game: Game, after: Callable[[Act], None]) -> dict[str, Step[Any]]:
    """Each kind of Arrivano's decisions (the kinds of ev.ARRIVANO_CONTEXTS) on the kernel's steps: its row of KINDS;
    after an answer the procedure goes on as after any command (`after`: the ruleset's settle, march orders,
    sightings)."""
    return procedures(game, after, KINDS)
