"""The four orders of the system (caldiero §5.1, arrivano §5.1), and the movement step's obligations of Advance and
Attack (§5.1.1, §5.1.2 in both), checked when the step ends. What each order permits differs between the books (D6:
each game's orders table, caldiero data/orders.json, arrivano tables/orders.json; their movement permissions are
parabellum/movement.order_moves); who an obligation counts is each game's (D6)."""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import Final, cast

from arbitro.adjudicator.parabellum import command, sight
from arbitro.adjudicator.parabellum.data import OrdersTable
from arbitro.adjudicator.parabellum.movement import (
    Problem, advance_order_problem, attack_order_problem, closer, enemy_distances,
)
from arbitro.adjudicator.parabellum.variant import Variant
from arbitro.adjudicator.parabellum.world import World
from arbitro.adjudicator.parabellum.zoc import enemy_zoc

ORDERS: Final = ("advance", "attack", "defence", "manoeuvre")

def artillery_orders(table: OrdersTable, order: str) -> list[str]:
    """The orders an artillery unit whose order is `order` may act under, in order (caldiero §11.0, arrivano §11
    "possono sempre scegliere di avere un Ordine di Manovra o Difesa": the table's `artillery_may_choose` besides)."""
    return sorted({order, *table.artillery_may_choose})


def order_of(w: World, u: str, commanded: Collection[str] | None = None) -> str:
    """The order unit u obeys (caldiero §5.3, arrivano §5.3): Defence while its book holds it there whatever it was
    given (`defence_imposed`: arrivano §16.3.4); else the order given it in this activation (caldiero §5.3.1,
    §15.4.2, arrivano §3.1 B-4); else the order it chose for the turn (caldiero §5.3.1 "per questo turno":
    `UnitState.turn_order`); else its group's (`group_order`)."""
    variant, act = cast(Variant, w.variant), w.state.activation
    if variant.defence_imposed(w, u):
        return "defence"
    if act is not None and u in act.unit_orders:
        return act.unit_orders[u]
    if kept := w.state.units[u].turn_order:
        return kept
    return group_order(w, u, commanded)


def group_order(w: World, u: str, commanded: Collection[str] | None = None, *, as_given: bool = False) -> str:
    """The order unit u obeys as one of its group: Defence while the weather holds every formation to it (caldiero
    §17.1.3: the box's `formations_defence`); else its group's order (its formation's, or `column_order`: arrivano
    §16.2) if in command, else Defence. In command: the activated formation's units as the activation found them where
    `command_as_activated` (caldiero §5.3.1), any other unit as the position stands (§5.3 binds every unit;
    `commanded`: its formation's units in command, when the caller has them). `as_given`: its formation's order, as
    if in command and in no column (`declared_order`)."""
    variant, act, f = cast(Variant, w.variant), w.state.activation, w.formation_of(u)
    if (box := w.weather_box()) is not None and box.formations_defence:
        return "defence"
    if as_given:
        obeys = True
    elif (column := variant.column_order(w, u)) is not None:
        return column
    elif act is not None and variant.command_as_activated and f == act.formation:
        obeys = not variant.out_of_command(w, u)
    else:
        obeys = u in (commanded if commanded is not None else
                      w.cached(("in command", f), lambda: command.in_command(variant, w, f)))
    formation = w.state.formations.get(f)
    return formation.order if obeys and formation is not None and formation.order is not None else "defence"


def declared_order(w: World, seat: str | None, u: str) -> str:
    """The order `seat`, declaring an assault, judges the defender u by (§12.4.2 "E' proibito dichiarare attacchi
    con rapporti peggiori di 1-5" read `after_terrain`, a terrain whose benefit needs a Defence order: arrivano §10.1).
    Under the fog of war (caldiero §20.4, arrivano §11.3.2 "si può esaminare uno stack nemico solo se si ha una LoS")
    an enemy defender's command (§5.3 in both: "Una unità fuori comando ... ha automaticamente un Ordine di Difesa")
    rests on where its general and its formation's officers and units stand: where `seat` may not examine one of them,
    or while an independent column may hold it (the variant's `column_option`, arrivano §16.2: no view serves an enemy
    column nor the order under its officer), it is judged by its formation's order as given (public: `group_order`).
    A failed fatigue test's Defence (arrivano §16.3.4) is never read: made out of sight, it leaves the F marker a unit
    not yet tested shows; nor the order an out-of-command unit chose for the turn (caldiero §5.3.1): no counter shows
    it. The true order is applied at resolution (odds then worse than 1-5: D24 `below_minimum_result`).
    Without fog, or `seat` None (the resolution), the true order (`order_of`). docs/rulesets/parabellum.md, "A
    defender's order at the declaration under the fog"."""
    if seat is None or w.side_of(u) == seat or not sight.fog_in_force(cast(Variant, w.variant).fog_option, w.option):
        return order_of(w, u)
    return group_order(w, u, as_given=command_hidden_from(w, seat, u))


