"""Every kernel test runs once per variant of the Para Bellum system (issue 18)."""

from __future__ import annotations

import pytest
from arbitro.adjudicator.arrivano.variant import ARRIVANO_VARIANT
from arbitro.adjudicator.caldiero.variant import CALDIERO_VARIANT
from arbitro.adjudicator.parabellum.variant import Variant

VARIANTS: tuple[Variant, ...] = (CALDIERO_VARIANT, ARRIVANO_VARIANT)


@pytest.fixture(params=VARIANTS, ids=lambda v: v.book)
def variant(request: pytest.FixtureRequest) -> Variant:
    return request.param
