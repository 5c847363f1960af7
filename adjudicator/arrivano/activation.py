"""Arrivano i Francesi!: one activation (arrivano §3.1 B): activating a formation, an independent column or the
HQ (option §16.1), the reinforcements it brings (B-1, §15.4), and its end (B-6: recovery, §15.3, begun in the combat
step by the owner's first try). It builds on
turn.py (the initiative that follows every activation), which never imports it.
"""

from __future__ import annotations

from typing import Any

import msgspec

from arbitro.adjudicator.arrivano import rules as R
from arbitro.adjudicator.arrivano.data_model import COLUMNS, HQ_ORDERS
from arbitro.adjudicator.arrivano.flow import after_leader_lost, push
from arbitro.adjudicator.parabellum.act import Act, stack_test
from arbitro.adjudicator.arrivano.turn import activatable, activatable_columns, barred_first_turn
from arbitro.adjudicator.arrivano.world import acts_now, cavalry_like, column_of, in_command
from arbitro.adjudicator.parabellum.world import World
from arbitro.adjudicator.arrivano.variant import ARRIVANO, ARRIVANO_VARIANT
from arbitro.adjudicator.parabellum import activation, chief_orders, initiative, orders, recovery, reinforcements
from arbitro.events import arrivano as ev
from arbitro.events import core


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
    if COLUMNS not in w.state.options or officer in w.state.columns:
        return []
    le = w.state.leaders[officer]
    if le.role != "officer" or le.where != "map" or le.formation is None or w.state.formations[le.formation].activated:
        return []
    if barred_first_turn(w, le.side) or not officer_in_superior_range(w, officer):
        return []
    data = w.counters.leader(officer)
    reach = w.command_reach(officer)
    out = []
    for u in w.units_of(le.side):
        unit = w.state.units[u]
        if unit.formation != le.formation or unit.hex not in reach or column_of(w, u) is not None:
            continue
        if data.cavalry and not cavalry_like(w, u):
            continue
        out.append(u)
    return out


def form_column(g: Act, officer: str, units: list[str], order: str) -> None:
    w = g.world()
    if COLUMNS not in g.state.options:
        g.reject(R.COLUMNS, "the optional rule of independent columns was not chosen for this game")
    if officer not in g.state.leaders or g.state.leaders[officer].side != g.ctx.seat:
        g.reject(R.COLUMNS, "not one of your officers")
    allowed = column_candidates(w, officer)
    if not allowed:
        g.reject(R.COLUMNS, "this officer cannot form a column now (on the map, within his general's range, "
                            "his formation not yet activated, not already leading one)")
    if len(set(units)) != len(units) or any(u not in allowed for u in units):
        data = g.data.leader(officer)
        g.reject(R.COLUMN_CAVALRY if data.cavalry else R.COLUMNS,
                 "column units: of his formation, within his range, not in another column")
    fid = g.state.leaders[officer].formation
    assert fid is not None
    g.emit(ev.ColumnFormed(officer=officer, units=sorted(units), order=order, rule=str(R.COLUMNS)))
    g.emit(ev.FormationActivated(formation=fid, by=g.ctx.seat, column=officer, rule=str(R.COLUMNS)))
    g.steps.begin("bombardment", g, g.ctx.seat)


def rejoinable(w: World, seat: str) -> list[str]:
    """The seat's independent columns he may rejoin to their formation now (arrivano §16.2.1 "all'inizio di una sua
    attivazione, il giocatore decide di riaggiungerla ... ma per farlo deve essere nel raggio di comando del proprio
    Superiore"): his own columns he may activate, their officer within his superior's range; never Franceschi's
    (§17.2.9: the scenario's column, activated in place of Compère's formation, which no rule rejoins)."""
    fr = w.scenario.franceschi
    return [o for o in activatable_columns(w) if w.state.leaders[o].side == seat
            and (fr is None or fr.leader != o) and officer_in_superior_range(w, o)]


