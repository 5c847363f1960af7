"""A game of the Para Bellum system: its rulebook values (data) and the points where its procedures differ
(hooks), the python-chess `is_variant_end` pattern. The kernel (this package) reads the data and calls the
hooks; it never asks which game it runs. Each member names its entry of the difference catalogue (D1-D46,
docs/rulesets/arrivano.md §3; mapped in docs/rulesets/parabellum.md) and cites the rule in both books; a variant
overrides only what its rules change (adjudicator/caldiero/variant.py, adjudicator/arrivano/variant.py)."""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any, ClassVar, Literal, Protocol

from arbitro.adjudicator.maps.costs import MovementTable
from arbitro.adjudicator.parabellum import exchange, retreat
from arbitro.adjudicator.parabellum.chief_limits import ChiefLimit
from arbitro.adjudicator.parabellum.rules import Rulebook
from arbitro.adjudicator.ruleset import Rule
from arbitro.adjudicator.tables import Modifier
from arbitro.adjudicator.parabellum.world import World
from arbitro.events.parabellum import DieModifier
from arbitro.projections.parabellum import Activation

# A variant's interpretations as the game's rulings set them (name -> the reading in force).
Reading = Callable[[str], str]


class Rolls(Protocol):
    """The game as a hook that rolls asks it: a die recorded with what it decides (`about`: the hexes it concerns,
    for the fog), and the events the roll causes."""

    def roll(self, purpose: str, detail: dict[str, str | int], about: tuple[str | None, ...] = (), *,
             visible_to: tuple[str, ...] | None = None, count: int = 1) -> tuple[int, ...]: ...

    def emit(self, event: Any) -> None: ...