def command_hidden_from(w: World, seat: str, u: str) -> bool:
    """Whether `seat`, under the fog, may not tell the command (§5.3) of enemy unit u: it may not examine its general,
    one of its formation's officers or units, a unit of the formation stands off the map where no view serves it
    (`unseen_off_map`: the seat cannot tell it from one on the map out of sight; rev-k K3), or an independent column
    may hold it (`declared_order`)."""
    variant = cast(Variant, w.variant)
    f = w.formation_of(u)
    general = w.state.formations[f].general if f in w.state.formations else None
    leaders = [l for l in sorted(w.state.leaders) if l == general or w.leader_formation(l) == f]
    places = {h for p in (*w.formation_units(f), u) if (h := w.hex_of(p))} | \
        {h for l in leaders if (h := w.leader_on_map(l))}
    columns = variant.column_option is not None and w.option(variant.column_option)
    unserved = w.cached(("formations with units unserved",), lambda: frozenset(
        w.formation_of(p) for p, s in w.state.units.items() if s.where in w.state.unseen_off_map))
    return columns or f in unserved or bool(sight.unexaminable(w, seat, places, variant.fog_reach(w)))


def order_hidden_from(w: World, seat: str, u: str) -> bool:
    """Whether `seat` may not tell the true order (`order_of`) of enemy unit u from what it may examine (caldiero
    §20.4, arrivano §11.3.2): under the fog, its command is hidden (`command_hidden_from`) or a Defence a rule imposes
    unseen may hold it (`Variant.defence_unseen`: arrivano §16.3.4's F marker). A question asked only of a unit with
    some order is asked of every unit whose order is hidden from the asker's enemy, served whether it opens."""
    variant = cast(Variant, w.variant)
    return w.side_of(u) != seat and sight.fog_in_force(variant.fog_option, w.option) and (
        variant.defence_unseen(w, u) or command_hidden_from(w, seat, u))


@dataclass(frozen=True)
class Counted:
    """A unit an obligation counts, as the obligation reads it (who is counted is each game's, D6: caldiero §5.1.1
    leaves out artillery, the out-of-command and units that may stay put, §10.1; arrivano §5.1.5 also the disordered
    and units in a village or redoubt). `start`: its hex when the activation began; `start_distance`: hexes from
    there to the nearest enemy unit then (None: unknown, or no enemy)."""

    unit: str
    order: str
    start: str
    start_distance: int | None
    moved: bool


def obligation_problem(variant: Variant, world: World, side: str, counted: Sequence[Counted],
                       moves: Callable[[str], Collection[str]]) -> Problem | None:
    """The refusal to end `side`'s movement step while an order's obligation still binds, naming the units, or None
    (none while no enemy unit is on the map: neither obligation has a direction then). `moves(u)`: where u may end a
    move now, each a move toward the enemy where §5.1.2 binds it (its game's listing, empty for a unit that may not
    move). §5.1.2 ("tutte le unità ... devono muovere (se possibile) almeno un esagono verso le unità nemiche"): an
    Attack-order unit that has not moved, outside an enemy ZoC, with a move it may make; §5.1.1: fewer than half of
    the Advance-order units ended nearer the enemy while the variant says the obligation still binds, naming those
    that still could."""
    if not counted or not world.hexes_held(world.enemy(side)):
        return None
    ezoc = enemy_zoc(world, side)

    def free(c: Counted) -> bool:  # may still move: it has not, and no enemy ZoC holds it (§8.1)
        return not c.moved and c.start not in ezoc

    # found lazily: a caller asking only whether there is one stops at the first (§5.1.2 "(se possibile)")
    problem = attack_order_problem(variant, (c.unit for c in counted if c.order == "attack" and free(c) and moves(c.unit)))
    advance = [c for c in counted if c.order == "advance"]
    if problem or not advance:
        return problem
    distance = enemy_distances(world, side)  # `nearer`'s, in hand for every end asked
    closed_in = sum(1 for c in advance if c.moved and (h := world.hex_of(c.unit)) is not None
                    and closer(distance, h, c.start_distance))
    could = (c.unit for c in advance if free(c) and any(closer(distance, h, c.start_distance) for h in moves(c.unit)))
    return advance_order_problem(variant, len(advance), closed_in, could)
