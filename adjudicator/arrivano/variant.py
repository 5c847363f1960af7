"""Arrivano i Francesi! as a variant of the Para Bellum kernel (adjudicator/parabellum/variant.py): its values
and hook overrides, each with its citation."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from itertools import combinations
from pathlib import Path
from typing import Any, ClassVar, Literal

from arbitro.adjudicator.arrivano import rules as R
from arbitro.adjudicator.arrivano import world as own
from arbitro.adjudicator.arrivano.data_model import COLUMNS
from arbitro.adjudicator.maps.costs import MovementTable
from arbitro.adjudicator.parabellum import orders, retreat
from arbitro.adjudicator.parabellum.rules import Rulebook, read_rulebook
from arbitro.adjudicator.parabellum.variant import Reading, Variant
from arbitro.adjudicator.parabellum.world import World
from arbitro.adjudicator.ruleset import Rule
from arbitro.adjudicator.tables import Halving, halved
from arbitro.events.arrivano import ARRIVANO_CONTEXTS, ASSAULT_KINDS
from arbitro.events.parabellum import DieModifier
from arbitro.projections.parabellum import Activation


def defending(w: World, targets: list[str]) -> list[str]:
    """The units an assault on `targets` fights: every unit there but artillery (arrivano §11.0.2)."""
    return [u for t in targets for u in w.units_at(t) if w.state.units[u].arm != "artillery"]


def _cavalry_halving(w: World, hexes: Sequence[str]) -> Halving | None:
    """arrivano §10.4 "La cavalleria che combatte in Bosco ha la sua forza dimezzata": the first of `hexes`' terrains
    that halves cavalry, with its rounding (terrain.json `cavalry_halved`: up, §1.3)."""
    return next((t.cavalry_halved for h in hexes for t in w.terrains(h) if t.cavalry_halved), None)


def _retreat_ordered(w: World, u: str) -> bool:
    """arrivano §14.1 "se hanno un Ordine di Manovra o Difesa": its true order; horse artillery may always take
    Manoeuvre or Defence whatever its formation's order (§11 "possono sempre scegliere di avere un Ordine di Manovra o
    Difesa": the orders table's `artillery_may_choose`; rev-j 2)."""
    order = orders.order_of(w, u)
    may = orders.artillery_orders(w.orders, order) if w.is_artillery(u) else [order]
    return not {"manoeuvre", "defence"}.isdisjoint(may)


