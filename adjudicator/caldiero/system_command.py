"""Command (caldiero §4.3.1, §17.1.3): whether a hex is in the commander in chief's range. Who is in command is
the kernel's `parabellum.command.in_command`, the range traced by `World.command_reach` (caldiero §4.3.3)."""

from __future__ import annotations

from arbitro.adjudicator.parabellum.world import World


def in_cinc_range(world: World, side: str, h: str) -> bool:
    cinc = world.commander_in_chief(side)
    return world.leader_on_map(cinc) is not None and h in world.command_reach(cinc)
