"""rev-l (fifteenth session): a DR's failed test routs "(15.2.1)" whichever way the defender met it. Since 0842d063
a plain DR's failed test cites arrivano §15.2.1 (results.dr_tests); a village's DR met by a failed hold (or a failed
exchange under `choose_then_one_test`) is the same DR test failed (arrivano §10.1.1 with §12.5.4 DR "altrimenti vanno
in Rotta (15.2.1)") but assault.dr_choice still cites §15.1.1 (rout.disorder without `routs`)."""

from __future__ import annotations

import pytest

from arbitro.events import arrivano as ev
from tests.arrivano.test_review_dr import village_dr


@pytest.mark.parametrize("choice", ["hold", "exchange"])
def test_a_village_s_failed_dr_test_routs_citing_15_2_1(choice: str) -> None:
    t, village = village_dr(choice, [6])
    routed = [e for e in t.of(ev.StatusChanged) if e.unit == "ir18-i" and e.status == "routed"]
    assert routed, [(e.unit, e.status, e.rule) for e in t.of(ev.StatusChanged)]
    assert routed[-1].rule == "arrivano §15.2.1"