class ArrivanoVariant(Variant):
    book: ClassVar[str] = "arrivano"
    rules: ClassVar[Rulebook] = read_rulebook(Path(__file__).with_name("rulebook.json"))  # the book's sections
    crt_name: ClassVar[str] = "arrivano CRT"
    units_block_sight: ClassVar[bool] = False  # arrivano §11.3.1: units never block (D18)
    bombard_artillery_alone: ClassVar[bool] = False  # arrivano §11.4.3: a hex of artillery alone is no target (D15b)
    roll_for_last_formation: ClassVar[bool] = True  # arrivano §6.1: rolled again after every activation
    chief_changes_limited: ClassVar[bool] = True  # arrivano §4.3: at most as many as his initiative (D5)
    rout_failure_permanent: ClassVar[bool] = True  # arrivano §15.2: a failed rout test is a surrender (D19)
    rout_tests_in_hex_order: ClassVar[bool] = True  # §15.2: the stacks test in hex order, as its games recorded
    # arrivano §5.1.1: Advance binds while any counted unit could still close, even if the half is out of reach (D6)
    advance_binds_while: ClassVar[Literal["half", "any"]] = "any"
    column_option: ClassVar[str | None] = COLUMNS  # arrivano §16.2: independent columns, an optional rule (D30)
    reinforcements_in_command: ClassVar[bool] = True  # arrivano §15.4.1 "entrano sulla mappa in comando" (D22)
    # its assault's decisions wait below every other kind of its own, as when they had a stack of their own
    assault_kinds: ClassVar[Collection[str]] = ASSAULT_KINDS
    decision_kinds: ClassVar[Collection[str]] = ARRIVANO_CONTEXTS

    def road_costs(self, w: World, table: MovementTable) -> MovementTable:
        """arrivano §17.2.8 ("Ogni esagono contiguo di strada costa mezzo PM"), interpretation `road_cost_scope`:
        `all_road_movement` (default), any formation's road step as the weather box's table gives it;
        `march_column_only`, a march column's alone (`world.column_only_roads`; a table without such costs,
        Montebello's, is priced the same)."""
        return own.column_only_roads(table) if w.reading("road_cost_scope") == "march_column_only" else table

    def column_keeps_to_roads(self, reading: Reading) -> bool:
        """arrivano §9.3, interpretation `column_keeps_to_roads` (its title, "Marcia in Colonna su strada"; the body
        text is caldiero §9.3's word for word): `roads_only`, every step along a road; `as_caldiero`, a road only
        where the column is declared."""
        return reading("column_keeps_to_roads") == "roads_only"

    def bombard_six_tests_leaders(self, defensive: bool, reading: Reading) -> bool:
        """arrivano §4.5.1, interpretation `leader_loss_bombardment_roller`: `firer`, any firing side is "the
        attacker"; `active_only`, only the active side's fire, not defensive fire in the enemy's activation."""
        return not (defensive and reading("leader_loss_bombardment_roller") == "active_only")

    def disordered_defence(self, disordered: Sequence[bool], reading: Reading) -> bool:
        """arrivano §15.1, §12.5.2 "la presenza di unità in Disordine in difesa" (interpretation
        disordered_defender_drm): `any_unit` one disordered or routed defender suffices; `every_unit` all must be."""
        return any(disordered) if reading("disordered_defender_drm") == "any_unit" else bool(disordered) and all(disordered)

    def leader_roll(self, w: World, leader: str, cause: str) -> tuple[str, dict[str, str | int]]:
        """arrivano §4.5.3: the die of a commander's test, the faces losing him the book's `leader_loss` (1-2)."""
        lost_on = w.book_rules.leader_loss.limit(w.leader_role(leader), w.leader_initiative(leader))
        return f"{self.rules.LEADER_TEST} commander test: {cause}", {"table": "leader loss", "lost_on": f"1-{lost_on}"}

    def fire_roll(self, w: World, guns: Sequence[str], target: str, column: int, modifiers: Sequence[DieModifier],
                  defensive: bool) -> tuple[str, dict[str, str | int], tuple[str, ...]]:
        """arrivano §11.4.3: the table, its column, the firing and the target hexes and each modifier named."""
        h = w.state.units[guns[0]].hex
        return f"{R.BOMBARD_TABLE} bombardment of {target}", {
            "table": "bombardment", "column": str(column), "from": h, "target": target,
            "modifiers": ", ".join(f"{m.reason} {m.value:+d}" for m in modifiers)}, (h, target)

    def initiative_tie_winner(self, w: World) -> str | None:
        """arrivano §6.1.1: ties go to the French, the scenario's `initiative_tie_winner` (D13)."""
        return str(w.scenario.initiative_tie_winner)  # type: ignore[attr-defined]

    def retreat_lines(self, ground: retreat.Ground, hexes: int, reading: Reading) -> list[retreat.Line]:
        """arrivano §12.6-§12.6.2: whole paths ranked by their end, one line per end hex; off the map (§12.8.1) as
        the interpretation `off_map_retreat` reads it (`farthest`: an exit is the farthest end) (D34)."""
        return retreat.by_end(ground, hexes, leaving_is_farthest=reading("off_map_retreat") == "farthest")

    def retreat_parts(self, w: World, moves: Mapping[str, int]) -> list[list[str]]:
        """arrivano §12.6 "Due unità in stack insieme possono ritirarsi in esagoni differenti": any part of one stack
        (with as many hexes to go), the whole first, the last stack in hex order first (as its frames, one a stack, once
        were); artillery never leaves nor is left without a combat unit (§11.1: it retreats *with* them) (D45)."""
        key = max((w.hex_of(u) or "", n) for u, n in moves.items()) if moves else None
        units = [u for u, n in sorted(moves.items()) if (w.hex_of(u) or "", n) == key]

        def troops(part: Sequence[str]) -> bool:
            return any(w.state.units[u].arm != "artillery" for u in part)
        return [list(p) for k in range(len(units), 0, -1) for p in combinations(units, k)
                if k == len(units) or troops(p) and troops([u for u in units if u not in p])]

    def retreat_answer(self, units: Sequence[str], line: retreat.Line) -> dict[str, Any]:
        """arrivano §12.6, §12.8.1: where the line ends (for an exit the edge hex it leaves from, `off_map`) and the
        units that take it (D45)."""
        return {"type": "retreat", "to": line.to, "units": list(units), "off_map": line.off_map}

    def before_combat_leaves_map(self, reading: Reading) -> bool:
        """arrivano §12.8.1 with §14.1, §16.3.5 (interpretation retreat_before_combat_off_map): `as_forced`, the lines
        of a forced retreat, exits included; `stays_on_map` (default), never (neutral) (D41)."""
        return reading("retreat_before_combat_off_map") == "as_forced"

    def retreats_before_combat(self, w: World, u: str, attacker_side: str) -> bool:
        """arrivano §14.1 (D46): cavalry, and horse artillery not on its Moved side, with the Manoeuvre or Defence the
        rule asks, or an order the attacker, served whether the question opens, may not tell (§11.3.2,
        orders.order_hidden_from): that unit is asked whatever its order, and without it may only stay
        (`before_combat_barred`); so is cavalry that moved this turn under reading before_combat_moved:
        moved_this_turn (whether it moved is hidden wherever its move was, rev-k K6)."""
        unit = w.state.units[u]
        mounted = unit.arm == "cavalry" or (unit.arm == "artillery" and w.counters.unit(u).horse and not unit.art_moved)
        return mounted and (_retreat_ordered(w, u) or orders.order_hidden_from(w, attacker_side, u))

    def before_combat_barred(self, w: World, u: str) -> str | None:
        """arrivano §14.1 (D46): its true order, read by its owner's answers only (`_retreat_ordered`); under reading
        before_combat_moved: moved_this_turn, cavalry that moved this turn ("non \"moved\""; under moved_side only
        the guns' Moved side bars it, `retreats_before_combat`)."""
        rule, unit = self.rules.CAVALRY_RETREAT, w.state.units[u]
        if not _retreat_ordered(w, u):
            return f'neither a Manoeuvre nor a Defence order, {rule} "se hanno un Ordine di Manovra o Difesa"'
        if w.reading("before_combat_moved") == "moved_this_turn" and unit.arm == "cavalry" and \
                unit.moved_turn == w.state.turn:
            return f'moved this turn, {rule} \'non "moved"\', reading before_combat_moved: moved_this_turn'
        return None

    def relays_join_by_contiguity(self, reading: Reading) -> bool:
        """arrivano §4.4.2 with §4.2 (interpretation officer_in_command): `any_in_command`, an officer in command by
        contiguity relays too; `general_range`, only one in his general's range (D4)."""
        return reading("officer_in_command") == "any_in_command"

    def commander_die_modifier(self, world: World, u: str) -> int:
        """arrivano §13.2: -1 (tables/rules.json `commander_die_modifier`) with the commander in chief, or a general or
        officer of the unit's formation, in its hex (interpretation cic_efficiency_any_formation: `true` the chief for
        any friendly unit, `false` only for his own formation's) (D9)."""
        h = world.hex_of(u)
        any_formation = world.reading("cic_efficiency_any_formation") == "true"
        for leader in world.leaders_at(h) if h is not None else []:
            chief = world.leader_role(leader) == "commander_in_chief" and any_formation
            if world.leader_side(leader) == world.side_of(u) and (chief or world.leader_formation(leader) == world.formation_of(u)):
                return int(world.book_rules.commander_die_modifier)  # type: ignore[attr-defined]
        return 0

    def in_return_range(self, world: World, leader: str, h: str) -> bool:
        """arrivano §12.8: the printed command range counted in hexes from the commander to where the unit was
        eliminated, not traced (as its recorded games did; §4.4.3 traces it for command, issue 19 to examine)."""
        at = world.leader_on_map(leader)
        return at is not None and world.grid.distance(at, h) <= world.counters.leader(leader).command_range

    def combat_sp(self, w: World, u: str, attacking: bool, defenders: Sequence[str], targets: Sequence[str]) -> int:
        """arrivano §14.0.1, §14.2, §14.2.4, §10.4 (D27-D28, D17): attacking cavalry doubles, never twice, against
        defenders all disordered infantry, when charging or counter-charging, and is halved attacking into woods
        (interpretation `cavalry_in_woods`: `both`; `defending_only` halves defenders only); defending cavalry is
        halved in woods and doubled as a charger met by a counter-charge; halves rounded as the terrain's
        `cavalry_halved` says (up, §1.3)."""
        sp = w.strength(u)
        if w.arm(u) != "cavalry":
            return sp
        state = w.state
        if attacking:
            disordered_infantry = bool(defenders) and all(w.arm(d) == "infantry" and w.status(d) != "good"
                                                          for d in defenders)
            if disordered_infantry or state.charging(u):  # a charge's marker or a counter-charge's (§14.2.4)
                sp *= w.crt.cavalry_multiplier
            return halved(sp, _cavalry_halving(w, targets) if w.reading("cavalry_in_woods") == "both" else None)
        sp = halved(sp, _cavalry_halving(w, [w.hex_of(u) or ""]))
        return sp * w.crt.cavalry_multiplier if u in state.countercharges.values() else sp

    def ex_strengths(self, w: World, attackers: Sequence[str], defenders: Sequence[str]) -> dict[str, int]:
        """arrivano §12.5.4 EX "maggiore Forza di combattimento", interpretation `ex_strength_basis`: `printed`, the
        unit's printed strength; `modified`, the SP counted in this combat (`combat_sp`: §14.0.1, §14.2, §14.2.4
        cavalry doubled, §10.4 halved in woods) against every unit there but artillery (§11.0.2)."""
        sp = super().ex_strengths(w, attackers, defenders)
        live = [u for u in attackers if w.on_map(u)]
        if w.reading("ex_strength_basis") != "modified" or not live:
            return sp
        targets = sorted({h for u in defenders if (h := w.hex_of(u)) is not None})
        fighting = defending(w, targets)
        return (sp | {u: self.combat_sp(w, u, True, fighting, targets) for u in live}
                | {u: self.combat_sp(w, u, False, fighting, targets) for u in fighting if u in sp})

    def ne_passes(self, stacks: Sequence[Sequence[bool]]) -> bool:
        """arrivano §12.5.4 NE: "se almeno una unità passa", at least one attacking unit passes (D25)."""
        return any(any(stack) for stack in stacks)

    def below_minimum_declarable(self, orders: Sequence[str], reading: Reading) -> bool:
        """arrivano §12.4.2: only when an Attack order forces it (any attacker under Attack) (D24)."""
        return any(o == "attack" for o in orders)

    def below_minimum_result(self, forced: bool, tested: bool, reading: Reading) -> str | None:
        """arrivano §12.4.2: forced by an Attack order, an automatic Ae; fallen below through failed "Attack?" tests,
        the interpretation `below_1_5_after_tests` (cancelled, automatic Ae, or the first column); otherwise the
        first column (D24)."""
        if forced:
            return "Ae"
        if tested:
            return {"cancelled": "cancelled", "automatic_ae": "Ae"}.get(reading("below_1_5_after_tests"))
        return None

    def sight_blocking_terrains(self, reading: Reading) -> frozenset[str]:
        """arrivano §10.3 over the list of §11.3.1 (interpretation `wheat_blocks_los`): `true`, wheat blocks a line
        of sight too (D18)."""
        return frozenset({"grano"}) if reading("wheat_blocks_los") == "true" else frozenset()

    def out_of_command(self, w: World, u: str) -> bool:
        """arrivano §5.3 with §4.4: a unit of the activated group on the map, out of its formation's command as the
        position stands (D8)."""
        unit = w.state.units[u]
        if unit.where != "map" or not own.acts_now(w, u):
            return False
        return u not in own.in_command(w, unit.formation)

    def ordered_otherwise(self, w: World, u: str) -> bool:
        """arrivano: artillery chooses its order (§11), a column's unit obeys its column (§16.2.2), a failed fatigue
        test gives Defence for the turn (§16.3.4), a march order in force Manoeuvre (§17.1.5) (D8)."""
        state = own.state_of(w)
        if state.units[u].arm == "artillery" or own.column_of(w, u) is not None or self.defence_imposed(w, u):
            return True
        return any(state.march_orders.get(m.id) and u in m.units for m in w.scenario.march_orders)  # type: ignore[attr-defined]

    def defence_imposed(self, w: World, u: str) -> bool:
        return w.state.units[u].fatigue_defence_turn == w.state.turn  # arrivano §16.3.4: a failed fatigue test

    def defence_unseen(self, w: World, u: str) -> bool:
        return w.state.units[u].open_order == "F"  # arrivano §16.3.4: only a passed fatigue test removes the F

    def column_order(self, w: World, u: str) -> str | None:
        """arrivano §16.2.2: a column's unit obeys its column's order within its officer's range (or coming onto the
        map in this activation, waiting at its entry or just entered, §15.4.1: the World's `entering_now`), else
        Defence."""
        if (column := own.column_of(w, u)) is None:
            return None
        unit = w.state.units[u]
        in_range = unit.where == "map" and unit.hex in w.command_reach(column)
        return w.state.columns[column].order if in_range or w.entering_now(u) else "defence"

    def return_commanders(self, w: World, u: str) -> list[str | None]:
        """arrivano §12.8.2, interpretation lost_general_replacements: `with_chief`, next to the commander in chief
        when the formation's general is gone; else with the general alone (none: the unit waits on the track)."""
        if w.general_on_map(w.formation_of(u)) is None and w.reading("lost_general_replacements") == "with_chief":
            return [w.commander_in_chief(w.side_of(u))]
        return super().return_commanders(w, u)

    def order_giver(self, w: World, act: Activation) -> tuple[str | None, str | None]:
        """arrivano §16.2, §17.2.9: an independent column's officer tries for his column's order; else the general."""
        if act.column is None:
            return super().order_giver(w, act)
        return act.column, w.state.columns[act.column].order

    def order_try_barred(self, w: World, seat: str) -> tuple[Rule, str] | None:
        """arrivano §4.5.5 (interpretation cic_loss_scope): with `all_changes`, a side whose commander in chief is lost
        changes no order of any kind (generals' §5.2.1 rolls, column officers, the officers of §3.1 B-4); with
        `chief_changes` only the chief's own changes end (the kernel's chief_orders)."""
        if w.state.leaders[w.commander_in_chief(seat)].where != "lost" or w.reading("cic_loss_scope") != "all_changes":
            return None
        return R.CHIEF_LOST, "your commander in chief is lost: no order may change (interpretation cic_loss_scope: all_changes)"

    def commanded_anyway(self, w: World, members: Sequence[str]) -> list[str]:
        """arrivano §3.2: every unit starts in command (D2; a reinforcement's §15.4.1 is the kernel's, D22)."""
        return list(members) if w.state.first_turn else []

    def relayed_by(self, w: World, officer: str, members: Sequence[str]) -> list[str]:
        """arrivano §4.2, §4.6: the members in the officer's range; a cavalry officer's, cavalry and horse artillery
        only (D3)."""
        reach, cavalry = w.command_reach(officer), w.counters.leader(officer).cavalry
        return [u for u in members if w.state.units[u].hex in reach and (not cavalry or own.cavalry_like(w, u))]

    def weather_one_hex(self, w: World) -> Rule | None:
        """arrivano §17.2.7 (Tormenta): combat units and commanders move one hex only, even along a road."""
        box = w.weather_box()
        return R.CT_WEATHER if box is not None and box.move_one_hex_only else None

    def test_efficiency_bonus(self, w: World, u: str) -> int:
        """arrivano §17.2.7: the Campotenese weather's bonus to a side's units in Defence (the Neapolitans') (D29)."""
        box = w.weather_box()
        bonus = box.defence_efficiency_bonus.get(w.state.units[u].side, 0) if box is not None else 0
        return bonus if bonus and orders.order_of(w, u) == "defence" else 0


ARRIVANO_VARIANT = ArrivanoVariant()
# The book's section for each concept of the system, by its name: ARRIVANO.RETREAT is "arrivano §12.6".
ARRIVANO: Rulebook = ARRIVANO_VARIANT.rules

