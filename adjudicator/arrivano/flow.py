"""Arrivano i Francesi!: the procedures of the sequence of play (arrivano §3) and their steps.

Every handler validates (ctx.reject with the citation) and emits events; dice go through ctx.roll with the
table, hex and modifiers in `detail` (never a unit id: the hex is public, the stack's content may not be).
Multi-step procedures push frames on the engine's decision stack (Game.push); steps.py lists and answers them, and settles the ones that
need no choice. This module is the lower half: the rule modules (assault, bombardment, movement, open order)
build on it, so it imports none of them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import msgspec

from arbitro.adjudicator.arrivano import retreats as RT
from arbitro.adjudicator.arrivano import rules as R
from arbitro.adjudicator.arrivano.data_model import ScenarioData, Tables
from arbitro.adjudicator.arrivano.readings import in_force
from arbitro.adjudicator.arrivano.retreats import Line
from arbitro.adjudicator.arrivano.variant import ARRIVANO_VARIANT
from arbitro.adjudicator.arrivano.victory import final_result
from arbitro.adjudicator.arrivano.world import World
from arbitro.adjudicator.decisions import close_frame, open_frame
from arbitro.adjudicator.parabellum import efficiency as sys_eff
from arbitro.adjudicator.parabellum import initiative as sys_init
from arbitro.adjudicator.parabellum import recovery, reinforcements, rout, sequence
from arbitro.adjudicator.parabellum.stacking import fits
from arbitro.adjudicator.parabellum.zoc import enemy_zoc
from arbitro.adjudicator.ruleset import Decision
from arbitro.adjudicator.tables import CombatTable
from arbitro.events import arrivano as ev
from arbitro.events import core
from arbitro.projections.arrivano import ArrivanoState, Frame
from arbitro.projections.game import awaited
from arbitro.projections.parabellum import STATUS_WORSE


@dataclass
class Game:
    """The decision context with the scenario's data: every procedure takes one."""

    ctx: Decision[ArrivanoState]
    s: ScenarioData
    tables: Tables
    crt: CombatTable

    @property
    def state(self) -> ArrivanoState:
        return self.ctx.state

    def world(self) -> World:
        return World(self.ctx.state, self.s, self.tables)

    def emit(self, event: Any) -> None:
        self.ctx.emit(event)

    def roll(self, purpose: str, detail: dict[str, str | int], visible_to: tuple[str, ...] | None = None,
             about: tuple[str, ...] = ()) -> int:
        """`about`: the hexes of the stacks the roll concerns; a seat that may not examine one of them is served
        the roll without purpose and detail (arrivano §11.3.2)."""
        return self.ctx.roll(1, 6, purpose=purpose, detail=detail, visible_to=visible_to, about=about)[0]

    def reject(self, rule: Any, message: str) -> None:
        self.ctx.reject(rule, message)

    def reading(self, name: str) -> str:
        """The reading of interpretation `name` in force (adjudicator/arrivano/readings.py)."""
        return in_force(self.state, name)

    # --- pending decisions: frames on the engine's decision stack (arbitro §S.3), one context per kind
    # (ev.ARRIVANO_CONTEXTS). The assault's decisions (ev.ASSAULT_KINDS) wait below the other kinds, as they did
    # when they had a stack of their own: one opened while others wait above the assault's goes in under them.

    def push(self, kind: str, seat: str, rule: str, data: dict[str, Any]) -> None:
        """Open a decision of `kind` for `seat` ("": nobody answers it; it waits below what is above it)."""
        lifted = self._above_the_assault() if kind in ev.ASSAULT_KINDS else []
        for frame in lifted:
            close_frame(self.ctx, frame)
        context = msgspec.convert(data, ev.ARRIVANO_CONTEXTS[kind])
        open_frame(self.ctx, kind, (seat,) if seat else (), rule, prompt(kind, rule), context)
        for frame in reversed(lifted):
            open_frame(self.ctx, frame.kind, frame.seats, frame.rule, frame.prompt, frame.ctx)

    def _above_the_assault(self) -> list[core.Frame[Any]]:
        """This game's frames of other kinds above its topmost assault decision, top first."""
        out = []
        for frame in reversed(self.ctx.game.core.decisions):
            if frame.kind not in ev.ARRIVANO_CONTEXTS or frame.kind in ev.ASSAULT_KINDS:
                break
            out.append(frame)
        return out

    def top(self) -> Frame | None:
        """The decision awaited now, as a Frame (its context's fields as `data`)."""
        frame = self._engine_top()
        return as_frame(frame) if frame is not None else None

    def assault_top(self) -> Frame | None:
        """The topmost of the assault's decisions, whatever waits above it."""
        for frame in reversed(self.ctx.game.core.decisions):
            if frame.kind in ev.ASSAULT_KINDS:
                return as_frame(frame)
        return None

    def clear(self, frame: Frame) -> None:
        """Close the decision on top (`frame`, as `top` gave it)."""
        top = self._engine_top()
        assert top is not None and top.kind == frame.kind, f"{frame.kind} is not the decision on top"
        close_frame(self.ctx, top)

    def _engine_top(self) -> core.Frame[Any] | None:
        frame = awaited(self.ctx.game.core)
        return frame if frame is not None and frame.kind in ev.ARRIVANO_CONTEXTS else None


def prompt(kind: str, rule: str) -> str:
    return f"decide the {kind.replace('_', ' ')} ({rule})"


