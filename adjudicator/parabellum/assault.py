"""The assault table look-up shared by the system (arrivano §12.4-§12.5, caldiero §12.4-§12.5): odds column
in the defender's favour, column shifts, what happens beyond either end (D23 above, D24 below), the generals'
modifier; the table read with them is parabellum/resolution.fight."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol, TypeVar

import msgspec

from arbitro.adjudicator.parabellum import data
from arbitro.adjudicator.parabellum.assault_frame import AssaultFrames
from arbitro.adjudicator.memo import Memo
from arbitro.adjudicator.parabellum.variant import Reading, Variant
from arbitro.adjudicator.parabellum.world import World
from arbitro.adjudicator.tables import (
    ColumnPick,
    CombatTable,
    Modifier,
    TableLookup,
    format_odds,
    odds_column,
    odds_ratio,
)
from arbitro.events.parabellum import AssaultUnderway, CombatTableRead, DieModifier


# The assault's stages (§12.1 in both books: "Sequenza dell'Assalto"), the `stage` of its frame
# (events/parabellum.AssaultUnderway): the retreats before combat (§14.1; arrivano §16.3.5), the defensive fire
# (arrivano §11.4.4, caldiero §11.4.5), the assault going on with the attackers the fire left once the retreats it
# caused are made, and the table (the efficiency values §12.3.1, odds, die and result, §12.4-§12.5); after it, the
# Dr test once the one-hex retreats are made (§12.5.4 Dr in both: "devono ritirarsi di un esagono e fare un test").
# Once every decision the result asked is answered, the advance into a hex it vacated (§12.7 in both, ADVANCE:
# parabellum/advance.offered), then the last stage, END, which ends a charge (caldiero §20.2.3, arrivano §14.2.2:
# parabellum/advance.ended, Caldiero's adding its marker's event) and closes the frame.
DECLARED, DEFENSIVE_FIRE, RESUMED, RESOLVE, DR_TESTS = "declared", "defensive_fire", "resumed", "resolve", "dr_tests"
ADVANCE, END = "advance", "end"
WAITS_ON_TOP = frozenset({RESUMED, DR_TESTS, ADVANCE, END})  # stages that wait for every frame above the assault, not only its own
MAX_STAGES = 64  # a bound no assault reaches (a stage per attacked hex and retreat before combat at most)


class Procedure(Protocol):
    """What runs the assault's stages: parabellum/act.Act (which reads this module's `crt`, so it is named here by
    what the stages use of it)."""

    def world(self) -> World: ...

    def assault_frames(self) -> AssaultFrames: ...


P = TypeVar("P", bound=Procedure)


def run(a: P, stages: Mapping[str, Callable[[P, AssaultUnderway], None]]) -> None:
    """Run the assault's stages while it waits for no decision of its own (AssaultFrames.current); a stage of
    WAITS_ON_TOP also waits below any other decision (AssaultFrames.on_top). `stages`: a game's, by name (those
    above; DR_TESTS, ADVANCE and END are the kernel's results.dr_tests, advance.stage and advance.ended in both), each
    called with `a` and the assault `without_eliminated`, asking a decision (a frame above the assault's), moving the
    assault to its next stage (AssaultFrames.revise) or ending it (END: advance.ended closes the frame)."""
    frames = a.assault_frames()
    for _ in range(MAX_STAGES):
        c = frames.current()
        if c is None or (c.stage in WAITS_ON_TOP and not frames.on_top()):
            return
        stages[c.stage](a, without_eliminated(a.world(), c))
    raise AssertionError(f"the assault's stages do not progress ({MAX_STAGES} run)")


def without_eliminated(w: World, c: AssaultUnderway) -> AssaultUnderway:
    """The assault without the units eliminated since its frame was last revised (an elimination can happen while a
    decision it asked sits above it, where its frame cannot be revised): they no longer take part (§12.5.4, §12.6
    in both)."""
    return msgspec.structs.replace(c, attackers=tuple(u for u in c.attackers if w.on_map(u)),
                                   defenders=tuple(u for u in c.defenders if w.on_map(u)))


# Each CRT (a game's validated data) in the table kit's shape, under the name the variant's table reads record.
_KIT_TABLES = Memo(64)


def crt(variant: Variant, table: data.CombatTable) -> CombatTable:
    """The variant's CRT (§12.5 in both books; its data file, validated) in the shape of the table kit, which picks
    odds columns and reads the rows, built once per table and name (the variant's `crt_name`, which its table
    reads record)."""
    return _KIT_TABLES.get((table,), variant.crt_name, lambda: table.odds_table(variant.crt_name))


@dataclass(frozen=True)
class Odds:
    column: ColumnPick
    below_minimum: bool  # worse than the first column (arrivano §12.4.2, caldiero §12.4.2)
    excess_drm: int  # the table's DRM per level above the last column (D23, §12.4.3 in both: its data file's)


def odds(table: CombatTable, attack: int, defence: int, shift: int = 0,
         shifts_beyond_last: bool = True) -> Odds:
    """The column for the odds shifted by `shift` columns. `shifts_beyond_last` False: column shifts never add
    levels above the last column, only the odds themselves do (caldiero §12.4.3, reading `shift_beyond_6_1`
    "capped"); a shift toward the defender still takes levels away. No attack strength at all is worse than
    any column."""
    if attack <= 0:
        return Odds(ColumnPick(0, table.columns[0], shift, 0, 1), True, 0)
    pick = odds_column(table, attack, max(1, defence), shift)
    excess = pick.beyond_high * table.beyond_high_drm  # D23: caldiero 1 a level, arrivano none (crt.json)
    if not shifts_beyond_last:
        unshifted = pick.index + pick.beyond_high - pick.beyond_low - shift
        excess = min(excess, max(0, unshifted - (len(table.columns) - 1)))
    return Odds(pick, pick.beyond_low > 0, excess)


def declared_odds(table: CombatTable, attack: int, defence: int, terrain_shift: int,
                  reading: Reading) -> Odds:
    """D24, §12.4.2 in both (caldiero "E' proibito dichiarare attacchi con rapporti peggiori di 1-5", arrivano "È
    proibito ...", the same sentence): the odds a declaration is judged by, `terrain_shift` the defending terrain's
    columns left as the resolution would apply them (`terrain_effect`, after each game's own readings of it). The
    words name a "rapporto": interpretation `below_1_5_declared_on` reads it as the strengths' quotient alone
    (`strength_ratio`, caldiero's default), which §12.5.1 in both calls "un rapporto di forza" and both books' §12.1
    step 5 ("Determinare i rapporti di forza ... e gli effetti del terreno") names apart from the terrain; or as the
    column the terrain shifts it to, the one the assault would be read on but for its tests (`after_terrain`,
    arrivano's default), as §12.5.1 in both goes on ("Terreno e Disordine possono modificare il rapporto di forze",
    caldiero adding "Elan e Tempo atmosferico"). It counts the terrain alone, as §12.1 step 5 pairs them: disorder
    and Elan come of tests after the declaration (§12.2.2, caldiero §16.1); caldiero's weather columns (§17.1, known
    at the declaration) and confusion die (§17.2) are left out by choice. The resolution reads the shifted column in
    both: caldiero §12.4.2 "Attacchi che risultano avere rapporti inferiori a 1-5 hanno come risultato
    automatico AE", arrivano §12.4.2 "Nel caso un Ordine di Assalto obblighi una unità in EZoC ad attaccare con un
    rapporto inferiore a 1-5 il risultato sarà automaticamente Ae"."""
    shift = -terrain_shift if reading("below_1_5_declared_on") == "after_terrain" else 0
    return odds(table, attack, defence, shift)


def table_read(look: TableLookup) -> CombatTableRead:
    """A look-up as the assault's event stores it (both §12.5): every step of it, typed."""
    c = look.column
    return CombatTableRead(
        table=look.table, provisional=look.provisional, column=c.label, column_index=c.index, odds=c.odds or "",
        attack=c.attack or 0, defence=c.defence or 0, shift=c.shift, beyond_high=c.beyond_high, beyond_low=c.beyond_low,
        die=look.die, modifiers=tuple(DieModifier(reason=m.reason, value=m.value) for m in look.modifiers),
        modifier_total=look.modifier_total, modifier_uncapped=look.modifier_uncapped, modified_die=look.modified_die,
        row=look.row, result=look.result)


def odds_label(table: CombatTable, attack: int, defence: int) -> str:
    """The odds before any shift as a record names them: "3-1", "1-4", or "below 1-5" when worse than the first
    column (both §12.4.2, §12.5.1)."""
    if odds(table, attack, defence).below_minimum:
        return f"below {table.columns[0]}"
    return format_odds(odds_ratio(attack, defence))


def strengths(variant: Variant, w: World, attackers: Sequence[str], defenders: Sequence[str],
              targets: Sequence[str]) -> tuple[int, int]:
    """The attack and defence strengths of an assault (§12.4 in both): each unit's strength points as the variant
    counts them in this combat (`combat_sp`: cavalry doubled, halved by terrain, D27-D28), summed by hex and each
    hex's sum as its terrain leaves it (`hex_sp`, D17); artillery never counts (caldiero §11.0.1, arrivano
    §11.0.2). `targets`: the defending hexes."""
    fighting = [u for u in defenders if not w.is_artillery(u)]

    def total(units: Sequence[str], attacking: bool) -> int:
        by_hex: dict[str, int] = {}
        for u in units:
            h = w.hex_of(u) or ""
            by_hex[h] = by_hex.get(h, 0) + variant.combat_sp(w, u, attacking, fighting, targets)
        return sum(variant.hex_sp(w, h, value) for h, value in by_hex.items())

    return total(attackers, True), total(fighting, False)


def terrain_effect(w: World, targets: Sequence[str], defenders: Sequence[str],
                   takes_defence_benefit: Callable[[str], bool]) -> tuple[int, int, str]:
    """The defending terrain's column shift left, its die modifier and its name (§10 in both, each game's terrain
    effects table): in each defending hex the terrain best for the defender (arrivano §10: the non-active player
    picks among a hex's terrains; a caldiero hex has one), a benefit that needs a Defence order only with a
    defender there whose order takes it (`takes_defence_benefit`: the orders table's `terrain_benefits`; arrivano §10.1, §5.1.3, §17.2.6: `requires_defence_order`; no caldiero terrain
    needs one); over several hexes, the best for the defender (a larger shift, then a lower modifier)."""
    best = (0, 0, "")
    for h in targets:
        held = any(takes_defence_benefit(u) for u in defenders if w.hex_of(u) == h)
        for name, t in zip(w.hexmap.hex(h).terrains, w.terrains(h)):
            if t.requires_defence_order and not held:
                continue
            if (t.assault_shift_left, -t.assault_drm) > (best[0], -best[1]):
                best = (t.assault_shift_left, t.assault_drm, name)
    return best


def general_with(w: World, units: Iterable[str]) -> str | None:
    """The general giving a side its +1/-1 (both §12.4.4): the general of a unit's formation stacked with it;
    at most one counts, the first found in the order given."""
    for u in units:
        general = w.general_of(u)
        if general and w.leader_on_map(general) == w.hex_of(u):
            return general
    return None


def general_choices(w: World, attackers: Iterable[str]) -> list[bool]:
    """Whether an attack may use its general's +1, as legal() lists it (§12.4.4 in both books: "Un generale
    (massimo uno) può aggiungere uno"): with it or without where a general of the attackers' formation stands with
    them (using it risks him on a natural 1: caldiero §4.4.2, arrivano §4.5.2), only with it elsewhere (it adds
    nothing)."""
    return [True, False] if general_with(w, attackers) else [True]


def side_modifiers(variant: Variant, w: World, attackers: Sequence[str], defenders: Sequence[str],
                   efficiency: tuple[int, int], attacking_general: bool, reading: Reading) -> list[Modifier]:
    """The die modifiers both books list in §12.5.2, in their order: +2 against a disordered defence (as the variant
    reads "la presenza di unità in Disordine in difesa", `disordered_defence`), the difference of the sides'
    efficiency values (`efficiency`: attacker's, defender's; §12.3.2), +1 for the attacking general when he counts
    (`attacking_general`: caldiero §12.4.4 lets the attacker decline him) and -1 for the defending one (§12.4.4).
    `defenders`: the units the table fights, artillery left out. Each game adds its own after these (terrain,
    canals, slopes, the odds above the last column)."""
    rules = variant.rules
    out: list[Modifier] = []
    if defenders and variant.disordered_defence([w.status(u) != "good" for u in defenders], reading):
        out.append(Modifier(f"disordered defender ({rules.DISORDER})", 2))
    mine, theirs = efficiency
    if mine != theirs:
        out.append(Modifier(f"efficiency {mine} against {theirs} ({rules.EFFICIENCY_DRM})", mine - theirs))
    if attacking_general and general_with(w, attackers):
        out.append(Modifier(f"attacking general ({rules.GENERAL_DRM})", 1))
    if general_with(w, defenders):
        out.append(Modifier(f"defending general ({rules.GENERAL_DRM})", -1))
    return out

