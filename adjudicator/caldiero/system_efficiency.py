"""Efficiency (caldiero §12.3, §13): the kernel's test with Caldiero's variant, the side's value by most SP without
artillery (§11.0.1). The values a test reads, the general's initiative added (§13.2, D9), are the kernel's
`parabellum.efficiency.test_values`."""

from __future__ import annotations

from arbitro.adjudicator.caldiero.system_world import World
from arbitro.adjudicator.caldiero.variant import CALDIERO_VARIANT
from arbitro.adjudicator.parabellum import efficiency as shared


def passes(roll: int, value: int) -> bool:
    """An efficiency test: 1 always passes, 6 always fails (caldiero §13.1.1), else roll <= value (§13.1).
    The shared system's test (adjudicator/parabellum/efficiency.py) with Caldiero's variant."""
    return shared.passes(CALDIERO_VARIANT, roll, value)


def side_efficiency_choices(world: World, units: list[str]) -> list[int]:
    """The efficiency values with the most SP among `units` (caldiero §12.3.1); several on a tie."""
    # caldiero §11.0.1: artillery never counts
    return shared.most_sp_values((world.efficiency(u), world.strength(u)) for u in units if not world.is_artillery(u))


def efficiency_choices_from_sp(sp_by_value: dict[int, int]) -> list[int]:
    """The same rule on plain numbers (for tests and the rulebook's example)."""
    return shared.most_sp_values(sorted(sp_by_value.items()))
