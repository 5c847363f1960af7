"""Efficiency (caldiero §13): the kernel's test with Caldiero's variant. The side's value in an assault (§12.3) is the
kernel's `parabellum.efficiency.side_values`; the values a test reads, the general's initiative added (§13.2, D9),
its `test_values`."""

from __future__ import annotations

from arbitro.adjudicator.caldiero.variant import CALDIERO_VARIANT
from arbitro.adjudicator.parabellum import efficiency as shared


def passes(roll: int, value: int) -> bool:
    """An efficiency test: 1 always passes, 6 always fails (caldiero §13.1.1), else roll <= value (§13.1).
    The shared system's test (adjudicator/parabellum/efficiency.py) with Caldiero's variant."""
    return shared.passes(CALDIERO_VARIANT, roll, value)

