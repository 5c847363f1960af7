"""The Para Bellum system's stored events: the facts both games of the system (Caldiero 1796, Arrivano i
Francesi!) record alike, one class per fact. A variant's events/<game>.py holds only what its game adds and
lists these in its union (issue 18). The assault's events (declared, resolved, advanced) are one vocabulary since
Caldiero 0.25.0 and Arrivano 1.27.0 (docs/exchange-format.md lists the renames); the others kept their tags. The
shared part of their fold is projections/parabellum.apply."""

from __future__ import annotations

import msgspec

from arbitro.events.core import Event, FrameContext


class WeatherChanged(Event, tag="weather_changed"):
    """The weather track moved to `box` (caldiero §17: the Command phase roll, the ice storm's aftermath;
    arrivano §17.2.7: Campotenese's end-of-turn roll). What a box does is the variant's (D29)."""

    box: int
    rule: str


class InitiativeWon(Event, tag="initiative_won"):
    """The seat that acts first this turn (caldiero §6, arrivano §6; the first turn's by caldiero §3.2 /
    arrivano §3.2): `totals` each side's roll plus modifiers, empty when no roll was made."""

    seat: str
    totals: dict[str, int]
    rule: str


class OrderChanged(Event, tag="order_changed"):
    """A formation's order marker changes (caldiero §5, arrivano §5): `by` says who changed it (the commander in
    chief's change, §5.2 in both; the general's try, caldiero §5.2.2 / arrivano §5.2.1; caldiero's French set-up,
    §21.2, ice storm, §17.1.3, and Bonaparte, §20.1.1; arrivano's entering formations, §15.4.1, and march orders,
    §17.1.5). `counts_against_chief`: one of the chief's changes his initiative limits (arrivano §4.3; caldiero's
    chief has no such limit: always False). `column`: the order of an independent column instead of the
    formation's (arrivano §16.2; Caldiero has none)."""

    formation: str
    order: str
    by: str
    rule: str
    counts_against_chief: bool = False
    column: str | None = None


class OrderChangeTried(Event, tag="order_change_tried"):
    """The activated general's one try to change his order (caldiero §5.2.2, arrivano §5.2.1): `succeeded` when
    his die passed (or, caldiero §20.1.1, Bonaparte needed none); the change itself is the `OrderChanged` after it."""

    formation: str
    order: str
    succeeded: bool
    rule: str


class LeaderPlaced(Event, tag="leader_placed"):
    """A commander put on the map at `hex` (caldiero §21 set-up; arrivano §15.4 with his reinforcements)."""

    leader: str
    hex: str
    rule: str


class LeaderMoved(Event, tag="leader_moved"):
    """A commander moved along `path` (the hexes entered, in order; the last is where he stands): his own move
    (`own`: caldiero §4.1.4, §4.2.1; arrivano §4.1.4, §4.3.1, §9.1.4), with a retreating stack (§12.6), away from
    enemy units (caldiero §8.2.3, arrivano §4.5.6, §8.2.3) or to friends when left alone (caldiero §4.4.4, arrivano
    §4.5.4). Only his own move counts as his move of the turn (D42)."""

    leader: str
    path: tuple[str, ...]
    rule: str
    own: bool  # no default: each emitter says which (rev-f F4); a forgotten True would free him to move again


class LeaderLost(Event, tag="leader_lost"):
    """A commander captured or killed (caldiero §4.4, §8.2.3; arrivano §4.5.3-§4.5.4, §8.2.3)."""

    leader: str
    rule: str


class UnitPlaced(Event, tag="unit_placed"):
    """A unit put on the map at `hex`: placed at set-up (caldiero §21), or a replacement coming back from the turn
    track (caldiero §12.8; arrivano §12.8.2, within one hex of its general), on its reduced side (`reduced`; an
    eliminated unit is on it already, both §12.8)."""

    unit: str
    hex: str
    rule: str
    reduced: bool = False


