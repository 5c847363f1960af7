"""The advance after combat (caldiero §12.7, arrivano §12.7), written once: who may go into a hex the combat left
empty, and in which groups.

§12.7.2 in both: one unit advances. §12.7.3 in both: "Tutte le unità presenti in un esagono possono avanzare se sono
in stacking con un Generale e anche il Generale avanza con loro": with its general in the stack, the units of a hex
*may* advance together, and the owner chooses which (issue 19 defect 3: any of them, not the whole stack or one).
Which hexes are vacated, who is eligible (good order, not artillery, adjacent: §12.7.1 in both), the answers a game's
advance decision lists and the advance carried out are written here once; each game opens the decision and says
what an arrival causes.

The charge's end comes after its advance, in both (`charge_ended`): arrivano §14.2.2 "Tutte le cavallerie in buon
ordine alla fine della Carica vanno automaticamente in Disordine", caldiero §20.2.3 "Tutte le cavallerie in carica alla
fine della Carica diventano automaticamente in Disordine se in piena efficienza" say one thing; the charge is "entrano
nell'esagono e attaccano" (arrivano §14.2, caldiero §20.2), and its assault ends once the advance, which §12.7 makes
part of it ("prima di risolvere gli altri combattimenti"), is chosen. Interpretation `charge_disorder` (both games):
`after_advance`, or `before_advance` (the charge ends with the result: chargers never advance, §12.7.1)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import combinations
from typing import Any

from arbitro.adjudicator.parabellum import elimination, stacking
from arbitro.adjudicator.parabellum.act import Act
from arbitro.adjudicator.parabellum.assault import END
from arbitro.adjudicator.parabellum.variant import Variant
from arbitro.adjudicator.parabellum.world import World
from arbitro.adjudicator.ruleset import Rule
from arbitro.events import core
from arbitro.events.parabellum import (AdvanceAwaited, AssaultUnderway, ChargeEnded, CombatEnded, StatusChanged,
                                       UnitsAdvanced)

ADVANCE = "advance"  # the frame's kind in both games (AdvanceAwaited)


def groups(eligible: Sequence[str], hex_of: Callable[[str], str], with_general: Callable[[str], bool],
           fits: Callable[[tuple[str, ...]], bool] = lambda units: True) -> list[tuple[str, ...]]:
    """The groups that may advance, in the order `eligible` lists the units: each unit alone (§12.7.2), then, after
    the first unit of a hex whose general stands with it (`with_general`), every choice of two or more of that
    hex's eligible units, larger groups first (§12.7.3; the general goes with them); `fits`: the group may end in
    the hex (stacking, §7.1 in both)."""
    out: list[tuple[str, ...]] = []
    for u in eligible:
        if fits((u,)):
            out.append((u,))
        stack = [x for x in eligible if hex_of(x) == hex_of(u)]
        if len(stack) > 1 and u == stack[0] and with_general(u):
            out += [g for k in range(len(stack), 1, -1) for g in combinations(stack, k) if fits(g)]
    return out


def vacated(w: World, hexes: Sequence[str], defender_side: str) -> list[str]:
    """The attacked `hexes` the combat emptied (§12.7 in both): none of the defender's units left but guns, which an
    advance overruns (caldiero §11.1.1 "Artiglierie da sole sono eliminate ... se almeno una unità attaccante avanza
    nel loro esagono"; arrivano §11.1.1 takes them before, an automatic DE)."""
    return [h for h in hexes if all(w.is_artillery(u) for u in w.side_units_at(h, defender_side))]


def companions(w: World, u: str) -> tuple[str, ...]:
    """§12.7.3 in both ("se sono in stacking con un Generale" / "con un Comandante", "e anche il Generale avanza con
    loro"): the commanders of the formation `u` obeys in its hex, who go with several of its stack advancing."""
    formation = w.formation_of(u)
    return tuple(c for c in w.leaders_at(w.hex_of(u) or "", w.side_of(u)) if w.state.leaders[c].formation == formation)


def answers(w: World, attackers: Sequence[str], hexes: Sequence[str], defender_side: str) -> list[dict[str, Any]]:
    """The advances the attacker may choose (§12.7.1-§12.7.3 in both), `{"type": "advance", "units", "to"}`: into
    each hex the combat vacated (`vacated`; arrivano §12.7.2: of two, "in uno dei due esagoni a sua scelta"), one of
    `attackers` in good order, not artillery (§12.7.1), next to it, or any of a stack with its commander
    (`groups`, `companions`), where they may stack (§7.1). Each answer names its units in the order the command
    model stores a set (commands.as_set: sorted), so an answer sent in any order is the one listed. Declining is the
    game's (an obligation may forbid it)."""
    eligible = [u for u in attackers if w.on_map(u) and w.status(u) == "good" and not w.is_artillery(u)]
    out: list[dict[str, Any]] = []
    for h in vacated(w, hexes, defender_side):
        near = [u for u in eligible if w.grid.is_adjacent(w.hex_of(u) or "", h)]
        friends = [u for u in w.units_at(h) if w.side_of(u) != defender_side]  # the attacker's, if any
        out += [{"type": "advance", "units": sorted(grp), "to": h} for grp in groups(
            near, lambda u: w.hex_of(u) or "", lambda u: bool(companions(w, u)),
            lambda grp: stacking.broken_rule(w, [*friends, *grp]) is None)]
    return out


def possible(w: World, side: str, must: bool = False) -> list[dict[str, Any]]:
    """The advances `side` may choose after the assault in progress (`World.assault`, its frame below the advance):
    `answers` into the hexes it attacked and, unless the advance into them is obligatory (`must`, arrivano §11.1.1),
    those its defenders left before combat (`left`, arrivano §14.1, §16.3.5: one advance into either, §12.7.2), its
    attackers taken in sorted order, so the listing does not depend on the order they were declared in."""
    c = w.assault()  # a hex both attacked and left (caldiero keeps its targets) offered once
    return answers(w, sorted(c.attackers), list(dict.fromkeys([*c.targets, *(() if must else c.left)])), w.enemy(side))


def stage(a: Act, c: AssaultUnderway) -> None:
    """The assault's stage ADVANCE in both games (§12.7: "Se un esagono è reso vacante a causa di un
    combattimento"): once every decision its result asked is answered, the advance `offered`; the assault ends next
    (`ended`). Under the reading `charge_disorder` `before_advance` the charge ends first (`charge_ended`)."""
    if a.reading("charge_disorder") == "before_advance":
        charge_ended(a, chargers(a.world(), c.attackers))
    a.assault_frames().revise(stage=END)
    offered(a, c.attacker_side, a.variant.rules.ADVANCE_AFTER)


def chargers(w: World, attackers: Sequence[str]) -> list[str]:
    """The assault's `attackers` whose charge it ends (arrivano §14.2, caldiero §20.2): on the map, with a Charge
    marker."""
    return [u for u in attackers if w.on_map(u) and w.charging(u)]


def charge_ended(a: Act, units: Sequence[str]) -> None:
    """arrivano §14.2.2, caldiero §20.2.3 (one rule, module docstring): each of the chargers `units` has its Charge
    marker taken off (ChargeEnded) and, still in good order ("in buon ordine", "in piena efficienza"), is
    disordered, once what the result asked is done (its tests too: a failed Ne or EX test is the disorder, §12.5.4,
    not a second one that routs, §15.1.1)."""
    for u in units:
        a.emit(ChargeEnded(unit=u, rule=str(a.variant.rules.CHARGE_DISORDER)))
        if a.world().status(u) == "good":
            a.emit(StatusChanged(unit=u, status="disordered", rule=str(a.variant.rules.CHARGE_DISORDER)))


def ended(a: Act, c: AssaultUnderway) -> None:
    """The assault's stage END, one for both games (§12.1 in both: the assault's steps end with its result carried
    out): the charge ended (`charge_ended`: its marker off and its disorder, after the advance and what the advance
    caused), the assault's end recorded (CombatEnded), the frame closed."""
    charge_ended(a, chargers(a.world(), c.attackers))
    a.emit(CombatEnded(rule=str(a.variant.rules.COMBAT_PROCEDURE)))
    a.assault_frames().end()


def offered(a: Act, side: str, rule: Rule, must: bool = False) -> None:
    """§12.7 in both: the attacker `side` is asked to advance (`must`: shall, arrivano §11.1.1) into the hexes the
    assault vacated, if any attacker `possible` may, above the assault's frame (one prompt for both games)."""
    if possible(a.world(), side, must):
        a.assault_frames().push(ADVANCE, (side,), str(rule), f"advance into a hex the assault vacated"
                                f"{'' if must else ', or decline'} ({rule})", AdvanceAwaited(must=must))


def listed(w: World, frame: core.Frame[AdvanceAwaited]) -> list[dict[str, Any]]:
    """A pending advance's answers in both games (the kernel's parabellum/steps.Listing): the advances `possible`,
    and declining, unless the advance is obligatory (`must`: arrivano §11.1.1, after artillery alone)."""
    return possible(w, frame.seats[0], frame.ctx.must) + ([] if frame.ctx.must else [{"type": "decline"}])


# An advance decision's answer types, a decline even where an obligation leaves it unlisted (decisions.Step.takes).
ANSWERS = frozenset({"advance", "decline"})


def refusal(w: World, frame: core.Frame[AdvanceAwaited], answer: dict[str, Any],
            options: Sequence[dict[str, Any]]) -> tuple[Rule, str]:
    """Why the seat whose advance is awaited is refused one not among `options` (`listed`), the same in both games
    (the kernel's parabellum/steps.Refuser): an IllegalCommand citing §12.7 with what is permitted (not
    NotYourDecision: the decision is the seat's, its answer is wrong); a decline where the advance is obligatory
    (arrivano §11.1.1 "è obbligatorio avanzare", the only unlisted decline) cites §11.1.1."""
    rules = w.variant.rules
    may = "; ".join(f"{', '.join(o['units'])} into {o['to']}" for o in options if o["type"] == "advance")
    if answer["type"] == "decline":
        return rules.ARTILLERY_ALONE, (f"no decline: the advance is obligatory after artillery alone "
                                       f"({rules.ARTILLERY_ALONE}); permitted: {may or 'none'}")
    return rules.ADVANCE_AFTER, (f"not a permitted advance: one good-order attacker next to a hex the combat "
                                 f"vacated, or several of a stack with their commander ({rules.ADVANCE_GENERAL}); "
                                 f"permitted: {may or 'none'}")


def advanced(game: Act, variant: Variant, units: Sequence[str], to: str) -> None:
    """§12.7 in both: `units` (one of `answers`) enter `to`, the enemy guns there overrun first, for good (caldiero
    §11.1.1), their commanders going with several (§12.7.3, `companions`): one `units_advanced`, which marks the
    commanders moved as any move does. What an arrival then causes (rout tests, a commander's escape) is the game's."""
    w = game.world()
    leaders = companions(w, units[0]) if len(units) > 1 else ()
    for gun in [u for u in w.units_at(to) if w.side_of(u) != w.side_of(units[0])]:
        elimination.eliminate(game, variant, gun, variant.rules.ARTILLERY_ALONE, permanent=True)
    rule = variant.rules.ADVANCE_GENERAL if leaders else variant.rules.ADVANCE_AFTER
    game.emit(UnitsAdvanced(units=tuple(units), leaders=leaders, to=to, rule=str(rule)))
