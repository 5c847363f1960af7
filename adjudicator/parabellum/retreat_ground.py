"""The position a retreat reads (caldiero §12.6-§12.6.2, §8.1.1; arrivano §12.6-§12.6.2, §8.1.1), built once for both
games from the kernel's World and handed to the variant's reading of §12.6 (`Variant.retreat_lines`, D34;
parabellum/retreat.py); and the one reading of a retreat before combat (caldiero §14.1; arrivano §14.1, §16.3.5).
Its own module because the stacking rule it asks (parabellum/stacking.py) reads the variant, whose reading of §12.6
is retreat.py's; and a line the owner chose carried out (`take`) with the rout tests its end makes (`arrived`), the
same for both games' retreat frames (events/parabellum.RetreatAwaited)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from arbitro.adjudicator.parabellum import rout, sight
from arbitro.adjudicator.parabellum.act import Act
from arbitro.adjudicator.parabellum.elimination import eliminate, leaders_left_alone
from arbitro.adjudicator.parabellum.retreat import Ground, Line
from arbitro.adjudicator.parabellum.rules import Rulebook
from arbitro.adjudicator.parabellum.stacking import fits
from arbitro.adjudicator.parabellum.variant import Variant
from arbitro.adjudicator.parabellum.world import World
from arbitro.adjudicator.parabellum.zoc import enemy_zoc
from arbitro.events.parabellum import LeaderMoved, UnitRetreated


def ground(world: World, units: Sequence[str], start: str, *, ignore_ezoc: bool, may_leave: bool = True) -> Ground:
    """What a retreat of `units`, stacked together in `start`, reads: the hexes the enemy holds (§12.6 "più
    lontano"), the enemy ZoC unless ignored (§8.1.1 in both: "Le unità in Rotta ignorano le EZoC"), never into enemy
    units nor a hex the scenario closes to the side (`World.closed_to`: caldiero §9.2.1), never across a hexside the
    terrain table bars (`World.crossing_prohibited`), ending only where the stack fits (§7.1, §12.6.2). `may_leave`:
    whether it may leave the map (§12.8.1; a retreat by the owner's choice may not)."""
    side = world.side_of(units[0])
    enemy = world.enemy(side)
    return Ground(grid=world.grid, start=start, enemies=tuple(sorted(world.occupied_by(enemy))),
                  ezoc=frozenset() if ignore_ezoc else enemy_zoc(world, side),
                  enterable=lambda h: world.side_at(h) != enemy and world.closed_to(side, h) is None,
                  fits=lambda h: fits(world, h, units), crossable=lambda a, b: not world.crossing_prohibited(a, b),
                  may_leave=may_leave)


def lines(variant: Variant, world: World, units: Sequence[str], hexes: int, *, ignore_ezoc: bool | None = None,
          may_leave: bool = True, stacking: bool = True) -> list[Line]:
    """The permitted lines of retreat of `hexes` hexes for `units` (stacked together), as the variant reads §12.6;
    none for units with no hex. `ignore_ezoc` None: as §8.1.1 says, when the units are routed. Kept in the World: the
    engine's check of a retreat answer lists them, then the answer takes its line from them (issue 15).
    `stacking` False: the lines that start whatever the stacks (§7.1, §12.6.2) - under the fog the enemy may not
    examine the owner's stacks, so whether a retreat is the owner's choice is decided by these."""
    start = world.state.units[units[0]].hex
    if not start:
        return []
    ignore = all(world.status(u) == "routed" for u in units) if ignore_ezoc is None else ignore_ezoc

    def listed() -> tuple[Line, ...]:
        g = ground(world, units, start, ignore_ezoc=ignore, may_leave=may_leave)
        return tuple(variant.retreat_lines(g if stacking else replace(g, fits=lambda h: True), hexes, world.reading))
    kind = "retreat lines" if stacking else "retreat lines, stacks aside"
    return list(world.cached((kind, tuple(units), hexes, ignore, may_leave), listed))


BEFORE_COMBAT_LENGTH = "retreat_before_combat_length"  # the same interpretation in both games' interpretations.json


def before_combat_lines(variant: Variant, world: World, units: Sequence[str]) -> list[Line]:
    """Where `units`, stacked together, may retreat before combat (caldiero §14.1, arrivano §14.1, §16.3.5): one hex
    along the lines of any retreat (D34), off the map only as `before_combat_leaves_map` lets them (D41). Reading
    `retreat_before_combat_length` of "possono ritirarsi di un esagono": `one_hex` (default), the owner's choice of
    one hex where the stack may lawfully stand (§7.1), §12.6.2's going on being a forced retreat's ("Una unità
    costretta a ritirarsi"); `goes_on`, past overstacked hexes as any retreat (Arrivano's up to 1.38.0)."""
    g = _before_combat_ground(variant, world, units)
    if g is None:
        return []
    if world.reading(BEFORE_COMBAT_LENGTH) == "goes_on":
        return variant.retreat_lines(g, 1, world.reading)
    # one_hex: a hex where the stack may not stand is no choice, so §12.6's "se possibile" and §12.6.1's "se ogni
    # altra opzione non è possibile" weigh lawful hexes only (full hexes behind, a free flank in EZoC: the flank).
    # Ranked among them, each variant's lines end in the first hex, which fits: none goes on (§12.6.2).
    return variant.retreat_lines(replace(g, enterable=lambda h: g.enterable(h) and g.fits(h)), 1, world.reading)


def before_combat_asked(variant: Variant, world: World, units: Sequence[str]) -> bool:
    """Whether `units` are asked to retreat before combat: where a line exists. Under the fog (D18) whether a hex may
    hold them hangs on their own stacks, unseen by the attacker, who is served whether the question opens: there
    they are asked wherever a line starts, stacking aside (staying their one answer where no hex is lawful)."""
    if not sight.fog_in_force(variant.fog_option, world.option):
        return bool(before_combat_lines(variant, world, units))
    g = _before_combat_ground(variant, world, units)
    return g is not None and bool(variant.retreat_lines(replace(g, fits=lambda h: True), 1, world.reading))


def _before_combat_ground(variant: Variant, world: World, units: Sequence[str]) -> Ground | None:
    """The ground of a retreat before combat of `units` (the enemy ZoC counts: they are not routed); None off the
    map."""
    start = world.state.units[units[0]].hex
    if not start:
        return None
    return ground(world, units, start, ignore_ezoc=False, may_leave=variant.before_combat_leaves_map(world.reading))


ROUT_TRIGGER = "rout_trigger"  # the same interpretation in both games' interpretations.json


def cited(rules: Rulebook, line: Line, rule: str) -> str:
    """What a unit taking `line` cites: `rule` (what made it retreat), and §12.6.2 (`rules`, the variant's) where the
    line went on past an overstacked end."""
    return f"{rule}; {rules.RETREAT_STACKING}" if line.continued else rule


def take(game: Act[Any], variant: Variant, units: Sequence[str], line: Line, rule: object) -> list[str]:
    """§12.6 in both books: `units`, stacked together, take `line` (off the map along it, §12.8.1); each
    records the hexes it entered, in order, the start excluded (`unit_retreated`, citing `rule`, what forced the
    retreat, and §12.6.2 where the line went on: `cited`). The commanders of their side left alone in the start hex go
    with them along the same hexes (caldiero §12.6, arrivano §12.6 with §4.5.4: a commander moves with his stack),
    citing the book's §12.6. A line through an enemy ZoC that counts adds a disorder level (§12.6.1,
    `rout.disorder`) where it ends on the map; off it (arrivano's §12.6.2 going on, or exits) none: the units leave
    play (§12.8.1, arrivano §17.2.1), where a level changes nothing. Returns the units it routed, which retreat two
    hexes at once (§15.2.1) as the caller's frames carry it out."""
    w, rules = game.world(), variant.rules
    start, side = w.hex_of(units[0]), w.side_of(units[0])
    for u in units if line.path else ():
        game.emit(UnitRetreated(unit=u, path=line.path, rule=cited(rules, line, str(rule))))
    if line.off_map:  # eliminated for good unless the game lets it out of play (`Act.exit_play`); the commanders left
        exited = False  # alone test once, here where no elimination emptied the start (§4.5.4 in arrivano)
        for u in units:
            exited = game.exit_play(u, line.to)
            if not exited:
                eliminate(game, variant, u, rules.OFF_MAP, permanent=True, because=rule)
        if (exited or line.path) and start is not None:
            leaders_left_alone(game, variant, start, side)
        return []
    w = game.world()
    if start is not None and not w.side_units_at(start, side):
        for leader in w.leaders_at(start, side):
            game.emit(LeaderMoved(leader=leader, path=line.path, rule=str(rules.RETREAT), own=False))
    return [u for u in units if line.through_ezoc and rout.disorder(game, variant, u, rules.RETREAT_EZOC)]


def arrived(game: Act, variant: Variant, line: Line) -> None:
    """§15.2 in both, "Se un nemico arriva adiacente ad una unità in Rotta", read by `rout_trigger`: `end_of_move`
    (default) a retreat is no arrival, only moves, advances and entries are; an umpire's `any_arrival`: the routed
    enemies next to a retreat's end on the map test too (`rout.checks`)."""
    if not line.off_map and game.world().reading(ROUT_TRIGGER) == "any_arrival":
        rout.checks(game, variant, line.to)