class UnitOrderSet(Event, tag="unit_order_set"):
    """The order `unit` acts under instead of its formation's: out of command and given one (caldiero §5.3.1 "per
    questo turno" and §4.3.1 alike: for the rest of the turn, `UnitState.turn_order`; arrivano §4.4 "vedi anche 4.3.2"
    under the reading dangling_4_3_2: for this activation), or arriving (caldiero §15.4.2: for this activation)."""

    unit: str
    order: str
    rule: str


class UnitsMoved(Event, tag="units_moved"):
    """Units moved together along `path`: the hexes entered, in order, the start excluded (as a retreat's and a
    commander's paths), so a unit coming onto the map enters its entry hex first (caldiero §15.4, arrivano §15.4);
    empty when the move was spent where the unit stood (arrivano §5.1.3's failed test). `column`: in march column
    (caldiero §9.3, arrivano §9.3); `cost_half`: Caldiero's record of the movement points it spent, in half
    points (caldiero §9.1); 0 in Arrivano, which does not record it; `charge`: the units took a Charge marker
    ending this move (caldiero §20.2, arrivano §14.2), None when they did not: the hex they will attack (arrivano
    §14.2), "" where the book's marker names none (caldiero §20.2, since Caldiero 0.29.0; its
    `activation_recorded {key: "charging"}` before)."""

    units: tuple[str, ...]
    path: tuple[str, ...]
    rule: str
    column: bool = False
    cost_half: int = 0
    charge: str | None = None


class UnitRetreated(Event, tag="unit_retreated"):
    """A unit retreated along `path` (the hexes entered, in order): after an assault or a bombardment (caldiero
    §12.6, arrivano §12.6), a cavalry retreat (§14.1), a routed unit's move (arrivano §15.2)."""

    unit: str
    path: tuple[str, ...]
    rule: str


class TurnBegan(Event, tag="turn_began"):
    """The turn marker advanced to `turn` (caldiero §3.1 C, arrivano §3.1)."""

    turn: int
    rule: str


class StepBegan(Event, tag="step_began"):
    """The sequence of play moved to `phase` / `step`, awaiting `seat` ("" when no seat is awaited: the
    initiative roll, the end phase) (caldiero §3, arrivano §3.1)."""

    phase: str
    step: str
    seat: str
    rule: str


class StatusChanged(Event, tag="status_changed"):
    """A unit's condition: good, disordered or routed (caldiero §15, arrivano §15); in Arrivano also a redoubt
    battery flipped to its Damaged side (`damaged`, arrivano §17.2.6), which is not a condition."""

    unit: str
    status: str
    rule: str


class ChargeEnded(Event, tag="charge_ended"):
    """A charge's end (caldiero §20.2.3, arrivano §14.2.2 "alla fine della Carica"): the charger's Charge marker taken
    off, before its disorder (both games since the twenty-first session; Caldiero's own event until then, its
    `activation_recorded {key: "uncharge"}` until 0.28.0; Arrivano kept its markers until the activation's end)."""

    unit: str
    rule: str


class CombatEnded(Event, tag="combat_ended"):
    """An assault is over (§12.1 in both: its steps followed in order, the last the table's result carried out): its
    advance made and its charges ended, its frame closed next (parabellum/advance.ended). Caldiero's own event until
    the twenty-second session; Arrivano's assault recorded no end before."""

    rule: str


class UnitEliminated(Event, tag="unit_eliminated"):
    """Eliminated (caldiero §12.8, arrivano §12.8): `permanent`, or flipped to its reduced side and on the turn
    track until `return_turn` (0 when permanent). `cause`: the citations of what forced it, the forcing rule
    first ("arrivano §11.3; arrivano §12.6.3"), when the rule alone does not say it (Arrivano; "" in Caldiero,
    whose `rule` is the cause, and in Arrivano events written before the field existed)."""

    unit: str
    permanent: bool
    return_turn: int
    rule: str
    cause: str = ""