def rejoin_column(g: Act, officer: str) -> None:
    """arrivano §16.2.1: the owner, choosing his column's activation, rejoins it to its formation at its start; the
    activation is spent on it (the fixed reading, docs/rulesets/arrivano.md). Whose officer is asked first, so a
    seat naming an enemy officer learns nothing of where he stands (§11.3.2): the enemy may activate the column
    (§6.1 "amica o nemica") but never rejoins it; it is served only the column_dissolved the table shows."""
    w = g.world()
    if officer not in g.state.leaders or g.state.leaders[officer].side != g.ctx.seat:
        g.reject(R.COLUMN_REJOIN, "not one of your officers: only a column's owner rejoins it")
    if officer not in (may := rejoinable(w, g.ctx.seat)):
        g.reject(R.COLUMN_REJOIN, f"{officer}'s column may not rejoin now: it must be an independent column of yours "
                 "(not Franceschi's, §17.2.9), not activated this turn, its officer on the map and within his "
                 f"superior's command range; may: {', '.join(may) or 'none'}")
    g.emit(ev.ColumnDissolved(officer=officer, rule=str(R.COLUMN_REJOIN)))
    initiative.next_activation(g)


HQ = "HQ"


def hq_available(w: World, side: str) -> bool:
    """Option §16.1: the side's HQ may be activated once per turn while its chief is on the map (Montebello turn 1:
    only the French, §17.1.2) and has a general to give orders to."""
    if HQ_ORDERS not in w.state.options or w.state.hq_used.get(side) or barred_first_turn(w, side):
        return False
    return bool(chief_orders.in_reach(ARRIVANO_VARIANT, w, w.commander_in_chief(side)))  # §16.1, §4.3


def activate(g: Act, fid: str) -> None:
    w = g.world()
    if fid == HQ:
        if not hq_available(w, g.ctx.seat):
            g.reject(R.HQ_ORDERS, "your headquarters cannot be activated now (option not chosen, already used, "
                                  "or no general within your chief's range)")
        counter = g.data.scenario.hq_counters.by_side().get(g.ctx.seat, HQ)
        g.emit(ev.HeadquartersActivated(side=g.ctx.seat, counter=counter, rule=str(R.HQ_ORDERS)))
        g.emit(ev.StepBegan(phase="action", step="orders", seat=g.ctx.seat, rule=str(R.HQ_ORDERS)))
        return
    if fid in g.state.columns:
        fr = g.data.scenario.franceschi
        rule = R.CT_FRANCESCHI if fr is not None and fr.leader == fid else R.COLUMNS  # §17.2.9's or an officer's (§16.2)
        if fid not in activatable_columns(w):
            g.reject(rule, "this column is already activated this turn or its officer is not on the map")
        formation = g.data.leader(fid).formation
        assert formation is not None
        g.emit(ev.FormationActivated(formation=formation, by=g.ctx.seat, column=fid, rule=str(rule)))
        g.steps.begin("bombardment", g, w.state.leaders[fid].side)
        return
    if fid not in g.state.formations:
        g.reject(R.ACTIVATE, f"there is no formation {fid!r}")
    if fid not in activatable(w):
        reason = "already activated" if g.state.formations[fid].activated else "not activatable now"
        rule = R.MB_FIRST_TURN if barred_first_turn(w, g.state.formations[fid].side) else R.ACTIVATE
        g.reject(rule, f"formation {fid} is {reason}")
    g.emit(ev.FormationActivated(formation=fid, by=g.ctx.seat, rule=str(R.ACTIVATE)))
    owner = g.state.formations[fid].side
    if g.reading("dangling_4_3_2") == "caldiero_4_3_1" and not g.state.first_turn:  # see free_order_units
        push(g, "free_order", owner, str(R.DANGLING_4_3_2), ev.FreeOrderAwaited(units=free_order_units(g.world(), fid)))
    enter_reinforcements(g, fid)
    g.steps.begin("bombardment", g, owner)


