"""Command (caldiero §4.3, §5.3; arrivano §4.3): who is in command of his formation's general.

Range is counted in hexes from the general, traced around impassable hexsides and enemy combat units
(§4.3.3; through EZoC and any other terrain). Units adjacent to an in-command unit of the same formation
are in command too (line of battle, §4.3.2), transitively.
"""

from __future__ import annotations

from arbitro.adjudicator.caldiero.system_world import World
from arbitro.adjudicator.maps.command import command_distances
from arbitro.adjudicator.parabellum import command


def command_range(world: World, leader: str) -> int:
    value = world.leader_data(leader).command_range
    if world.state.weather == 3:
        value = (value + 1) // 2  # caldiero §17.1.3 halved, rounded up (§1.4)
    return value


def reach(world: World, leader: str) -> frozenset[str]:
    """Hexes within the leader's command range, traced legally (caldiero §4.3.3): the shared engine's
    `command_distances`, the line never crossing a river hexside nor entering a hex with enemy
    combat units (through EZoC and any other terrain). Kept as long as the World."""
    start = world.leader_on_map(leader)
    if start is None:
        return frozenset()
    key = ("command_reach", leader)
    if key not in world._memo:
        side = world.state.leaders[leader].side
        board = world.board

        def may_cross(h: str, n: str) -> bool:
            return not board.crossing_prohibited(h, n) and not world.enemy_units_at(n, side)

        world._memo[key] = frozenset(command_distances(board.grid, start, command_range(world, leader),
                                                       lambda h: True, may_cross=may_cross))
    return world._memo[key]  # type: ignore[no-any-return]


def in_command(world: World, formation: str, members: list[str]) -> frozenset[str]:
    """Members (unit ids of the formation, on the map) in command (§4.3, §4.3.2)."""
    general = world.state.formations[formation].general if formation in world.state.formations else None
    if general is None or world.leader_on_map(general) is None:
        return frozenset()  # caldiero §4.4.5: a dead general leaves his units out of command
    area = reach(world, general)
    hex_of = {u: h for u in members if world.state.units[u].where == "map" and (h := world.state.units[u].hex) is not None}
    # the line of battle (§4.3.2) is the kernel's contiguity rule
    return frozenset(command.contiguous(world.board.grid, hex_of, [u for u, h in hex_of.items() if h in area]))


def in_cinc_range(world: World, side: str, h: str) -> bool:
    cinc = world.cinc_of(side)
    return world.leader_on_map(cinc) is not None and h in reach(world, cinc)