def as_frame(frame: core.Frame[Any]) -> Frame:
    """One of this game's frames on the engine's stack in the shape the procedures read (`data`: its context)."""
    data = msgspec.json.decode(msgspec.json.encode(frame.ctx))  # plain lists, as a frame decoded from the log has
    data.pop("ctx")
    return Frame(kind=frame.kind, seat=frame.seats[0] if frame.seats else "", rule=frame.rule, data=data)


def crt_table(tables: Tables) -> CombatTable:
    """The Arrivano CRT in the shape of the shared combat engine (adjudicator/tables.py)."""
    return tables.crt.odds_table("arrivano CRT")


# ================================================================================================
# Efficiency tests (arrivano §13)
# ================================================================================================


def stack_test(g: Game, units: list[str], why: str, visible_to: tuple[str, ...] | None = None,
               extra: int = 0) -> dict[str, bool]:
    """One die for the stack, applied to every unit (arrivano §13.1.2); natural 1 passes, 6 fails (§13.1.1).
    `extra`: a modifier the calling rule adds to the die (the +1 of a D1 fire result, arrivano §16.3.3)."""
    if not units:
        return {}
    w = g.world()
    h = w.state.units[units[0]].hex
    leader = sys_eff.die_modifier(ARRIVANO_VARIANT, w, units)
    mod = leader + extra
    values = sys_eff.test_values(ARRIVANO_VARIANT, w, units)
    die = g.roll(f"{R.RULEBOOK.EFFICIENCY} efficiency test: {why}", {
        "table": "efficiency", "hex": h, "values": ",".join(str(values[u]) for u in units), "modifier": mod,
        "rule": str(R.EFFICIENCY_LEADER) if leader else str(R.RULEBOOK.EFFICIENCY)}, visible_to, about=(h,))
    return {u: sys_eff.passes(ARRIVANO_VARIANT, die, values[u], mod) for u in units}


