"""Arrivano i Francesi!: the turn's frame (arrivano §3.1): the command phase (A-1 orders, A-2 replacements), the
initiative and the action phase's loop after each activation (A-3, §6.1; the loop itself is the kernel's,
parabellum/initiative.py), and the end phase (C). What an activation does is activation.py's, above this module.
"""

from __future__ import annotations

from arbitro.adjudicator.arrivano import rules as R
from arbitro.adjudicator.arrivano.flow import push
from arbitro.adjudicator.parabellum.act import Act
from arbitro.adjudicator.arrivano.variant import ARRIVANO, ARRIVANO_VARIANT
from arbitro.adjudicator.arrivano.victory import ARRIVANO_SCORING
from arbitro.adjudicator.parabellum.world import World
from arbitro.adjudicator.parabellum import initiative, reinforcements, victory
from arbitro.events import arrivano as ev


def barred_first_turn(w: World, side: str) -> bool:
    """Whether the scenario's first turn bars `side` from activating anything (arrivano §17.1.2: at Montebello only
    the French), a formation, a column or the HQ: the one place every activation asks it."""
    ft = w.scenario.first_turn
    return w.state.first_turn and ft is not None and side != ft.only_side_activates


def activatable(w: World, seat: str | None = None) -> list[str]:
    """Formations that may still be activated (arrivano §6.1; interpretation formation_not_on_map: `skip` one with
    nothing on the map and nothing due, `activatable` any formation not yet activated)."""
    out = []
    for fid in sorted(w.state.formations):
        f = w.state.formations[fid]
        if f.activated or barred_first_turn(w, f.side):
            continue
        present = w.general_on_map(fid) is not None or any(w.state.units[u].formation == fid for u in w.units_of(f.side))
        due = any(gr.formation == fid and gr.turn <= w.state.turn and gr.id not in w.state.entered_groups
                  for gr in w.counters.oob.reinforcements)
        waiting = any(u.formation == fid and u.where == "waiting" for u in w.state.units.values())
        if present or due or waiting or w.reading("formation_not_on_map") == "activatable":
            out.append(fid)
    return out


def activatable_columns(w: World) -> list[str]:
    """Independent columns not yet activated this turn whose officer is on the map (arrivano §17.2.9,
    interpretation franceschi_activation: extra_activation)."""
    return [o for o in sorted(w.state.columns) if not w.state.columns[o].activated and w.state.leaders[o].where == "map"
            and not barred_first_turn(w, w.state.leaders[o].side)]


def end_phase(g: Act) -> None:
    """arrivano §3.1 C: routed units move two hexes away (§15.2.2, one pending decision each), then Moved artillery
    turns back, then (Campotenese) the weather roll (§17.2.7); the game ends after the last turn."""
    g.emit(ev.StepBegan(phase="end", step="rout", seat="", rule=str(ARRIVANO.END_PHASE)))
    rout_moves(g, [])


def rout_moves(g: Act, done: list[str]) -> None:
    """The next routed unit's rout move (arrivano §15.2.2), its owner choosing the line or a stop; an `end_phase`
    frame under it brings the end phase back here once it (and any retreat it causes) is settled."""
    w = g.world()
    for side in g.data.scenario.seats:
        for u in w.units_of(side):
            if g.state.units[u].status == "routed" and u not in done:
                push(g, "end_phase", "", str(ARRIVANO.END_PHASE), ev.EndPhaseUnderway(done=(*done, u)))
                push(g, "rout_move", side, str(R.ROUT_MOVE), ev.RoutMoveAwaited(unit=u))
                return
    end_phase_rest(g)


def remove_spent_markers(g: Act, units: list[str]) -> None:
    """V markers placed before this turn go once the unit's combat sub-phase of the following turn is over
    (interpretation open_order_marker_removal: own_combat_subphase; the end phase catches units not activated)."""
    for uid in units:
        unit = g.state.units[uid]
        if unit.open_order == "V" and unit.marker_turn < g.state.turn:
            g.emit(ev.OpenOrderMarked(unit=uid, marker="", rule=str(R.EXHAUSTION)))


def end_phase_rest(g: Act) -> None:
    remove_spent_markers(g, sorted(g.state.units))  # arrivano §16.3.4: V markers of the previous turn
    moved = sorted(u for u, unit in g.state.units.items() if unit.art_moved)
    if moved:
        g.emit(ev.ArtilleryTurned(units=moved, moved=False, rule=str(ARRIVANO.END_PHASE)))
    g.weather(f"{R.CT_WEATHER} weather", "weather", R.CT_WEATHER)
    if g.state.turn >= g.state.last_turn:
        finish(g)
    # else the next turn begins from the kernel's settle loop (ruleset.settle_step), never inside this one: a turn
    # nobody decides anything in runs on into its end phase, and one begun inside the last would recurse once a turn


def start_turn(g: Act, turn: int) -> None:
    """A new turn: Command phase (arrivano §3.1 A): A-2 replacements come back, A-1 orders (the French first,
    §5.2), then A-3 initiative. (A-1 before A-2 in the text; replacements change nothing A-1 decides.)"""
    g.emit(ev.TurnBegan(turn=turn, rule=str(ARRIVANO.SEQUENCE)))
    replacements(g)
    if "hq_orders" in g.state.options:  # option §16.1: no orders sub-phase; the HQ is activated instead
        initiative.next_activation(g)
        return
    g.steps.begin("orders", g)


def replacements(g: Act) -> None:
    """arrivano §12.8.2: units on the track come back reduced within one hex of their general, obeying stacking,
    not in EZoC: the owner places each (pending `replacement_hex`, first unit on top; interpretation
    lost_general_replacements for a formation without its general)."""
    w = g.world()
    for uid in reversed(reinforcements.due(w)):
        if any(w.leader_on_map(c) for c in ARRIVANO_VARIANT.return_commanders(w, uid)):
            push(g, "replacement_hex", g.state.units[uid].side, str(R.RETURN), ev.ReplacementHexAwaited(unit=uid))


def orders_seats(g: Act) -> tuple[str, ...]:
    """Who changes orders in the orders sub-phase, one after the other (arrivano §3.1 A-1, §5.2: the French first,
    the scenario's `initiative_tie_winner`); an activated HQ's orders (§16.1): its seat alone. Initiative next."""
    if g.state.phase == "action":
        return (g.state.seat,)
    first = g.data.scenario.initiative_tie_winner
    return (first, g.world().enemy(first))


def finish(g: Act) -> None:
    g.emit(victory.final_result(ARRIVANO_VARIANT, g.world(), ARRIVANO_SCORING))  # arrivano §17.1.8, §17.2.12
