"""Command (caldiero §4.3, arrivano §4.4): who is in command. The range is traced by each World (`command_reach`, on
the map kit's `maps.command.command_distances`: what a line may cross differs, caldiero §4.3.3 / arrivano §4.4.3;
caldiero §17.1.3 halves it in the ice storm); units adjacent to an in-command unit of their formation are in
command too, transitively (line of battle, caldiero §4.3.2; contiguity, arrivano §4.4.2). Officers relaying
command (D3, arrivano §4.2, §4.6) are the World's (none in Caldiero); whether they join by contiguity is the
variant's (D4)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from arbitro.adjudicator.maps.hexgrid import Grid
from arbitro.adjudicator.parabellum.variant import Variant
from arbitro.adjudicator.parabellum.world import World
from arbitro.projections.base import UMPIRE


def contiguous(grid: Grid, hex_of: Mapping[str, str], inside: Iterable[str],
               anchors: Iterable[str] = ()) -> set[str]:
    """The units of `hex_of` (a formation's units on the map and their hexes) in command: `inside` (in range) and,
    transitively, every unit in or adjacent to the hex of one in command or of an extra anchor (caldiero §4.3.2,
    arrivano §4.4.2). The closure is the least fixed point, so it does not depend on the order units are met."""
    result = set(inside)
    reached = {hex_of[u] for u in result} | set(anchors)
    frontier = sorted(reached)
    while frontier:
        grown = {n for h in frontier for n in grid.neighbours(h)} | set(frontier)
        added = sorted(u for u, h in hex_of.items() if u not in result and h in grown)
        result.update(added)
        frontier = sorted({hex_of[u] for u in added} - reached)
        reached.update(frontier)
    return result


def in_command(variant: Variant, world: World, formation: str, members: Sequence[str] | None = None) -> frozenset[str]:
    """The units of `formation` in command: of those on the map (`members`: the World's `formation_units` unless
    given; caldiero §15.4.3 counts a joining reserve), those the position puts in command whatever the range (D2:
    arrivano §3.2 first turn), none more without a general on the map (caldiero §4.4.5, arrivano §4.5.5), those in his
    command range (caldiero §4.3, arrivano §4.4) or a relaying officer's (D3: arrivano §4.2, §4.6), and,
    transitively, every unit next to one in command (caldiero §4.3.2, arrivano §4.4.2), through relaying officers,
    who may join by contiguity (D4); and, where the book says reinforcements enter in command (D22, arrivano §15.4.1
    "I rinforzi entrano sulla mappa in comando": the variant's `reinforcements_in_command`), those coming onto the
    map in this activation (the World's `entering`), waiting at their entry or just entered, whatever the range
    (caldiero §15.4.2 says only their order: none)."""
    units = list(members) if members is not None else world.formation_units(formation)
    fresh = world.entering(formation) if variant.reinforcements_in_command else []
    # an entered one on the map extends command to its neighbours (§4.4.2); one still waiting stands on no hex of it
    return frozenset(_commanded(variant, world, formation, units, [u for u in fresh if u in units]) | set(fresh))


def _commanded(variant: Variant, world: World, formation: str, units: Sequence[str], fresh: Sequence[str]) -> set[str]:
    """`in_command` of the formation's `units` on the map, `fresh` (entered in this activation) among them in command."""
    result = set(world.commanded_anyway(units)) | set(fresh)
    if result >= set(units):
        return result
    general = world.general_on_map(formation)
    if general is None:
        return result
    area = world.command_reach(general)
    hexes = {u: h for u in units if (h := world.hex_of(u)) is not None}
    result |= {u for u, h in hexes.items() if h in area}
    officers = world.relay_officers(formation)
    relays: list[str] = []

    def relay(officer: str) -> None:
        relays.append(officer)
        result.update(world.relayed_by(officer, units))

    for officer in officers:
        if world.leader_hex(officer) in area:
            relay(officer)
    by_contiguity = variant.relays_join_by_contiguity(world.reading)
    grid = world.grid
    while True:
        result = contiguous(grid, hexes, result, [world.leader_hex(o) for o in relays])
        joining = _joining(world, grid, [o for o in officers if o not in relays], hexes, result, relays) \
            if by_contiguity else []
        if not joining:
            return result
        for officer in joining:
            relay(officer)


def _joining(world: World, grid: Grid, idle: list[str], hexes: Mapping[str, str], result: set[str],
             relays: list[str]) -> list[str]:
    """The officers not yet relaying who stand in or next to the hex of a unit in command or of a relaying
    officer (D4, arrivano §4.4.2 with the reading `officer_in_command`: any_in_command)."""
    anchors = sorted({hexes[u] for u in result if u in hexes} | {world.leader_hex(o) for o in relays})
    return [o for o in idle if any(world.leader_hex(o) == a or grid.is_adjacent(world.leader_hex(o), a) for a in anchors)]


def out_of_command_why(variant: Variant, world: World, formation: str) -> str:
    """Why units of `formation` that `in_command` leaves out are out of command, and what it means for them: a
    Defence order (caldiero §5.3, arrivano §5.3). Said in rejections and status rather than left silent (issue 19
    item 16): no general on the map (caldiero §4.4.5, arrivano §4.5.5), or none within his command range, traced
    as the book says, nor a unit in command (or a relaying officer) next to them (caldiero §4.3, arrivano §4.4)."""
    r = variant.rules
    defence = f"so under a Defence order ({r.OUT_OF_COMMAND})"
    general = world.general_on_map(formation)
    if general is None:
        return f"out of command: {formation} has no general on the map ({r.LEADER_LOSS}), {defence}"
    relays = " or of a relaying officer" if world.relay_officers(formation) else ""
    n = world.command_range(general)
    return (f"out of command: not within {n} hex{'es' if n != 1 else ''} of its general {general}{relays} "
            f"nor next to a unit in command ({r.COMMAND_RANGE}), {defence}")


def out_of_command_notices(variant: Variant, world: World, seat: str) -> list[str]:
    """The game's notice of the activation's units under a Defence order only for being out of command (the World's
    `held_to_defence`), served to their own side and the umpire only: where its commanders stand is that side's to
    know (issue 19 item 16)."""
    act = world.state.activation
    if act is None or seat not in (UMPIRE, world.state.formations[act.formation].side):
        return []
    units = [u for u in world.on_map_units() if world.held_to_defence(u)]
    return [out_of_command_note(variant, world, act.formation, units)] if units else []


def out_of_command_note(variant: Variant, world: World, formation: str, units: Sequence[str]) -> str:
    """`units` of `formation` "is/are out of command: ...", for a refusal or the game's status (issue 19 item 16)."""
    return f"{', '.join(units)} {'are' if len(units) > 1 else 'is'} {out_of_command_why(variant, world, formation)}"


def held_note(variant: Variant, world: World, units: Sequence[str]) -> str:
    """A move's refusal's addition naming those of `units` under a Defence order only for being out of command (the
    World's `held_to_defence`): "; <note>", or "" for none (issue 19 item 16)."""
    held = [u for u in units if world.held_to_defence(u)]
    return f"; {out_of_command_note(variant, world, world.formation_of(held[0]), held)}" if held else ""
