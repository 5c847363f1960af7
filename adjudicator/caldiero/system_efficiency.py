"""Efficiency (caldiero §12.3, §13; arrivano §12.3, §13)."""

from __future__ import annotations

from arbitro.adjudicator.caldiero.system_world import World
from arbitro.adjudicator.caldiero.variant import CALDIERO_VARIANT
from arbitro.adjudicator.parabellum import efficiency as shared


def passes(roll: int, value: int) -> bool:
    """An efficiency test: 1 always passes, 6 always fails (caldiero §13.1.1), else roll <= value (§13.1).
    The shared system's test (adjudicator/parabellum/efficiency.py) with Caldiero's variant."""
    return shared.passes(CALDIERO_VARIANT, roll, value)


def general_bonus(world: World, u: str) -> int:
    """What the unit's own general adds to its efficiency: his initiative when he is in or adjacent to the unit's
    hex (caldiero §13.2; arrivano's -1 to the die, D9, is its own)."""
    general = world.general_of(u)
    where = world.leader_on_map(general)
    h = world.state.units[u].hex
    if general is None or where is None or h is None:
        return 0
    if where == h or world.board.grid.is_adjacent(where, h):
        return world.leader_data(general).initiative
    return 0


def test_value(world: World, u: str, with_general: bool = True) -> int:
    return world.efficiency(u) + (general_bonus(world, u) if with_general else 0)


def side_efficiency_choices(world: World, units: list[str]) -> list[int]:
    """The efficiency values with the most SP among `units` (caldiero §12.3.1); several on a tie."""
    # caldiero §11.0.1: artillery never counts
    return shared.most_sp_values((world.efficiency(u), world.strength(u)) for u in units if not world.is_artillery(u))


def efficiency_choices_from_sp(sp_by_value: dict[int, int]) -> list[int]:
    """The same rule on plain numbers (for tests and the rulebook's example)."""
    return shared.most_sp_values(sorted(sp_by_value.items()))