def free_order_units(w: World, fid: str) -> tuple[str, ...]:
    """The units the `free_order` question offers (interpretation dangling_4_3_2, arrivano §4.4 "(vedi anche 4.3.2)"):
    the formation's out-of-command units (not in a column) within their commander in chief's command range at its
    activation, which take the order their owner wishes (caldiero §4.3.1); none while the chief is off the map. The
    caller reads the interpretation (with `ignore` nobody is asked: Defence, §5.3) and asks after the first turn at
    every activation, none in range included: asked only where one stood, the question told the enemy whether the
    unseen chief stands in range (§11.3.2, rev-l L6)."""
    side = w.state.formations[fid].side
    reach = w.chief_reach(side)
    ic = in_command(w, fid)
    return tuple(u for u in w.units_of(side) if w.state.units[u].formation == fid and u not in ic
                 and column_of(w, u) is None and w.state.units[u].hex in reach)


def enter_reinforcements(g: Act, fid: str) -> None:
    """arrivano §15.4 (B-1): the formation's groups due this turn come to their entry hex; their units wait
    there to move on (paying the entry hex), in command (§15.4.1, the kernel's `command.in_command`); commanders are
    placed on it. A group bringing the general sets the order: Advance (§15.4.1) or, with 'any', the owner's choice
    (§17.1.2). With the reading `reinforcement_order` `always_advance` (§15.4.1 "con un Ordine di Avanzata" as
    worded) its units take the orders table's order as their own for this activation, whatever the formation's
    (the kernel's `reinforcements.enter_with_order`, as caldiero §15.4.2), and a group with 'any' sets it too."""
    w = g.world()
    for group in g.data.oob.reinforcements:
        if group.formation != fid or group.turn > g.state.turn or group.id in g.state.entered_groups:
            continue
        h = g.data.scenario.entry_hexes[group.entry].hex
        if w.side_at(h) not in (None, g.state.formations[fid].side):
            if g.reading("blocked_entry") == "lost":
                lose_blocked_group(g, group.id, sorted(group.units), sorted(group.leaders))
            continue  # interpretation blocked_entry: delay (it may enter in a later activation)
        g.emit(ev.GroupEntered(group=group.id, hex=h, units=sorted(group.units), rule=str(ARRIVANO.REINFORCEMENTS)))
        for lid in sorted(group.leaders):
            g.emit(ev.LeaderPlaced(leader=lid, hex=h, rule=str(ARRIVANO.REINFORCEMENTS)))
        if g.reading("reinforcement_order") == "always_advance":  # §15.4.1 as worded: each unit's own order
            reinforcements.enter_with_order(g, sorted(group.units))
        fr = g.data.scenario.franceschi
        if fr is not None and fr.leader in group.leaders:  # arrivano §17.2.9: an independent column
            g.emit(ev.ColumnFormed(officer=fr.leader, units=sorted(fr.units), order=g.state.formations[fid].order,
                                   rule=str(R.CT_FRANCESCHI)))
        if g.state.formations[fid].general in group.leaders:
            if group.order == "any" and g.reading("reinforcement_order") == "always_advance":  # the table's (§15.4.1)
                if g.state.formations[fid].order != (order := w.orders.reinforcement_order):
                    g.emit(ev.OrderChanged(formation=fid, order=order, by="reinforcement",
                                           rule=str(ARRIVANO.REINFORCEMENT_ORDER)))
            elif group.order == "any":
                push(g, "choose_order", g.state.formations[fid].side, str(R.MB_FIRST_TURN), ev.OrderAwaited(formation=fid))
            elif g.state.formations[fid].order != group.order:
                g.emit(ev.OrderChanged(formation=fid, order=group.order, by="reinforcement",
                                       rule=str(ARRIVANO.REINFORCEMENT_ORDER)))


