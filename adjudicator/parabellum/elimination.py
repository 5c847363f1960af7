"""Elimination (caldiero §12.8, arrivano §12.8), written once: a unit leaves the map for good or for the turn
track, and the commanders its loss leaves alone test and, surviving, go to the nearest friends (caldiero §4.4.4,
arrivano §4.5.4: the same rule in both books).

What differs is the game's, through its decision context (parabellum/act.Act): how it moves a surviving commander to the nearest friendly unit
(caldiero: at once, the nearest by distance then hex; arrivano: his owner's choice among the nearest, a decision),
and, through the variant, how it measures the command range that decides the return turn (`Variant.in_return_range`)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from arbitro.adjudicator.parabellum import reinforcements
from arbitro.adjudicator.parabellum.act import Act
from arbitro.adjudicator.parabellum.leaders import leader_test
from arbitro.adjudicator.parabellum.variant import Variant
from arbitro.events.parabellum import UnitEliminated


def cause_of(rule: object, because: object = None, result: str = "") -> str:
    """The citations of what eliminated a unit, the forcing rule first: `because` (the rule that forced the
    retreat it could not make: a result, a bombardment, a rout) then `rule` with the combat `result` that applied it,
    in words after the section ("caldiero §12.5.4 (Ex result)", the result as AssaultResolved names it)."""
    return "; ".join(str(c) for c in (because, f"{rule} ({result} result)" if result else rule) if c)


def eliminate(game: Act, variant: Variant, u: str, rule: object, permanent: bool = False,
              because: object = None, result: str = "") -> None:
    """§12.8 in both: `u`, on the map, is eliminated. For good when `permanent` (a rule says so: §12.6.3, §12.8.1,
    §15.2.1), when it shows its reduced side or has none; otherwise flipped and on the turn track until the turn
    `reinforcements.return_turn` gives, by the command range as the variant measures it (`in_return_range`). The
    event's `cause` names what eliminated it (`cause_of`); its `rule` is the rule applied, or, where §12.8 decides
    the outcome, the cause then §12.8. Then the commanders it leaves alone test (`leaders_left_alone`)."""
    w = game.world()
    h = w.hex_of(u)
    if h is None:
        return
    unit = w.state.units[u]
    cause = cause_of(rule, because, result)
    if reinforcements.eliminated_for_good(permanent, unit.reduced, w.counters.unit(u).reduced is not None):
        game.emit(UnitEliminated(unit=u, permanent=True, return_turn=0, rule=str(rule), cause=cause))
    else:
        back = reinforcements.return_turn(w, u, w.state.turn, lambda leader, hx: variant.in_return_range(w, leader, hx))
        game.emit(UnitEliminated(unit=u, permanent=False, return_turn=back, rule=f"{cause}; {variant.rules.ELIMINATED}",
                                 cause=cause))
    leaders_left_alone(game, variant, h, unit.side)


def leaders_left_alone(game: Act, variant: Variant, h: str, side: str) -> None:
    """caldiero §4.4.4, arrivano §4.5.4: when `h` holds no unit of `side` any more (eliminated, or gone off the map),
    each of its commanders there tests (the variant's loss faces, D10; a loss cites the test as the book's data gives
    it, tables/rules.json `leader_loss.rule`); one who survives goes to the nearest friendly unit
    (`Act.to_nearest_friends`)."""
    w = game.world()
    if w.side_units_at(h, side):
        return
    for leader in w.leaders_at(h, side):
        if leader_test(game, game.world(), leader, f"{variant.rules.LEADER_ALONE} units in {h} eliminated"):
            game.to_nearest_friends(leader, h)


def eliminated_with_guns(game: Act, variant: Variant, units: Sequence[str], rule: object,
                         result: str = "") -> None:
    """§12.5.4 Ae and Ex in both: the assault's result (`rule`, with the `result` `cause_of` names) eliminates
    `units`, in the order given, then the guns they leave alone in their hexes (`guns_left_behind`, §11.1)."""
    w = game.world()
    hexes = [h for u in units if (h := w.hex_of(u)) is not None]
    for u in units:
        eliminate(game, variant, u, rule, result=result)
    guns_left_behind(game, variant, hexes)


def guns_left_behind(game: Act, variant: Variant, hexes: Iterable[str]) -> None:
    """§11.1 in both ("L'artiglieria in stacking con unità da combattimento che siano eliminate ... è eliminata"): in
    each of `hexes`, where an assault's result eliminated combat units, in hex order, artillery that no combat unit
    is left with is eliminated too, citing the rule (`rules.ARTILLERY_STACKED`). A gun still stacked with a unit that
    survived stays (arrivano's interpretation `artillery_stacked_eliminated: none_left`; caldiero's §7.1 stacks a gun
    with one unit only, so the reading decides nothing there)."""
    for h in sorted(set(hexes)):
        w = game.world()
        here = w.units_at(h)
        if here and all(w.is_artillery(u) for u in here):
            for gun in here:
                eliminate(game, variant, gun, variant.rules.ARTILLERY_STACKED)