class FormationActivated(Event, tag="formation_activated"):
    """The seat `by` activated `formation` (caldiero §6.2, arrivano §6.1). `column`: an independent
    column's officer when the column is activated on its own (Arrivano's Franceschi, arrivano §17.2.9; Caldiero
    has none). `out_of_command`: its units out of command as it is activated (caldiero §5.3; Arrivano judges
    command unit by unit as they act and records none here); `reserve_joined`: French reserve units joining it
    for this activation (caldiero §15.4.3; Arrivano has no such reserve)."""

    formation: str
    by: str
    rule: str
    column: str | None = None
    out_of_command: tuple[str, ...] = ()
    reserve_joined: tuple[str, ...] = ()

class ActivationEnded(Event, tag="activation_ended"):
    """The activation of `formation` ended (caldiero §3.1 B.6, arrivano §3.1 B-6). `column`: the officer of
    an independent column activated on its own instead (Arrivano's Franceschi, arrivano §17.2.9; Caldiero has
    none: always None)."""

    formation: str
    rule: str
    column: str | None = None


class DieModifier(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """One modifier of a recorded die and why it applies, with its citation where the game gives one."""

    reason: str
    value: int


class CombatTableRead(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The assault's table as it was read (caldiero §12.4-§12.5, arrivano §12.4-§12.5): the `table` and whether it
    is a reconstruction (`provisional`); the column (its `column` label and `column_index`, the `odds` and the
    strengths it was reached from, the net `shift`, the odds levels beyond the last or before the first column,
    D23-D24); the `die`, each modifier, their total within the cap and before it (§12.5.2), the modified die, the
    `row` read and the `result`."""

    table: str
    provisional: bool
    column: str
    column_index: int
    odds: str
    attack: int
    defence: int
    shift: int
    beyond_high: int
    beyond_low: int
    die: int
    modifiers: tuple[DieModifier, ...]
    modifier_total: int
    modifier_uncapped: int
    modified_die: int
    row: int
    result: str


class AssaultDeclared(Event, tag="assault_declared"):
    """An assault declared (caldiero §12.2, arrivano §12.2; a counter-charge, arrivano §14.2.4): the `attackers`,
    the hexes they attack (`targets`) and, where the game names them at the declaration, the `defenders` there
    (Caldiero; Arrivano fights whoever is there when the table is read, §12.1). What the declaration settles beside
    them is Caldiero's (its assault frame carries it on): the Advance-order units that must pass the "Attack?" test
    (`tested`, caldiero §12.2.2), whether the general's +1 is used (`use_general`, §12.5.2), a cavalry charge
    (`charge`, §20.2) and the Elan unit (`elan`, §16); Arrivano keeps the defaults. A side's efficiency value on a
    tie (§12.3.1) is asked at the start of the combat (§12.3), not declared."""

    attackers: tuple[str, ...]
    targets: tuple[str, ...]
    rule: str
    defenders: tuple[str, ...] = ()
    tested: tuple[str, ...] = ()
    elan: str | None = None
    use_general: bool = True
    charge: bool = False


class AssaultResolved(Event, tag="assault_resolved"):
    """An assault's result (caldiero §12.5.4, arrivano §12.5.4; "cancelled": no assault took place, `notes` say
    why): the hexes it fought (`targets`); the strengths and odds before any shift (§12.4, §12.5.1 in both), the net
    column `shifts`, each side's efficiency (§12.3.1); the table as read when a die was rolled (`table`, None for an
    automatic result or an Ne tested; each modifier cites its rule); an automatic result's rule (`automatic`, also
    its `rule`: arrivano §11.1.1 artillery alone, §12.4.2 below 1-5 in both) and whether the odds were worse than
    the first column (`below_minimum`); what the `notes` explain (terrain, weather, Elan, a Dr turned Ex, why an
    assault was cancelled); the units the table fought (`attackers`, `defenders`: both games since the seventeenth
    session, parabellum/resolution.fight; an Ne tested names none)."""

    result: str
    rule: str
    attackers: tuple[str, ...] = ()
    defenders: tuple[str, ...] = ()
    targets: tuple[str, ...] = ()
    attack_strength: int = 0
    defence_strength: int = 0
    odds: str = ""
    shifts: int = 0
    attacker_efficiency: int = 0
    defender_efficiency: int = 0
    table: CombatTableRead | None = None
    automatic: str = ""
    below_minimum: bool = False
    notes: tuple[str, ...] = ()


class UnitsAdvanced(Event, tag="units_advanced"):
    """An advance after combat into hex `to` (caldiero §12.7, arrivano §12.7): one unit, or (caldiero §12.7.3) units
    of one stack with their general (`leaders`)."""

    units: tuple[str, ...]
    leaders: tuple[str, ...]
    to: str
    rule: str


class ArtilleryFired(Event, tag="artillery_fired"):
    """A bombardment resolved (caldiero §11.4, arrivano §11.4), `defensive` fire in an enemy assault (caldiero
    §11.4.5, arrivano §11.4.4): the guns, the target hex, the table's `column` (the combined bombardment value),
    the die, each modifier and their total `drm`, the `row` read (the modified die kept within the table's rows)
    and the result ("-", "D" disorder, "R" disorder and retreat). `provisional`: the table is a reconstruction."""

    artillery: tuple[str, ...]
    target: str
    result: str
    rule: str
    column: int
    roll: int
    drm: int
    row: int
    modifiers: tuple[DieModifier, ...] = ()
    defensive: bool = False
    provisional: bool = False


class GameEnded(Event, tag="game_ended"):
    """The game's result (caldiero §18; arrivano §17.1.8, §17.2.12): the `winner` (None: a draw), why, each side's
    victory points (empty when an automatic victory ended it), the `level` reached ("" where the scenario names
    none), the points between the sides the level was read from (caldiero §18; 0 where the score is one side's),
    and whether an automatic victory decided it (arrivano §17.1.8, §17.2.12)."""

    winner: str | None
    reason: str
    rule: str
    points: dict[str, int] = msgspec.field(default_factory=dict)
    level: str = ""
    difference: int = 0
    automatic: bool = False


class PiecesSighted(Event, tag="pieces_sighted"):
    """Fog of war: enemy pieces `seat` examines for the first time (caldiero §20.4 with its optional rule, its units;
    arrivano §11.3.2, its units and commanders). Served to `seat` only; once seen, a piece is known by name."""

    seat: str
    pieces: tuple[str, ...]
    rule: str


# --- the frames on the engine's decision stack (arbitro §S.3) both games open --------------------------------


class RetreatAwaited(FrameContext, tag="parabellum_retreat"):
    """§12.6 in both books: the units still to retreat, each with the hexes it must go (parabellum/retreat_ground.py);
    whether they ignore enemy ZoC is their status's (§8.1.1: routed units do). Caldiero's frame holds one side's
    units, whose owner names one unit's path at a time; Arrivano's one stack, whose owner names where a part goes."""

    moves: dict[str, int]


class EscapeAwaited(FrameContext, tag="parabellum_escape"):
    """§8.2.3 in both books: the commander an enemy unit reached, who must flee or is lost (`forced`); arrivano §4.5.6:
    one it came next to, who may flee."""

    leader: str
    forced: bool = True



class AssaultUnderway(FrameContext, tag="parabellum_assault", kw_only=True):
    """§12 in both books: one assault from its declaration (§12.2) to its result (§12.5) carried out (its stage
    `end`, once every decision the result asked is answered: each game's advance, §12.7, among them), waiting below the decisions it asks (retreats before combat, §14.1; defensive fire, arrivano §11.4.4
    / caldiero §11.4.5; the efficiency a side picks on a tie, §12.3.1); nobody answers it. `stage` is the next stage
    to run (parabellum/assault.run), `attacker_side` the declaring seat; `attackers` the units still attacking and
    `targets` the attacked hexes (those left by the stages that ran); `defenders` the units fighting there (caldiero:
    those the stages left; arrivano: those the table fought, or a village's turning its DR into an EX); `forced`: an Attack order made it (arrivano §12.4.2); `tested`: the attackers marked
    "Attack?" at the declaration, to test after the defensive fire (§12.2.2, §12.1 step 4 in both), once tested those
    that failed (arrivano §12.4.2: an attack they took below 1-5; parabellum/assault_stages.attack_tests); `cavalry_done` / `light_done`: the hexes whose retreats before combat were offered (arrivano
    §14.1, §16.3.5), `left` the attacked hexes those retreats emptied (arrivano: dropped from `targets`, offered to the
    advance with them, §12.7.2 "in uno dei due esagoni a sua scelta"); `chosen`: the efficiency values picked on a
    tie (§12.3.1, asked at the start of the combat, §12.3), by role (attack, defence); caldiero's `elan` (§16, named
    at the declaration), `use_general` (§12.4.4); a Dr's defenders to test (`dr_units`, both: the stage dr_tests)."""

    stage: str
    attacker_side: str
    attackers: tuple[str, ...]
    targets: tuple[str, ...]
    defenders: tuple[str, ...] = ()
    forced: bool = False
    tested: tuple[str, ...] = ()
    cavalry_done: tuple[str, ...] = ()
    light_done: tuple[str, ...] = ()
    left: tuple[str, ...] = ()
    chosen: dict[str, int] = msgspec.field(default_factory=dict)
    elan: str | None = None
    use_general: bool = True
    dr_units: tuple[str, ...] = ()


# --- the decisions an assault asks that both books share, each one context (the kind is each game's) -------------


class BeforeCombatAwaited(FrameContext, tag="parabellum_before_combat"):
    """§14.1 in both (cavalry), arrivano §16.3.5 (light troops): the defenders who may still retreat before the
    assault waiting below; arrivano asks hex by hex (`hex`), caldiero all its cavalry at once (`hex` empty)."""

    units: tuple[str, ...]
    hex: str = ""


class DefensiveFireAwaited(FrameContext, tag="parabellum_defensive_fire"):
    """arrivano §11.4.4, caldiero §11.4.5: the defenders' guns (`battery`) that may still bombard one of the hexes
    where the attackers of the assault waiting below now stand (parabellum/bombardment.defensive_fire_answers)."""

    battery: tuple[str, ...]


class EfficiencyChoiceAwaited(FrameContext, tag="parabellum_efficiency_value"):
    """§12.3.1 in both: the values tied for most SP on one side (`role`: attack, defence) of the assault waiting
    below; its owner picks one."""

    role: str
    values: tuple[int, ...]


class NeChoiceAwaited(FrameContext, tag="parabellum_ne_choice"):
    """§12.5.4 Ne in both: under an Attack order the attacker may test (Ex if a stack passes, D25, Ad if not) or
    keep the Ne; the units are the assault's, its frame below the choice."""


class AdvanceAwaited(FrameContext, tag="parabellum_advance"):
    """§12.7 in both: one attacker of the assault waiting below may (`must`: shall, arrivano §11.1.1) advance into a
    hex it vacated (parabellum/advance.answers, on the assault's frame: World.assault)."""

    must: bool = False


class ExchangeLossAwaited(FrameContext, tag="parabellum_exchange_loss"):
    """§12.5.4 Ex in both: the side `role` (attackers, defenders) loses one of `sets`, its owner's choice (D26:
    caldiero's attacker one unit, its defender a set covering the SP lost; arrivano's one of the exactly tied units);
    the exchange's units are its assault's (parabellum/results.exchange_losses: the other side's loss is made
    first or after)."""

    role: str
    sets: tuple[tuple[str, ...], ...]


# Fog of war: the fields of the shared events that name pieces (an id, a tuple of ids, or None for none).
PIECE_FIELDS: dict[type, tuple[str, ...]] = {
    LeaderPlaced: ("leader",), LeaderMoved: ("leader",), LeaderLost: ("leader",), UnitRetreated: ("unit",),
    UnitPlaced: ("unit",), UnitOrderSet: ("unit",), UnitsMoved: ("units",),
    StatusChanged: ("unit",), ChargeEnded: ("unit",), UnitEliminated: ("unit",), ArtilleryFired: ("artillery",),
    AssaultDeclared: ("attackers", "defenders", "tested", "elan"), AssaultResolved: ("attackers", "defenders"), UnitsAdvanced: ("units", "leaders"),
}