def lose_blocked_group(g: Act, group: str, units: list[str], leaders: list[str]) -> None:
    """Interpretation blocked_entry: lost - a group whose entry hex the enemy holds when it is due never enters:
    its units and commanders are lost for good (arrivano §15.4 "entrano in mappa nell'esagono appropriato")."""
    g.emit(ev.GroupEntered(group=group, hex="", units=[], rule=str(ARRIVANO.REINFORCEMENTS)))
    for u in units:
        g.emit(ev.UnitEliminated(unit=u, permanent=True, return_turn=0, rule=str(ARRIVANO.REINFORCEMENTS)))
    for lid in leaders:
        g.emit(ev.LeaderLost(leader=lid, rule=str(ARRIVANO.REINFORCEMENTS)))
        after_leader_lost(g, lid)


def finish_activation(g: Act) -> None:
    activation.end(g)
    initiative.next_activation(g)


def recovery_candidates(w: World, tried: list[str]) -> dict[str, list[str]]:
    """Stacks that may try to recover now (arrivano §15.3): disordered or routed, not in EZoC, their order allowing
    it (Manoeuvre: stacked with or next to a commander of their formation), idle this turn, not already tried
    in this B-6. Interpretation recovery_scope: `active_formation_idle` units of the activated group only;
    `any_unit_idle` every idle unit of the active side."""
    act = w.state.activation
    assert act is not None
    side = w.state.formations[act.formation].side
    any_unit = w.reading("recovery_scope") == "any_unit_idle"
    return recovery.stacks(w, side, [u for u in w.units_of(side) if (any_unit or acts_now(w, u)) and w.state.units[u].hex
                                     not in tried and w.state.units[u].acted_turn != w.state.turn], lambda u: orders.order_of(w, u))


def begin_recovery(g: Act, seat: str, h: str) -> None:
    """B-6 (arrivano §3.1) begun by the owner's first try, given in the combat step in place of its `end_step` (§15.3
    "possono tentare": the owner picks the stacks that try). B-6 never opens by itself: every seat is served which
    seat the game awaits, and whether a stack may try hangs on the status of units the enemy may not examine
    (§11.3.2), so a question opened only where one may would tell the enemy that an unseen unit is disordered."""
    act = g.state.activation
    assert act is not None
    try_recovery(g, seat, ev.RecoveryAwaited(formation=act.formation, tried=()), h)


def recovery_answers(w: World, tried: list[str]) -> list[dict[str, Any]]:
    """The stacks that may try now (`recovery_candidates`), as `recover` answers."""
    return [{"type": "recover", "hex": h} for h in recovery_candidates(w, tried)]


def recover(g: Act, frame: core.Frame[ev.RecoveryAwaited], h: str | None) -> None:
    """The owner's answer to `recovery`, asked after each try: another stack tries, or None: done."""
    if h is None:
        finish_activation(g)
        return
    try_recovery(g, frame.seats[0], frame.ctx, h)


def try_recovery(g: Act, seat: str, tried: ev.RecoveryAwaited, h: str) -> None:
    """The stack in `h` tests (§15.3.1: pass, one level better); the owner is then asked again whatever is left
    (whether another stack may try is as hidden as the first)."""
    w = g.world()
    units = recovery_candidates(w, list(tried.tried)).get(h)
    if units is None:
        whose = "of the activated formation" if w.reading("recovery_scope") == "active_formation_idle" else \
            "of the active side (reading recovery_scope: any_unit_idle)"
        g.reject(ARRIVANO.RECOVERY, f"no stack in {h} may try to recover now: it needs disordered or routed units "
                 f"{whose}, idle this turn, out of enemy zones of control, their order allowing it, not tried yet; may: "
                 f"{', '.join(recovery_candidates(w, list(tried.tried))) or 'none'}")
    results = stack_test(g, units, f"{ARRIVANO.RECOVERY} recovery in {h}")
    for u in (u for u, passed in results.items() if passed):
        g.emit(ev.StatusChanged(unit=u, status=recovery.recovered(g.world(), u), rule=str(ARRIVANO.RECOVERY)))
    push(g, "recovery", seat, str(ARRIVANO.RECOVERY), msgspec.structs.replace(tried, tried=(*tried.tried, h)))