class Variant:
    """Defaults are the neutral reading; every value and hook below is one the two rulebooks can disagree on."""

    # The book cited by the kernel's messages and events ("caldiero", "arrivano"): a citation prefix only.
    book: ClassVar[str]
    # The variant's section for each concept the kernel cites (`variant.rules.RETREAT`): the books number some
    # rules differently (caldiero §4.3 / arrivano §4.4 command range).
    rules: ClassVar[Rulebook]
    # The name of the variant's CRT as its assaults' table reads record it (events.parabellum.CombatTableRead.table).
    crt_name: ClassVar[str]

    # §13.1.1 in both: the natural results of an efficiency test (1 always passes, 6 always fails).
    natural_pass: ClassVar[int] = 1
    natural_fail: ClassVar[int] = 6
    # D18, §11.3.1 in both: units (friend or foe) block a line of sight (caldiero: they do; arrivano: never).
    units_block_sight: ClassVar[bool] = False
    # D15b: a hex holding only artillery may be bombarded (caldiero §11.4: nothing forbids it; arrivano
    # §11.4.3: it may not).
    bombard_artillery_alone: ClassVar[bool] = True
    # §6 (caldiero §6.2, arrivano §6.1): whether the initiative is rolled when one formation is left to activate
    # (the winner's choice is forced then). Neutral reading: rolled, as the books say after every activation.
    roll_for_last_formation: ClassVar[bool] = True
    # D5, caldiero §4.2 / arrivano §4.3: whether a commander in chief changes at most as many orders in the orders
    # sub-phase as his initiative value (arrivano: "Il numero massimo ... è pari al valore di Iniziativa"; caldiero
    # prints no limit: neutral).
    chief_changes_limited: ClassVar[bool] = False
    # D19, §15.2 in both: a routed unit failing its test when an enemy comes adjacent surrenders, for good (arrivano
    # §15.2); caldiero §15.2 eliminates it as any other elimination (§12.8: it may return).
    rout_failure_permanent: ClassVar[bool] = False
    # §15.2 in both: the order the routed stacks next to an arriving enemy test in (its dice are in the record): the
    # grid's direction order (caldiero), or hex order (arrivano). Neutral: direction order.
    rout_tests_in_hex_order: ClassVar[bool] = False
    # D12, §8.2.3 in both: a commander fleeing an enemy unit goes through enemy ZoCs (caldiero: captured only when
    # "completamente circondato da unità nemiche"; arrivano: "da unità nemiche o EZoC", so he may not).
    escape_through_ezoc: ClassVar[bool] = False
    # D6, §5.1.1 in both ("almeno metà delle unità ... devono muovere verso il nemico"): while the Advance obligation
    # binds when fewer than half did: "half", while enough units could still close to make the half (caldiero's
    # reading); "any", while any counted unit could still close (arrivano's).
    advance_binds_while: ClassVar[Literal["half", "any"]] = "half"
    # §9.1 in both: which of several equally cheap paths a move records (its events keep the path): "first" the
    # first found in (cost, hex) order (arrivano), "path" the smallest hex by hex (caldiero, as its games recorded).
    path_tie_break: ClassVar[Literal["first", "path"]] = "first"
    # §15.4 in both: a piece entering the map spends its entry hex's cost. "The entry hex is the move's first hex"
    # (caldiero §15.4 with §9.1.1, §5.1.3: no minimum move after it, and a Defence order's one hex is that hex), or
    # the unit waits on its entry hex and moves from it as from any start (arrivano §15.4: False).
    entry_hex_is_first_step: ClassVar[bool] = False
    # D22, §15.4 in both: whether a reinforcement coming onto the map is in command in that activation whatever the
    # range (arrivano §15.4.1 "I rinforzi entrano sulla mappa in comando": True), or as any unit is (caldiero §15.4.2
    # gives them only an order, their own for the activation: neutral). Read by parabellum/command.in_command.
    reinforcements_in_command: ClassVar[bool] = False
    # D31, §9.1.4 in both: the movement table's class pricing a commander's steps (caldiero: its one, "unit").
    commander_class: ClassVar[str] = "leader"
    # D30, caldiero §9.2.1 / arrivano §9.2 (without the 9.2.1): whether `closed_to` may close any hex at all; False
    # (arrivano), a search asks it of no step (issue 15: a commander's search asked it ~40,000 times a verify).
    closes_hexes: ClassVar[bool] = False

    # D18, caldiero §20.4 (an optional rule of §20) / arrivano §11.3.2 (always): the optional rule that puts the fog of
    # war in force ("Si può esaminare uno stack nemico solo se si ha una LoS", both); None: always in force.
    fog_option: ClassVar[str | None] = None
    # D30, arrivano §16.2 (caldiero has none): the optional rule of independent columns, groups no view serves the
    # enemy (orders.declared_order). None: no such rule.
    column_option: ClassVar[str | None] = None

    # D8, caldiero §5.3.1 / arrivano §5.3: in an activation a unit of the activated formation is out of command as the
    # activation found it (`out_of_command`), not as the position stands (another formation's unit: as it stands, §5.3).
    command_as_activated: ClassVar[bool] = False

    # The kinds of the assault's decisions on the engine's stack, its own frame "assault" among them, and of all the
    # game's decisions (parabellum/assault_frame.AssaultFrames): neutral, only the assault's frame, nothing lifted.
    assault_kinds: ClassVar[Collection[str]] = ("assault",)
    decision_kinds: ClassVar[Collection[str]] = ("assault",)

    def cite(self, section: str) -> str:
        """A citation in this variant's book ("arrivano §12.4.3")."""
        return f"{self.book} §{section}"

    def dice_record(self, state: Any, purpose: str, detail: dict[str, str | int]) -> tuple[str, dict[str, str | int]]:
        """D18, caldiero §20.4 / arrivano §11.3.2: a roll's purpose and detail as its record keeps them (a seat that may
        not examine a stack the roll concerns is served it without them). Neutral reading (arrivano's): as worded."""
        return purpose, detail

    def sightings(self, w: World, event: Any) -> list[Any]:
        """D18, caldiero §20.4 / arrivano §11.3.2: the events recording the enemy units each seat examines now that
        `event` has changed the position (caldiero's sightings block a free undo). Neutral reading (arrivano's): none
        recorded, the view alone tells what a seat examines."""
        return []

    def leader_roll(self, w: World, leader: str, cause: str) -> tuple[str, dict[str, str | int]]:
        """D10, caldiero §4.4.3 / arrivano §4.5.3: how the die of `leader`'s test is worded in its record (purpose,
        detail; `cause`: why he tests). Neutral: the rule, the commander and the cause."""
        return f"{self.rules.LEADER_TEST} {leader} test: {cause}", {}

    def fire_roll(self, w: World, guns: Sequence[str], target: str, column: int, modifiers: Sequence[DieModifier],
                  defensive: bool) -> tuple[str, dict[str, str | int], tuple[str, ...]]:
        """D43, caldiero §11.4.4 / arrivano §11.4.3: how a bombardment's die is worded in its record (purpose, detail)
        and the hexes it concerns. Neutral: the rule, the target, the column and the modifiers' sum; the target's
        and the guns' hexes."""
        rule = self.rules.DEFENSIVE_FIRE if defensive else self.rules.BOMBARD_TABLE
        return (f"{rule} bombardment of {target}", {"column": column, "drm": sum(m.value for m in modifiers)},
                (target, *(w.hex_of(g) or "" for g in guns)))

    def fog_reach(self, w: World) -> int:
        """D18, caldiero §20.4.1 / arrivano §11.3.2: how many hexes a side's line of sight reaches when it examines
        enemy stacks. Neutral: the whole line of sight (arrivano: its weather, §17.2.7, shortens only the guns'
        ranges)."""
        return w.sight_range()

    def initiative_values(self, w: World) -> dict[str, int]:
        """D13, caldiero §6.1 / arrivano §6: each side's value added to its initiative die, in the order the sides roll.
        Neutral reading (arrivano's): its commander in chief's initiative, 0 once he is lost."""
        chiefs = {side: w.commander_in_chief(side) for side in w.scenario.seats}
        return {side: w.counters.leader(c).initiative if w.state.leaders[c].where != "lost" else 0
                for side, c in chiefs.items()}

    def initiative_rolls(self, values: Mapping[str, int]) -> list[tuple[str, dict[str, str | int], tuple[str, ...]]]:
        """D44, caldiero §6.1 / arrivano §6: how the initiative's dice are worded in the record: each roll's purpose,
        detail and the sides its dice are for, one a side. Neutral (arrivano's): one roll a side."""
        return [(f"{self.rules.INITIATIVE} initiative of {side}", {"table": "initiative", "side": side, "chief": value},
                 (side,)) for side, value in values.items()]

    def initiative_tie_winner(self, w: World) -> str | None:
        """D13, caldiero §6 / arrivano §6.1.1: who wins an initiative tie (`w`: its readings, its scenario's data).
        Neutral reading: nobody, roll again."""
        return None

    def retreat_lines(self, ground: retreat.Ground, hexes: int, reading: Reading) -> list[retreat.Line]:
        """D34, caldiero §12.6 / arrivano §12.6: the lines of a retreat of `hexes` hexes, as the variant reads "each
        hex farther from every enemy unit if possible" (with §12.6.1 EZoC, §12.6.2 going on, §12.8.1 leaving the
        map). Neutral reading: hex by hex, each step the best tier of its neighbours (caldiero's); arrivano
        overrides it (whole paths ranked by their end)."""
        return retreat.hex_by_hex(ground, hexes)

    def retreat_parts(self, w: World, moves: Mapping[str, int]) -> list[list[str]]:
        """D45, caldiero §12.6 / arrivano §12.6: the units of `moves` (still to retreat, on the map) one answer names.
        Neutral: each unit alone (caldiero's: one unit's path at a time); arrivano names a part of a stack."""
        return [[u] for u in sorted(moves)]

    def retreat_answer(self, units: Sequence[str], line: retreat.Line) -> dict[str, Any]:
        """D45, caldiero §12.6 / arrivano §12.6, §12.8.1: the answer naming `units` taking `line` (commands.Retreat).
        Neutral: the unit and its path (caldiero's); arrivano names where it ends (`to`, `units`, `off_map`)."""
        return {"type": "retreat", "unit": units[0], "path": list(line.path)}

    def before_combat_leaves_map(self, reading: Reading) -> bool:
        """D41, caldiero §14.1 / arrivano §14.1, §16.3.5 with §12.8.1: whether a retreat before combat may leave the
        map. Neutral reading: never ("Unità obbligate a ritirarsi fuori mappa": this retreat is chosen, not obliged;
        caldiero's retreats never leave its map, its hex by hex lines stay on it)."""
        return False

    def retreats_before_combat(self, w: World, u: str, attacker_side: str) -> bool:
        """D46, caldiero §14.1 / arrivano §14.1: whether the defender's unit `u` (not routed, attacked by infantry
        alone) is asked whether it retreats before combat (parabellum/before_combat.candidates). Neutral: cavalry
        (caldiero "le unità di cavalleria difendenti"); arrivano adds horse artillery and Manoeuvre or Defence."""
        return w.arm(u) == "cavalry"

    def before_combat_barred(self, w: World, u: str) -> str | None:
        """D46, arrivano §14.1: why a unit asked may only stay (a condition its owner's answers read, the attacker may
        not), cited; None: it may go. Neutral: none (caldiero §14.1 sets no other condition)."""
        return None

    def relays_join_by_contiguity(self, reading: Reading) -> bool:
        """D4, caldiero §4.3.2 / arrivano §4.4.2: whether an officer next to a unit in command relays command too
        (caldiero has no officers, D3). Neutral reading: no, only an officer in his general's range relays."""
        return False

    def bonus_reach(self, world: World, h: str) -> tuple[str, ...]:
        """D9, caldiero §13.2 / arrivano §13.2: the hexes a commander adding to the test of a stack at `h` may stand in
        (what its die is about, so that a seat that may not examine them is not told by the values). Neutral: `h`."""
        return (h,)

    def commander_value_bonus(self, world: World, u: str) -> int:
        """D9, caldiero §13.2 / arrivano §13.2: what a commander adds to the unit's efficiency value in a test
        (caldiero: his initiative). Neutral reading: nothing."""
        return 0

    def commander_die_modifier(self, world: World, u: str) -> int:
        """D9, caldiero §13.2 / arrivano §13.2: the modifier a commander gives the die of the unit's test (arrivano:
        -1). Neutral reading: none."""
        return 0

    def in_return_range(self, world: World, leader: str, h: str) -> bool:
        """D35, caldiero §12.8 / arrivano §12.8 ("se si trovava nel raggio di comando"): whether `h`, where a unit was
        eliminated, was within `leader`'s command range, for its return turn. Neutral reading: the range as
        command traces it (caldiero §4.3.3, arrivano §4.4.3: `World.command_reach`); arrivano counts hexes, as its
        recorded games did (issue 19 lists the difference to examine)."""
        return h in world.command_reach(leader)

    def combat_sp(self, w: World, u: str, attacking: bool, defenders: Sequence[str], targets: Sequence[str]) -> int:
        """D27-D28, caldiero §14, §20.2 / arrivano §14.0.1, §14.2, §10.4: the strength points unit `u` counts in an
        assault, attacking or defending (`defenders`: the defending units, artillery left out; `targets`: their
        hexes): cavalry doubled against disordered infantry or when charging, never twice, and what terrain does to
        it. Neutral reading: its strength as printed on the side it shows."""
        return w.strength(u)

    def hex_sp(self, w: World, h: str, total: int) -> int:
        """D17, caldiero §10.2 / arrivano §10: the strength a hex's units in an assault add up to, as the hex's terrain
        leaves it (caldiero's marsh halves it). Neutral reading: the sum itself."""
        return total

    def disordered_defence(self, disordered: Sequence[bool], reading: Reading) -> bool:
        """D36, caldiero §12.5.2 / arrivano §12.5.2 ("la presenza di unità in Disordine in difesa", the same words):
        whether the attacker's +2 applies, from whether each defending unit is disordered or routed. Neutral reading:
        one such unit suffices (caldiero's; arrivano's default, its interpretation `disordered_defender_drm` may ask
        every unit)."""
        return any(disordered)

    def ne_passes(self, stacks: Sequence[Sequence[bool]]) -> bool:
        """D25, caldiero §12.5.4 Ne / arrivano §12.5.4 NE: whether the attacker's test under an Attack order turns
        an Ne into an Ex, from each attacking stack's units' results (one die per stack, §13.1.2 in both). Neutral
        reading: every unit passes ("se passa il test", caldiero); arrivano overrides it (at least one unit)."""
        return all(all(stack) for stack in stacks)

    def road_costs(self, w: World, table: MovementTable) -> MovementTable:
        """D40, caldiero §9.3.1 with its terrain effects table ("Strada minore 1 MP") / arrivano §17.2.8 ("Ogni esagono
        contiguo di strada"): the movement table of the data as the variant's reading (and the scenario's data, caldiero
        §9.3.1's `minor_road_column`) prices its roads. Neutral: as the data give it (the default reading of both
        books)."""
        return table

    def commander_limit(self, w: World, leader: str) -> ChiefLimit | None:
        """D31, caldiero §4.2.2 / arrivano §4.3 (none): where a commander in chief may not move. Neutral: nowhere."""
        return None

    def weather_one_hex(self, w: World) -> Rule | None:
        """D29, arrivano §17.2.7 / caldiero §17.1 (none): the rule keeping every move to one hex now. Neutral: None."""
        return None

    def column_keeps_to_roads(self, reading: Reading) -> bool:
        """D38, caldiero §9.3 / arrivano §9.3, the same body text ("una unità su strada o strada minore può
        dichiarare"): whether a march column moves along roads only. Neutral (caldiero §9.3 "Colonna di Marcia"): a
        road only where the column is declared, its other steps priced as the terrain's; arrivano's title, "Marcia
        in Colonna su strada", is read by its interpretation `column_keeps_to_roads`."""
        return False

    def bombard_six_tests_leaders(self, defensive: bool, reading: Reading) -> bool:
        """D37, caldiero §4.4.1 / arrivano §4.5.1 ("l'attaccante tira un 6"): whether a fire's natural 6 makes the
        enemy commanders in the target hex test, `defensive` fire in the enemy's assault too. Neutral reading: every
        fire's (caldiero's; arrivano's default, its interpretation `leader_loss_bombardment_roller` may count only the
        active side's fire)."""
        return True

    def below_minimum_declarable(self, orders: Sequence[str], reading: Reading) -> bool:
        """D24, caldiero §12.4.2 / arrivano §12.4.2: whether an attack worse than the first column may still be
        declared by attackers with these `orders` (an Attack order forcing it). Neutral reading: never."""
        return False

    def below_minimum_result(self, forced: bool, tested: bool, reading: Reading) -> str | None:
        """D24, caldiero §12.4.2 / arrivano §12.4.2: the result of an attack worse than the first column when it is
        resolved (`forced`: an Attack order made it; `tested`: failed "Attack?" tests took attackers away): a
        result code, "cancelled", or None to roll on the first column. Neutral reading: an automatic Ae."""
        return "Ae"

    def ex_attacker_losses(self, w: World, attackers: Sequence[str], used: int, sp: Mapping[str, int]) -> list[str]:
        """D26, caldiero §12.5.4 Ex / arrivano §12.5.4 EX: the attacking units the Ex loss may fall on, the owner
        choosing when several (`used`: the attackers' efficiency value in this combat; `sp`: each unit's strength
        as the variant counts it). Neutral reading: the most efficient unit, then the strongest."""
        return exchange.best_units(w, attackers, sp)

    def ex_defender_losses(self, w: World, defenders: Sequence[str], lost: int,
                           sp: Mapping[str, int]) -> list[list[str]]:
        """D26, caldiero §12.5.4 Ex / arrivano §12.5.4 EX: the sets of defending units the Ex loss may be, the owner
        choosing when several (`lost`: the strength points the attacker lost). Neutral reading: as the attacker,
        the most efficient unit, then the strongest, whatever the attacker lost."""
        return [[u] for u in exchange.best_units(w, defenders, sp)]

    def ex_strengths(self, w: World, attackers: Sequence[str], defenders: Sequence[str]) -> dict[str, int]:
        """D26, caldiero §12.5.4 Ex ("almeno uguale" in SP) / arrivano §12.5.4 EX ("maggiore Forza di
        combattimento"): the strength of each unit of an Ex that its losses compare. Neutral reading: the printed
        strength."""
        return {u: w.strength(u) for u in (*attackers, *defenders)}

    def closed_to(self, w: World, side: str, h: str) -> tuple[Rule, str] | None:
        """D30, caldiero §9.2.1 / arrivano §9.2 (the same section without the 9.2.1): why the scenario closes hex `h`
        to `side`'s units, moving or retreating (caldiero: the Austrians never enter the 10xx row), with the rule to
        cite. Neutral reading (arrivano has no such hex): None."""
        return None

    def sight_blocking_terrains(self, reading: Reading) -> frozenset[str]:
        """D18, caldiero §11.3.1 / arrivano §10.3 with §11.3.1: the terrains that block a line of sight besides those
        the terrain table marks (`blocks_los`), by a reading (arrivano's wheat, interpretation `wheat_blocks_los`).
        Neutral reading: none."""
        return frozenset()

    def out_of_command(self, w: World, u: str) -> bool:
        """D8, caldiero §5.3 / arrivano §5.3 with §4.4: whether a unit of the activated group is out of command, as its
        book judges it. Neutral reading (caldiero's): as found when the formation was activated, recorded by the
        activation."""
        act = w.state.activation
        return act is not None and u in act.out_of_command

    def return_commanders(self, w: World, u: str) -> list[str | None]:
        """D21, caldiero §12.8 with §15.4.3 / arrivano §12.8.2: the commanders a returning unit is placed with or next
        to (those off the map offer nothing). Neutral reading: its formation's general."""
        return [w.general_of(u)]

    def order_giver(self, w: World, act: Activation) -> tuple[str | None, str | None]:
        """D30, caldiero §5.2.2 / arrivano §5.2.1 with §16.2 (its independent columns): the commander who may try to
        change the activated group's order (None: none on the map) and the order it has. Neutral reading (caldiero's):
        its formation's general on the map, the formation's order."""
        return w.general_on_map(act.formation), w.state.formations[act.formation].order

    def order_change_free(self, w: World, giver: str) -> Rule | None:
        """D11, caldiero §20.1.1 / arrivano §5.2.1 (no such rule): the rule by which `giver`'s try to change his order
        passes without a die, cited by the change; None: he rolls (caldiero §5.2.2). Neutral reading: he always rolls."""
        return None

    def order_try_barred(self, w: World, seat: str) -> tuple[Rule, str] | None:
        """D11, D29, caldiero §17.1.3 / arrivano §4.5.5: why `seat`'s commanders may try no order change now, whatever the
        order, with the rule to cite. Neutral reading: nothing bars it."""
        return None

    def ordered_otherwise(self, w: World, u: str) -> bool:
        """D8, caldiero §5.3 / arrivano §11, §16.2.2, §16.3.4, §17.1.5: whether another rule of the book gives the
        unit its order, so that being out of command does not hold it to Defence. Neutral reading: none does."""
        return False

    def defence_imposed(self, w: World, u: str) -> bool:
        """D8, caldiero §5.3.1 (no such rule: its ice storm, §17.1.3, is the weather box's `formations_defence`) /
        arrivano §16.3.4 (a failed fatigue test): whether a rule of the book holds the unit to Defence whatever order
        it was given (parabellum/orders.order_of). Neutral reading: none does."""
        return False

    def defence_unseen(self, w: World, u: str) -> bool:
        """D8, caldiero §5.3.1 (no such rule) / arrivano §16.3.4 (an F marker: a unit that failed its fatigue test,
        Defence for the turn, and one not yet tested show the same): whether the enemy may not tell if
        `defence_imposed` holds u. Neutral reading: it may always tell."""
        return False

    def column_order(self, w: World, u: str) -> str | None:
        """D30, caldiero §5.3 (no independent columns) / arrivano §16.2: the order a unit of an independent column
        obeys (its column's in its officer's command, else Defence); None: it obeys its formation. Neutral: None."""
        return None

    def commanded_anyway(self, w: World, members: Sequence[str]) -> list[str]:
        """D2, caldiero §3.2 / arrivano §3.2: the formation's `members` in command whatever the range (a
        reinforcement's command is D22's: `reinforcements_in_command`). Neutral reading (caldiero's): none."""
        return []

    def relayed_by(self, w: World, officer: str, members: Sequence[str]) -> list[str]:
        """D3, caldiero §4 (no officers) / arrivano §4.2, §4.6: the `members` an officer who relays command reaches.
        Neutral reading (caldiero's): none."""
        return []

    def test_efficiency_bonus(self, w: World, u: str) -> int:
        """D29, caldiero §17.1 / arrivano §17.2.7: what the weather adds to a unit's efficiency value in a test
        (Campotenese: a bonus to a side's units under Defence). Neutral reading (caldiero's weather adds none):
        nothing."""
        return 0

    def formations_at_rest(self, w: World, units: Sequence[str]) -> list[str]:
        """D39, caldiero §7.1 with §15.4.3 / arrivano §7.1: the formation each of a hex's `units` stacks as while
        they stand at rest (a position's check, not a move's end). Neutral reading (arrivano's units never change
        formation): the one each obeys."""
        return [w.formation_of(u) for u in units]

    def unoccupied_objective_holder(self, reading: Reading) -> str | None:
        """D33, caldiero §18 / arrivano §17.1.8, §17.2.12 (interpretation `vp_control`): who holds an objective hex no
        combat unit occupies at the end. Neutral reading (`occupied_at_end`, the default of both): nobody."""
        return None

    def elan_columns(self, game: Rolls, w: World, unit: str, notes: list[str]) -> int | None:
        """D30, caldiero §16.1 / arrivano §12.5.1 (no Elan: the odds move by the terrain alone): the Elan `unit`
        tries before the odds, named at the declaration. Passed: the columns right it gives; failed: None, the unit
        is disordered and no longer attacks (§15.1). Neutral reading (arrivano's declaration names no Elan unit):
        no die, no columns."""
        return 0

    def assault_column_shifts(self, game: Rolls, w: World, attackers: Sequence[str], defender_hexes: Sequence[str],
                              defender_side: str, notes: list[str]) -> tuple[int, int]:
        """D29-D30, caldiero §17.1, §17.2, §20.5 / arrivano §12.5.1: the columns (left, right) an assault's odds move
        besides the defending terrain's. Neutral reading (arrivano §12.5.1: the ratio is modified by the terrain
        alone, D29 "No column shifts in Arrivano"): none."""
        return 0, 0

    def shifts_beyond_last(self, reading: Reading) -> bool:
        """D23, caldiero §12.4.3 / arrivano §12.4.3: whether column shifts add levels above the last column (its
        die modifiers, parabellum/assault.odds). Neutral reading (arrivano's table adds none): they do."""
        return True

    def assault_modifiers(self, w: World, attackers: Sequence[str], targets: Sequence[str], fighting: Sequence[str],
                          shift: int, mods: list[Modifier]) -> tuple[int, list[Modifier]]:
        """D29, caldiero §14.0, the terrain effects table / arrivano §10, §12.5.2: the defending terrain's columns left
        (`shift`) and its die modifiers (`mods`) as the variant counts them, with its own die modifiers of the ground
        between the sides. Neutral reading (arrivano's terrain alone): as the terrain gives them."""
        return shift, mods

    def table_result(self, w: World, targets: Sequence[str], result: str, reading: Reading, notes: list[str]) -> str:
        """D31, caldiero §12.5.4 / arrivano §10.1.1: the table's `result` as the defending hexes turn it (a reason
        added to `notes`). Neutral reading (arrivano's village turns a DR by its defender's choice, later): as read."""
        return result
