"""An assault on the table (§12.4-§12.5 in both books), written once: the strengths, the defending terrain, the odds
and their shifts, a result below the first column, the die modifiers, the roll, the record, the commanders the die
makes test. What the books do differently is the variant's (`Variant.elan_columns`, `assault_column_shifts`,
`assault_modifiers`, `shifts_beyond_last`, `below_minimum_result`, `table_result`); what comes before the table
(retreats before combat, defensive fire: each game's stages; the sides' efficiency, assault_stages.efficiency_values)
and how each result is carried out are each game's (caldiero/system_assault.py, arrivano/assault.py)."""

from __future__ import annotations

from collections.abc import Sequence

from arbitro.adjudicator.parabellum import assault, results
from arbitro.adjudicator.parabellum.act import Act
from arbitro.adjudicator.parabellum.orders import declared_order
from arbitro.adjudicator.parabellum.variant import Variant
from arbitro.adjudicator.parabellum.world import World
from arbitro.adjudicator.tables import Modifier, look_up, sum_modifiers
from arbitro.events.parabellum import AssaultResolved, AssaultUnderway, CombatTableRead

def terrain(variant: Variant, w: World, attackers: Sequence[str], targets: Sequence[str], fighting: Sequence[str],
            seat: str | None = None) -> tuple[int, list[Modifier]]:
    """The defending terrain (§10 in both, the terrain effects table): its columns left and die modifiers as the
    variant counts them (`assault_modifiers`: caldiero §14.0's cavalry in a fortress, canals, slopes). A terrain
    whose benefit needs an order (`requires_defence_order`) gives it to a defender whose order the orders table lets
    have it (`terrain_benefits`: arrivano §5.1.3 "Questo Ordine permette di ricevere i bonus ... dati da ridotta o
    villaggio", Defence alone; caldiero §10.1, every order); `seat` declaring judges the order as it may under fog
    (orders.declared_order); None at the resolution."""
    shift, drm, name = assault.terrain_effect(w, targets, fighting,
                                              lambda u: w.order_rules(declared_order(w, seat, u)).terrain_benefits)
    mods = [Modifier(f"terrain {name} (terrain effects table)", drm)] if drm else []
    return variant.assault_modifiers(w, attackers, targets, fighting, shift, mods)


def fight(a: Act, variant: Variant, c: AssaultUnderway, defenders: Sequence[str], forced: bool,
          efficiency: tuple[int, int], right: int = 0, notes: Sequence[str] = ()) -> str:
    """The table's result of the assault `c` (its `attackers` and `targets`) against `defenders` (artillery left
    out, §11.0 in both), recorded (AssaultResolved) with the commanders its die tested (results.commanders_tested),
    for the game to carry out: the strengths (§12.4), the terrain's and the variant's columns (`right` those gained
    before, with their `notes`: caldiero's Elan), the odds; worse than the first column the variant's result
    (`forced`: an Attack order made the assault; D24), "cancelled" among them; otherwise the die with §12.5.2's
    modifiers, the terrain's and the variant's, among them the sides' `efficiency` values (attacker's, defender's;
    §12.3.2, established before any die: assault_stages.efficiency_values), and the odds above the last column
    (§12.4.3)."""
    w = a.world()
    notes = list(notes)
    attack, defence = assault.strengths(variant, w, c.attackers, defenders, c.targets)
    left, mods = terrain(variant, w, c.attackers, c.targets, defenders)
    if left:
        notes.append(f"terrain {left}L")
    more_left, more_right = variant.assault_column_shifts(a, w, c.attackers, c.targets, w.side_of(defenders[0]), notes)
    left, right = left + more_left, right + more_right
    crt = a.crt
    col = assault.odds(crt, attack, defence, right - left, variant.shifts_beyond_last(a.reading))
    automatic = variant.below_minimum_result(forced, bool(c.tested), a.reading) if col.below_minimum else None
    table: CombatTableRead | None = None
    rule = variant.rules.RESULTS if automatic is None else variant.rules.BELOW_1_5
    if automatic is not None:
        result, die = automatic, 0
        notes.append(f"worse than {crt.columns[0]}: automatic {automatic}")
    else:
        mods = [*assault.side_modifiers(variant, w, c.attackers, defenders, efficiency, c.use_general, a.reading),
                *mods]
        if col.excess_drm:
            mods.append(Modifier(f"above {crt.columns[-1]} ({variant.rules.ABOVE_6_1})", col.excess_drm))
        (die,) = a.roll(f"{variant.rules.RESULTS} assault on {', '.join(c.targets)}", {
            "column": col.column.label, "odds": f"{attack}:{defence}", "shifts": f"{left}L {right}R",
            "modifiers": "; ".join(f"{m.reason} {m.value:+d}" for m in mods) or "none",
            "drm": sum_modifiers(mods, crt.modifier_cap)[0]}, about=(*c.targets, *(w.hex_of(u) for u in c.attackers)))
        look = look_up(crt, col.column, die, mods)  # the modifiers capped at the table's cap (§12.5.2: its `drm_cap`)
        table, result = assault.table_read(look), variant.table_result(w, c.targets, look.result, a.reading, notes)
    a.emit(AssaultResolved(
        result=result, rule=str(rule), attackers=c.attackers, defenders=tuple(defenders),
        targets=c.targets, attack_strength=attack, defence_strength=defence,
        odds=assault.odds_label(crt, attack, defence), shifts=right - left, attacker_efficiency=efficiency[0],
        defender_efficiency=efficiency[1], table=table, automatic="" if automatic is None else str(rule),
        below_minimum=col.below_minimum, notes=tuple(notes)))
    w = a.world()  # the position the die's tests read, after its roll and record
    general = assault.general_with(w, c.attackers) if c.use_general else None
    results.commanders_tested(a, variant, w, die, w.side_of(defenders[0]), c.targets, general)
    return result