def by_hex(w: World, units: list[str]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for u in sorted(units):
        out.setdefault(w.state.units[u].hex, []).append(u)
    return dict(sorted(out.items()))


# ================================================================================================
# Losses, disorder, commanders
# ================================================================================================


def worsen(g: Game, uid: str, rule: Any, levels: int = 1) -> None:
    status = g.state.units[uid].status
    for _ in range(levels):
        status = STATUS_WORSE[status]
    if status != g.state.units[uid].status:
        g.emit(ev.StatusChanged(unit=uid, status=status, rule=str(R.SECOND_DISORDER if status == "routed" else rule)))


def eliminate(g: Game, uid: str, rule: Any, permanent: bool = False, because: Any = None, result: str = "") -> None:
    """arrivano §12.8: a full-strength unit with a reduced side flips and goes on the turn track (next turn if
    within range of a general or officer of its formation, else two turns later); otherwise for good.
    The event names the cause (`cause`): `rule` with the combat `result` that applied it ("AE", "DE", "EX"), after
    `because`, the rule that forced the retreat it could not make (a DR, a bombardment, a rout). `rule` on the
    event is the cause, followed by §12.8 when §12.8 decides the outcome (not a `permanent` elimination)."""
    w = g.world()
    unit = w.state.units[uid]
    data = g.s.unit(uid)
    cause = "; ".join(str(c) for c in (because, f"{rule} {result}".strip()) if c)
    if reinforcements.eliminated_for_good(permanent, unit.reduced, data.reduced is not None):
        g.emit(ev.UnitEliminated(unit=uid, permanent=True, return_turn=0, rule=str(rule), cause=cause))
    else:
        def in_range(leader: str, h: str) -> bool:  # arrivano §12.8: the range counted in hexes, not traced
            le = w.state.leaders[leader]
            return le.where == "map" and w.grid.distance(le.hex, h) <= g.s.leader(leader).command_range
        g.emit(ev.UnitEliminated(unit=uid, permanent=False, return_turn=reinforcements.return_turn(
                                     w, uid, g.state.turn, in_range),
                                 rule=f"{cause}; {R.RULEBOOK.ELIMINATED}", cause=cause))
    leaders_left_alone(g, unit.hex)


def leaders_left_alone(g: Game, h: str) -> None:
    """arrivano §4.5.4: commanders in a hex whose units are all gone test (1-2 lost) and, surviving, move to the
    nearest hex with friendly units (the owner's choice among several, pending `commander_refuge`)."""
    w = g.world()
    if w.units_at(h):
        return
    for lid in w.leaders_at(h):
        leader_test(g, lid, f"{R.RULEBOOK.LEADER_ALONE} units in {h} eliminated")
        if g.state.leaders[lid].where == "map":
            g.push("commander_refuge", g.state.leaders[lid].side, str(R.RULEBOOK.LEADER_ALONE), {"leader": lid})


def leader_test(g: Game, lid: str, why: str) -> None:
    """arrivano §4.5.3: a d6 of 1 or 2 captures or kills the commander."""
    die = g.roll(f"{R.LEADER_LOSS_TEST} commander test: {why}", {"table": "leader loss", "lost_on": "1-2"},
                 about=(g.state.leaders[lid].hex,))
    data = g.s.leader(lid)
    if ARRIVANO_VARIANT.leader_lost(die, data.role, data.initiative):  # D10
        g.emit(ev.LeaderLost(leader=lid, rule=str(R.LEADER_LOSS_TEST)))
        after_leader_lost(g, lid)


def after_leader_lost(g: Game, lid: str) -> None:
    fc = g.s.scenario.victory.flag_capture
    if fc is not None and lid in fc.leaders:  # arrivano §17.2.12: a flag on 4-6
        die = g.roll(f"{R.CT_VICTORY} flag of a lost Maggiore", {"table": "flag capture", "needs": fc.die_min},
                     about=(g.state.leaders[lid].hex,))
        if die >= fc.die_min:
            g.emit(ev.FlagCaptured(leader=lid, rule=str(R.CT_VICTORY)))


def test_leaders_in(g: Game, hexes: list[str], why: str) -> None:
    w = g.world()
    for h in hexes:
        for lid in w.leaders_at(h):
            leader_test(g, lid, why)


# ================================================================================================
# Sequence: initiative, activation, end of activation, end phase
# ================================================================================================


def activatable(w: World, seat: str | None = None) -> list[str]:
    """Formations that may still be activated (arrivano §6.1; interpretation formation_not_on_map: `skip` one with
    nothing on the map and nothing due, `activatable` any formation not yet activated)."""
    out = []
    ft = w.s.scenario.first_turn
    for fid in sorted(w.state.formations):
        f = w.state.formations[fid]
        if f.activated:
            continue
        if w.state.first_turn and ft is not None and f.side != ft.only_side_activates:
            continue  # arrivano §17.1.2
        present = w.general_on_map(fid) is not None or any(w.state.units[u].formation == fid for u in w.units_of(f.side))
        due = any(gr.formation == fid and gr.turn <= w.state.turn and gr.id not in w.state.entered_groups
                  for gr in w.s.oob.reinforcements)
        waiting = any(u.formation == fid and u.where == "waiting" for u in w.state.units.values())
        if present or due or waiting or w.reading("formation_not_on_map") == "activatable":
            out.append(fid)
    return out


def activatable_columns(w: World) -> list[str]:
    """Independent columns not yet activated this turn whose officer is on the map (arrivano §17.2.9,
    interpretation franceschi_activation: extra_activation)."""
    ft = w.s.scenario.first_turn
    out = []
    for officer in sorted(w.state.columns):
        le = w.state.leaders[officer]
        if w.state.columns[officer].activated or le.where != "map":
            continue
        if w.state.first_turn and ft is not None and le.side != ft.only_side_activates:
            continue
        out.append(officer)
    return out


def officer_in_superior_range(w: World, officer: str) -> bool:
    le = w.state.leaders[officer]
    fid = le.formation
    gid = w.general_on_map(fid) if fid is not None else None
    if gid is None:
        return False
    return le.hex in w.command_reach(gid)


def column_candidates(w: World, officer: str) -> list[str]:
    """Units an officer may take into a new column (arrivano §16.2, §16.2.2-§16.2.3): on the map, of his formation,
    within his range, not in a column (cavalry officers: cavalry and horse artillery only); [] if he cannot form
    one now (off the map, already leading one, out of his superior's range, formation already activated)."""
    if "independent_columns" not in w.state.options or officer in w.state.columns:
        return []
    le = w.state.leaders[officer]
    if le.role != "officer" or le.where != "map" or le.formation is None or w.state.formations[le.formation].activated:
        return []
    ft = w.s.scenario.first_turn
    if w.state.first_turn and ft is not None and le.side != ft.only_side_activates:
        return []
    if not officer_in_superior_range(w, officer):
        return []
    data = w.s.leader(officer)
    reach = w.command_reach(officer)
    out = []
    for u in w.units_of(le.side):
        unit = w.state.units[u]
        if unit.formation != le.formation or unit.hex not in reach or w.column_of(u) is not None:
            continue
        if data.cavalry and not w._cavalry_like(u):
            continue
        out.append(u)
    return out


def form_column(g: Game, officer: str, units: list[str], order: str) -> None:
    w = g.world()
    if g.state.step != "choose_activation":
        g.reject(R.COLUMNS, "a column is formed when its officer is activated, after an initiative roll")
    if "independent_columns" not in g.state.options:
        g.reject(R.COLUMNS, "the optional rule of independent columns was not chosen for this game")
    if officer not in g.state.leaders or g.state.leaders[officer].side != g.ctx.seat:
        g.reject(R.COLUMNS, "not one of your officers")
    allowed = column_candidates(w, officer)
    if not allowed:
        g.reject(R.COLUMNS, "this officer cannot form a column now (on the map, within his general's range, "
                            "his formation not yet activated, not already leading one)")
    if len(set(units)) != len(units) or any(u not in allowed for u in units):
        data = g.s.leader(officer)
        g.reject(R.COLUMN_CAVALRY if data.cavalry else R.COLUMNS,
                 "column units: of his formation, within his range, not in another column")
    fid = g.state.leaders[officer].formation
    assert fid is not None
    g.emit(ev.ColumnFormed(officer=officer, units=sorted(units), order=order, rule=str(R.COLUMNS)))
    g.emit(ev.FormationActivated(formation=fid, by=g.ctx.seat, column=officer, rule=str(R.COLUMNS)))
    g.emit(ev.StepBegan(phase="action", step="bombardment", seat=g.ctx.seat, rule=str(R.BOMBARD_STEP)))


def roll_initiative(g: Game) -> None:
    """arrivano §6: each side d6 + its chief's initiative (0 without him, interpretation cic_lost_initiative)."""
    totals: dict[str, int] = {}
    for side in g.s.scenario.seats:
        chief = g.s.oob.sides[side].commander_in_chief
        value = g.s.leader(chief).initiative if g.state.leaders[chief].where != "lost" else 0
        die = g.roll(f"{R.RULEBOOK.INITIATIVE} initiative of {side}", {"table": "initiative", "side": side, "chief": value})
        totals[side] = die + value
    winner = sys_init.winner(ARRIVANO_VARIANT, totals, g.reading)
    assert winner is not None
    tie = len(set(totals.values())) == 1
    g.emit(ev.InitiativeWon(seat=winner, totals=totals, rule=str(R.TIES if tie else R.RULEBOOK.INITIATIVE)))
    g.emit(ev.StepBegan(phase="action", step="choose_activation", seat=winner, rule=str(R.ACTIVATE)))


class ArrivanoActionPhase:
    """Arrivano's answers to the kernel's action-phase loop (parabellum/sequence.py): independent columns are
    activated too (arrivano §17.2.9)."""

    def __init__(self, g: Game) -> None:
        self.g = g

    def eligible(self) -> list[str]:
        w = self.g.world()
        return activatable(w) + activatable_columns(w)

    def roll_initiative(self) -> None:
        roll_initiative(self.g)

    def activate_only(self, formation: str) -> None:
        roll_initiative(self.g)  # never asked: arrivano §6.1 rolls after every activation (roll_for_last_formation)

    def end_turn(self) -> None:
        end_phase(self.g)


def next_activation(g: Game) -> None:
    """After an activation (or the orders sub-phase): roll initiative again or go to the end phase (§6.1)."""
    sequence.next_activation(ArrivanoActionPhase(g), ARRIVANO_VARIANT)


HQ = "HQ"


def hq_available(w: World, side: str) -> bool:
    """Option §16.1: the side's HQ may be activated once per turn while its chief is on the map (Montebello turn 1:
    only the French, §17.1.2) and has a general to give orders to."""
    if "hq_orders" not in w.state.options or w.state.hq_used.get(side):
        return False
    ft = w.s.scenario.first_turn
    if w.state.first_turn and ft is not None and side != ft.only_side_activates:
        return False
    return bool(chief_can_change(w, side))


def activate(g: Game, fid: str) -> None:
    w = g.world()
    if g.state.step != "choose_activation":
        g.reject(R.ACTIVATE, "a formation is activated only after an initiative roll")
    if fid == HQ:
        if not hq_available(w, g.ctx.seat):
            g.reject(R.HQ_ORDERS, "your headquarters cannot be activated now (option not chosen, already used, "
                                  "or no general within your chief's range)")
        counter = g.s.scenario.hq_counters.by_side().get(g.ctx.seat, HQ)
        g.emit(ev.HeadquartersActivated(side=g.ctx.seat, counter=counter, rule=str(R.HQ_ORDERS)))
        g.emit(ev.StepBegan(phase="action", step="orders", seat=g.ctx.seat, rule=str(R.HQ_ORDERS)))
        return
    if fid in g.state.columns:
        if fid not in activatable_columns(w):
            g.reject(R.CT_FRANCESCHI, "this column is already activated this turn or its officer is not on the map")
        formation = g.s.leader(fid).formation
        assert formation is not None
        fr = g.s.scenario.franceschi
        if (fr is None or fr.leader != fid) and officer_in_superior_range(w, fid):
            # arrivano §16.2.1: the column rejoins its formation; this activation is spent
            g.emit(ev.ColumnDissolved(officer=fid, rule=str(R.COLUMN_REJOIN)))
            next_activation(g)
            return
        rule = R.CT_FRANCESCHI if fr is not None and fr.leader == fid else R.COLUMNS
        g.emit(ev.FormationActivated(formation=formation, by=g.ctx.seat, column=fid, rule=str(rule)))
        g.emit(ev.StepBegan(phase="action", step="bombardment", seat=w.state.leaders[fid].side, rule=str(R.BOMBARD_STEP)))
        return
    if fid not in g.state.formations:
        g.reject(R.ACTIVATE, f"there is no formation {fid!r}")
    if fid not in activatable(w):
        reason = "already activated" if g.state.formations[fid].activated else "not activatable now"
        rule = R.MB_FIRST_TURN if g.state.first_turn and g.s.scenario.first_turn is not None else R.ACTIVATE
        g.reject(rule, f"formation {fid} is {reason}")
    g.emit(ev.FormationActivated(formation=fid, by=g.ctx.seat, rule=str(R.ACTIVATE)))
    owner = g.state.formations[fid].side
    free = free_order_units(g.world(), fid)
    if free:
        g.push("free_order", owner, str(R.DANGLING_4_3_2), {"units": free})
    enter_reinforcements(g, fid)
    g.emit(ev.StepBegan(phase="action", step="bombardment", seat=owner, rule=str(R.BOMBARD_STEP)))


def free_order_units(w: World, fid: str) -> list[str]:
    """Interpretation dangling_4_3_2 (arrivano §4.4 "(vedi anche 4.3.2)"): with `caldiero_4_3_1`, the formation's
    out-of-command units (not in a column) within their commander in chief's command range at its activation
    take the order their owner wishes (caldiero §4.3.1); with `ignore`, none (they have Defence, §5.3)."""
    if w.reading("dangling_4_3_2") != "caldiero_4_3_1" or w.state.first_turn:
        return []
    side = w.state.formations[fid].side
    chief = w.s.oob.sides[side].commander_in_chief
    le = w.state.leaders[chief]
    if le.where != "map":
        return []
    reach = w.command_reach(chief)
    ic = w.in_command(fid)
    return [u for u in w.units_of(side) if w.state.units[u].formation == fid and u not in ic
            and w.column_of(u) is None and w.state.units[u].hex in reach]


def enter_reinforcements(g: Game, fid: str) -> None:
    """arrivano §15.4 (B-1): the formation's groups due this turn come to their entry hex; their units wait
    there to move on (paying the entry hex); commanders are placed on it. A group bringing the general sets
    the order: Advance (§15.4.1) or, with 'any', the owner's choice (§17.1.2)."""
    w = g.world()
    for group in g.s.oob.reinforcements:
        if group.formation != fid or group.turn > g.state.turn or group.id in g.state.entered_groups:
            continue
        h = g.s.entry_hex(group.entry)
        if w.side_at(h) not in (None, g.state.formations[fid].side):
            if g.reading("blocked_entry") == "lost":
                lose_blocked_group(g, group.id, sorted(group.units), sorted(group.leaders))
            continue  # interpretation blocked_entry: delay (it may enter in a later activation)
        g.emit(ev.GroupEntered(group=group.id, hex=h, units=sorted(group.units), rule=str(R.RULEBOOK.REINFORCEMENTS)))
        for lid in sorted(group.leaders):
            g.emit(ev.LeaderPlaced(leader=lid, hex=h, rule=str(R.RULEBOOK.REINFORCEMENTS)))
        fr = g.s.scenario.franceschi
        if fr is not None and fr.leader in group.leaders:  # arrivano §17.2.9: an independent column
            g.emit(ev.ColumnFormed(officer=fr.leader, units=sorted(fr.units), order=g.state.formations[fid].order,
                                   rule=str(R.CT_FRANCESCHI)))
        if g.state.formations[fid].general in group.leaders:
            if group.order == "any" and g.reading("reinforcement_order") == "always_advance":
                if g.state.formations[fid].order != "advance":
                    g.emit(ev.OrderChanged(formation=fid, order="advance", by="reinforcement",
                                           rule=str(R.RULEBOOK.REINFORCEMENT_ORDER)))
            elif group.order == "any":
                g.push("choose_order", g.state.formations[fid].side, str(R.MB_FIRST_TURN), {"formation": fid})
            elif g.state.formations[fid].order != group.order:
                g.emit(ev.OrderChanged(formation=fid, order=group.order, by="reinforcement",
                                       rule=str(R.RULEBOOK.REINFORCEMENT_ORDER)))


def lose_blocked_group(g: Game, group: str, units: list[str], leaders: list[str]) -> None:
    """Interpretation blocked_entry: lost - a group whose entry hex the enemy holds when it is due never enters:
    its units and commanders are lost for good (arrivano §15.4 "entrano in mappa nell'esagono appropriato")."""
    g.emit(ev.GroupEntered(group=group, hex="", units=[], rule=str(R.RULEBOOK.REINFORCEMENTS)))
    for u in units:
        g.emit(ev.UnitEliminated(unit=u, permanent=True, return_turn=0, rule=str(R.RULEBOOK.REINFORCEMENTS)))
    for lid in leaders:
        g.emit(ev.LeaderLost(leader=lid, rule=str(R.RULEBOOK.REINFORCEMENTS)))
        after_leader_lost(g, lid)


def end_activation(g: Game) -> None:
    """B-6 (arrivano §3.1): idle disordered or routed units may try to recover (§15.3 "possono tentare": the
    owner picks the stacks that try, pending `recovery`), then the general flips to A."""
    act = g.state.activation
    assert act is not None
    if recovery_candidates(g.world(), []):
        g.push("recovery", g.state.formations[act.formation].side, str(R.RULEBOOK.RECOVERY),
               {"formation": act.formation, "tried": []})
        return
    finish_activation(g)


def finish_activation(g: Game) -> None:
    act = g.state.activation
    assert act is not None
    g.emit(ev.ActivationEnded(formation=act.formation, column=act.column, rule=str(R.END_ACTIVATION)))
    next_activation(g)


def recovery_candidates(w: World, tried: list[str]) -> dict[str, list[str]]:
    """Stacks that may try to recover now (arrivano §15.3): disordered or routed, not in EZoC, their order allowing
    it (Manoeuvre: stacked with or next to a commander of their formation), idle this turn, not already tried
    in this B-6. Interpretation recovery_scope: `active_formation_idle` units of the activated group only;
    `any_unit_idle` every idle unit of the active side."""
    act = w.state.activation
    assert act is not None
    side = w.state.formations[act.formation].side
    any_unit = w.reading("recovery_scope") == "any_unit_idle"
    ezoc = enemy_zoc(w, side)
    commands: dict[str, set[str]] = {}

    def order_allows(u: str) -> bool:  # the orders table's `recovery` (D6); Manoeuvre: near a commander
        formation = w.state.units[u].formation
        if formation not in commands:
            commands[formation] = w.in_command(formation)
        allowed = w.tables.orders.orders[w.order_of(u, commands[formation])].recovery  # type: ignore[index]
        return allowed == "yes" or allowed == "near_commander" and any(
            le.where == "map" and le.formation == formation and
            (le.hex == w.state.units[u].hex or w.grid.is_adjacent(le.hex, w.state.units[u].hex))
            for le in w.state.leaders.values())

    out = [u for u in w.units_of(side) if (any_unit or w.acts_now(u)) and w.state.units[u].acted_turn != w.state.turn
           and w.state.units[u].hex not in tried and recovery.may_try(w, u, ezoc, order_allows)]
    return by_hex(w, out)


def recover(g: Game, frame: Frame, h: str | None) -> None:
    """The owner's answer to `recovery`: the stack in `h` tests (§15.3.1: pass, one level better); None: done."""
    if h is None:
        finish_activation(g)
        return
    w = g.world()
    units = recovery_candidates(w, list(frame.data["tried"]))[h]
    results = stack_test(g, units, f"{R.RULEBOOK.RECOVERY} recovery in {h}", visible_to=(frame.seat,))
    for u in units:
        if results[u]:
            g.emit(ev.StatusChanged(unit=u, status=recovery.recovered(g.world(), u), rule=str(R.RULEBOOK.RECOVERY)))
    tried = [*frame.data["tried"], h]
    if recovery_candidates(g.world(), tried):
        g.push("recovery", frame.seat, frame.rule, frame.data | {"tried": tried})
    else:
        finish_activation(g)


def end_phase(g: Game) -> None:
    """arrivano §3.1 C: routed units move two hexes away (§15.2.2, one pending decision each), then Moved artillery
    turns back, then (Campotenese) the weather roll (§17.2.7); the game ends after the last turn."""
    g.emit(ev.StepBegan(phase="end", step="rout", seat="", rule=str(R.RULEBOOK.END_PHASE)))
    rout_moves(g, [])


def rout_moves(g: Game, done: list[str]) -> None:
    """The next routed unit's rout move (arrivano §15.2.2), its owner choosing the line or a stop; an `end_phase`
    frame under it brings the end phase back here once it (and any retreat it causes) is settled."""
    w = g.world()
    for side in g.s.scenario.seats:
        for u in w.units_of(side):
            if g.state.units[u].status == "routed" and u not in done:
                g.push("end_phase", "", str(R.RULEBOOK.END_PHASE), {"done": [*done, u]})
                g.push("rout_move", side, str(R.ROUT_MOVE), {"unit": u})
                return
    end_phase_rest(g)


def remove_spent_markers(g: Game, units: list[str]) -> None:
    """V markers placed before this turn go once the unit's combat sub-phase of the following turn is over
    (interpretation open_order_marker_removal: own_combat_subphase; the end phase catches units not activated)."""
    for uid in units:
        unit = g.state.units[uid]
        if unit.open_order == "V" and unit.marker_turn < g.state.turn:
            g.emit(ev.OpenOrderMarked(unit=uid, marker="", rule=str(R.EXHAUSTION)))


def end_phase_rest(g: Game) -> None:
    remove_spent_markers(g, sorted(g.state.units))  # arrivano §16.3.4: V markers of the previous turn
    moved = sorted(u for u, unit in g.state.units.items() if unit.art_moved)
    if moved:
        g.emit(ev.ArtilleryTurned(units=moved, moved=False, rule=str(R.RULEBOOK.END_PHASE)))
    if g.s.weather is not None:
        die = g.roll(f"{R.CT_WEATHER} weather", {"table": "weather", "box": g.state.weather})
        box = g.s.weather.next_box(g.state.weather, die)
        if box != g.state.weather:
            g.emit(ev.WeatherChanged(box=box, rule=str(R.CT_WEATHER)))
    if g.state.turn >= g.state.last_turn:
        finish(g)
        return
    start_turn(g, g.state.turn + 1)


def rout_move(g: Game, uid: str, to: str, off_map: bool) -> None:
    """Carry out an accepted rout move: a permitted line, or a stop in a village, redoubt or friendly general's hex
    (its own hex: no move) (arrivano §15.2.2)."""
    w = g.world()
    line = next((ln for ln in RT.lines(w, [uid], 2, True) if ln.to == to and ln.off_map == off_map), None)
    if line is not None:
        do_retreat(g, [uid], line, R.ROUT_MOVE, True)
        return
    start = w.state.units[uid].hex
    reason = RT.stop_reason(w, uid, to) or ""
    if to != start:
        do_retreat(g, [uid], Line(path=(to,), to=to), R.ROUT_MOVE, True)
    g.emit(ev.RoutStopped(unit=uid, hex=to, reason=reason, rule=str(R.ROUT_MOVE)))


def start_turn(g: Game, turn: int) -> None:
    """A new turn: Command phase (arrivano §3.1 A): A-2 replacements come back, A-1 orders (the French first,
    §5.2), then A-3 initiative. (A-1 before A-2 in the text; replacements change nothing A-1 decides.)"""
    g.emit(ev.TurnBegan(turn=turn, rule=str(R.RULEBOOK.SEQUENCE)))
    replacements(g)
    if "hq_orders" in g.state.options:  # option §16.1: no orders sub-phase; the HQ is activated instead
        next_activation(g)
        return
    first = g.s.scenario.initiative_tie_winner
    g.emit(ev.StepBegan(phase="command", step="orders", seat=first, rule=str(R.ORDERS_PHASE)))
    settle_orders(g)


def replacements(g: Game) -> None:
    """arrivano §12.8.2: units on the track come back reduced within one hex of their general, obeying stacking,
    not in EZoC: the owner places each (pending `replacement_hex`, first unit on top; interpretation
    lost_general_replacements for a formation without its general)."""
    due = [uid for uid in sorted(g.state.units)
           if g.state.units[uid].where == "track" and g.state.units[uid].return_turn <= g.state.turn]
    for uid in reversed(due):
        if return_general(g.world(), uid) is not None:
            g.push("replacement_hex", g.state.units[uid].side, str(R.RETURN), {"unit": uid})


def return_general(w: World, uid: str) -> str | None:
    """The commander a returning unit is placed next to: its formation's general, or with the reading
    lost_general_replacements: with_chief, its commander in chief when the general is gone."""
    unit = w.state.units[uid]
    gid = w.general_on_map(unit.formation)
    if gid is None and w.reading("lost_general_replacements") == "with_chief":
        chief = w.s.oob.sides[unit.side].commander_in_chief
        gid = chief if w.state.leaders[chief].where == "map" else None
    return gid


def return_hexes(w: World, uid: str) -> list[str]:
    """Where a returning unit may be placed (arrivano §12.8.2): its general's hex or one next to it, not in EZoC,
    holding no enemy, within the stacking limits. None: it waits on the track."""
    unit = w.state.units[uid]
    gid = return_general(w, uid)
    if unit.where != "track" or gid is None:
        return []
    ghex = w.state.leaders[gid].hex
    ezoc = enemy_zoc(w, unit.side)
    return [h for h in sorted([ghex, *w.grid.neighbours(ghex)])
            if h not in ezoc and w.side_at(h) in (None, unit.side) and fits(w, h, [uid])]


def order_changes_barred(w: World, side: str) -> bool:
    """arrivano §4.5.5 (interpretation cic_loss_scope): with `all_changes`, a side whose commander in chief is lost
    changes no order of any kind (generals' §5.2.1 rolls, column officers, the officers of §3.1 B-4); with
    `chief_changes` only the chief's own changes end (chief_can_change)."""
    chief = w.s.oob.sides[side].commander_in_chief
    return w.state.leaders[chief].where == "lost" and w.reading("cic_loss_scope") == "all_changes"


def chief_can_change(w: World, side: str) -> list[str]:
    """Formations whose order the chief may change now (arrivano §5.2, §4.3): his generals within his range,
    while he is on the map and under his initiative limit."""
    chief = w.s.oob.sides[side].commander_in_chief
    le = w.state.leaders[chief]
    if le.where != "map" or w.state.chief_changes.get(side, 0) >= w.s.leader(chief).initiative:
        return []
    reach = w.command_reach(chief)
    out = []
    for fid in sorted(w.state.formations):
        f = w.state.formations[fid]
        gid = w.general_on_map(fid)
        if f.side == side and gid is not None and w.state.leaders[gid].hex in reach:
            out.append(fid)
    return out


def settle_orders(g: Game) -> None:
    """Skip a side's orders sub-phase when its chief can change nothing."""
    while g.state.step == "orders" and not chief_can_change(g.world(), g.state.seat):
        end_orders(g)


def end_orders(g: Game) -> None:
    if g.state.phase == "action":  # the orders of an activated HQ (§16.1) end: initiative again
        next_activation(g)
        return
    first = g.s.scenario.initiative_tie_winner
    if g.state.seat == first:
        g.emit(ev.StepBegan(phase="command", step="orders", seat=g.world().enemy(first), rule=str(R.ORDERS_PHASE)))
    else:
        next_activation(g)


def change_order(g: Game, fid: str, order: str) -> None:
    if g.state.step != "orders":
        g.reject(R.CHIEF_ORDER, "a commander in chief changes orders only in the orders sub-phase (A-1)")
    if fid not in g.state.formations or g.state.formations[fid].side != g.ctx.seat:
        g.reject(R.CHIEF_ORDER, f"{fid!r} is not one of your formations")
    w = g.world()
    if g.state.chief_changes.get(g.ctx.seat, 0) >= g.s.leader(g.s.oob.sides[g.ctx.seat].commander_in_chief).initiative:
        g.reject(R.CHIEF_CHANGES, "your commander in chief has made as many changes as his initiative allows")
    if fid not in chief_can_change(w, g.ctx.seat):
        g.reject(R.CHIEF_ORDER, f"the general of {fid} is not within your commander in chief's range")
    if g.state.formations[fid].order == order:
        g.reject(R.CHIEF_ORDER, f"{fid} already has the order {order}")
    g.emit(ev.OrderChanged(formation=fid, order=order, by="commander_in_chief", rule=str(R.CHIEF_CHANGES),
                           counts_against_chief=True))
    settle_orders(g)


def finish(g: Game) -> None:
    result = final_result(g.world())
    g.emit(ev.GameEnded(winner=result["winner"], reason=result["reason"], result=result, rule=result["rule"]))


# ================================================================================================
# Retreats and advances (arrivano §12.6-§12.7, §15.2)
# ================================================================================================


def do_retreat(g: Game, units: list[str], line: Line, rule: Any, ignore_ezoc: bool) -> None:
    """Move `units` along a permitted line (arrivano §12.6): one more disorder level through EZoC (§12.6.1); the
    §12.6.2 continuation cited; off the map: eliminated for good (§12.8.1), or out of play through a retreat flag
    (§17.2.1, interpretation neapolitan_retreat_flags)."""
    w = g.world()
    start = w.state.units[units[0]].hex
    ezoc = frozenset() if ignore_ezoc else enemy_zoc(w, w.state.units[units[0]].side)
    cite = f"{rule}; {R.RETREAT_STACKING}" if line.continued else str(rule)
    if line.path:
        for u in units:
            g.emit(ev.UnitRetreated(unit=u, path=(start, *line.path), rule=cite))
    if line.off_map:
        leave_map(g, units, line.to, start, because=rule)
        return
    if any(h in ezoc for h in line.path):
        for u in units:
            worsen(g, u, R.RULEBOOK.RETREAT_EZOC)
    # commanders go with their stack when it leaves them alone (arrivano §4.5.4 reading: they follow)
    w = g.world()
    for lid in w.leaders_at(start):
        if not w.units_at(start):
            g.emit(ev.LeaderMoved(leader=lid, path=(start, line.to), rule=cite))
    rout_checks(g, [line.to])


def leave_map(g: Game, units: list[str], edge: str, start: str, because: Any = None) -> None:
    """arrivano §12.8.1: units forced off the map are eliminated for good - unless they leave through one of their
    side's retreat flags (§17.2.1) and the reading neapolitan_retreat_flags is exit_not_eliminated: then they are
    out of play without counting as eliminated. Commanders left alone do not follow them off the map: §4.5.4."""
    w = g.world()
    rules = g.s.scenario
    flag = next((k for k, f in sorted(rules.retreat_hexes.items()) if f.hex == edge), None)
    for u in units:
        if flag is not None and rules.retreat_hexes_side == w.state.units[u].side \
                and w.reading("neapolitan_retreat_flags") == "exit_not_eliminated":
            g.emit(ev.UnitExited(unit=u, hex=edge, flag=flag, rule=f"{R.CT_RETREAT_FLAGS}; {R.RULEBOOK.OFF_MAP}"))
        else:
            eliminate(g, u, R.RULEBOOK.OFF_MAP, permanent=True, because=because)
    leaders_left_alone(g, start)


def push_retreat(g: Game, units: list[str], n: int, rule: Any, ignore_ezoc: bool = False) -> None:
    g.push("retreat", g.state.units[units[0]].side, str(rule),
           {"units": sorted(units), "hexes": n, "ignore_ezoc": ignore_ezoc})


def rout_checks(g: Game, arrived: list[str]) -> None:
    """arrivano §15.2 (interpretation rout_trigger: end_of_move; the kernel's rout.routed_near and outcome): routed
    enemy units adjacent to where a unit ended test as a stack; pass: retreat two hexes; fail: surrender
    (permanent)."""
    w = g.world()
    for h in arrived:
        side = w.side_at(h)
        if side is None:
            continue
        for n, routed in sorted(rout.routed_near(w, h, side)):  # in hex order (Caldiero: the grid's direction order)
            results = stack_test(g, routed, f"{R.RULEBOOK.ROUT} routed units in {n} with an enemy adjacent")
            result = rout.outcome(ARRIVANO_VARIANT, routed, results)
            for u in result.eliminated:
                eliminate(g, u, R.RULEBOOK.ROUT, permanent=result.permanent)
            if result.retreating:
                push_retreat(g, result.retreating, rout.RETREAT_HEXES, R.RULEBOOK.ROUT, ignore_ezoc=True)


def commander_checks(g: Game, arrived: str) -> None:
    """An enemy combat unit ended its move or advance at `arrived`: a commander in that hex must flee or is lost
    (arrivano §8.2.3); one adjacent may flee his full allowance (§4.5.6, interpretation commander_escape_scope:
    any_commander). Each is a decision of the commander's owner."""
    w = g.world()
    side = w.side_at(arrived)
    if side is None:
        return
    for lid in sorted(w.state.leaders):
        le = w.state.leaders[lid]
        if le.side == side or le.where != "map":
            continue
        if le.hex == arrived:
            g.push("escape", le.side, str(R.COMMANDER_ZOC_ESCAPE), {"leader": lid, "forced": True})
        elif w.grid.is_adjacent(le.hex, arrived) and not (
                g.reading("commander_escape_scope") == "lone_only" and w.units_at(le.hex)):
            g.push("escape", le.side, str(R.COMMANDER_ESCAPE), {"leader": lid, "forced": False})


def advance_into(g: Game, uid: str, h: str) -> None:
    """arrivano §12.7.3: a unit stacked with a commander of its formation advances with its stack and him."""
    w = g.world()
    start = w.state.units[uid].hex
    movers = [uid]
    leaders = [lid for lid in w.leaders_at(start) if w.state.leaders[lid].formation == w.state.units[uid].formation]
    if leaders:
        movers = [u for u in w.units_at(start) if w.state.units[u].status == "good" and w.state.units[u].arm != "artillery"
                  and w.state.units[u].side == w.state.units[uid].side]
        movers = [u for u in movers if fits(w, h, movers)] or [uid]
    for u in movers:
        g.emit(ev.UnitAdvanced(unit=u, hex=h, rule=str(R.RULEBOOK.ADVANCE_AFTER)))
    for lid in leaders:
        g.emit(ev.LeaderMoved(leader=lid, path=(start, h), rule=str(R.RULEBOOK.ADVANCE_AFTER)))
    rout_checks(g, [h])
    commander_checks(g, h)
